"""`./course bench mutation`: PIT's mutation score for each exercise's tests.

PIT (pitest, with its JUnit 5 plugin; Maven owns its version and settings, in exercises/pom.xml) mutates each
exercise's reference solution, one small change at a time (a condition negated, a call removed, a return value
replaced, `-` turned into `+`), and runs the exercise's tests against each mutant. A mutant is killed when a test
fails, timed out when a test ran into its timeout (a wait that never ends: also a detection), and survived when
every test passed. This prints, per exercise, the mutants and the score (killed + timed out over all), then each
survivor with its line, so that a real gap can be closed with a test. In concurrent code some survivors are
equivalent (the mutant behaves the same: a `finally` that only restores an interrupt flag the test cannot see,
say); the grader's README lists those left and why. It is a benchmark: it prints, it asserts nothing.

    ./course bench mutation [NN-name ...]

Reports: exercises/NN-name/target/pit-reports/index.html (and mutations.xml).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from .facts import ROOT

DETECTED = ("KILLED", "TIMED_OUT", "MEMORY_ERROR", "RUN_ERROR")


@dataclass
class Score:
    exercise: str
    statuses: dict[str, int] = field(default_factory=dict)
    survivors: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    @property
    def detected(self) -> int:
        return sum(n for s, n in self.statuses.items() if s in DETECTED)

    @property
    def percent(self) -> float:
        return 100.0 * self.detected / self.total if self.total else 0.0


def read_report(exercise: str, xml: Path) -> Score:
    """One exercise's score from PIT's mutations.xml."""
    score = Score(exercise)
    for m in ET.parse(xml).getroot():
        status = m.get("status", "?")
        score.statuses[status] = score.statuses.get(status, 0) + 1
        if status not in DETECTED:
            where = f"{m.findtext('sourceFile')}:{m.findtext('lineNumber')} {m.findtext('mutatedMethod')}"
            score.survivors.append(f"{status.lower().replace('_', ' ')}: {where}: {m.findtext('description')}")
    return score


def table(scores: list[Score]) -> str:
    head = f"{'exercise':<16} {'mutants':>7} {'killed':>6} {'timed out':>9} {'survived':>8} {'no coverage':>11} {'score':>6}"
    lines = [head, "-" * len(head)]
    for s in scores:
        st = s.statuses
        lines.append(f"{s.exercise:<16} {s.total:>7} {st.get('KILLED', 0):>6} {st.get('TIMED_OUT', 0):>9}"
                     f" {st.get('SURVIVED', 0):>8} {st.get('NO_COVERAGE', 0):>11} {s.percent:>5.0f}%")
    total = sum(s.total for s in scores)
    detected = sum(s.detected for s in scores)
    if len(scores) > 1 and total:
        lines.append(f"{'all':<16} {total:>7} {'':>6} {'':>9} {'':>8} {'':>11} {100.0 * detected / total:>5.0f}%")
    return "\n".join(lines)


def main(argv: list[str], mvn: str, env: dict, known: list[str]) -> int:
    """``known``: the course's exercises, as the grader lists them."""
    p = argparse.ArgumentParser(prog="./course bench mutation", description=__doc__.splitlines()[0])
    p.add_argument("exercises", nargs="*", help="NN-name (default: all)")
    args = p.parse_args(argv)
    chosen = args.exercises or known
    unknown = [e for e in chosen if e not in known]
    if unknown:
        print(f"unknown exercise(s): {', '.join(unknown)}; the exercises: {', '.join(known)}", file=sys.stderr)
        return 2
    log = ROOT / "target" / "mutation.log"
    log.parent.mkdir(exist_ok=True)
    print(f"[course] PIT over {len(chosen)} exercise(s): the reference solutions against the exercises' tests"
          f" (log: {log.relative_to(ROOT)}) …", flush=True)
    for e in chosen:  # a report left by an earlier run must not stand in for this one
        (ROOT / "exercises" / e / "target" / "pit-reports" / "mutations.xml").unlink(missing_ok=True)
    t0 = time.monotonic()
    with open(log, "w") as out:
        r = subprocess.run([mvn, "-B", "-Psolutions", "-pl", ",".join(f"exercises/{e}" for e in chosen),
                            "test-compile", "org.pitest:pitest-maven:mutationCoverage"],
                           cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    took = time.monotonic() - t0
    scores, missing = [], []
    for e in chosen:
        xml = ROOT / "exercises" / e / "target" / "pit-reports" / "mutations.xml"
        (scores.append(read_report(e, xml)) if xml.is_file() else missing.append(e))
    print(table(scores))
    for s in scores:
        if s.survivors:
            print(f"\n{s.exercise}, not detected:")
            for line in s.survivors:
                print(f"  {line}")
    print(f"\n[course] {took:.0f} s; reports in exercises/NN-name/target/pit-reports/index.html")
    if r.returncode != 0 or missing:
        print(f"[course] PIT did not finish{' for ' + ', '.join(missing) if missing else ''}: see {log}",
              file=sys.stderr)
        return 1
    return 0
