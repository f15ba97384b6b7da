"""``%exercise NN-name`` loads the learner's own classes into the kernel, and ``Yours`` runs them.

One fixture notebook (``fixtures/exercise-live.ipynb``) loads exercise 02 and runs ``Cafe.serve`` on a
recorded fixed pool of 3, three ways, by pointing ``COURSE_EXERCISES_DIR`` at a folder of exercises:

- the course's stubs: the cell says in one line that ``Cafe.serve`` is not written yet, and goes on;
- the reference solutions: the learner's code runs, and the recorder saw its 12 tasks, 3 at a time;
- a copy with a syntax error: the magic fails, naming the file and the line.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.kernel

from test_runner import REPO, RUNNER, FIXTURES, RUN_TIMEOUT_S, needs_kernel

sys.path.insert(0, str(REPO / "tools"))
from course_cli import answers  # noqa: E402

# A learners' template (./course template) has no solutions/: what needs them is skipped, saying so.
needs_answers = pytest.mark.skipif(not (REPO / "solutions").is_dir(), reason=answers.NO_ANSWERS)


def run_fixture(tmp_path: Path, exercises: Path) -> tuple[int, str, list[str]]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COURSE_EXERCISES_DIR=str(exercises))
    proc = subprocess.run([sys.executable, str(RUNNER), str(FIXTURES / "exercise-live.ipynb"), "--out", str(tmp_path),
                           "--scale", "quick"], cwd=REPO, env=env, capture_output=True, text=True, encoding="utf-8",
                          timeout=RUN_TIMEOUT_S)
    nb = nbformat.read(tmp_path / "exercise-live.ipynb", as_version=4)
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            texts.append(out.get("text", "") + data.get("text/html", "") + data.get("text/plain", "")
                         + out.get("evalue", ""))
    return proc.returncode, proc.stdout + proc.stderr, texts


@needs_kernel
def test_a_stub_gives_one_line_and_the_notebook_goes_on(tmp_path):
    rc, log, texts = run_fixture(tmp_path, REPO / "exercises")
    assert rc == 0, log
    joined = "\n".join(texts)
    assert "loaded your CafeReport.java, Cafe.java from exercises/02-cafe" in joined
    assert "\u270e Cafe.serve is not written yet" in joined
    assert "Traceback" not in joined and "UnsupportedOperationException" not in joined
    assert "recorded 0 tasks, peak 0" in joined


@needs_kernel
@needs_answers
def test_the_learners_code_runs_on_the_recorded_executor(tmp_path):
    rc, log, texts = run_fixture(tmp_path, REPO / "solutions")
    assert rc == 0, log
    joined = "\n".join(texts)
    assert "report CafeReport[served=12" in joined and "peakBrewing=3]" in joined
    assert "recorded 12 tasks, peak 3" in joined
    # the folder it read, named as it is (./course book runs the "Your turn" cells this way)
    assert "loaded the reference solution's CafeReport.java, Cafe.java from solutions/02-cafe" in joined
    assert "loaded your" not in joined


@needs_kernel
@needs_answers
def test_code_that_does_not_compile_is_named_with_its_line(tmp_path):
    broken = tmp_path / "exercises"
    shutil.copytree(REPO / "solutions" / "02-cafe", broken / "02-cafe")
    cafe = next((broken / "02-cafe").rglob("Cafe.java"))
    lines = cafe.read_text().splitlines()
    at = next(i for i, l in enumerate(lines) if "public static CafeReport serve" in l)
    lines.insert(at + 2, "        int x = ;")
    cafe.write_text("\n".join(lines) + "\n")
    rc, log, texts = run_fixture(tmp_path / "out", broken)
    assert rc != 0
    joined = "\n".join(texts) + log
    assert "your exercise 02-cafe does not compile" in joined, joined
    assert f"Cafe.java: line {at + 3}: illegal start of expression" in joined, joined
