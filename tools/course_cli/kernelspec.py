"""The one place that knows what the course's Jupyter kernelspec looks like.

``./course setup`` (and the Docker image, through ``./course setup --prefix``) call :func:`write`.
Its main class and JVM options are Maven's (the parent pom, through target/build-info.properties).
"""
from __future__ import annotations

import filecmp
import json
import os
import shutil
from pathlib import Path

from . import facts
from .host import java_major

NAME = "vthreads-java"

# The kernel's main class (course.kernel.Launcher: rapaio's own MainApp has a start race and an interrupt that
# wedges the kernel, see kernel/README.md) and its JVM options, where learner code runs: every notebook cell.
# Maven owns both (the parent pom's course.kernel.main and course.kernel.jvm.options, which explain each
# option); this file adds the options that name this kernelspec's own files.
# The course-kernel jar is also a -javaagent: it weaves stop checks into the classes JShell compiles for each
# cell, so that interrupting a CPU loop (`while (true) {}`) stops it.
KERNEL_JAR_GLOB = "course-kernel-*.jar"

# The kernel's ahead-of-time cache (JDK 25, JEP 483/514/515), written into the kernelspec folder by a
# training run at ./course setup (tools/kernel_aot.py). A stale or foreign cache is refused by the JVM,
# which then starts without it.
AOT_CACHE = "kernel.aot"


def display_name(root: Path = facts.ROOT) -> str:
    return f"Java {facts.release(root)} (virtual threads course)"


def main_class(root: Path = facts.ROOT) -> str:
    return facts.facts(root)["kernel.main"]


def jvm_options(root: Path = facts.ROOT) -> list[str]:
    """The JVM options of every kernel: Maven's set, and the property that marks a kernel as the course's."""
    return facts.jvm_options("kernel", root) + ["-Dcourse.kernel=" + NAME]


def env(root: Path = facts.ROOT, jdk_feature: int | None = None) -> dict:
    """The kernel's environment. JShell compiles each snippet: preview features need the compiler's flags too,
    not just the JVM's, and only the release that the course runs on has the preview API its notebook uses
    (07's StructuredTaskScope): on another release (``jdk_feature``) cells compile without preview features
    and ./course and notebook 00 name what needs the course's release."""
    release = facts.release(root)
    on_release = jdk_feature is None or jdk_feature == release
    return {"RJK_COMPILER_OPTIONS": f"--enable-preview --source {release}" if on_release else ""}


def __getattr__(name: str):
    """The course's own facts as module constants (DISPLAY_NAME, MAIN_CLASS, JVM_OPTIONS, ENV)."""
    values = {"DISPLAY_NAME": display_name, "MAIN_CLASS": main_class, "JVM_OPTIONS": jvm_options, "ENV": env}
    if name in values:
        return values[name]()
    raise AttributeError(name)


def java_agent_options(lib: Path, jar_names: list[str]) -> list[str]:
    """JVM options that name jars in ``lib``: the course kernel's own jar as the -javaagent."""
    found = [n for n in jar_names if Path(n).match(KERNEL_JAR_GLOB)]
    if not found:
        raise ValueError(f"no {KERNEL_JAR_GLOB} among the kernel's jars: {jar_names}")
    return [f"-javaagent:{lib / found[0]}"]


#: The system property that names the jars JShell's compiler sees (course.kernel.Launcher reads it).
CELL_CLASSPATH_PROPERTY = "course.kernel.cellClasspath"


def argv(java: Path, lib: Path, jar_names: list[str], aot_cache: Path | None = None,
         cell_jar_names: list[str] = (), root: Path = facts.ROOT) -> list[str]:
    """The kernel's command line: an absolute java, JVM options, the classpath and the main class.

    The classpath lists every jar in the order given (Maven's, kernel/target/runtime.classpath), not ``lib/*``:
    the launcher expands a wildcard in directory order, which could put rapaio's shaded jar (with its
    unrelocated copies of common libraries) ahead of the kit's own dependencies. ``cell_jar_names`` (Maven's
    kernel/target/cell.classpath) are the jars a cell's code compiles against; without them, all of them."""
    classpath = os.pathsep.join(str(lib / name) for name in jar_names)
    aot = [f"-XX:AOTCache={aot_cache}"] if aot_cache else []
    missing = [n for n in cell_jar_names if n not in jar_names]
    if missing:
        raise ValueError(f"cell class path names jars the kernel does not have: {missing}")
    cells = ([f"-D{CELL_CLASSPATH_PROPERTY}=" + os.pathsep.join(str(lib / n) for n in cell_jar_names)]
             if cell_jar_names else [])
    return ([str(java)] + aot + jvm_options(root) + cells + java_agent_options(lib, jar_names)
            + ["-cp", classpath, main_class(root), "{connection_file}"])


