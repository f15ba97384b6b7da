"""The command line of ``./course``, and the commands that run the build's Java entry points."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from . import autograder, facts, mutation_bench, progress, pyenv
from .build import build, course_files, course_scale, java_main
from .classroom import cmd_classroom
from .facts import ROOT
from .host import ensure_fonts, find_jdk, find_maven, java_env, jupyter_python
from .lab import cmd_lab
from .notebooks import cmd_run
from .setup import cmd_setup
from .suite import cmd_test
from .template import build as build_template
from .ui import fail, say

TOOLS = ROOT / "tools"
SCALE_HELP = "full or quick (default: $COURSE_SCALE, else full; the kit's course.kit.Scale checks it)"


# ---------------------------------------------------------------------------------------------- the course's Python

# The commands that build the course first: on a first run, Maven builds while pip fills the environment.
BUILDS_FIRST = {"lab", "run", "test", "book"}


def make_beside_the_build(argv: list[str]) -> None:
    """On a first run (no environment yet), makes the environment in a second process while this one runs the
    Maven build, which the command would run next anyway: both mostly wait for downloads."""
    venv = pyenv.venv_dir()
    if os.environ.get("COURSE_PYTHON") or pyenv.current(venv) or not argv or argv[0] not in BUILDS_FIRST:
        return
    if (sys.prefix != sys.base_prefix and pyenv.current(Path(sys.prefix))) or pyenv.in_conda_with_jupyter():
        return
    maker = subprocess.Popen([sys.executable, "-c", "import sys; from course_cli import pyenv; pyenv.make()"],
                             cwd=TOOLS)
    try:
        build(find_jdk())
    finally:
        if maker.wait() != 0:
            fail("the course's Python environment could not be made (see above)")


def reexec_in_environment(argv: list[str], script: Path) -> None:
    """Runs ``script ARGV`` again in the course's Python (pyenv.py), unless this is it already: ``script`` is the
    entry point that calls this (tools/course.py), which alone knows its path. A virtual environment chosen here
    is named in ``$COURSE_VENV`` for what this command starts (a copy of the course in a test)."""
    make_beside_the_build(argv)
    py = pyenv.python()
    if sys.prefix != sys.base_prefix and Path(py).absolute() == Path(sys.executable).absolute():
        os.environ.setdefault("COURSE_VENV", sys.prefix)
    if Path(py).absolute() == Path(sys.executable).absolute():
        return
    if Path(py).parent.parent.joinpath(pyenv.STAMP).exists():
        os.environ.setdefault("COURSE_VENV", str(Path(py).parent.parent))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(py, [py, str(script), *argv])


# ---------------------------------------------------------------------------------------------- the commands

def needs_answers(what: str) -> None:
    """Stops a command that runs the reference solutions in a course without them (a learners' template)."""
    if not (ROOT / "solutions").is_dir():
        fail(f"no solutions/ folder in this course (a learners' template): {what} runs the reference solutions")


def cmd_bench(args, rest: list[str]) -> int:
    """Benchmarks print figures and assert nothing; `kernel` compares the course kernel with ipykernel,
    `mutation` gives PIT's mutation score of each exercise's tests, `first-run` times a newcomer's first
    `./course lab` (tools/first_run_bench.py)."""
    if args.what == "first-run":  # a fresh clone of its own: nothing here is built for it
        return subprocess.run([jupyter_python(), str(TOOLS / "first_run_bench.py"), *rest]).returncode
    if args.what == "mutation":
        needs_answers("./course bench mutation")
        known = course_files()[0]  # after the build: the kit, which the exercises' tests use, in Maven's repository
        return mutation_bench.main(rest, find_maven(), java_env(find_jdk()), known)
    cmd_setup(argparse.Namespace(prefix=None))
    py = jupyter_python()
    return subprocess.run([py, str(TOOLS / "kernel_bench.py"), *rest]).returncode


def cmd_reproduce(args, rest: list[str]) -> int:
    scale = ["--scale", args.scale] if args.scale is not None else []  # else the JVM reads COURSE_SCALE itself
    return java_main("kit", "reproduce.main", "cli", [*scale, "--out", str(Path(args.out).resolve()), *rest])


def cmd_grade(rest: list[str]) -> int:
    return java_main("grader", "grader.main", "grader", rest)


def cmd_manifest(args) -> int:
    """The grader's manifest of the exercises' tests and stubs, written by the grader (course.grader.Pristine),
    which is also what checks it: one writer, in Java."""
    return java_main("grader", "pristine.main", "cli", ["--write", str(ROOT)])


def cmd_book(args) -> int:
    """The course as a static site (tools/book.py): every notebook executed with the solutions loaded, or
    --executed DIR, notebooks already executed; nbconvert with the course's template writes target/book/."""
    if not args.executed:
        needs_answers("./course book (without --executed DIR)")
    cmd_setup(argparse.Namespace(prefix=None))
    py = jupyter_python()
    ensure_fonts()
    cmd = [py, str(TOOLS / "book.py"), "--scale", course_scale(args.scale), "--out", str(Path(args.out).resolve())]
    cmd += ["--executed", str(Path(args.executed).resolve())] if args.executed else []
    return subprocess.run(cmd, cwd=ROOT, env=java_env(find_jdk())).returncode


def cmd_progress(args) -> int:
    """Where the learner stands, per notebook: predictions, self-check, the exercise's last grade (progress.py)."""
    notebooks = Path(args.notebooks).resolve() if args.notebooks else None
    if notebooks is not None and not notebooks.is_dir():
        fail(f"no folder {notebooks}")
    print(progress.report(ROOT, notebooks), flush=True)
    return 0


def cmd_autograder(args) -> int:
    """Builds the Gradescope autograder zip (see autograder.py and deploy/README.md)."""
    chosen = [e for e in (args.exercises or "").split(",") if e]
    try:
        out = autograder.build(ROOT, Path(args.out).resolve(), chosen, args.profile, args.leaderboard)
    except ValueError as e:
        fail(str(e))
    say(f"wrote {out} ({out.stat().st_size // 1024} KiB): upload it as the assignment's autograder on Gradescope")
    return 0


def cmd_template(args) -> int:
    """The learners' repository: the course without its answers, checked for leaks (course_cli/template.py)."""
    try:
        written = build_template(ROOT, Path(args.out))
    except ValueError as e:
        fail(str(e))
    left = sum(written.left_out.values())
    say(f"wrote the learners' repository to {written.out}: {written.files} of the {written.files + left} files git"
        f" tracks, {written.sealed} self-check files with their answers sealed; no answer found in it")
    for why, count in sorted(written.left_out.items(), key=lambda kv: -kv[1]):
        say(f"  left out: {why} ({count} file{'s' if count > 1 else ''})")
    say("push it as the learners' template repository (deploy/README.md, § How learners submit)")
    return 0


def parser() -> argparse.ArgumentParser:
    """``./course``'s command line: one subcommand per command (README.md's table of commands lists them)."""
    p = argparse.ArgumentParser(prog="./course", description="The Java virtual threads course.")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup", help=f"find JDK {facts.release()}, build the kit, install the 'vthreads-java' "
                                     "Jupyter kernel")
    s.add_argument("--prefix", help="install the kernelspec into PREFIX/share/jupyter/kernels (Docker, conda)")
    s.add_argument("--rebuild", action="store_true", help="run the Maven build even if nothing changed")
    s = sub.add_parser("lab", help="start JupyterLab on notebooks/ (the course's own Python environment)")
    s.add_argument("--port", type=int, default=8888)
    s.add_argument("--ip", default="127.0.0.1")
    s.add_argument("--no-exec", dest="exec", action="store_false", help=argparse.SUPPRESS)
    s = sub.add_parser("run", help="execute one notebook headless; writes target/notebooks/NAME.{ipynb,html}")
    s.add_argument("notebook")
    s.add_argument("--scale", help=SCALE_HELP)
    s.add_argument("--timeout", type=int, help="seconds per cell (default: 600 quick, 1800 full)")
    sub.add_parser("test", help="the whole test suite: mvn verify, grader, kernel tests, notebooks (quick)")
    s = sub.add_parser("reproduce", help="run every article experiment; writes target/reproduction.{md,csv}")
    s.add_argument("--scale", help=SCALE_HELP)
    s.add_argument("--out", default=str(ROOT / "target"), help="folder for reproduction.md and .csv (default: target/)")
    sub.add_parser("grade", help="grade the exercises (./course grade --help for options)")
    s = sub.add_parser("bench", help="benchmarks that print figures: `bench kernel` (the kernel next to ipykernel),"
                                      " `bench mutation [NN-name …]` (PIT's mutation score of the exercises' tests), `bench first-run` (a"
                                      " fresh clone to JupyterLab listing the kernel, step by step)")
    s.add_argument("what", choices=["kernel", "mutation", "first-run"])
    s = sub.add_parser("book", help="execute every notebook (solutions loaded) and write the course as a static"
                                     " site to target/book/ (or --out DIR)")
    s.add_argument("--scale", help=SCALE_HELP)
    s.add_argument("--out", default=str(ROOT / "target" / "book"))
    s.add_argument("--executed", help="build from a folder of notebooks already executed (no run)")
    s = sub.add_parser("progress", help="a table per notebook: predictions made, self-check answered right, the"
                                         " exercise's last grade (from the notebooks Jupyter saved)")
    s.add_argument("--notebooks", help="the folder of executed notebooks to read (default: notebooks/)")
    s = sub.add_parser("autograder", help="build a Gradescope autograder zip (setup.sh, run_autograder, the tests)")
    s.add_argument("--exercises", help="comma-separated exercises, for example 01-thread-cost,02-cafe (default: all)")
    s.add_argument("--out", default=str(ROOT / "target" / "autograder.zip"), help="the zip (default: target/autograder.zip)")
    s.add_argument("--profile", choices=["trainer", "learner"], default="trainer",
                   help="trainer (default) also runs the hidden tests in trainer/")
    s.add_argument("--leaderboard", action="store_true", help="add Gradescope's leaderboard (the points)")
    sub.add_parser("manifest", help="write the grader's manifest of the exercises' tests and stubs (their SHA-256),"
                                    " after changing one")
    s = sub.add_parser("template", help="write the learners' repository to OUT: the course without its answers"
                                         " (solutions, hidden tests, mutants, …), checked for leaks")
    s.add_argument("out", help="a new or empty folder, or one that ./course template wrote before (its .git kept)")
    s = sub.add_parser("classroom", help="a real JupyterHub of learners on this machine (root): a system user and home"
                                          " each, the course kernel, the idle culler, the class view; Ctrl-C removes it all")
    s.add_argument("--learners", type=int, default=5, help="how many learners, learner1 … learnerN (default 5)")
    s.add_argument("--dir", default="/tmp/vthreads-classroom",
                   help="the classroom's folder: Python environment, homes, the hub's state (default /tmp/vthreads-classroom)")
    s.add_argument("--scale", help=SCALE_HELP)
    return p


def commands() -> dict[str, argparse.ArgumentParser]:
    """Each subcommand of :func:`parser`, by name, with its own parser."""
    return next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices


def main(argv: list[str]) -> int:
    if argv and argv[0] == "grade":  # the grader parses its own options
        return cmd_grade(argv[1:])
    p = parser()
    args, rest = p.parse_known_args(argv)
    if args.cmd == "reproduce":
        return cmd_reproduce(args, rest)
    if args.cmd == "bench":
        return cmd_bench(args, rest)
    if rest:
        p.error("unrecognized arguments: " + " ".join(rest))
    return {"setup": cmd_setup, "lab": cmd_lab, "run": cmd_run, "test": cmd_test,
            "autograder": cmd_autograder, "progress": cmd_progress,
            "book": cmd_book, "manifest": cmd_manifest, "template": cmd_template, "classroom": cmd_classroom}[args.cmd](args)
