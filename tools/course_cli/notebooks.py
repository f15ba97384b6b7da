"""Notebooks: running one headless (``./course run``), which run alone, and what an executed one must show."""
from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

from . import facts
from .build import course_scale
from .facts import ROOT
from .host import ensure_fonts, find_jdk, java_major, jupyter_python
from .setup import cmd_setup
from .ui import fail, say

TOOLS = ROOT / "tools"

# The course's notebooks, in the order a learner takes them (``notebooks/NAME.ipynb``): the one list of them, and of
# what each kind must hold. The style tests (tools/tests/test_notebook_style.py, test_predictions_are_blind.py) and
# the audit below hold a notebook to the standard of its kind; README.md's table (## The course) and the welcome's
# course map list the same notebooks in the same order, and a notebook in notebooks/ that is not listed here fails
# (test_notebook_style.py checks both). CONTRIBUTING.md, "Adding a lesson", says what a lesson must hold.
WELCOME = "00-welcome"  # how the course works: one prediction and its run; no self-check cells, no exercise
LESSONS = (  # a question, a prediction, a live run, a self-check, and an exercise under "Your turn"
    "01-thread-creation-cost",
    "02-cafe-simulation",
    "03-fixed-pool-batch-math",
    "04-io-vs-cpu",
    "05-semaphore-throttling",
    "06-pinning-and-diagnostics",
    "07-structured-concurrency",
    "08-http-service",
)
APPENDICES = ("90-measuring-honestly",)  # the apparatus the lessons link to: charts and checks, no prediction, no grade
COURSE = (WELCOME, *LESSONS, *APPENDICES)


def listing_problems(folder: Path) -> list[str]:
    """What keeps the notebooks in ``folder`` from being the course's list (empty when they are): a listed notebook
    that is missing, and a notebook that is neither the welcome, a lesson nor an appendix, which no style test
    would read."""
    present = {p.stem for p in folder.glob("*.ipynb")}
    problems = [f"{name}.ipynb is in the course's list (tools/course_cli/notebooks.py) but not in {folder}"
                for name in COURSE if name not in present]
    problems += [f"{name}.ipynb is neither the welcome, a lesson nor an appendix: add it to LESSONS (or APPENDICES)"
                 " in tools/course_cli/notebooks.py, and to README.md's table" for name in sorted(present - set(COURSE))]
    return problems


def notebook_command(nb: Path, scale: str, timeout: int | None = None, py: str | None = None) -> list[str]:
    """The runner's command for ``nb``; ``py`` is a Python with Jupyter's modules where the caller found one (and
    the fonts) already: otherwise each command looks for one again, a child Python per candidate."""
    if py is None:
        py = jupyter_python()
        ensure_fonts()
    cmd = [py, str(TOOLS / "run_notebook.py"), str(nb), "--out", str(ROOT / "target" / "notebooks"),
           "--scale", scale]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    return cmd


def run_notebook(nb: Path, scale: str, timeout: int | None = None) -> int:
    return subprocess.run(notebook_command(nb, scale, timeout)).returncode


def runs_alone(nb: Path) -> bool:
    """A notebook whose metadata says ``"course": {"runs_alone": true}``: what it times keeps every core busy
    (notebook 04's CPU-bound tasks, notebook 08's server and its load), so `./course test` runs nothing beside it."""
    try:
        meta = json.loads(nb.read_text(encoding="utf-8")).get("metadata", {})
    except (OSError, ValueError):
        return False
    return bool(meta.get("course", {}).get("runs_alone"))


def cmd_run(args) -> int:
    nb = Path(args.notebook)
    if not nb.exists():
        fail(f"no notebook at {nb}")
    cmd_setup(argparse.Namespace(prefix=None))
    feature = java_major(find_jdk())
    for what, why in facts.needs_jdk() if feature != facts.release() else []:
        if re.search(rf"\bnotebooks? (\d\d(, | and ))*{nb.name[:2]}\b", what):
            say(f"warning: {what} need JDK {facts.release()}, and this is JDK {feature}: {why}")
    return run_notebook(nb.resolve(), course_scale(args.scale), args.timeout)


# Two kernels and the Jupyter server must fit the 4 GB of a learner's pod (deploy/jupyterhub/values.yaml):
# JupyterLab keeps a kernel for every notebook opened, so the two largest idle kernels must stay under this.
TWO_KERNELS_BYTES = int(2.5e9)