def kernel_json(java: Path, lib: Path, jar_names: list[str], course_home: Path,
                aot_cache: Path | None = None, cell_jar_names: list[str] = ()) -> dict:
    """The kernelspec of the course at ``course_home`` (whose Maven facts it reads), for the JDK of ``java``."""
    kernel_env = env(course_home, java_major(java.parent.parent))
    kernel_env["COURSE_HOME"] = str(course_home)
    return {
        "argv": argv(java, lib, jar_names, aot_cache, cell_jar_names, course_home),
        "display_name": display_name(course_home),
        "language": "java",
        "interrupt_mode": "message",
        "env": kernel_env,
        "metadata": {"debugger": False},
    }


def _sync_jars(jars: list[Path], lib: Path) -> bool:
    """Makes ``lib`` hold exactly ``jars`` (by file name); copies only what changed. Returns True if anything did."""
    lib.mkdir(parents=True, exist_ok=True)
    wanted = {j.name: j for j in jars}
    changed = False
    for old in lib.iterdir():
        if old.name not in wanted:
            old.unlink()
            changed = True
    for name, src in wanted.items():
        dst = lib / name
        if not dst.exists() or not filecmp.cmp(src, dst, shallow=False):
            shutil.copy2(src, dst)
            changed = True
    return changed


def write(kernels_dir: Path, java: Path, jars: list[Path], course_home: Path,
          aot: bool = False, cell_jar_names: list[str] = ()) -> tuple[Path, bool]:
    """Writes ``kernels_dir/vthreads-java`` (kernel.json and lib/). Returns (its path, whether anything changed).

    With ``aot``, kernel.json names the AOT cache beside it (which the caller then writes); a cache left from
    other jars or another JDK is deleted, since it could only be refused."""
    spec_dir = kernels_dir / NAME
    lib = spec_dir / "lib"
    changed = _sync_jars(jars, lib)
    cache = spec_dir.resolve() / AOT_CACHE if aot else None
    content = json.dumps(kernel_json(java.resolve(), lib.resolve(), [j.name for j in jars], course_home.resolve(),
                                     cache, cell_jar_names), indent=2) + "\n"
    kj = spec_dir / "kernel.json"
    if not kj.exists() or kj.read_text() != content:
        kj.write_text(content)
        changed = True
    if changed or not aot:
        (spec_dir / AOT_CACHE).unlink(missing_ok=True)
    logo = facts.ROOT / "tools" / "logo-64x64.png"
    if logo.exists() and not (spec_dir / logo.name).exists():
        shutil.copy2(logo, spec_dir / logo.name)
    os.chmod(spec_dir, 0o755)
    return spec_dir, changed


def is_course_kernelspec(spec_dir: Path) -> bool:
    """Whether ``spec_dir`` holds a kernelspec that ``write`` made (and may therefore be replaced)."""
    try:
        spec = json.loads((spec_dir / "kernel.json").read_text())
    except (OSError, ValueError):
        return False
    return main_class() in spec.get("argv", []) or "-Dcourse.kernel=" + NAME in spec.get("argv", [])


def has_jars(spec_dir: Path, jars: list[Path]) -> bool:
    """Whether the kernelspec's lib/ holds exactly ``jars``, byte for byte."""
    lib = spec_dir / "lib"
    if not lib.is_dir() or {p.name for p in lib.glob("*.jar")} != {j.name for j in jars}:
        return False
    return all(filecmp.cmp(j, lib / j.name, shallow=False) for j in jars)
