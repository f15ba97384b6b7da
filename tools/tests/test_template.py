"""`./course template OUT`: the learners' repository holds no answer, and its leak check finds one planted in it.

The template is written once per module (the tracked files, about half a second); each leak is planted in a copy
of it. No build and no JVM: that the copy grades and passes its own tests was checked by hand (the numbers are in
the commit that added this).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from course_cli import answers, template  # noqa: E402

# A learners' template (./course template) has no solutions/: what needs them is skipped, saying so.
needs_answers = pytest.mark.skipif(not (ROOT / "solutions").is_dir(), reason=answers.NO_ANSWERS)
ANSWER_PATHS = ["solutions", "trainer", ".github/workflows/book.yml", ".github/workflows/ci.yml",
                ".github/dependabot.yml"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode != 0:
        pytest.skip("not a git repository: ./course template copies the files git tracks")
    out = tmp_path_factory.mktemp("template") / "learners"
    written = template.build(ROOT, out)
    assert written.out == out and written.files > 100 and written.sealed >= 9, written
    return out


@pytest.fixture
def copy(built, tmp_path) -> Path:
    """A copy of the template to plant a leak in."""
    dest = tmp_path / "learners"
    shutil.copytree(built, dest)
    return dest


def test_the_template_holds_no_answer_path(built):
    for path in ANSWER_PATHS:
        assert not (built / path).exists(), path
    golden = built / "grader/src/test/resources/golden"
    for exercise in (built / "exercises").glob("[0-9][0-9]-*/"):
        assert sorted(p.name for p in (golden / exercise.name).iterdir()) == ["stubs.json"], exercise.name
    assert not list((built / "kit/src/test/java/course/kit").glob("SelfCheck[0-9][0-9]Test.java"))
    # what a learner works with is all there, byte for byte
    for path in ["course", "exercises/02-cafe/src/main/java/course/exercises/cafe/Cafe.java",
                 "exercises/02-cafe/src/test/java/course/exercises/cafe/CafeTest.java",
                 "notebooks/02-cafe-simulation.ipynb", ".github/workflows/classroom.yml",
                 "grader/src/main/resources/course/grader/course-files.sha256"]:
        assert (built / path).read_bytes() == (ROOT / path).read_bytes(), path
    assert (built / "course").stat().st_mode & 0o111, "./course stays executable"
    assert template.leaks(ROOT, built) == []


def test_only_tracked_files_go_in(built):
    tracked = set(template.tracked(ROOT))
    written = {p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()}
    assert written and written <= tracked, sorted(written - tracked)[:10]
    assert not [p for p in written if "/target/" in f"/{p}"], "a build output"


def test_the_self_checks_are_sealed_and_open_to_the_course_answers(built):
    folder = built / answers.SELFCHECK
    files = sorted(folder.glob("*.json"))
    assert files
    for f in files:
        text = f.read_text(encoding="utf-8")
        for q in json.loads(text)["questions"]:
            assert set(q) == {"id", "kind", "hint", "sealed"}, (f.name, q)
        assert answers.sealed_text(json.loads(text)) == text, f"{f.name}: a template of a template seals it alike"
    assert answers.self_check_questions(built) == answers.self_check_questions(ROOT)


def test_the_kits_sealed_fixture_is_sealed_as_the_template_seals():
    """kit/src/test/resources/course/kit/selfcheck/zs.json is zz.json sealed: SelfCheckTest reads it with the kit's
    opener, so the kit opens what this module seals."""
    fixtures = ROOT / "kit/src/test/resources/course/kit/selfcheck"
    data = json.loads((fixtures / "zz.json").read_text(encoding="utf-8"))
    data["about"] = ("zz.json's questions as zs.N, sealed as a learners' template seals them, for SelfCheckTest and"
                     " tools/tests/test_template.py.")
    for q in data["questions"]:
        q["id"] = q["id"].replace("zz.", "zs.")
    assert answers.sealed_text(data) == (fixtures / "zs.json").read_text(encoding="utf-8")


@needs_answers
def test_a_solution_line_planted_anywhere_is_found_naming_the_file(copy):
    source, line = next((k, v[0]) for k, v in answers.solution_lines(ROOT).items() if v)
    notes = copy / "docs" / "notes.md"
    notes.write_text(f"Some notes.\n\n    {line}\n", encoding="utf-8")
    assert template.leaks(ROOT, copy) == [f"docs/notes.md: a line of solutions/{source}: {line}"]
    # the same line in a notebook's code cell, where the JSON escapes it
    nb_path = copy / "notebooks" / "02-cafe-simulation.ipynb"
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(f"// mine\n{line}\n"))
    nbformat.write(nb, nb_path)
    notes.unlink()
    assert template.leaks(ROOT, copy) == [f"notebooks/02-cafe-simulation.ipynb: a line of solutions/{source}: {line}"]


def test_a_self_check_answer_planted_anywhere_is_found_naming_the_file(copy):
    questions = {q["id"]: q for q in answers.self_check_questions(ROOT)}
    nb_path = copy / "notebooks" / "02-cafe-simulation.ipynb"
    nb = nbformat.read(nb_path, as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and 'SelfCheck.answer("02.1"' in c.source]
    assert len(cells) == 1
    cells[0].source = answers.answered_call(questions["02.1"])  # a learner's right answer, committed
    nbformat.write(nb, nb_path)
    assert template.leaks(ROOT, copy) == [
        "notebooks/02-cafe-simulation.ipynb: a call with the expected answer of self-check 02.1"]
    shutil.copy2(ROOT / "notebooks" / nb_path.name, nb_path)
    # a confirmation, shown only to a right answer, in a README
    readme = copy / "exercises" / "02-cafe" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\n" + questions["02.5"]["right"] + "\n", encoding="utf-8")
    assert template.leaks(ROOT, copy) == [
        f"exercises/02-cafe/README.md: the confirmation of self-check 02.5: {questions['02.5']['right']}"]
    shutil.copy2(ROOT / "exercises" / "02-cafe" / "README.md", readme)
    # a self-check file in the clear, as the course keeps it
    clear = copy / "kit/src/main/resources/course/kit/selfcheck/04.json"
    clear.write_text(json.dumps({"questions": [{k: v for k, v in questions["04.1"].items() if k != "right"}]}),
                     encoding="utf-8")
    assert template.leaks(ROOT, copy) == [
        "kit/src/main/resources/course/kit/selfcheck/04.json: the expected answer of self-check 04.1, in the clear"]


def test_an_answer_path_in_the_copy_is_named(copy):
    mutant = copy / "solutions/02-cafe/mutants/s1-anything.diff"
    mutant.parent.mkdir(parents=True)
    mutant.write_text("--- Cafe.java\n+++ Cafe.java\n", encoding="utf-8")
    assert template.leaks(ROOT, copy) == [f"solutions/02-cafe/mutants/s1-anything.diff: {template.left_out('solutions/')}"]


@needs_answers
def test_a_template_that_would_leak_is_refused_and_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(template, "LEFT_OUT", [e for e in template.LEFT_OUT if e[0] != "solutions/"])
    out = tmp_path / "learners"
    # every answer lives under solutions/: its alternatives and mutants show the reference solution's lines too
    with pytest.raises(ValueError, match=r"\n  solutions/\d\d-[a-z-]+/\S+\.(java|diff): a line of"
                                         r" solutions/\d\d-[a-z-]+/src/main/java/"):
        template.build(ROOT, out)
    assert not out.exists() and list(tmp_path.iterdir()) == [], "nothing written, no partial copy left"


def test_out_is_a_new_folder_or_an_earlier_template_whose_git_is_kept(built, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty and holds no learners' repository"):
        template.build(ROOT, other)
    assert (other / "notes.txt").read_text() == "mine"
    with pytest.raises(ValueError, match="inside the course"):
        template.build(ROOT, ROOT / "target" / "learners")
    again = tmp_path / "again"
    shutil.copytree(built, again)
    (again / ".git").mkdir()
    (again / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (again / "stale.txt").write_text("from an earlier course")
    template.build(ROOT, again)
    assert (again / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n" and not (again / "stale.txt").exists()
    assert (again / "course").is_file()
