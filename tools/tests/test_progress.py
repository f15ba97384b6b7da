"""``./course progress`` (tools/course_cli/progress.py) on a fixture of executed notebooks, built here with
nbformat as Jupyter saves them: one never run, one started, one half done, one all right. Fast, no kernel."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tools"))

from course_cli import progress  # noqa: E402

PRED = progress.PREDICTION_MIME
SELF = progress.SELFCHECK_MIME


def prediction(verdict: str, guess: float | None = 3000.0) -> dict:
    # as the kernel's JSON writer leaves nulls out: "guess", "ratio" and "term" may be absent
    entry = {"question": "café", "given": verdict != "none", "model": 50000.0, "formula": "⌈N/P⌉ · t",
             "measured": 50200.0, "unit": "ms", "verdict": verdict}
    if verdict != "none":
        entry["guess"] = guess
        entry["ratio"] = guess / 50200.0
    if verdict == "term":
        entry["term"] = "one wave, t"
    return entry


def shown(mime: str, value: dict) -> dict:
    return new_output("display_data", data={"text/plain": "…", "text/html": "<div>…</div>", mime: value})


def lesson(ran: dict[int, list[dict]] | None = None) -> nbformat.NotebookNode:
    """A lesson like 02: 2 predictions, an experiment, 4 self-check questions, a grade cell (10 code cells).
    ``ran`` maps the index of each code cell that ran to its saved outputs."""
    sources = [
        'import course.kit.*;',                                                                   # 0
        'var guess = Prediction.of("café", Duration.ofSeconds(0));   // your guess',            # 1
        'var perThread = Prediction.of("µs per thread", 0, "µs");',                              # 2
        'var pool = cafe();\nguess.against(Model.of("⌈N/P⌉ · t", 50_000, "ms"), pool.elapsed());\n'
        'perThread.against(Model.of("c", 60, "µs"), 58);',                                      # 3
        '// the experiment explained: Prediction.of( is not called here\nCharts.timelines(pool)', # 4
        'SelfCheck.answer("02.1", Duration.ofSeconds(/* your answer */ 0));',                    # 5
        'SelfCheck.answer("02.2", /* your answer */ 0);',                                        # 6
        'SelfCheck.answer("02.3", SelfCheck.Choice.NONE);',                                      # 7
        'SelfCheck.answer("02.4", /* true or false */ null);',                                   # 8
        '// Grades exercises/02-cafe\ncourse.grader.Grade.exercise("02-cafe")',                  # 9
    ]
    nb = new_notebook(cells=[new_markdown_cell("# 02 · The café")])
    for i, src in enumerate(sources):
        cell = new_code_cell(src)
        if ran is not None and i in ran:
            cell.execution_count = i + 1
            cell.outputs = ran[i]
        nb.cells.append(cell)
    return nb


def answer(qid: str, answered: bool, correct: bool) -> list[dict]:
    return [shown(SELF, {"id": qid, "answered": answered, "correct": correct})]


def write(folder: Path, name: str, nb) -> None:
    nbformat.validate(nb)
    nbformat.write(nb, folder / f"{name}.ipynb")


def fixture(tmp: Path) -> Path:
    course = tmp / "course"
    notebooks = course / "notebooks"
    notebooks.mkdir(parents=True)
    # never run
    write(notebooks, "01-never-run", lesson())
    # started: the first two cells ran, a guess was made but the experiment not run yet
    write(notebooks, "02-started", lesson({0: [], 1: [new_output("display_data", data={"text/plain": "…"})]}))
    # half done: both predictions judged (one missed a term, one left at its placeholder), two questions right,
    # one wrong, one not answered; graded 5/10
    write(notebooks, "03-half-done", lesson({
        0: [], 1: [], 2: [],
        3: [shown(PRED, prediction("term", 1100.0)), shown(PRED, prediction("none", None))],
        5: answer("02.1", True, True), 6: answer("02.2", True, True), 7: answer("02.3", True, False),
        8: answer("02.4", False, False),
    }))
    # all right: every cell ran, both predictions close, every question right, full marks
    write(notebooks, "04-all-right", lesson({
        **{i: [] for i in range(10)},
        3: [shown(PRED, prediction("close", 48000.0)), shown(PRED, prediction("close", 60.0))],
        5: answer("02.1", True, True), 6: answer("02.2", True, True), 7: answer("02.3", True, True),
        8: answer("02.4", True, True),
    }))
    (notebooks / "not-a-lesson.ipynb").write_text(json.dumps(lesson()), encoding="utf-8")
    grades = course / "target" / "grades"
    grades.mkdir(parents=True)
    (grades / "02-cafe.json").write_text(json.dumps(
        {"exercise": "02-cafe", "score": 5, "max": 10, "when": "2026-05-02T09:14:03Z", "profile": "learner",
         "problems": 0}), encoding="utf-8")
    return course


def rows_by_name(course: Path) -> dict[str, progress.Row]:
    return {r.notebook: r for r in progress.collect(course)}


def test_counts_come_from_the_source_and_results_from_the_saved_outputs(tmp_path):
    rows = rows_by_name(fixture(tmp_path))
    assert list(rows) == ["01-never-run", "02-started", "03-half-done", "04-all-right"]
    for r in rows.values():
        assert (r.code_cells, r.predictions_asked, r.questions, r.exercise) == (10, 2, 4, "02-cafe")

    never = rows["01-never-run"]
    assert not never.started and never.verdicts == [] and never.answers == {}

    started = rows["02-started"]
    assert started.started and started.cells_run == 2
    assert started.predictions_made == 0 and started.right == 0

    half = rows["03-half-done"]
    assert half.cells_run == 8
    assert half.verdicts == ["term", "none"] and half.predictions_made == 1 and half.close == 0
    assert half.right == 2 and half.answered == 3

    done = rows["04-all-right"]
    assert done.cells_run == 10 and done.close == 2 and done.right == 4


def test_the_table_says_it_plainly(tmp_path):
    text = progress.report(fixture(tmp_path))
    lines = text.splitlines()
    assert lines[0].split() == ["notebook", "cells", "predictions", "self-check", "exercise", "(last", "grade)"]
    by_name = {line.split()[0]: line for line in lines[2:]}
    assert set(by_name) == {"01-never-run", "02-started", "03-half-done", "04-all-right"}
    assert "not started" in by_name["01-never-run"]
    assert "– of 2" in by_name["01-never-run"] and "– of 4" in by_name["01-never-run"]
    assert "2 of 10 run" in by_name["02-started"] and "0 of 2 made" in by_name["02-started"]
    assert "0 of 4 right" in by_name["02-started"]
    assert "8 of 10 run" in by_name["03-half-done"]
    assert "1 of 2 made: 0 close, 1 missed a term" in by_name["03-half-done"]
    assert "2 of 4 right, 1 not yet" in by_name["03-half-done"]
    assert "all 10 run" in by_name["04-all-right"]
    assert "2 of 2 made: 2 close" in by_name["04-all-right"]
    assert "4 of 4 right" in by_name["04-all-right"] and "not yet" not in by_name["04-all-right"]
    # the exercise's last grade, whichever notebook names it
    assert all("02-cafe: 5/10 (2026-05-02" in line for line in by_name.values())


def test_an_exercise_never_graded_and_a_notebook_without_instruments(tmp_path):
    course = tmp_path / "course"
    (course / "notebooks").mkdir(parents=True)
    nb = new_notebook(cells=[new_code_cell('course.grader.Grade.exercise("07-structured")'),
                             new_code_cell("1 + 1")])
    nb.cells[1].execution_count = 1
    write(course / "notebooks", "07-plain", nb)
    text = progress.report(course)
    line = text.splitlines()[2]
    assert "1 of 2 run" in line and "07-structured: not graded" in line
    assert line.split()[5:7] == ["–", "–"], line


def test_a_json_entry_kept_as_text_is_read_too(tmp_path):
    course = tmp_path / "course"
    (course / "notebooks").mkdir(parents=True)
    nb = new_notebook(cells=[new_code_cell('SelfCheck.answer("05.1", 3);')])
    nb.cells[0].execution_count = 1
    nb.cells[0].outputs = [new_output("display_data",
                                      data={"text/plain": "✔", SELF: json.dumps({"id": "05.1", "answered": True,
                                                                                   "correct": True})})]
    (course / "notebooks" / "05-text.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    assert progress.collect(course)[0].right == 1


def test_the_command_prints_the_table(tmp_path):
    course = fixture(tmp_path)
    r = subprocess.run([sys.executable, str(REPO / "tools" / "course.py"), "progress", "--notebooks",
                        str(course / "notebooks")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "04-all-right" in r.stdout and "not started" in r.stdout
    missing = subprocess.run([sys.executable, str(REPO / "tools" / "course.py"), "progress", "--notebooks",
                              str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=60)
    assert missing.returncode != 0 and "no folder" in missing.stderr
