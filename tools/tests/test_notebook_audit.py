"""The audit of `./course test` reads each executed notebook (no kernel needed).

`./course test` runs two notebooks at a time, so their timing checks see a busy machine: a check that misses in
every try then ends with a ⚠ line instead of a ✘. The audit must fail such a notebook, or a prediction that no
longer holds would pass CI. Notebook 04 times CPU-bound work on every core and is marked to run alone.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import course  # noqa: E402
from course_cli.notebooks import APPENDICES  # noqa: E402

GOOD = "✔ virtual threads against the fixed pool, speed-up: measured 30.96 ×, predicted at least 10 ×\n"
MISSED = ("⚠ fixed pool of 2, elapsed: measured 412.0 ms, predicted 270 ms … 380 ms [3 tries: 407.0 ms, 397.3 ms, "
          "412.0 ms]; the machine was busy: other programs used 0.27 of 2 cores (/proc/stat)\n")


def executed(tmp_path: Path, *texts: str, name: str = f"{APPENDICES[0]}.ipynb") -> Path:
    """An executed appendix notebook (it grades nothing) with two charts, a table and the given printed lines."""
    outputs = [{"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo="}, "metadata": {}}] * 2
    outputs += [{"output_type": "display_data", "data": {"text/html": "<table></table>"}, "metadata": {}}]
    outputs += [{"output_type": "stream", "name": "stdout", "text": t} for t in texts]
    nb = {"cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "execution_count": 1,
                     "outputs": outputs}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / name
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def test_a_notebook_whose_checks_all_held_passes_the_audit(tmp_path):
    assert course.audit_notebook(executed(tmp_path, GOOD), None) == []


def test_a_timing_check_that_missed_in_every_try_fails_the_audit_busy_or_not(tmp_path):
    problems = course.audit_notebook(executed(tmp_path, GOOD, "some output\n" + MISSED), None)
    assert len(problems) == 1, problems
    assert problems[0].startswith("a timing check missed in every try"), problems
    assert "fixed pool of 2, elapsed: measured 412.0 ms" in problems[0], problems


def test_the_kind_of_notebook_comes_from_the_courses_list(tmp_path):
    """The appendix grades nothing; a notebook the list does not name (a lesson not yet listed) is held to a
    lesson's standard: it must print its grade cell's score."""
    assert course.audit_notebook(executed(tmp_path, GOOD, name="09-fan-in.ipynb"), None) == [
        "its grade cell printed no score"]


def test_notebooks_04_and_08_run_alone_and_no_other():
    alone = [nb.name for nb in sorted((ROOT / "notebooks").glob("*.ipynb")) if course.runs_alone(nb)]
    assert alone == ["04-io-vs-cpu.ipynb", "08-http-service.ipynb"]
