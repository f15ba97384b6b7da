"""The learner guesses blind (issue 33): read cell by cell, as a learner who types a guess into each prediction
cell, no notebook shows the answer before the guess is made, and no self-check ever prints its answer. The
notebooks read are the welcome and the lessons of the course's list (``course_cli.notebooks``), each of which makes
one prediction at least; the appendices predict nothing.

- **Above the guess**, since the previous experiment (the last cell that set a guess against its model, or the
  notebook's start), the markdown holds no display formula and no worked result (a ``$…$`` with an ``=`` or a
  ceiling in it, ``⌈…⌉``, ``\\frac``), and no code cell prints a "predicted" figure.
- **Below the guess**, the next two code cells (the run, and what it draws) carry no model: no
  ``Prediction.Model.of(…)``, no ``.ifNear(…)``, no string with a formula in it (``⌈N/P⌉``, ``λ``, ``N · t``,
  ``max(…)``). The models live in the kit (``course.kit.models``), and come out in the run's output only.
- **Self-checks** are answered with a placeholder (``0``, ``null``, ``Choice.NONE``, a zero ``Duration``), and no
  cell of the notebook holds the kit's confirmation text of an answer.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "tools"))
from course_cli.answers import opened  # noqa: E402  (a learners' template seals the answers: opened here)
from course_cli.notebooks import LESSONS, WELCOME  # noqa: E402  (the course's list: the appendices ask nothing)

# The notebooks where the learner guesses: the welcome and every lesson, each with one prediction at least.
NOTEBOOKS = [REPO / "notebooks" / f"{name}.ipynb" for name in (WELCOME, *LESSONS)]
SELFCHECK = REPO / "kit" / "src" / "main" / "resources" / "course" / "kit" / "selfcheck"

PREDICTION = re.compile(r"\bPrediction\.of\(")
EXPERIMENT = re.compile(r"\.against\(")
MODEL_IN_CELL = re.compile(r"\bModel\.of\(|\.ifNear\(")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
# A formula in a Java string: a ceiling, λ, a sum or maximum of terms, or one-letter terms multiplied or divided.
FORMULA = re.compile(r"[⌈⌉λ∑₁₂₃]|\b(?:max|min)\(|(?<![\w.])[A-Za-z](?:\s*[·×÷*]\s*|\s*/\s*)(?:[A-Za-z]|\d)(?![\w])")
DISPLAY_MATH = re.compile(r"\$\$")
INLINE_MATH = re.compile(r"(?<!\$)\$([^$\n]+)\$(?!\$)")
WORKED = re.compile(r"=|\\lceil|\\frac|⌈")
HEADING = re.compile(r"^#{1,3} ", re.M)
PREDICTED_PRINT = re.compile(r'"[^"\n]*\bpredicted\b[^"\n]*"', re.I)
ANSWER = re.compile(r'SelfCheck\.answer\(\s*"(\d\d\.\d+)"\s*,\s*(.*)\)\s*;?\s*(//.*)?$', re.S)
PLACEHOLDER = re.compile(r"(?:/\*[^*]*\*/\s*)?(?:0|null|SelfCheck\.Choice\.NONE|Duration\.of\w+\(\s*(?:/\*[^*]*\*/\s*)?0\s*\))")


def cells(path: Path):
    return nbformat.read(path, as_version=4).cells


def _code(c) -> bool:
    return c.cell_type == "code"


def _without_comments(src: str) -> str:
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", src, flags=re.S))


def reveals_in_markdown(md: str) -> list[str]:
    """What in a markdown cell gives a formula or a worked result away."""
    found = []
    if DISPLAY_MATH.search(md):
        found.append("a display formula ($$…$$)")
    found += [f"${m}$" for m in INLINE_MATH.findall(md) if WORKED.search(m)]
    found += [line.strip() for line in md.splitlines() if "⌈" in line]
    return found


def reveals_in_code(src: str) -> list[str]:
    """What in a code cell's source gives a model away: the model itself, its hints, or a formula in a string."""
    code = _without_comments(src)
    found = [m.group(0) for m in MODEL_IN_CELL.finditer(code)]
    found += [s for s in STRING.findall(code) if FORMULA.search(s)]
    return found


def predictions(path: Path) -> list[tuple[int, list[str], list[str]]]:
    """For every cell that makes a prediction: its index, what the learner saw above it since the previous
    experiment, and what the next two code cells show of the model."""
    nb = cells(path)
    out = []
    for i, c in enumerate(nb):
        if not (_code(c) and PREDICTION.search(c.source)):
            continue
        # What the learner reads for this question: since the previous experiment (whose explanation comes after
        # it, as it should), and within the section that asks it (from its heading on).
        start = max([j for j in range(i) if _code(nb[j]) and EXPERIMENT.search(nb[j].source)], default=-1)
        heading = max([j for j in range(start + 1, i) if nb[j].cell_type == "markdown"
                       and HEADING.search(nb[j].source)], default=start + 1)
        above = []
        for j in range(max(start + 1, heading), i):
            if nb[j].cell_type == "markdown":
                md = nb[j].source
                if j == heading and HEADING.search(md):
                    md = md[[m.start() for m in HEADING.finditer(md)][-1]:]
                above += [f"c{j}: {r}" for r in reveals_in_markdown(md)]
            elif _code(nb[j]):
                above += [f"c{j}: {s}" for s in PREDICTED_PRINT.findall(_without_comments(nb[j].source))]
        below_cells = [j for j in range(i + 1, len(nb)) if _code(nb[j]) and not PREDICTION.search(nb[j].source)][:2]
        below = [f"c{j}: {r}" for j in below_cells for r in reveals_in_code(nb[j].source)]
        out.append((i, above, below))
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_nothing_above_a_guess_gives_its_answer(path):
    made = predictions(path)
    assert made, "no prediction in this notebook"
    seen = {f"prediction in c{i}": above for i, above, _ in made if above}
    assert not seen, f"the answer is on screen before the guess: {seen}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_run_under_a_guess_shows_no_model_in_its_source(path):
    seen = {f"prediction in c{i}": below for i, _, below in predictions(path) if below}
    assert not seen, f"the model or its hints are in the cells under the guess (move them into course.kit.models): {seen}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_model_text_anywhere_in_a_cell(path):
    """Done when: no ``Prediction.Model.of("…")`` or ``.ifNear(…, "…")`` text remains in any notebook cell."""
    bad = [i for i, c in enumerate(cells(path)) if _code(c) and MODEL_IN_CELL.search(_without_comments(c.source))]
    assert not bad, f"cells with a model or its hints: {bad}"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if (SELFCHECK / f"{p.name[:2]}.json").is_file()],
                         ids=lambda p: p.name)
def test_self_checks_are_answered_blind(path):
    nb = cells(path)
    answers = [opened(q) for q in json.loads((SELFCHECK / f"{path.name[:2]}.json").read_text(encoding="utf-8"))["questions"]]
    for i, c in enumerate(nb):
        if _code(c) and "SelfCheck.answer(" in c.source:
            m = ANSWER.search(c.source.strip())
            assert m, f"c{i}: not one SelfCheck.answer(\"NN.k\", …) call: {c.source}"
            assert PLACEHOLDER.fullmatch(m.group(2).strip()), f"c{i}: answered in the committed notebook: {m.group(2)}"
            assert "System.out" not in c.source and "print" not in c.source, f"c{i} prints something"
    text = "\n".join(c.source for c in nb)
    for q in answers:
        assert q["right"] not in text, f"{q['id']}: the notebook holds the answer's confirmation: {q['right']}"
