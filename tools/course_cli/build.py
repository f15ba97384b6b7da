"""The Maven build: when to run it, and the jars and class paths it leaves (as Maven wrote them)."""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import time
from pathlib import Path

from . import facts
from .facts import ROOT
from .host import find_jdk, find_maven, java_env
from .ui import fail, say

KERNEL_CLASSPATH = ROOT / "kernel" / "target" / "runtime.classpath"
# The modules whose jars ./course runs: (folder, the facts' key of its artifact id).
RUN_MODULES = [("kit", "kit"), ("grader", "grader"), ("kernel", "kernel")]


def modules(root: Path = ROOT) -> list[str]:
    """The parent pom's modules, as the reactor lists them."""
    return re.findall(r"<module>([^<]+)</module>", (root / "pom.xml").read_text(encoding="utf-8"))


def source_fingerprint() -> str:
    """A hash of the contents of every file the Maven build reads, so that an unchanged tree skips the build."""
    h = hashlib.sha256()
    files = [ROOT / "pom.xml", *sorted((ROOT / "src" / "build").glob("*"))]
    for module in modules():
        base = ROOT / module
        if module == "exercises" or not base.exists():
            continue
        files += [p for p in base.rglob("*") if p.is_file() and "target" not in p.relative_to(ROOT).parts]
    # Learner code is compiled by the grader itself, and the grader embeds the course's pristine tests when
    # it is built: a learner's edit must neither trigger a rebuild nor reach those copies. Only the exercise
    # poms feed this build. (After changing an exercise's tests on purpose: ./course setup --rebuild.)
    files += sorted((ROOT / "exercises").glob("**/pom.xml"))
    # Contents, not file times: an image layer keeps contents but cuts times to whole seconds (and a copy
    # or a checkout may change them), and a pulled, already built course must not build again.
    for p in sorted(files):
        h.update(f"{p.relative_to(ROOT).as_posix()}\0{hashlib.sha256(p.read_bytes()).hexdigest()}\n".encode())
    return h.hexdigest()


def version() -> str | None:
    """The course's version, as the last Maven build wrote it (None before the first build)."""
    try:
        text = (ROOT / facts.BUILD_INFO).read_text(encoding="utf-8")
    except OSError:
        return None
    return facts.parse_properties(text).get("version")


def artifact(module: str) -> str:
    return facts.facts()[f"{module}.artifact"]


def module_jar(module: str, artifact_id: str) -> Path:
    return ROOT / module / "target" / f"{artifact_id}-{version()}.jar"


def runtime_jars(module: str, artifact_id: str | None = None) -> list[Path]:
    """A module's jar, then its run-time class path as Maven wrote it (MODULE/target/runtime.classpath, jars in
    MODULE/target/lib), in Maven's order; empty before the first build."""
    listing = ROOT / module / "target" / "runtime.classpath"
    if not listing.exists():
        return []
    return ([module_jar(module, artifact_id or artifact(module))]
            + [ROOT / module / "target" / e for e in classpath_entries(listing)])


def classpath_entries(listing: Path) -> list[str]:
    """The entries of a class path file that Maven's dependency:build-classpath wrote (lib/a.jar:lib/b.jar:…)."""
    return [e for e in listing.read_text(encoding="utf-8").strip().split(os.pathsep) if e]


def kernel_jars() -> list[Path]:
    """The kernel's class path: its jar, the kit, the grader, their dependencies, rapaio's shaded jar last."""
    return runtime_jars("kernel")


def cell_jar_names() -> list[str]:
    """The jars a notebook cell compiles against, by file name, as Maven wrote them (kernel/target/cell.classpath:
    see kernel/pom.xml); empty (all of the kernel's jars) before a build that writes it."""
    listing = ROOT / "kernel" / "target" / "cell.classpath"
    return [Path(e).name for e in classpath_entries(listing)] if listing.exists() else []


def build(jdk: Path, force: bool = False) -> None:
    stamp = ROOT / "target" / "course-build.stamp"
    fp = source_fingerprint()
    if (not force and stamp.exists() and stamp.read_text() == fp and version()
            and all(j.exists() for m, _ in RUN_MODULES
                    for j in runtime_jars(m) or [ROOT / m / "target" / "runtime.classpath"])):
        say("build is up to date")
        return
    mvn = find_maven()
    say("building the course kit, kernel and grader with Maven (first run downloads dependencies)…")
    t0 = time.monotonic()
    r = subprocess.run([mvn, "-q", "-B", "-DskipTests", "-Dmdep.analyze.skip", "install"], cwd=ROOT,
                       env=java_env(jdk))
    if r.returncode != 0:
        fail("the Maven build failed (see above)")
    facts.facts.cache_clear()  # the build wrote them afresh
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(fp)
    say(f"built in {time.monotonic() - t0:.1f} s")


def java_main(module: str, main: str, flags: str, argv: list[str]) -> int:
    """Runs the build's ``main`` class (a facts key: grader.main, reproduce.main) on ``module``'s class path,
    with the build's JVM flag set ``flags`` (grader, cli); the jars only: grading and reproducing need no
    kernelspec."""
    cmd, env = java_command(module, main, flags)
    return subprocess.run([*cmd, *argv], cwd=ROOT, env=env).returncode


def java_command(module: str, main: str, flags: str) -> tuple[list[str], dict]:
    """The command line (and environment) that runs the build's ``main`` class on ``module``'s class path."""
    jdk = find_jdk()
    build(jdk)
    cp = os.pathsep.join(str(j) for j in runtime_jars(module))
    return [str(jdk / "bin" / "java"), *facts.jvm_options(flags), "-cp", cp, facts.facts()[main]], java_env(jdk)


def course_files(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """The grader's check of the course at ``root`` (course.grader.Pristine, one JVM): the exercises it knows,
    and the course files under ``root/exercises`` that differ from its manifest (a package built with them
    would refuse to grade them)."""
    cmd, env = java_command("grader", "pristine.main", "cli")
    r = subprocess.run([*cmd, str(root)], cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"the grader's check of {root} failed:\n{r.stdout}{r.stderr}")
    lines = [line.split(" ", 1) for line in r.stdout.splitlines() if " " in line]
    return [v for k, v in lines if k == "exercise"], [v for k, v in lines if k == "differs"]


_scales: dict[str | None, str] = {}


def course_scale(given: str | None = None) -> str:
    """The scale to run at: ``given`` (a command's --scale), else COURSE_SCALE, else the default, as the kit's
    course.kit.Scale checks and names it (one JVM, once per process; this side parses no scale)."""
    if given not in _scales:
        cmd, env = java_command("kit", "scale.main", "cli")
        r = subprocess.run([*cmd, *([given] if given is not None else [])], cwd=ROOT, env=env, capture_output=True,
                           text=True)
        if r.returncode != 0:
            fail(r.stderr.strip() or f"course.kit.Scale failed (exit code {r.returncode})")
        _scales[given] = r.stdout.strip()
    return _scales[given]
