"""``tools/`` one way: the import graph of tools' own modules, read from their sources (``ast``; nothing is imported).

- **No cycle.** Among tools' modules (``course_cli.*`` and the scripts of ``tools/``), no module depends on itself
  through others, where depending is importing, or running a script of ``tools/`` (a constant ``"book.py"``, as in
  ``TOOLS / "book.py"``): a script that the command line runs as a step imports nothing that runs it.
- **Layers.** ``course_cli`` imports nothing of ``tools/`` outside itself, and of itself only modules of a lower
  layer of ``course_cli.LAYERS`` (tools/course_cli/__init__.py, read here as a literal); every module of the
  package is in exactly one layer, and the diagram in the package's text draws the same layers.
- **The command line runs once.** No module of ``course_cli`` names ``course.py``, nor runs ``./course``: the
  entry point alone re-executes itself (in the course's Python environment), with its own path.
"""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
PACKAGE = "course_cli"
SKIPPED = {"tests", "node_modules", "__pycache__"}
# A constant that names a script of tools/ (what a command line runs): "book.py", "tools/run_notebook.py".
SCRIPT = re.compile(r"(?:.*/)?(\w+)\.py")
# The calls that run a program.
RUNS = {"run", "Popen", "call", "check_call", "check_output", "execv", "execve", "execvp", "execvpe", "execl",
        "execle", "execlp", "spawnv", "spawnve", "system"}


def modules() -> dict[str, Path]:
    """Every module of tools/, by its dotted name relative to tools/ (``course_cli.build``, ``book``,
    ``hub.class_view``; a package by its own name), tests and build outputs left out."""
    out = {}
    for folder, dirs, files in os.walk(TOOLS):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                parts = list((Path(folder) / f).relative_to(TOOLS).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                out[".".join(parts)] = Path(folder) / f
    return out


MODULES = modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}


def where(name: str, node: ast.AST) -> str:
    return f"{MODULES[name].relative_to(TOOLS.parent)}:{getattr(node, 'lineno', '?')}"


def _resolve(dotted: str) -> str | None:
    """The module of tools/ that ``dotted`` (a module, or a name in one) is, or is in; None if none is."""
    parts = dotted.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


def imports(name: str) -> list[tuple[str, ast.AST]]:
    """The modules of tools/ that module ``name`` imports (at its top or in a function), each with its statement.
    The package ``course_cli`` itself (its ``__init__``, which imports nothing) is left out: it is no layer."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    # A script in a folder of tools/ that is no package (hub/) imports the scripts beside it by their own names.
    beside = package if package and not (path.parent / "__init__.py").exists() else ""

    def absolute(dotted: str) -> str | None:
        return _resolve(dotted) or (_resolve(f"{beside}.{dotted}") if beside else None)

    out = []
    for node in ast.walk(TREES[name]):
        targets: list[str | None] = []
        if isinstance(node, ast.Import):
            targets = [absolute(a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)] if package else []
                source = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in MODULES else _resolve(source)
                           for a in node.names]
            else:
                targets = [absolute(f"{node.module}.{a.name}") for a in node.names]
        out += [(t, node) for t in targets if t and t != name and t != PACKAGE]
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string statements (docstrings and the like): text, not code."""
    return {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}


def strings(name: str) -> list[ast.Constant]:
    """The string constants of module ``name``'s code (docstrings left out)."""
    tree = TREES[name]
    text = _docstrings(tree)
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in text]


def runs(name: str) -> list[tuple[str, ast.AST]]:
    """The scripts of tools/ (top-level modules) that module ``name`` names as a file to run."""
    out = []
    for c in strings(name):
        m = SCRIPT.fullmatch(c.value)
        if m and m.group(1) in MODULES and "." not in m.group(1) and m.group(1) != name:
            out.append((m.group(1), c))
    return out


def graph() -> dict[str, list[tuple[str, str, ast.AST]]]:
    """Each module's dependencies: (module, "imports" or "runs", where)."""
    return {name: [(t, "imports", n) for t, n in imports(name)] + [(t, "runs", n) for t, n in runs(name)]
            for name in MODULES}


def parts(g: dict[str, list[tuple[str, str, ast.AST]]]) -> list[list[str]]:
    """The strongly connected parts of ``g`` with more than one module (Tarjan): each, modules that depend on
    each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _, _ in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(g: dict[str, list[tuple[str, str, ast.AST]]], start: str, inside: set[str]) -> list[str]:
    """A shortest way from ``start`` back to it through the modules ``inside``."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w, _, _ in g[v]:
            if w == start:
                return paths[v] + [start]
            if w in inside and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return [start]


