"""``./course test``: the whole test suite, as a declared list of steps, run by ``schedule.schedule``.

A step is a name, what it runs (a command, or a Python function for the audits), and the group it belongs to:
consecutive steps of one group run side by side (at most the group's width at a time), and a group starts
when the steps before it have ended (``schedule.py``). To add a step, add one entry to the list :func:`steps`
returns.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

from .facts import ROOT
from .host import JUPYTER_MODULES, apt_install, ensure_fonts, find_jdk, find_maven, is_debian_root, java_env, \
    jupyter_python
from .notebooks import TWO_KERNELS_BYTES, audit_notebook, kernel_memory_problems, notebook_command, runs_alone
from .schedule import Counts, Outcome, Step, schedule
from .setup import cmd_setup
from .ui import say

TOOLS = ROOT / "tools"


# ---------------------------------------------------------------------------------------------- counts

def surefire_counts() -> Counts:
    passed = failed = skipped = 0
    for rep in [*ROOT.glob("**/target/surefire-reports/TEST-*.xml"), *ROOT.glob("**/target/failsafe-reports/TEST-*.xml")]:
        try:
            t = ET.parse(rep).getroot()
        except ET.ParseError:
            continue
        n, f, e, s = (int(t.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        passed += n - f - e - s
        failed += f + e
        skipped += s
    return passed, failed, skipped


def junit_xml_counts(path: Path) -> Counts:
    if not path.exists():
        return 0, 0, 0
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    p = f = s = 0
    for t in suites:
        n, fl, e, sk = (int(t.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        p += n - fl - e - sk
        f += fl + e
        s += sk
    return p, f, s


# ---------------------------------------------------------------------------------------------- the steps

GOLDEN = ROOT / "grader" / "src" / "test" / "resources" / "golden"


def stubs_graded() -> dict | None:
    """What ``./course grade`` gives the stubs, every exercise's tests in one report: the grader's golden results of
    the stubs (``golden/NN-name/stubs.json``), which GoldenResultsIT, in ``mvn verify`` before, holds equal to a
    real grading. The audits compare each notebook's grade cell with it. None when there are none."""
    files = sorted(GOLDEN.glob("*/stubs.json"))
    if not files:
        return None
    return {"tests": [t for f in files for t in json.loads(f.read_text(encoding="utf-8"))["tests"]]}


def browser_command(mvn: str) -> list[str] | None:
    """The browser test against ./course lab: Debian's Chromium and its driver, never a downloaded one."""
    if not (ROOT / "e2e" / "pom.xml").exists():
        return None
    if not (shutil.which("chromium") and shutil.which("chromedriver")) and is_debian_root():
        apt_install(["chromium", "chromium-driver"])
    if shutil.which("chromium") and shutil.which("chromedriver"):
        return [mvn, "-B", "-q", "-f", str(ROOT / "e2e" / "pom.xml"), "verify"]
    return None


CLASSROOM_CORES = 4  # the classroom test fits ./course test's 15 minutes from here up (see cmd_test)


