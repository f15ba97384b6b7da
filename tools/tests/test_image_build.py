"""The Docker image's build, and a learner's pull of it, run here, where there is no Docker engine.

1. A pulled image. Image layers keep file contents but cut file times to whole seconds. The built course is
   copied that way, and its first `./course grade`, `./course run` and `./course setup --prefix` must build
   nothing: Maven is offline, its repository empty, and a stand-in `mvn` on PATH records any call.
2. The image's Maven repository. The Dockerfile fills /opt/m2/repository from the poms alone, then builds the
   course with Maven offline. Its own commands (read from the Dockerfile, not copied here) run in the same
   order: the poms into an empty folder, the fill commands into an empty repository, then the sources, then
   the offline build and grade. The fill reads artifacts from this machine's Maven repository, used as the
   remote, so the test needs no network; offline, a missing artifact fails the build.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_docker_static import instructions, run_commands  # noqa: E402

# What never reaches an image (.dockerignore), and what the tests leave out for speed.
IGNORED = shutil.ignore_patterns(".git", "target", "__pycache__", "*.pyc", ".ipynb_checkpoints", "e2e", ".venv",
                                 "node_modules")


@functools.lru_cache(maxsize=1)
def developer_repository() -> Path:
    """This machine's Maven repository, where Maven itself says it is: its settings, MAVEN_OPTS, and otherwise
    Java's ``user.home``, which comes from the password file and need not be $HOME. Asked offline, from a folder
    with no pom: ``help:evaluate`` when the help plugin is in the repository, else the line Maven logs at start
    (``-X``: "Using local repository at …"), which needs no plugin."""
    mvn = shutil.which("mvn")
    assert mvn, "Maven (mvn) is not on PATH"
    with tempfile.TemporaryDirectory() as empty:
        r = subprocess.run([mvn, "-B", "-q", "--offline", "help:evaluate", "-Dexpression=settings.localRepository",
                            "-DforceStdout"], cwd=empty, capture_output=True, text=True, timeout=300)
        answer = r.stdout.strip().splitlines()[-1:] if r.returncode == 0 else []
        if answer and Path(answer[0]).is_absolute():
            return Path(answer[0])
        r = subprocess.run([mvn, "-B", "-X", "--offline", "validate"], cwd=empty, capture_output=True, text=True,
                           timeout=300)
    m = re.search(r"Using local repository at (.+)$", r.stdout, re.M)
    assert m, f"Maven did not say where its local repository is:\n{show(r)}"
    return Path(m.group(1).strip())


def maven_home(base: Path, remote: str, offline: bool) -> Path:
    """A user.home whose .m2/settings.xml sends every download to ``remote`` (and is offline if asked)."""
    home = base / ("offline-home" if offline else "fill-home")
    (home / ".m2").mkdir(parents=True, exist_ok=True)
    (home / ".m2" / "settings.xml").write_text(
        "<settings>\n"
        f"  <offline>{'true' if offline else 'false'}</offline>\n"
        "  <mirrors><mirror><id>only</id><mirrorOf>*</mirrorOf>"
        f"<url>{remote}</url></mirror></mirrors>\n"
        "</settings>\n")
    return home


def mvn_recorder(base: Path) -> tuple[Path, Path]:
    """A folder with an `mvn` that appends its arguments to a log, then runs the real Maven."""
    real = shutil.which("mvn")
    assert real, "Maven (mvn) is not on PATH"
    bin_dir, log = base / "bin", base / "mvn-calls.log"
    bin_dir.mkdir(parents=True, exist_ok=True)
    (bin_dir / "mvn").write_text(f'#!/bin/sh\necho "mvn $*" >> "{log}"\nexec "{real}" "$@"\n')
    (bin_dir / "mvn").chmod(0o755)
    log.write_text("")
    return bin_dir, log


def offline_env(base: Path, repo: Path) -> tuple[dict, Path]:
    """Maven offline three ways (MAVEN_ARGS, settings, a remote that does not exist), on ``repo``; a recorder
    `mvn`; an empty user Jupyter folder. Returns the environment and the recorder's log."""
    home = maven_home(base, "http://127.0.0.1:9/no-network", offline=True)
    bin_dir, log = mvn_recorder(base)
    env = dict(os.environ)
    # COURSE_AOT=off: the kernel's AOT training run is not what these tests are about (test_setup_prefix.py).
    env.update(MAVEN_OPTS=f"-Dmaven.repo.local={repo} -Duser.home={home}", MAVEN_ARGS="--offline", COURSE_AOT="off",
               HOME=str(home), JUPYTER_DATA_DIR=str(base / "jupyter-data"),
               PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("JUPYTER_PATH", None)
    return env, log


def copy_like_an_image_layer(src: Path, dst: Path) -> None:
    """Copies ``src`` as `COPY` then a pull would: same contents, times cut to whole seconds."""
    # What .dockerignore keeps out of the image (the developer's .venv is 27,000 files, and copying it made this
    # test take 92 s of the suite), and the executed notebooks.
    shutil.copytree(src, dst, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "__pycache__", "*.pyc", "notebooks", "e2e", "worker-aot",
                                                  ".venv", "node_modules")
                    if src == ROOT else None)
    if src == ROOT:  # the course's notebooks without the executed copies under target/
        shutil.copytree(ROOT / "notebooks", dst / "notebooks")
    for d, dirs, files in os.walk(dst):
        for name in dirs + files:
            p = Path(d) / name
            st = p.lstat()
            os.utime(p, ns=(int(st.st_atime) * 10**9, int(st.st_mtime) * 10**9), follow_symlinks=False)


