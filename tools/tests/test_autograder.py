"""`./course autograder`: the Gradescope package, run locally in a temporary Gradescope root.

The zip is unpacked into GRADESCOPE_ROOT/source, as Gradescope does; `setup.sh` runs with its install step
skipped (the JDK 25 and Maven of this machine, Maven offline) but builds the grader as on Gradescope; then
`run_autograder` grades three submissions: the reference solutions (full marks), the stubs (zero) and a
mutant (in between). Each results.json must hold Gradescope's fields, and the hidden tests must carry
`visibility: hidden` or `after_due_date`. Two exercises keep it short.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import course as course_tool  # noqa: E402
from course_cli import answers  # noqa: E402

# A learners' template (./course template) has no solutions/: what needs them is skipped, saying so.
needs_answers = pytest.mark.skipif(not (ROOT / "solutions").is_dir(), reason=answers.NO_ANSWERS)

EXERCISES = ["02-cafe", "05-throttling"]
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


def java_env() -> dict:
    return course_tool.java_env(course_tool.find_jdk())


@pytest.fixture(scope="module")
def gradescope(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("gradescope")
    out = base / "autograder.zip"
    r = subprocess.run([str(ROOT / "course"), "autograder", "--exercises", ",".join(EXERCISES), "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    ag = base / "autograder"
    (ag / "source").mkdir(parents=True)
    with zipfile.ZipFile(out) as z:
        names = z.namelist()
        z.extractall(ag / "source")
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in z.infolist()}
    for f in ("setup.sh", "run_autograder"):
        (ag / "source" / f).chmod(modes[f])
    env = dict(java_env(), COURSE_AUTOGRADER_SKIP_INSTALL="1", COURSE_MAVEN_ARGS="-o")
    r = subprocess.run(["bash", str(ag / "source" / "setup.sh")], cwd=ag / "source", env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"setup.sh failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    # Gradescope copies run_autograder next to source/.
    shutil.copy2(ag / "source" / "run_autograder", ag / "run_autograder")
    return {"root": ag, "names": names, "modes": modes}


def run_autograder(gs: dict, fill) -> dict:
    ag = gs["root"]
    for d in ("submission", "results"):
        shutil.rmtree(ag / d, ignore_errors=True)
    (ag / "submission").mkdir()
    fill(ag / "submission")
    env = dict(os.environ, GRADESCOPE_ROOT=str(ag))
    env.pop("JAVA_HOME", None)  # run_autograder finds the JDK that setup.sh recorded
    r = subprocess.run([str(ag / "run_autograder")], cwd=ag, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    results = json.loads((ag / "results" / "results.json").read_text())
    validate(results)
    return results


def validate(r: dict) -> None:
    """Gradescope's results.json fields and types (see Gradescope's autograder specification)."""
    assert isinstance(r["score"], (int, float)) and isinstance(r["max_score"], (int, float))
    assert isinstance(r["execution_time"], int) and r["execution_time"] >= 1
    assert isinstance(r["output"], str) and r["output"].strip()
    assert r["output_format"] in {"text", "html", "simple_format", "md", "ansi"}
    assert "leaderboard" not in r, "the leaderboard is off by default"
    assert r["tests"], "no tests"
    numbers = set()
    for t in r["tests"]:
        assert set(t) == {"name", "number", "score", "max_score", "status", "output", "visibility"}, t
        assert isinstance(t["name"], str) and isinstance(t["number"], str) and isinstance(t["output"], str)
        assert t["status"] in {"passed", "failed"}, t
        assert t["visibility"] in VISIBILITIES, t
        assert 0 <= t["score"] <= t["max_score"], t
        assert (t["score"] == t["max_score"]) == (t["status"] == "passed"), t
        numbers.add(t["number"])
    assert len(numbers) == len(r["tests"]), "test numbers are unique"
    assert r["score"] == sum(t["score"] for t in r["tests"])
    assert r["max_score"] == sum(t["max_score"] for t in r["tests"])
    for ex in EXERCISES:
        hidden = [t for t in r["tests"] if t["name"].startswith(ex) and t["visibility"] in {"hidden", "after_due_date"}]
        # a package built in a learners' template has no trainer/ to carry, and so no hidden test
        assert bool(hidden) == (ROOT / "trainer").is_dir(), f"{ex}: {len(hidden)} hidden tests"
    assert {t["name"].split(" › ")[0] for t in r["tests"]} == set(EXERCISES)


def solutions_folder(sub: Path) -> None:
    for ex in EXERCISES:
        shutil.copytree(ROOT / "solutions" / ex / "src", sub / "exercises" / ex / "src")


def bare_files(src: str):
    def fill(sub: Path) -> None:
        for ex in EXERCISES:
            for f in (ROOT / src / ex / "src" / "main" / "java").rglob("*.java"):
                shutil.copy2(f, sub / f.name)
    return fill


def test_the_zip_holds_the_package_and_no_solutions(gradescope):
    names = gradescope["names"]
    assert {"setup.sh", "run_autograder", "autograder.conf", "pom.xml", "grader/pom.xml"} <= set(names)
    assert gradescope["modes"]["setup.sh"] & 0o111 and gradescope["modes"]["run_autograder"] & 0o111
    if (ROOT / "trainer").is_dir():  # a learners' template has none to pack
        assert any(n.startswith("trainer/02-cafe/src/test/java/") for n in names), "the hidden tests"
    assert not [n for n in names if n.startswith(("solutions/", "notebooks/")) or "/target/" in n]
    conf = (gradescope["root"] / "source" / "autograder.conf").read_text()
    assert 'EXERCISES="02-cafe 05-throttling"' in conf and "PROFILE=trainer" in conf and "LEADERBOARD=0" in conf


def points(exercises: list[str]) -> tuple[int, int]:
    """The learner's points of these exercises (the golden results of their stubs) and the trainer's hidden
    tests' points (their ``points:N`` tags; none in a learners' template), so that the figures below follow the
    tests."""
    golden = ROOT / "grader" / "src" / "test" / "resources" / "golden"
    visible = sum(json.loads((golden / ex / "stubs.json").read_text())["max_score"] for ex in exercises)
    hidden = sum(int(n) for ex in exercises for f in (ROOT / "trainer" / ex).rglob("*.java")
                 for n in re.findall(r'@Tag\("points:(\d+)"\)', f.read_text()))
    return visible, hidden


@needs_answers
def test_the_solutions_score_full_marks(gradescope):
    visible, hidden = points(EXERCISES)
    r = run_autograder(gradescope, solutions_folder)
    assert r["score"] == r["max_score"] == visible + hidden, r["output"]
    assert all(t["status"] == "passed" for t in r["tests"])
    assert f"Visible tests: {visible}/{visible} points" in r["output"], r["output"]


def test_the_stubs_score_zero(gradescope):
    visible, hidden = points(EXERCISES)
    r = run_autograder(gradescope, bare_files("exercises"))
    assert r["score"] == 0 and r["max_score"] == visible + hidden, r["output"]
    assert all(t["output"] for t in r["tests"]), "every failed test says why"


@needs_answers
def test_a_mutant_scores_in_between(gradescope):
    def fill(sub: Path) -> None:
        bare_files("solutions")(sub)
        # a mutant that fails fast (s4, which serves the orders one by one, waits out every brew: 18 s against 3 s)
        diff = ROOT / "solutions" / "02-cafe" / "mutants" / "s6-counts-customers-not-brews.diff"
        subprocess.run(["git", "apply", "-p0", str(diff)], cwd=sub, check=True)
    r = run_autograder(gradescope, fill)
    assert 0 < r["score"] < r["max_score"], r["output"]
    failed = [t["name"] for t in r["tests"] if t["status"] == "failed"]
    assert failed and all(n.startswith("02-cafe") for n in failed), failed


def test_a_course_whose_tests_differ_from_the_manifest_is_not_packed(tmp_path):
    from course_cli import autograder
    course = tmp_path / "course"
    shutil.copytree(ROOT / "exercises", course / "exercises")
    (course / autograder.MANIFEST).parent.mkdir(parents=True)
    shutil.copy2(ROOT / autograder.MANIFEST, course / autograder.MANIFEST)
    assert autograder.manifest_mismatches(course) == []
    test = course / "exercises/02-cafe/src/test/java/course/exercises/cafe/CafeTest.java"
    test.write_text(test.read_text() + "\n// edited\n")
    with pytest.raises(ValueError, match="exercises/02-cafe/src/test/java/course/exercises/cafe/CafeTest.java"):
        autograder.build(course, tmp_path / "a.zip", [])
    assert not (tmp_path / "a.zip").exists()