def steps(py: str, mvn: str, cores: int, browser: list[str] | None, classroom: bool = False) -> list[Step]:
    """Every step of ``./course test``, in order."""
    two = cores >= 2
    # 3. Python-level tests: with two cores or more, two pytest processes at once: the tests that start kernels,
    # and the rest (builds of copies of the course, the image's steps, gradings). Each mostly waits for JVMs and
    # Maven; every test has its own folders.
    # Splitting the rest once more (three or four shards) made this step slower, not faster: it is bound by the
    # two cores, and more JVMs at once only share them (284 s and 295 s, against 256 s with two).
    # The kernel protocol's conformance suite (20 s) runs with the rest, which took 199 s against the kernel tests'
    # 237 s in a fresh clone's run.
    shards = [("kernel", "kernel and not conformance and not hub"), ("rest", "(not kernel or conformance) and not hub")] \
        if two else [("all", "not hub")]

    def pytest(name: str, marker: str | None, *extra: str) -> Step:
        xml = ROOT / "target" / f"pytest-{name}.xml"
        cmd = [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=8", f"--junitxml={xml}", *extra,
               *(["-m", marker] if marker else []), str(TOOLS / "tests")]
        return Step("pytest tools/tests" + (f" -m \"{marker}\"" if marker else ""), cmd, "checks",
                    counts=lambda: junit_xml_counts(xml), ok_codes=(0, 5) if marker else (0,))  # 5: none selected

    # 4. Every notebook, headless, at the quick scale, and the browser test. The notebooks marked `runs_alone`
    # (what they time keeps every core busy) run first, one at a time; then the browser test and the others, later
    # ones first (they are the longer ones), two at a time: every timing check runs again on a miss, and a
    # check that missed in every try fails its audit, busy or not.
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"), reverse=True)
    alone = [nb for nb in notebooks if runs_alone(nb)]
    together = [nb for nb in notebooks if nb not in alone]

    def run_nb(nb: Path) -> list[str]:  # each kernel's idle memory too, for the kernel-memory audit
        return notebook_command(nb, "quick", py=py) + ["--memory", str(TWO_KERNELS_BYTES // 2)]

    def ran(nb: Path) -> str:
        return f"notebook {nb.name}" + (" (alone)" if nb in alone else "")

    def audit(nb: Path) -> Callable[[], list[str]]:
        def check() -> list[str]:
            return audit_notebook(ROOT / "target" / "notebooks" / nb.name, stubs_graded())
        return check

    e2e = ROOT / "e2e" / "pom.xml"
    return [
        # 1. Every module's unit tests (Surefire) and integration tests (Failsafe: forked JVMs, whole gradings, the
        # grader's golden results.json of every exercise's stubs, solution and a mutant), and dependency:analyze.
        Step("mvn verify", [mvn, "-B", "-q", "verify"], counts=surefire_counts),
        # 2. One format: `mvn spotless:apply` (and the same with -f e2e/pom.xml) formats what this finds. It only
        # reads the sources, so it runs beside pytest.
        Step("spotless:check", [[mvn, "-B", "-q", "spotless:check"],
                                *([[mvn, "-B", "-q", "-f", str(e2e), "spotless:check"]] if e2e.exists() else [])],
             "checks"),
        # The classroom: a real JupyterHub, five learners running notebook 02 and grading exercise 02 at once
        # (tools/tests/test_hub_classroom.py), where cmd_test includes it. -s: it prints each learner's peak memory
        # beside values.yaml's request and limit.
        *([pytest("classroom", "hub", "-s")] if classroom else []),
        *[pytest(name, marker) for name, marker in shards],
        *[Step(ran(nb), run_nb(nb)) for nb in alone],
        # the browser test first: it is the longest of the group, and the shorter ones then fill the other slot
        *([Step("browser test", browser, "notebooks")] if browser else []),
        *[Step(ran(nb), run_nb(nb), "notebooks") for nb in together],
        # 4b. What every executed notebook must show, and its grade cell agreeing with ./course grade.
        *[Step(f"audit {nb.name}", audit(nb), "audits", needs=ran(nb)) for nb in sorted(notebooks)],
        # Any two notebooks' kernels, idle, fit a learner's pod beside the Jupyter server (each run above measured
        # its kernel once its last cell had run).
        Step("audit: two idle kernels fit a learner's pod",
             lambda: kernel_memory_problems(ROOT / "target" / "notebooks", notebooks), "audits",
             needs=tuple(ran(nb) for nb in notebooks)),
        # 6. The course as a book, from the notebooks just executed (no second run; tools/book.py refuses a page
        # that shows a solution or a self-check answer), read in headless Chromium: pages, links, images (BookIT).
        *([Step("book (from the executed notebooks) in a browser",
                [[py, str(TOOLS / "book.py"), "--scale", "quick", "--executed", str(ROOT / "target" / "notebooks"),
                  "--out", str(ROOT / "target" / "book")],
                 browser + ["-Dit.test=BookIT", f"-Dbook.dir={ROOT / 'target' / 'book'}"]],
                needs=tuple(ran(nb) for nb in notebooks))]
          if browser else []),
    ]


# ---------------------------------------------------------------------------------------------- running them

def plan_text(plan: list[Step]) -> list[tuple[str | None, list[str]]]:
    """The plan as ``schedule`` runs it: each group (or step alone) with its steps' names."""
    out: list[tuple[str | None, list[str]]] = []
    for s in plan:
        if out and s.group is not None and out[-1][0] == s.group:
            out[-1][1].append(s.name)
        else:
            out.append((s.group, [s.name]))
    return out


def cmd_test(args) -> int:
    t_start = time.monotonic()
    env = java_env(find_jdk())
    py = jupyter_python(JUPYTER_MODULES + ["pytest"])  # installs Jupyter first on a fresh Debian machine
    ensure_fonts()
    t_step = time.monotonic()
    cmd_setup(argparse.Namespace(prefix=None))
    setup_took = time.monotonic() - t_step
    for rep in [*ROOT.glob("**/target/surefire-reports"), *ROOT.glob("**/target/failsafe-reports")]:
        shutil.rmtree(rep, ignore_errors=True)
    mvn = find_maven()
    browser = browser_command(mvn)
    if browser is None and (ROOT / "e2e" / "pom.xml").exists():
        say("SKIP browser test: it needs chromium and chromedriver on PATH "
            "(Debian/Ubuntu: sudo apt-get install chromium chromium-driver)")
    cores = os.cpu_count() or 1
    # The classroom test costs some 190 s of CPU (five kernels, five Jupyter servers, the hub, two browsers): on two
    # cores it took ./course test from about 850 s to 950-1,050 s, past the 15 minutes CI allows. It runs here with
    # four cores or more, or when asked for.
    classroom = cores >= CLASSROOM_CORES or os.environ.get("COURSE_TEST_CLASSROOM", "").lower() in ("1", "yes", "on")
    if not classroom:
        say(f"SKIP classroom test (five learners on a real JupyterHub): on {cores} cores it would take this run past "
            f"15 minutes. Run it with COURSE_TEST_CLASSROOM=1 ./course test, or alone (as root): "
            f"{py} -m pytest -s -m hub tools/tests/test_hub_classroom.py")
    plan = steps(py, mvn, cores, browser, classroom)
    width = {"checks": len([s for s in plan if s.group == "checks"]), "notebooks": 2 if cores >= 2 else 1,
             "audits": 1}

    def starting(batch: list[Step]) -> None:
        at_once = width.get(batch[0].group, 1) if batch[0].group else 1
        say(", ".join(s.name for s in batch)
            + (f": side by side, {at_once} at a time" if at_once > 1 and len(batch) > 1 else "") + " …")
    printing = threading.Lock()

    def run_one(step: Step) -> Outcome | None:
        t0 = time.monotonic()
        if callable(step.run):
            problems = step.run()
            ok, out = not problems, "".join(f"✘ {step.name}: {p}\n" for p in problems)
        else:
            live = step.group is None  # a step that runs alone writes as it goes; one of a group, as one block
            runs = [subprocess.run(cmd, cwd=ROOT, env=env, stdout=None if live else subprocess.PIPE,
                                   stderr=None if live else subprocess.STDOUT, text=True, encoding="utf-8",
                                   errors="replace") for cmd in step.commands()]
            ok, out = all(r.returncode in step.ok_codes for r in runs), "".join(r.stdout or "" for r in runs)
        if not step.reported:
            return None
        counts = step.counts() if step.counts else ((1, 0, 0) if ok else (0, 1, 0))
        if not ok and counts[1] == 0:
            counts = (counts[0], 1, counts[2])
        took = time.monotonic() - t0
        with printing:  # each step's output as one block, as it ends
            print(out, end="" if out.endswith("\n") or not out else "\n", file=sys.stdout, flush=True)
            p, f, s = counts
            say(f"{'PASS' if ok else 'FAIL'} {step.name} ({p} passed, {f} failed{f', {s} skipped' if s else ''})"
                f" in {took:.0f} s")
        return Outcome(step.name, ok, counts, took)

    outcomes = schedule(plan, width, run_one, starting)
    say("time per step:")
    say(f"  {setup_took:6.0f} s  setup (build, kernelspec)")
    for o in outcomes:
        say(f"  {o.took:6.0f} s  {o.name}")
    if browser is None and (ROOT / "e2e" / "pom.xml").exists():
        outcomes.append(Outcome("browser test", True, (0, 0, 1), 0.0))
    passed, failed, skipped = (sum(o.counts[k] for o in outcomes) for k in range(3))
    say(f"took {time.monotonic() - t_start:.0f} s")
    failures = [o.name for o in outcomes if not o.ok]
    if failures:
        say("failed steps: " + ", ".join(failures))
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""), flush=True)
    return 1 if failed else 0
