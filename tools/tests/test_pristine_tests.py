"""Edited test files never decide a grade, as a new learner would try it in a fresh clone.

Every test of exercises/02-cafe's CafeTest is made to return at once, with the stub left unwritten. The
first `./course grade 02-cafe` builds the grader (which copies the edited file into it) and must still
score 0, naming the edited file in one line; so must a grade after `./course setup --rebuild`. Without
git's history (a downloaded copy) no pristine copy is left: grading is refused, naming the file and how to
restore it. Restored, the file is used again.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEST = "exercises/02-cafe/src/test/java/course/exercises/cafe/CafeTest.java"


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A fresh clone of the course as it stands (tracked and new files, no build outputs)."""
    dest = tmp_path_factory.mktemp("fresh") / "vthreads-course"
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for f in filter(None, files):
        src = ROOT / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)
    git = ["git", "-c", "user.name=course", "-c", "user.email=course@example.org"]
    subprocess.run(git + ["init", "-q"], cwd=dest, check=True)
    subprocess.run(git + ["add", "-A"], cwd=dest, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "the course"], cwd=dest, check=True)
    return dest


def course(clone: Path, *args: str) -> subprocess.CompletedProcess:
    # COURSE_AOT=off: `setup --rebuild` would train the kernel's AOT cache, which is not what this test is about.
    env = dict(os.environ, JUPYTER_DATA_DIR=str(clone.parent / "jupyter"), COURSE_AOT="off")
    r = subprocess.run([str(clone / "course"), *args], cwd=clone, env=env, capture_output=True, text=True,
                       timeout=1200)
    assert r.returncode == 0, f"./course {' '.join(args)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def tamper(clone: Path) -> None:
    f = clone / TEST
    text = f.read_text()
    edited = re.sub(r"(\n    void \w+\(\)[^{\n]*\{\n)", r"\1        if (true) return;\n", text)
    assert edited.count("if (true) return;") == len(re.findall(r"@Test\b", text)), "every test of CafeTest returns at once"
    f.write_text(edited)


def max_score(exercise: str) -> int:
    """The exercise's points, from the grader's golden results of its stubs (GoldenResultsIT keeps them true)."""
    golden = ROOT / "grader" / "src" / "test" / "resources" / "golden" / exercise / "stubs.json"
    return json.loads(golden.read_text())["max_score"]


def score(out: str) -> str:
    m = re.search(r"^02-cafe: (\d+/\d+) points", out, re.M)
    assert m, out
    return m.group(1)


def test_tampering_changes_nothing(clone):
    tamper(clone)
    note = (f"note: {TEST} differs from the course's copy: graded with the course's own copy"
            f" (`git checkout -- {TEST}` restores yours)")

    first = course(clone, "grade", "02-cafe")                    # the first build copies the edited file
    assert "building the course kit" in first.stdout, "the first grade builds the grader"
    assert score(first.stdout) == f"0/{max_score('02-cafe')}", first.stdout
    assert [line.strip() for line in first.stdout.splitlines() if TEST in line] == [note], first.stdout
    assert "an edited test file is never run" in first.stdout

    course(clone, "setup", "--rebuild")
    again = course(clone, "grade", "02-cafe")
    assert score(again.stdout) == f"0/{max_score('02-cafe')}" and note in again.stdout, again.stdout

    shutil.rmtree(clone / ".git")                                # a copy without git's history
    refused = course(clone, "grade", "02-cafe")
    assert score(refused.stdout) == "0/0", refused.stdout
    assert "PASS" not in refused.stdout
    assert (f"{TEST} differs from the course's copy, and no copy as the course ships it was found"
            in refused.stdout), refused.stdout
    assert f"`git checkout -- {TEST}`" in refused.stdout and "Edited tests are never run." in refused.stdout

    shutil.copy2(ROOT / TEST, clone / TEST)                      # restored: graded as usual, no rebuild needed
    restored = course(clone, "grade", "02-cafe")
    assert score(restored.stdout) == f"0/{max_score('02-cafe')}" and TEST not in restored.stdout, restored.stdout
