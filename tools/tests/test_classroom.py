"""Grading a class's repositories on every push: the workflow every copy of the learners' repository carries
(`.github/workflows/classroom.yml`), and the files deploy/README.md hands to Classroom 50 (`deploy/classroom50/`),
read as Classroom 50's documentation describes them: a `runtime` block and declarative `run` tests."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from course_cli import facts  # noqa: E402

CLASSROOM50 = ROOT / "deploy" / "classroom50"
WORKFLOW = ROOT / ".github" / "workflows" / "classroom.yml"
# The fields of a declarative test (Classroom 50's CLI rejects any other) and of a runtime block that these use.
TEST_FIELDS = {"name", "type", "run", "setup", "timeout", "exit-code", "points"}


def exercises() -> list[str]:
    return sorted(p.name for p in (ROOT / "exercises").glob("[0-9][0-9]-*") if (p / "src" / "test" / "java").is_dir())


def max_score(exercise: str) -> int:
    """The exercise's points, from the grader's golden results of its stubs (GoldenResultsIT keeps them true)."""
    golden = ROOT / "grader" / "src" / "test" / "resources" / "golden" / exercise / "stubs.json"
    return json.loads(golden.read_text())["max_score"]


def test_classroom50_builds_the_grader_then_grades_each_exercise_for_its_points():
    tests = json.loads((CLASSROOM50 / "tests.json").read_text())
    assert tests[0] == {"name": "setup", "type": "run", "run": "./course grade --help", "timeout": 600, "points": 0}
    graded = tests[1:]
    assert [t["name"] for t in graded] == exercises()
    for t in graded:
        assert t["run"] == f"./course grade {t['name']} --require-full", t
        assert t["points"] == max_score(t["name"]), t
    for t in tests:
        assert set(t) <= TEST_FIELDS and t["type"] == "run", t
        assert 1 <= t["timeout"] <= 600, t  # Classroom 50's bounds; without one a test gets 10 s
        assert len(t["name"].encode()) <= 100
    assert len({t["name"] for t in tests}) == len(tests)


def test_classroom50_runs_the_courses_jdk():
    runtime = json.loads((CLASSROOM50 / "runtime.json").read_text())
    assert runtime == {"runs-on": "ubuntu-latest", "java": str(facts.release())}


def test_the_workflow_grades_every_push_with_the_tests_of_the_first_commit():
    wf = WORKFLOW.read_text()
    assert re.search(r"^on:\s*\n\s+push:", wf, re.M), "every push"
    assert re.search(r"fetch-depth:\s*0\b", wf), "the whole history, for the first commit"
    assert 'first="$(git rev-list --max-parents=0 HEAD | tail -n 1)"' in wf
    assert "git checkout \"$first\" -- grader 'exercises/*/src/test'" in wf
    assert re.search(r"java-version:\s*'" + re.escape(str(facts.release())) + "'", wf)
    assert re.search(r"^\s+run: \./course grade --json results\.json$", wf, re.M)
    assert "GITHUB_STEP_SUMMARY" in wf and "path: results.json" in wf
    # Classroom 50 writes .github/workflows/autograde.yaml into each learner's repository: never ship one
    assert not (ROOT / ".github" / "workflows" / "autograde.yaml").exists()
