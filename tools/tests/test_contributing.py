"""CONTRIBUTING.md names only what exists: each file, folder and test it names, and each ``./course`` command.

- **Paths.** A word of a span in backticks, or a link's target, is a path when it holds a ``/`` or ends in a file's
  extension (``.py``, ``.java``, ``.json``, …); URLs, options (``-Dx=a/b``) and ``#anchors`` are not. A path is
  relative to the repository's root (``./course`` is the file ``course``); a bare file name (``Exercises.java``)
  names a file of that name anywhere in the repository. ``{a,b}`` stands for both paths.
- **Patterns.** A path is a pattern when a segment holds a placeholder: ``NN`` (a notebook's or an exercise's
  number, as in ``NN-name``), the word ``name`` (``NameTest.java``, ``test_NAME.py``), ``…``, ``*``, ``<what>``, or
  a segment all in capitals (``SHAPE``, ``OUT``). Of a pattern, the segments before the first placeholder must exist
  (``exercises/NN-name/pom.xml``: ``exercises/``).
- **Not checked.** Paths under ``target/``: what a build or a command writes, absent from a fresh clone.
- **Tests.** ``file::name`` (``test_notebook_style.py::test_reading_budget``) names the file, and a test (or class)
  ``name`` defined in it.
- **Commands.** Every ``./course CMD`` in the text is a subcommand of ``course_cli.cli.parser()``; where that
  subcommand takes a word from a fixed list (``./course bench kernel``), the next word is one of them.
- In a learners' template (no ``solutions/``), a path that ``./course template`` leaves out may be absent.
"""
from __future__ import annotations

import fnmatch
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from course_cli import cli, template  # noqa: E402

CONTRIBUTING = ROOT / "CONTRIBUTING.md"
EXTENSION = re.compile(r"\.(md|py|java|json|ipynb|xml|diff|yml|yaml|txt|csv|sha256|properties|lock|sh|html|in)$")
PLACEHOLDER = re.compile(r"NN|…|\*|<[^>]*>|^[A-Z][A-Z_]*$|(?<![A-Za-z])(?:name|Name|NAME)(?![a-z])")
SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")
COMMAND = re.compile(r"(?<![\w/.])\./course(?![\w/.-])[ \t]+([a-z][\w-]*)(?:[ \t]+([a-z][\w-]*)(?![\w/.]))?")
SKIPPED_DIRS = {".git", "target", ".venv", "node_modules", "__pycache__"}


def _files_by_name(root: Path) -> dict[str, list[Path]]:
    """Every file of the repository (build outputs left out), by its name."""
    found: dict[str, list[Path]] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        for f in files:
            found.setdefault(f, []).append(Path(folder) / f)
    return found


def _defines(source: str, name: str) -> bool:
    """Whether a Python or Java source defines ``name``: a function, a test method, or a type."""
    return re.search(rf"\b(def|class|void|record|interface|enum)\s+{re.escape(name)}\b", source) is not None


def _left_out(path: str) -> bool:
    """Whether ``./course template`` leaves ``path`` out; a bare file name, whether it leaves out files of that name."""
    if "/" in path:
        return template.left_out(path) is not None
    return any(fnmatch.fnmatchcase(path, pattern.rsplit("/", 1)[-1]) for pattern, _ in template.LEFT_OUT
               if not pattern.endswith("/"))


def _expand(path: str) -> list[str]:
    """``a/{b,c}.json`` as ``a/b.json`` and ``a/c.json``."""
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [p for alt in m.group(1).split(",") for p in _expand(path[:m.start()] + alt + path[m.end():])]