def layers() -> list[tuple[str, ...]]:
    """``course_cli.LAYERS``, as a literal of tools/course_cli/__init__.py."""
    for node in TREES[PACKAGE].body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "LAYERS" for t in node.targets):
            return ast.literal_eval(node.value)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "LAYERS":
            return ast.literal_eval(node.value)
    raise AssertionError("tools/course_cli/__init__.py declares no LAYERS")


# ---------------------------------------------------------------------------------------------- the tests

def test_the_graph_sees_the_imports_and_runs_it_should():
    g = graph()
    assert {t for t, kind, _ in g["course"] if kind == "imports"} >= {"course_cli.cli"}
    assert ("run_notebook", "runs") in {(t, kind) for t, kind, _ in g["course_cli.notebooks"]}
    assert ("course_cli.facts", "imports") in {(t, kind) for t, kind, _ in g["course_cli.build"]}


def test_no_module_of_tools_depends_on_itself_through_others():
    g = graph()

    def step(a: str, b: str) -> str:
        kind, node = next((k, n) for t, k, n in g[a] if t == b)
        return f"{a} {kind} {b} ({where(a, node)})"

    found = []
    for part in parts(g):
        inside = set(part)
        text = [f"these depend on each other: {', '.join(part)}"]
        text += [f"  two ways: {step(a, b)}, and {step(b, a)}" for a in part for b in part
                 if a < b and any(t == b for t, _, _ in g[a]) and any(t == a for t, _, _ in g[b])]
        cycle = shortest_cycle(g, part[0], inside)
        text += ["  a cycle:"] + [f"    {step(a, b)}" for a, b in zip(cycle, cycle[1:])]
        found.append("\n".join(text))
    assert not found, "\n\n".join(found)


def test_every_module_of_the_package_is_in_one_layer():
    declared = [m for layer in layers() for m in layer]
    present = sorted(n.split(".", 1)[1] for n in MODULES if n.startswith(PACKAGE + "."))
    twice = sorted({m for m in declared if declared.count(m) > 1})
    assert not twice, f"named in two layers: {twice}"
    assert sorted(declared) == present, (f"in LAYERS but no module: {sorted(set(declared) - set(present))}; "
                                         f"a module in no layer: {sorted(set(present) - set(declared))}")


def test_the_packages_text_draws_its_layers():
    """The diagram at the top of tools/course_cli/__init__.py (``a, b → c → …``) is LAYERS, in its order."""
    text = ast.get_docstring(TREES[PACKAGE]) or ""
    drawn = " ".join(line.strip() for line in text.split("::", 1)[-1].split("\n\n")[1].splitlines())
    assert [tuple(m.strip() for m in layer.split(",")) for layer in drawn.split("→")] == list(layers()), drawn


def test_the_package_imports_downward_only():
    level = {f"{PACKAGE}.{m}": i for i, layer in enumerate(layers()) for m in layer}
    wrong = []
    for name in sorted(MODULES):
        if not name.startswith(PACKAGE + "."):
            continue
        for target, node in imports(name):
            if not target.startswith(PACKAGE + "."):
                wrong.append(f"{where(name, node)}: {name} imports {target}, a module of tools/ outside {PACKAGE}")
            elif name in level and target in level and level[target] >= level[name]:
                wrong.append(f"{where(name, node)}: {name} (layer {level[name]}) imports {target} "
                             f"(layer {level[target]}): not a lower layer")
    assert not wrong, "\n".join(wrong)


def test_the_package_never_runs_the_command_line_again():
    found = []
    for name in sorted(MODULES):
        if not name.startswith(PACKAGE + "."):
            continue
        code = strings(name)
        for c in code:
            if re.fullmatch(r"(?:.*/)?course\.py", c.value):
                found.append(f"{where(name, c)}: names {c.value!r}, the command line's entry point")
        in_code = {id(c) for c in code}
        for call in ast.walk(TREES[name]):
            if not isinstance(call, ast.Call):
                continue
            func = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if func not in RUNS:
                continue
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                for c in ast.walk(arg):
                    if id(c) in in_code and re.fullmatch(r"(?:.*/)?course", c.value):
                        found.append(f"{where(name, c)}: runs {c.value!r}, the command line")
    assert not found, "\n".join(found)