def run(cmd: list[str] | str, cwd: Path, env: dict, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          shell=isinstance(cmd, str), executable="/bin/bash" if isinstance(cmd, str) else None)


def only_timing_checks_failed(r: subprocess.CompletedProcess) -> bool:
    """The notebook ran every cell, and what failed were its own measurement checks (✘ lines), nothing else."""
    cells = re.findall(r"^\s+(ok|FAIL)\s+cell\s+\d+", r.stdout, re.M)
    errors = [l for l in r.stderr.splitlines() if l.startswith("\u2718")]
    return bool(cells) and bool(errors) and all("failed check" in l or "EvalException: \u2718" in l for l in errors)


def show(r: subprocess.CompletedProcess) -> str:
    return f"exit {r.returncode}\n--- stdout\n{r.stdout[-4000:]}\n--- stderr\n{r.stderr[-4000:]}"


# ------------------------------------------------------------------------------------------------ 1. a pull

@pytest.fixture(scope="module")
def built_course() -> Path:
    """The course in this checkout, built (`./course grade --help` builds the jars if anything changed)."""
    r = subprocess.run([str(ROOT / "course"), "grade", "--help"], cwd=ROOT, capture_output=True, text=True,
                       timeout=1200)
    assert r.returncode == 0, show(r)
    assert (ROOT / "target" / "course-build.stamp").is_file()
    return ROOT


def test_a_pulled_image_builds_nothing(built_course, tmp_path):
    course = tmp_path / "home" / "work" / "vthreads-course"
    copy_like_an_image_layer(built_course, course)
    stamp = course / "target" / "course-build.stamp"
    assert stamp.stat().st_mtime == int(stamp.stat().st_mtime), "the copy's times were not cut"
    empty_repo = tmp_path / "empty-m2"
    empty_repo.mkdir()
    env, log = offline_env(tmp_path, empty_repo)

    # one exercise is enough to see that grading builds nothing (all eight take eight gradings' time)
    grade = run([str(course / "course"), "grade", "01-thread-cost", "--json", str(tmp_path / "grade.json")], course,
                env)
    nb = run([str(course / "course"), "run", "notebooks/00-welcome.ipynb", "--scale", "quick"], course, env)
    prefix = tmp_path / "prefix"
    setup = run([str(course / "course"), "setup", "--prefix", str(prefix)], course, env)

    assert log.read_text() == "", "Maven ran after the pull:\n" + log.read_text()
    for name, r in (("grade", grade), ("run", nb), ("setup --prefix", setup)):
        if name == "run" and r.returncode != 0 and only_timing_checks_failed(r):
            # Notebook 00 times a fixed pool against a prediction; on a loaded machine that check can fail.
            # The notebook's own checks are judged by ./course test's notebook step; here every cell ran.
            print(f"\nnote: notebook 00's own checks failed on this machine:\n{r.stderr[-1500:]}")
            continue
        assert r.returncode == 0, f"./course {name} failed after the pull:\n{show(r)}"
        assert "building the course" not in r.stdout, f"./course {name} rebuilt the course:\n{show(r)}"
    assert "build is up to date" in nb.stdout and "build is up to date" in setup.stdout
    assert json.loads((tmp_path / "grade.json").read_text())["tests"], "the grade report lists no tests"
    assert (course / "target" / "notebooks" / "00-welcome.ipynb").is_file()
    assert (prefix / "share" / "jupyter" / "kernels" / "vthreads-java" / "kernel.json").is_file()
    assert list(empty_repo.iterdir()) == [], "something was put into the empty Maven repository"


def test_the_pull_check_sees_a_rebuild(built_course, tmp_path):
    """The same check fails when the build is not up to date: the recorder sees Maven, offline Maven fails."""
    course = tmp_path / "vthreads-course"
    copy_like_an_image_layer(built_course, course)
    (course / "target" / "course-build.stamp").write_text("stale\n")
    empty_repo = tmp_path / "empty-m2"
    empty_repo.mkdir()
    env, log = offline_env(tmp_path, empty_repo)
    r = run([str(course / "course"), "grade", "--json", str(tmp_path / "grade.json")], course, env)
    assert "building the course" in r.stdout
    assert log.read_text().startswith("mvn "), "the recorder did not see the Maven call"
    assert r.returncode != 0, "Maven built offline from an empty repository?\n" + show(r)


# ------------------------------------------------------------------------------------------------ 2. the fill

