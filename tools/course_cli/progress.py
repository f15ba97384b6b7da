"""``./course progress``: where the learner stands, notebook by notebook, from what Jupyter saved.

It reads, and never runs, the learner's notebooks (``notebooks/NN-name.ipynb``, with the outputs Jupyter saved)
and the grader's record of each exercise's last grade (``target/grades/NN-name.json``, written by every
``./course grade`` and every notebook's ``Grade.exercise(...)``). Per notebook:

- **cells**: how many code cells ran; a notebook with no output at all is *not started*;
- **predictions**: how many of the notebook's predictions (``Prediction.of(`` in its code) the learner made, and
  how close they came, from the outputs' ``application/vnd.vthreads-course.prediction+json`` entries;
- **self-check**: how many of its questions (``SelfCheck.answer(`` in its code) were answered right, from the
  ``application/vnd.vthreads-course.selfcheck+json`` entries;
- **exercise**: the last grade of the exercise its ``Grade.exercise("NN-name")`` names.

Only the standard library: it runs before Jupyter is installed.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

PREDICTION_MIME = "application/vnd.vthreads-course.prediction+json"
SELFCHECK_MIME = "application/vnd.vthreads-course.selfcheck+json"
GRADES = Path("target") / "grades"

_PREDICTION_CALL = re.compile(r"\bPrediction\s*\.\s*of\s*\(")
_SELFCHECK_CALL = re.compile(r"\bSelfCheck\s*\.\s*answer\s*\(")
_EXERCISE = re.compile(r"Grade\s*\.\s*exercise\s*\(\s*\"(\d\d-[a-z0-9-]+)\"\s*\)")
_NOTEBOOK = re.compile(r"^\d\d-.+\.ipynb$")


@dataclass
class Row:
    """What one notebook shows of the learner's progress."""
    notebook: str
    code_cells: int = 0
    cells_run: int = 0
    predictions_asked: int = 0
    verdicts: list[str] = field(default_factory=list)  # one per prediction judged: close, term, off, none
    questions: int = 0
    answers: dict[str, dict] = field(default_factory=dict)  # question id -> its last saved result
    exercise: str | None = None
    grade: dict | None = None  # target/grades/NN-name.json, or None when never graded

    @property
    def started(self) -> bool:
        return self.cells_run > 0

    @property
    def predictions_made(self) -> int:
        return sum(1 for v in self.verdicts if v != "none")

    @property
    def close(self) -> int:
        return self.verdicts.count("close")

    @property
    def right(self) -> int:
        return sum(1 for a in self.answers.values() if a.get("correct"))

    @property
    def answered(self) -> int:
        return sum(1 for a in self.answers.values() if a.get("answered"))


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else (source or "")


def _code(source: str) -> str:
    """The code without its // comments, so that a call described in a comment does not count."""
    return "\n".join(line.split("//", 1)[0] for line in source.splitlines())


def _entries(cell: dict, mime: str) -> list[dict]:
    out = []
    for o in cell.get("outputs", []):
        value = o.get("data", {}).get(mime)
        if isinstance(value, str):  # a front end may keep a JSON value as its text
            try:
                value = json.loads(value)
            except ValueError:
                continue
        if isinstance(value, dict):
            out.append(value)
    return out


def read_notebook(path: Path, grades: Path) -> Row:
    """The progress one saved notebook shows; ``grades`` is the folder of the last grades."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    row = Row(path.stem)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = _text(cell.get("source"))
        code = _code(src)
        row.code_cells += 1
        if cell.get("execution_count") is not None or cell.get("outputs"):
            row.cells_run += 1
        row.predictions_asked += len(_PREDICTION_CALL.findall(code))
        row.questions += len(_SELFCHECK_CALL.findall(code))
        m = _EXERCISE.search(code)
        if m and row.exercise is None:
            row.exercise = m.group(1)
        for p in _entries(cell, PREDICTION_MIME):
            row.verdicts.append(str(p.get("verdict", "none")))
        for r in _entries(cell, SELFCHECK_MIME):
            if "id" in r:
                row.answers[str(r["id"])] = r
    if row.exercise:
        row.grade = read_grade(grades / f"{row.exercise}.json")
    return row


def read_grade(path: Path) -> dict | None:
    try:
        g = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return g if isinstance(g, dict) and "score" in g and "max" in g else None


def collect(root: Path, notebooks: Path | None = None) -> list[Row]:
    """One row per numbered notebook in ``notebooks`` (default: the course's), in order."""
    folder = notebooks if notebooks is not None else root / "notebooks"
    paths = sorted(p for p in folder.glob("*.ipynb") if _NOTEBOOK.match(p.name))
    return [read_notebook(p, root / GRADES) for p in paths]


def _cells(r: Row) -> str:
    if not r.started:
        return "not started"
    if r.cells_run >= r.code_cells:
        return f"all {r.code_cells} run"
    return f"{r.cells_run} of {r.code_cells} run"


def _predictions(r: Row) -> str:
    if r.predictions_asked == 0:
        return "–"
    if not r.started:
        return f"– of {r.predictions_asked}"
    made = f"{r.predictions_made} of {r.predictions_asked} made"
    if r.predictions_made == 0:
        return made
    missed = r.verdicts.count("term")
    off = r.verdicts.count("off")
    parts = [f"{r.close} close"] + ([f"{missed} missed a term"] if missed else []) + ([f"{off} off"] if off else [])
    return f"{made}: " + ", ".join(parts)


def _selfcheck(r: Row) -> str:
    if r.questions == 0:
        return "–"
    if not r.started:
        return f"– of {r.questions}"
    s = f"{r.right} of {r.questions} right"
    not_yet = r.answered - r.right
    return s + (f", {not_yet} not yet" if not_yet else "")


def _exercise(r: Row) -> str:
    if not r.exercise:
        return "–"
    if r.grade is None:
        return f"{r.exercise}: not graded"
    when = ""
    try:
        when = " (" + datetime.fromisoformat(str(r.grade.get("when", "")).replace("Z", "+00:00")).astimezone() \
            .strftime("%Y-%m-%d %H:%M") + ")"
    except ValueError:
        pass
    return f"{r.exercise}: {r.grade['score']}/{r.grade['max']}{when}"


HEADERS = ("notebook", "cells", "predictions", "self-check", "exercise (last grade)")


def table(rows: list[Row]) -> str:
    """The rows as a plain-text table, one line per notebook."""
    lines = [HEADERS] + [(r.notebook, _cells(r), _predictions(r), _selfcheck(r), _exercise(r)) for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADERS))]
    out = []
    for k, line in enumerate(lines):
        out.append("  ".join(v.ljust(w) for v, w in zip(line, widths)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def report(root: Path, notebooks: Path | None = None) -> str:
    rows = collect(root, notebooks)
    if not rows:
        return f"no notebooks in {notebooks if notebooks is not None else root / 'notebooks'}"
    return table(rows)
