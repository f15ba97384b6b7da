"""The one place that knows what the course's Jupyter kernelspec looks like.

``./course setup`` (and the Docker image, through ``./course setup --prefix``) call :func:`write`.
Change the kernel's JVM options, main class or environment here and nowhere else.
"""
from __future__ import annotations

import filecmp
import json
import os
import shutil
from pathlib import Path

NAME = "vthreads-java"
DISPLAY_NAME = "Java 25 (virtual threads course)"

# The main class that starts the kernel. rapaio's own MainApp has a start race and an interrupt that wedges
# the kernel; course.kernel.Launcher wraps rapaio's classes and fixes both (see kernel/README.md).
MAIN_CLASS = "course.kernel.Launcher"
# The course-kernel jar is also a -javaagent: it weaves stop checks into the classes JShell compiles for each
# cell, so that interrupting a CPU loop (`while (true) {}`) stops it.
KERNEL_JAR_GLOB = "course-kernel-*.jar"
KERNEL_JAR_DEFAULT = "course-kernel-1.0.0-SNAPSHOT.jar"

# Learner code runs inside the kernel's own JVM, so these options apply to every notebook cell.
#  -Xmx3g      1,000,000 parked virtual threads need about 1 GB of heap (notebook 01); 3 GB leaves room
#              for the charts and tables around them.
#  -Xmn1200m   see below.
#  -ea         `assert` statements in notebooks and exercises are checked.
#  --enable-preview  StructuredTaskScope is a preview API in JDK 25.
JVM_OPTIONS = [
    "-Xmx3g",
    # A young generation that holds a whole round of notebook 01's million sleeping virtual threads: with
    # G1's own sizing it collects about four times a round, copying the live threads each time (0.4–1.2 s
    # of pauses); with 1.2 GB a warm round runs without a collection.
    "-Xmn1200m",
    "-ea",
    "--enable-preview",
    "-XX:+UseG1GC",
    "-Djava.awt.headless=true",
    "-Dcourse.kernel=" + NAME,
    "-Dfile.encoding=UTF-8",
    "-Dstdout.encoding=UTF-8",
    # Tablesaw's classgraph calls sun.misc.Unsafe; JDK 24+ would warn about it on the kernel's stderr.
    "--sun-misc-unsafe-memory-access=allow",
    # Notebook 06 calls C's qsort through the Foreign Function & Memory API (the kit's NativeSort); a restricted
    # method such as Linker.downcallHandle would otherwise warn on the kernel's stderr.
    "--enable-native-access=ALL-UNNAMED",
]

ENV = {
    # JShell compiles each snippet: preview features need the compiler flag too, not just the JVM's.
    "RJK_COMPILER_OPTIONS": "--enable-preview --release 25",
}


def java_agent_options(lib: Path) -> list[str]:
    """JVM options that name jars in ``lib``: the course kernel's own jar as the -javaagent."""
    found = sorted(p.name for p in lib.glob(KERNEL_JAR_GLOB)) if lib.is_dir() else []
    return [f"-javaagent:{lib / (found[-1] if found else KERNEL_JAR_DEFAULT)}"]


def argv(java: Path, lib: Path, jar_names: list[str]) -> list[str]:
    """The kernel's command line: an absolute java, JVM options, the classpath and the main class.

    The classpath lists every jar in order, not ``lib/*``: the launcher expands a wildcard in directory
    order, which could put rapaio's shaded jar (with its unrelocated copies of common libraries) ahead
    of the kit's own dependencies."""
    classpath = os.pathsep.join(str(lib / name) for name in jar_names)
    return ([str(java)] + JVM_OPTIONS + java_agent_options(lib)
            + ["-cp", classpath, MAIN_CLASS, "{connection_file}"])


def kernel_json(java: Path, lib: Path, jar_names: list[str], course_home: Path) -> dict:
    env = dict(ENV)
    env["COURSE_HOME"] = str(course_home)
    return {
        "argv": argv(java, lib, jar_names),
        "display_name": DISPLAY_NAME,
        "language": "java",
        "interrupt_mode": "message",
        "env": env,
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


def write(kernels_dir: Path, java: Path, jars: list[Path], course_home: Path) -> tuple[Path, bool]:
    """Writes ``kernels_dir/vthreads-java`` (kernel.json and lib/). Returns (its path, whether anything changed)."""
    spec_dir = kernels_dir / NAME
    lib = spec_dir / "lib"
    changed = _sync_jars(jars, lib)
    content = json.dumps(kernel_json(java.resolve(), lib.resolve(), [j.name for j in jars], course_home.resolve()),
                         indent=2) + "\n"
    kj = spec_dir / "kernel.json"
    if not kj.exists() or kj.read_text() != content:
        kj.write_text(content)
        changed = True
    logo = Path(__file__).resolve().parent / "logo-64x64.png"
    if logo.exists() and not (spec_dir / logo.name).exists():
        shutil.copy2(logo, spec_dir / logo.name)
    os.chmod(spec_dir, 0o755)
    return spec_dir, changed
