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

# Learner code runs inside the kernel's own JVM, so these options apply to every notebook cell.
JVM_OPTIONS = [
    # The heap ceiling follows the memory this kernel may use: 75% of the container's limit (the JVM reads
    # the cgroup limit; 3 GB in a 4 GB JupyterHub pod, as the old fixed -Xmx3g) or of the machine's memory.
    # 1,000,000 parked virtual threads need about 0.85 GB of live heap (notebook 01).
    "-XX:MaxRAMPercentage=75",
    # No fixed young generation: G1 sizes it, and gives it back when the kernel idles. A fixed -Xmn1200m kept
    # notebook 01's warm million-thread rounds free of collections, but two kernels then held 2.5 GB for good
    # after notebooks 01 and 05 (tools/tests/test_kernel_memory.py); the million-thread band allows for the
    # collections (deploy/README.md has the figures).
    # An idle kernel gives its memory back: after 10 s without a collection G1 runs a concurrent cycle and
    # returns the free heap to the operating system. Kernels of notebooks left open stay small.
    "-XX:G1PeriodicGCInterval=10000",
    "-XX:MaxHeapFreeRatio=30",
    "-XX:MinHeapFreeRatio=10",
    "-ea",
    "--enable-preview",
    "-XX:+UseG1GC",
    # JVM messages (a refused AOT cache, say) go to the kernel's stderr, the Jupyter server's log; never stdout.
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
    "-Djava.awt.headless=true",
    "-Dcourse.kernel=" + NAME,
    "-Dfile.encoding=UTF-8",
    "-Dstdout.encoding=UTF-8",
    # Tablesaw's classgraph calls sun.misc.Unsafe; JDK 24+ would warn about it on the kernel's stderr.
    "--sun-misc-unsafe-memory-access=allow",
    # Notebook 06 calls C's qsort through the Foreign Function & Memory API (the kit's NativeSort); a restricted
    # method such as Linker.downcallHandle would otherwise warn on the kernel's stderr.
    "--enable-native-access=ALL-UNNAMED",
    # The kit's CarrierTrace (notebooks 02, 04, 06: which carrier ran which virtual thread) hands the JVM a scheduler
    # of its own for the virtual threads it traces, which wraps each mount on the JVM's real carriers. The JDK's
    # constructor of such a virtual thread (java.lang.ThreadBuilders.newVirtualThread) and its default scheduler are
    # not public; without this option the trace falls back to each task's first and last carrier, and says so.
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
]

# The kernel's ahead-of-time cache (JDK 25, JEP 483/514/515), written into the kernelspec folder by a
# training run at ./course setup (tools/kernel_aot.py). A stale or foreign cache is refused by the JVM,
# which then starts without it.
AOT_CACHE = "kernel.aot"

ENV = {
    # JShell compiles each snippet: preview features need the compiler flag too, not just the JVM's.
    "RJK_COMPILER_OPTIONS": "--enable-preview --source 25",
}


def java_agent_options(lib: Path, jar_names: list[str]) -> list[str]:
    """JVM options that name jars in ``lib``: the course kernel's own jar as the -javaagent."""
    found = [n for n in jar_names if Path(n).match(KERNEL_JAR_GLOB)]
    if not found:
        raise ValueError(f"no {KERNEL_JAR_GLOB} among the kernel's jars: {jar_names}")
    return [f"-javaagent:{lib / found[0]}"]


#: The system property that names the jars JShell's compiler sees (course.kernel.Launcher reads it).
CELL_CLASSPATH_PROPERTY = "course.kernel.cellClasspath"


def argv(java: Path, lib: Path, jar_names: list[str], aot_cache: Path | None = None,
         cell_jar_names: list[str] = ()) -> list[str]:
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
    return ([str(java)] + aot + JVM_OPTIONS + cells + java_agent_options(lib, jar_names)
            + ["-cp", classpath, MAIN_CLASS, "{connection_file}"])


def kernel_json(java: Path, lib: Path, jar_names: list[str], course_home: Path,
                aot_cache: Path | None = None, cell_jar_names: list[str] = ()) -> dict:
    env = dict(ENV)
    env["COURSE_HOME"] = str(course_home)
    return {
        "argv": argv(java, lib, jar_names, aot_cache, cell_jar_names),
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
    logo = Path(__file__).resolve().parent / "logo-64x64.png"
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
    return MAIN_CLASS in spec.get("argv", []) or "-Dcourse.kernel=" + NAME in spec.get("argv", [])


def has_jars(spec_dir: Path, jars: list[Path]) -> bool:
    """Whether the kernelspec's lib/ holds exactly ``jars``, byte for byte."""
    lib = spec_dir / "lib"
    if not lib.is_dir() or {p.name for p in lib.glob("*.jar")} != {j.name for j in jars}:
        return False
    return all(filecmp.cmp(j, lib / j.name, shallow=False) for j in jars)