def mentioned_paths(text: str) -> list[str]:
    """Every path of ``text``: the words of its spans in backticks (fenced blocks left out), and its links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    words = [w for m in SPAN.finditer(text) for w in m.group(2).split()]
    words += [link.split("#", 1)[0] for link in LINK.findall(text)]
    out = []
    for w in words:
        if not w or re.match(r"[a-z][a-z0-9+.-]*://|mailto:", w, re.I) or w.startswith(("-", "#")) or "=" in w:
            continue
        if re.fullmatch(r"[\w.@+/{},*<>…:-]+", w) and ("/" in w or EXTENSION.search(w.split("::", 1)[0])):
            out.append(w)
    return out


def path_problems(text: str, root: Path = ROOT) -> list[str]:
    """Each path of ``text`` that names nothing in ``root``, as a sentence."""
    answers = (root / "solutions").is_dir()
    by_name = None
    problems = []
    for word in mentioned_paths(text):
        path, _, test = word.partition("::")
        for p in _expand(path):
            rel = p[2:] if p.startswith("./") else p
            segments = [s for s in rel.split("/") if s]
            if not segments or segments[0] == "target" or "target" in segments[:-1]:
                continue  # what a build or a command writes
            placeholder = next((i for i, s in enumerate(segments) if PLACEHOLDER.search(s)), None)
            if placeholder is not None:
                fixed = "/".join(segments[:placeholder])
                if fixed and not (root / fixed).is_dir() and not (not answers and _left_out(fixed + "/")):
                    problems.append(f"{word}: no folder {fixed}/ for this pattern")
                continue
            if "/" not in rel:
                by_name = _files_by_name(root) if by_name is None else by_name
                files = by_name.get(rel, [])
            else:
                files = [root / rel] if (root / rel).exists() else []
            if not files:
                if answers or not _left_out(rel):
                    problems.append(f"{word}: no such file or folder in the repository")
            elif test and not any(f.is_file() and _defines(f.read_text(encoding="utf-8"), test) for f in files):
                problems.append(f"{word}: {rel} defines no {test}")
    return problems


def command_problems(text: str) -> list[str]:
    """Each ``./course CMD`` of ``text`` that the command line does not have, as a sentence."""
    commands = cli.commands()
    problems = []
    for cmd, arg in COMMAND.findall(text):
        if cmd not in commands:
            problems.append(f"./course {cmd}: no such command (./course has {', '.join(sorted(commands))})")
            continue
        listed = [a.choices for a in commands[cmd]._actions if not a.option_strings and a.choices]
        if arg and listed and arg not in listed[0]:
            problems.append(f"./course {cmd} {arg}: {cmd} takes one of {', '.join(listed[0])}")
    return problems


def test_every_path_and_test_that_contributing_names_exists():
    problems = path_problems(CONTRIBUTING.read_text(encoding="utf-8"))
    assert not problems, "CONTRIBUTING.md names what is not there:\n" + "\n".join(problems)


def test_every_course_command_that_contributing_names_is_one():
    text = CONTRIBUTING.read_text(encoding="utf-8")
    assert COMMAND.search(text), "CONTRIBUTING.md names no ./course command: is the pattern still right?"
    problems = command_problems(text)
    assert not problems, "CONTRIBUTING.md names what ./course does not have:\n" + "\n".join(problems)


def test_the_rules_catch_what_is_not_there_and_let_patterns_through():
    good = ("`tools/tests/test_notebook_style.py`, `test_notebook_style.py::test_reading_budget`, `Exercises.java`, "
            "`exercises/NN-name/src/main/java`, `solutions/NN-name/golden/{solution,mutant}.json`, "
            "`solutions/NN-name/alternatives/SHAPE/`, `target/notebooks/NN-name.html`, "
            "`kit/src/test/java/course/kit/NameTest.java`, `tools/tests/test_NAME.py`, `K/N points`, "
            "`course.kit.models`, `CheckTest.java::marksAreTheCheckAndCross`, mailto:someone@example.org, `-Dit.test=GoldenResultsIT`, [a link](deploy/README.md#hidden-tests), "
            "`./course run notebooks/NN-name.ipynb --scale quick`, ./course bench kernel, https://example.org/x.py")
    assert path_problems(good) == []
    assert command_problems(good) == []
    bad = ("`tools/tests/test_nothing.py`, `test_notebook_style.py::test_no_such_test`, `Nowhere.java`, "
           "`kit/src/main/java/course/nowhere/NN.json`, `tools/{book,nobook}.py`, [a link](docs/nothing.md), "
           "`CheckTest.java::noSuchTest`, `./course frobnicate`, ./course bench nothing")
    assert [p.split(":")[0] for p in path_problems(bad)] == [
        "tools/tests/test_nothing.py", "test_notebook_style.py", "Nowhere.java",
        "kit/src/main/java/course/nowhere/NN.json", "tools/{book,nobook}.py", "CheckTest.java", "docs/nothing.md"]
    assert [p.split(":")[0] for p in command_problems(bad)] == ["./course frobnicate", "./course bench nothing"]