def kernel_memory_problems(folder: Path, notebooks: list[Path]) -> list[str]:
    """Any two of ``notebooks``' kernels, once idle, fit a learner's pod: the two largest idle resident sizes that
    ``run_notebook.py --memory`` wrote to ``folder`` (``NAME.memory.json``, one per notebook) sum to less than
    :data:`TWO_KERNELS_BYTES`. Prints the figures; returns the problems."""
    sizes, problems = {}, []
    for nb in notebooks:
        f = folder / (nb.stem + ".memory.json")
        if not f.is_file():
            problems.append(f"{nb.name}: its run wrote no {f.name} (needs Linux's /proc)")
            continue
        sizes[nb.name] = json.loads(f.read_text(encoding="utf-8"))
    if len(sizes) < 2:
        return problems or ["fewer than two kernels measured"]
    (a, ma), (b, mb) = sorted(sizes.items(), key=lambda kv: -kv[1]["bytes"])[:2]
    total = ma["bytes"] + mb["bytes"]
    gb = lambda n: f"{n / 1e9:.2f} GB"  # noqa: E731
    say(f"kernels' resident memory when idle: the largest {a} {gb(ma['bytes'])} and {b} {gb(mb['bytes'])}, "
        f"{gb(total)} together (under {gb(TWO_KERNELS_BYTES)} for a learner's pod); "
        + ", ".join(f"{n[:2]} {gb(m['bytes'])}" for n, m in sorted(sizes.items())))
    if total >= TWO_KERNELS_BYTES:
        problems.append(f"the kernels of {a} and {b} still hold {gb(total)} when idle "
                        f"({gb(ma['bytes'])} after {ma['after_s']:.0f} s, {gb(mb['bytes'])} after {mb['after_s']:.0f} s), "
                        f"over the {gb(TWO_KERNELS_BYTES)} two kernels may use in a learner's pod")
    return problems


def audit_notebook(path: Path, graded: dict | None) -> list[str]:
    """What an executed notebook lacks of the course's standard, as sentences (empty when it has it all).

    The welcome (:data:`WELCOME`) needs the Java version, a chart and a table; the lessons need two charts, a table
    and a ✔ check, and their grade cell's score must be the one ``./course grade`` gives for the same exercise; an
    appendix (:data:`APPENDICES`) needs the charts, table and checks but grades nothing. A notebook the list does
    not name is held to a lesson's standard."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    pngs = tables = checks = 0
    texts = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            pngs += "image/png" in data
            html = "".join(data.get("text/html", "")) if isinstance(data.get("text/html"), list) else data.get("text/html", "")
            tables += "<table" in html
            text = "".join(out.get("text", "")) if isinstance(out.get("text"), list) else out.get("text", "")
            texts.append(text)
            checks += sum(1 for line in text.splitlines() if line.lstrip().startswith("\u2714"))
    problems = []
    is_welcome = path.stem == WELCOME
    is_appendix = path.stem in APPENDICES
    need_png = 1 if is_welcome else 2
    if pngs < need_png:
        problems.append(f"{pngs} image/png charts, at least {need_png} expected")
    if tables < 1:
        problems.append("no HTML <table> output")
    if is_welcome:
        m = re.search(r"Java (\d+)", "".join(texts))
        if not m or int(m.group(1)) != facts.release():
            problems.append(f"no printed Java version {facts.release()}, the release the course runs on")
    elif checks < 1:
        problems.append("no \u2714 check of a measurement against a prediction")
    # A ⚠ line: a timing check missed in every try while the machine was busy. In a notebook that is where it
    # stops judging; here, where two notebooks run at once by design, every check must still hit within its tries.
    warned = [line.strip() for text in texts for line in text.splitlines() if line.lstrip().startswith("\u26a0")]
    problems += [f"a timing check missed in every try (run `./course test` again on a quieter machine): {w[:300]}"
                 for w in warned]
    m = re.search(r"^(\d\d-[a-z0-9-]+): (\d+)/(\d+) points", "".join(texts), re.M)
    if not is_welcome and not is_appendix:
        if not m:
            problems.append("its grade cell printed no score")
        elif graded is not None:
            ex, got, of = m.group(1), int(m.group(2)), int(m.group(3))
            tests = [t for t in graded.get("tests", []) if str(t.get("name", "")).startswith(ex)]
            want = (sum(t["score"] for t in tests), sum(t["max_score"] for t in tests))
            if (got, of) != want:
                problems.append(f"its grade cell gave {got}/{of} for {ex}, ./course grade gives {want[0]}/{want[1]}")
    return problems
