"""The course's notebooks, as committed, follow its style (no kernel needed).

- Every notebook is valid nbformat 4.5 with cell ids, runs in the course kernel, and is committed without outputs.
- Every lesson notebook (01–89) puts the concurrency code of its experiments in code cells (at least three cells
  with an executor, a thread builder, a Semaphore, or a structured task scope), stays within the reading budget of
  1,600 words of markdown, and ends with "Your turn": ``%exercise NN-name`` in a cell of its own, then a cell that
  runs the learner's code through ``Yours``, then the grade cell for the same exercise, in that order.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
LESSONS = [p for p in NOTEBOOKS if re.match(r"(0[1-9]|[1-8]\d)-", p.name)]
CONCURRENCY = re.compile(r"Executors\.new|newVirtualThreadPerTaskExecutor|Thread\.of(Virtual|Platform)|new Semaphore"
                         r"|\.acquire\(|\.release\(|StructuredTaskScope")
WORD_BUDGET = 1_600


def cells(path: Path):
    return nbformat.read(path, as_version=4).cells


def test_there_are_lessons():
    assert len(LESSONS) >= 5, [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_clean_valid_and_in_the_course_kernel(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) >= (4, 5)
    assert all("id" in c for c in nb.cells), "every cell has an id"
    assert nb.metadata.kernelspec.name == "vthreads-java"
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert not dirty, f"cells with outputs: {dirty}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_concurrency_code_sits_in_cells(path):
    code = [c.source for c in cells(path) if c.cell_type == "code"]
    with_juc = [s for s in code if CONCURRENCY.search(s)]
    assert len(with_juc) >= 3, f"{len(with_juc)} code cells hold concurrency code"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_reading_budget(path):
    words = sum(len(c.source.split()) for c in cells(path) if c.cell_type == "markdown")
    assert words <= WORD_BUDGET, f"{words} words of markdown"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_your_turn_runs_the_learners_code_before_grading_it(path):
    code = [c.source.strip() for c in cells(path) if c.cell_type == "code"]
    magic = [i for i, s in enumerate(code) if re.fullmatch(r"%exercise \d\d-[a-z0-9-]+", s)]
    assert magic, "no cell of its own with %exercise NN-name"
    name = code[magic[-1]].split()[1]
    live = [i for i, s in enumerate(code) if "Yours." in s and i > magic[-1]]
    grade = [i for i, s in enumerate(code) if f'Grade.exercise("{name}")' in s]
    assert live, "no cell runs the learner's code through Yours after %exercise"
    assert grade and grade[-1] > live[0], f"the grade cell for {name} must come after the live run"
    assert (REPO / "exercises" / name).is_dir(), f"no exercise folder {name}"