def image_housekeeping(cmd: str) -> bool:
    """Steps that only make sense inside the image: its permissions, and removing its absolute paths."""
    words = cmd.split()
    return words[0] == "fix-permissions" or (words[0] == "rm" and any(w.strip('"').startswith(("/", "$"))
                                                                        for w in words[1:]))


def dockerfile_steps() -> dict:
    """The Dockerfile's pom copies, its fill commands and its offline build commands, in order."""
    ins = instructions((ROOT / "Dockerfile").read_text())
    sources = next(i for i, (w, a) in enumerate(ins) if w == "COPY" and a.split()[-2:-1] == ["."])
    poms = [[s for s in a.split() if not s.startswith("--")] for w, a in ins[:sources]
            if w == "COPY" and a.split()[-2].endswith("pom.xml")]
    fill = [c for w, a in ins[:sources] if w == "RUN" and re.search(r"(^|&&\s*)mvn ", a)
            for c in run_commands(f"RUN {a}") if not image_housekeeping(c)]
    build = next(a for w, a in ins[sources:] if w == "RUN" and "./course setup" in a)
    return {"poms": poms, "fill": fill, "build": run_commands(f"RUN {build}")}


def test_the_images_maven_repository_builds_the_course_offline(tmp_path):
    steps = dockerfile_steps()
    work = tmp_path / "opt" / "vthreads-course"
    conda = tmp_path / "conda"
    repo = tmp_path / "m2" / "repository"
    repo.mkdir(parents=True)
    work.mkdir(parents=True)

    # 1. The poms alone, where the Dockerfile puts them.
    for *srcs, dest in steps["poms"]:
        assert dest.endswith("/"), f"COPY … {dest}: copy poms into their folder (a destination ending in /)"
        (work / dest).mkdir(parents=True, exist_ok=True)
        for s in srcs:
            shutil.copy2(ROOT / s, work / dest / Path(s).name)
    assert sorted(p.relative_to(work).as_posix() for p in work.rglob("*") if p.is_file()) == \
        sorted(p for *srcs, _ in steps["poms"] for p in srcs)

    # 2. The Dockerfile's fill commands, into the empty repository, with this machine's repository as remote.
    fill_home = maven_home(tmp_path, developer_repository().resolve().as_uri(), offline=False)
    fill_env = dict(os.environ, MAVEN_OPTS=f"-Dmaven.repo.local={repo} -Duser.home={fill_home}",
                    HOME=str(fill_home), NB_USER="nobody-here")
    fill_env.pop("MAVEN_ARGS", None)
    assert steps["fill"], "the Dockerfile has no fill step"
    for cmd in steps["fill"]:
        r = run(cmd, work, fill_env)
        assert r.returncode == 0, f"fill step {cmd!r} failed:\n{show(r)}"
    assert not (work / "kit" / "target").exists(), "the fill step leaves build outputs behind"

    # 3. The sources, as `COPY . /opt/vthreads-course` brings them (no build outputs).
    shutil.copytree(ROOT, work, ignore=IGNORED, dirs_exist_ok=True, symlinks=True)

    # 4. The Dockerfile's offline build and grade, with Maven unable to download anything.
    env, log = offline_env(tmp_path, repo)
    env["CONDA_DIR"] = str(conda)
    env["NB_USER"] = "nobody-here"
    course_cmds = [c for c in steps["build"] if "./course" in c]
    assert course_cmds and all(c.startswith("MAVEN_ARGS=--offline ") for c in course_cmds), course_cmds
    (tmp_path / "course-build").mkdir()
    for cmd in course_cmds:
        cmd = cmd.replace("/tmp/course-build", str(tmp_path / "course-build"))
        r = run(cmd, work, env)
        assert r.returncode == 0, f"{cmd!r} failed offline: the image's repository lacks something\n{show(r)}"
    calls = log.read_text()
    assert " install" in calls, "the offline step ran no Maven build, so it proved nothing:\n" + calls
    assert (conda / "share" / "jupyter" / "kernels" / "vthreads-java" / "kernel.json").is_file()
    assert json.loads((tmp_path / "course-build" / "grade.json").read_text())["tests"]

    # 5. A learner's `./course test` starts with `mvn verify`: surefire's and failsafe's JUnit Platform provider and
    #    launcher must be there too. Surefire resolves them only when it runs a test (with no test selected it
    #    resolves nothing, and this step could not fail), so one quick unit test and one quick integration test of
    #    the kit run. Every module runs the parent's surefire and failsafe on the same JUnit: one module is enough.
    reports = work / "kit" / "target"
    r = run(["mvn", "-B", "-q", "--offline", "-pl", "kit", "verify", "-Dtest=RunResultTest", "-Dit.test=ScaleIT"],
            work, env)
    assert r.returncode == 0 and (reports / "surefire-reports" / "TEST-course.kit.RunResultTest.xml").is_file() \
        and (reports / "failsafe-reports" / "TEST-course.kit.ScaleIT.xml").is_file(), \
        f"mvn verify offline failed: the image's repository lacks what surefire or failsafe runs tests with\n{show(r)}"
