"""The course's notebooks, as committed, follow its style (no kernel needed).

- The notebooks in notebooks/ are the course's list (``course_cli.notebooks``: the welcome, the lessons, the
  appendices), which README.md's table and the welcome's course map give in the same order.
- Every notebook is valid nbformat 4.5 with cell ids, runs in the course kernel, and is committed without outputs.
- Every lesson (``LESSONS`` of that list) puts the concurrency code of its experiments in code cells (at least three
  cells with an executor, a thread builder, a Semaphore, or a structured task scope), stays within the reading budget
  of 1,600 words of markdown, and ends with "Your turn": ``%exercise NN-name`` in a cell of its own, then a cell that
  runs the learner's code through ``Yours``, then the grade cell for the same exercise, in that order.
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
from course_cli import notebooks as course_list  # noqa: E402  (the course's list of notebooks, by kind)

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
LESSONS = [REPO / "notebooks" / f"{name}.ipynb" for name in course_list.LESSONS]
CONCURRENCY = re.compile(r"Executors\.new|newVirtualThreadPerTaskExecutor|Thread\.of(Virtual|Platform)|new Semaphore"
                         r"|\.acquire\(|\.release\(|StructuredTaskScope")
WORD_BUDGET = 1_600


def cells(path: Path):
    return nbformat.read(path, as_version=4).cells


def test_there_are_lessons():
    assert len(LESSONS) >= 5, [p.name for p in NOTEBOOKS]


def test_the_notebooks_are_the_courses_list():
    """Every notebook the list names is in notebooks/, and every notebook there is listed: a lesson added as a file
    alone would escape every test below that reads the lessons."""
    assert course_list.listing_problems(REPO / "notebooks") == []


def test_a_listed_lesson_that_is_missing_or_a_notebook_that_is_not_listed_fails(tmp_path):
    for name in course_list.COURSE:
        (tmp_path / f"{name}.ipynb").write_text("{}", encoding="utf-8")
    assert course_list.listing_problems(tmp_path) == []
    (tmp_path / "09-fan-in.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / f"{course_list.LESSONS[-1]}.ipynb").unlink()
    problems = course_list.listing_problems(tmp_path)
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"{course_list.LESSONS[-1]}.ipynb is in the course's list"), problems
    assert problems[1].startswith("09-fan-in.ipynb is neither the welcome, a lesson nor an appendix"), problems


def _listed(text: str) -> list[str]:
    """The notebooks a markdown table links, in its order (a row's first link to NN-name.ipynb)."""
    return [m.group(1) for line in text.splitlines() if line.startswith("|")
            for m in [re.search(r"\]\((?:notebooks/)?(\d\d-[a-z0-9-]+)\.ipynb\)", line)] if m]


def test_the_readme_and_the_welcome_list_the_course_in_its_order():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("\n## The course\n", 1)[1].split("\n## ", 1)[0]
    assert _listed(table) == list(course_list.COURSE), "README.md's table under '## The course'"
    welcome = REPO / "notebooks" / f"{course_list.WELCOME}.ipynb"
    course_map = next(c.source for c in cells(welcome) if c.cell_type == "markdown"
                      and re.search(r"^#+\s*The course map\s*$", c.source, re.M))
    assert _listed(course_map) == [*course_list.LESSONS, *course_list.APPENDICES], "the welcome's course map"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_clean_valid_and_in_the_course_kernel(path):
    raw = json.loads(path.read_text(encoding="utf-8"))  # as committed: nbformat's reader fills missing ids in
    assert all("id" in c for c in raw["cells"]), "every cell has an id"
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert (nb.nbformat, nb.nbformat_minor) >= (4, 5)
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


# ------------------------------------------------------------------------------------- predict, observe, explain

PREDICTED = re.compile(r"\bvar\s+(\w+)\s*=\s*Prediction\.of\(")
ANSWERED = re.compile(r'SelfCheck\.answer\("(\d\d)\.(\d+)"')
SELFCHECK = REPO / "kit" / "src" / "main" / "resources" / "course" / "kit" / "selfcheck"


def _heading_index(nb_cells, title: str) -> int | None:
    for i, c in enumerate(nb_cells):
        if c.cell_type == "markdown" and re.search(rf"^#+\s*{re.escape(title)}\s*$", c.source, re.M):
            return i
    return None


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_the_learner_predicts_before_the_experiment_and_sees_it_beside_the_measurement(path):
    """Each prediction (``var guess = Prediction.of(…)``) sits in a cell of its own, above the cell that runs the
    experiment and shows it with ``guess.against(…)``: the learner commits first."""
    nb_cells = cells(path)
    made = {}
    for i, c in enumerate(nb_cells):
        if c.cell_type == "code":
            for name in PREDICTED.findall(c.source):
                made[name] = i
    assert made, "no cell where the learner writes a prediction (var guess = Prediction.of(…))"
    for name, at in made.items():
        shown = [i for i, c in enumerate(nb_cells) if c.cell_type == "code" and f"{name}.against(" in c.source]
        assert shown, f"the prediction {name} is never shown beside the model and the measurement ({name}.against)"
        assert min(shown) > at, f"{name}.against(…) comes before the cell where the learner predicts {name}"
        lines = [line for line in nb_cells[at].source.splitlines() if line.strip() and not line.strip().startswith("//")]
        assert len(lines) <= 3, f"the prediction cell of {name} holds more than the prediction: {nb_cells[at].source}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_each_lesson_ends_with_a_self_check_that_the_kernel_marks(path):
    """Three to five questions, each answered in a cell of its own, after "Try it yourself" and before "Your
    turn"; each is a question of the kit's answers file for this notebook, and that file asks nothing else."""
    nn = path.name[:2]
    nb_cells = cells(path)
    answered = [(i, m.group(1), int(m.group(2))) for i, c in enumerate(nb_cells) if c.cell_type == "code"
                for m in [ANSWERED.search(c.source)] if m]
    assert 3 <= len(answered) <= 5, f"{len(answered)} self-check answers (want 3–5)"
    assert all(n == nn for _, n, _ in answered), f"answers of another notebook: {answered}"
    assert len({i for i, _, _ in answered}) == len(answered), "one answer per cell"
    try_it, your_turn = _heading_index(nb_cells, "Try it yourself"), _heading_index(nb_cells, "Your turn")
    assert try_it is not None and your_turn is not None, "headings 'Try it yourself' and 'Your turn'"
    assert all(try_it < i < your_turn for i, _, _ in answered), "the self-check sits between them"
    answers = json.loads((SELFCHECK / f"{nn}.json").read_text(encoding="utf-8"))
    ids = [q["id"] for q in answers["questions"]]
    assert sorted(ids) == sorted(f"{n}.{k}" for _, n, k in answered), "the notebook asks exactly the kit's questions"


@pytest.mark.parametrize("nn", ["02", "04", "06"])
def test_the_carrier_picture_is_drawn_where_the_lesson_needs_it(nn):
    path = next(p for p in LESSONS if p.name.startswith(nn + "-"))
    nb_cells = cells(path)
    code = "\n".join(c.source for c in nb_cells if c.cell_type == "code")
    assert "CarrierTrace.start(" in code and ".factory()" in code, "no traced executor in an editable cell"
    assert "Charts.carriers(" in code, "no carrier picture"
    if nn == "02":
        prose = "\n".join(c.source for c in nb_cells if c.cell_type == "markdown").lower()
        assert "kitchen" in prose, "02 corrects article 000's kitchen analogy beside its carrier picture"


def _anchors(path: Path) -> set[str]:
    """The places a link can point at in a notebook: its <a id="…"> anchors and its headings, as Jupyter names
    them (the heading's text with spaces as dashes)."""
    out = set()
    for c in cells(path):
        if c.cell_type == "markdown":
            out.update(re.findall(r'<a id="([^"]+)">', c.source))
            out.update(re.sub(r"\s*<a id=.*", "", m).strip().replace(" ", "-")
                       for m in re.findall(r"^#+\s+(.+)$", c.source, re.M))
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_link_to_a_notebook_lands(path):
    """Links between notebooks (to the appendix's anchors, say) point at a notebook and a place that exist."""
    for c in cells(path):
        if c.cell_type != "markdown":
            continue
        for target, anchor in re.findall(r"\]\(([0-9]{2}-[a-z0-9-]+\.ipynb)(?:#([^)\s]+))?\)", c.source):
            assert (REPO / "notebooks" / target).is_file(), f"a link to {target}, which is not a notebook"
            if anchor:
                assert anchor in _anchors(REPO / "notebooks" / target), f"{target} has no anchor {anchor}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_every_self_check_hint_names_a_section_the_notebook_has(path):
    """A wrong answer's hint says which section to reread ("reread § 1 · Waves: …"): that heading must be there."""
    headings = [re.sub(r"\s*<a id=.*", "", h).strip()
                for c in cells(path) if c.cell_type == "markdown" for h in re.findall(r"^#+\s+(.+)$", c.source, re.M)]
    answers = json.loads((SELFCHECK / f"{path.name[:2]}.json").read_text(encoding="utf-8"))
    for q in answers["questions"]:
        hint = q["hint"]
        assert "§ " in hint, f"{q['id']}: the hint names no section: {hint}"
        named = hint.split("§ ", 1)[1]
        # A heading's math ($\lceil N/P \rceil$) reads as ⌈N/P⌉ in a hint: compare what comes before it.
        openings = [h.split("$")[0].strip() for h in headings]
        assert any(o and named.startswith(o) for o in openings), \
            f"{q['id']}: no heading of {path.name} opens '{named}'"


def test_diagnostics_are_shown_raw_before_the_kits_wrappers():
    """Notebook 06 calls each diagnostics API of the JDK by hand, in a cell a learner can copy into a service, before
    any cell uses the kit's wrapper around it: JFR's ``RecordingStream`` (before ``PinnedEvents``), the scheduler's
    ``VirtualThreadSchedulerMXBean`` (before ``SchedulerSampler``), ``HotSpotDiagnosticMXBean.dumpThreads`` in JSON
    (before ``ThreadDumps``' parsing)."""
    path = next(p for p in LESSONS if p.name.startswith("06-"))
    code = [c.source for c in cells(path) if c.cell_type == "code"]
    raw_then_kit = {
        r'new RecordingStream\(\)[\s\S]*\.enable\("jdk\.VirtualThreadPinned"\)\.withThreshold\([\s\S]*\.onEvent\('
        r'[\s\S]*\.startAsync\(\)': r"PinnedEvents\.",
        r"ManagementFactory\.getPlatformMXBean\(VirtualThreadSchedulerMXBean\.class\)": r"SchedulerSampler\.",
        r"\.getMountedVirtualThreadCount\(\)": r"SchedulerSampler\.",
        r"\.getQueuedVirtualThreadCount\(\)": r"SchedulerSampler\.",
        r"getPlatformMXBean\(HotSpotDiagnosticMXBean\.class\)\s*\.dumpThreads\([^;]*ThreadDumpFormat\.JSON\)":
            r"ThreadDumps\.(parse|containers)",
    }
    for raw, kit in raw_then_kit.items():
        shown = [i for i, s in enumerate(code) if re.search(raw, s)]
        assert shown, f"no code cell of {path.name} calls {raw}"
        wrapped = [i for i, s in enumerate(code) if re.search(kit, s)]
        assert not wrapped or shown[0] <= wrapped[0], f"{kit} is used before the raw call {raw}"
