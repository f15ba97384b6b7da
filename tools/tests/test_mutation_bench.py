"""`./course bench mutation`: PIT's mutation score of each exercise's tests, read from PIT's own report."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import pytest  # noqa: E402
from course_cli import answers, mutation_bench  # noqa: E402

# A learners' template (./course template) has no solutions/ for PIT to mutate: what needs them is skipped.
needs_answers = pytest.mark.skipif(not (ROOT / "solutions").is_dir(), reason=answers.NO_ANSWERS)

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<mutations partial="false">
<mutation detected='true' status='KILLED' numberOfTestsRun='2'><sourceFile>Cafe.java</sourceFile>
  <mutatedClass>course.exercises.cafe.Cafe</mutatedClass><mutatedMethod>serve</mutatedMethod>
  <lineNumber>35</lineNumber><description>negated conditional</description></mutation>
<mutation detected='true' status='TIMED_OUT' numberOfTestsRun='1'><sourceFile>Cafe.java</sourceFile>
  <mutatedMethod>serve</mutatedMethod><lineNumber>50</lineNumber><description>removed call</description></mutation>
<mutation detected='false' status='SURVIVED' numberOfTestsRun='7'><sourceFile>Cafe.java</sourceFile>
  <mutatedMethod>serve</mutatedMethod><lineNumber>65</lineNumber>
  <description>Replaced long subtraction with addition</description></mutation>
<mutation detected='false' status='NO_COVERAGE' numberOfTestsRun='0'><sourceFile>Cafe.java</sourceFile>
  <mutatedMethod>helper</mutatedMethod><lineNumber>70</lineNumber><description>removed call</description></mutation>
</mutations>
"""


def test_a_report_gives_the_score_and_names_each_survivor(tmp_path):
    xml = tmp_path / "mutations.xml"
    xml.write_text(REPORT)
    s = mutation_bench.read_report("02-cafe", xml)
    assert (s.total, s.detected) == (4, 2), "killed and timed out are detected; survived and no coverage are not"
    assert s.percent == 50.0
    assert s.survivors == ["survived: Cafe.java:65 serve: Replaced long subtraction with addition",
                           "no coverage: Cafe.java:70 helper: removed call"]
    row = mutation_bench.table([s]).splitlines()[2].split()
    assert row == ["02-cafe", "4", "1", "1", "1", "1", "50%"]


@needs_answers
def test_bench_mutation_runs_pit_on_one_exercise_and_prints_its_score():
    r = subprocess.run([str(ROOT / "course"), "bench", "mutation", "01-thread-cost"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("01-thread-cost ")]
    assert len(rows) == 1, r.stdout
    mutants, score = int(rows[0][1]), rows[0][-1]
    assert mutants > 0 and score.endswith("%"), rows[0]
    assert (ROOT / "exercises/01-thread-cost/target/pit-reports/mutations.xml").is_file()


@needs_answers
def test_an_unknown_exercise_is_refused():
    r = subprocess.run([str(ROOT / "course"), "bench", "mutation", "99-nothing"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and "99-nothing" in r.stderr, r.stdout + r.stderr
