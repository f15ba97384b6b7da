"""`./course test` is a declared list of steps (tools/course_cli/suite.py) run by one small function, `schedule`
(tools/course_cli/schedule.py): consecutive steps of one group side by side, up to the group's width, each group
after the steps before it."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from course_cli import suite  # noqa: E402
from course_cli.schedule import Outcome, Step, schedule  # noqa: E402


def test_a_group_runs_side_by_side_and_the_next_waits_for_it():
    together = threading.Barrier(2, timeout=30)  # passes only when both steps of the group are running at once
    ended, order = set(), []
    lock = threading.Lock()

    def run_one(step: Step) -> Outcome:
        with lock:
            order.append((step.name, frozenset(ended)))
        if step.group == "g":
            together.wait()
        with lock:
            ended.add(step.name)
        return Outcome(step.name, step.name != "b", (1, 0, 0), 0.0)

    plan = [Step("first", []), Step("a", [], "g"), Step("b", [], "g"), Step("after", []),
            Step("needs a", [], needs="a"), Step("needs b", [], needs="b"),
            Step("needs first and a", [], needs=("first", "a")), Step("needs a and b", [], needs=("a", "b"))]
    outcomes = schedule(plan, {"g": 2}, run_one)
    seen = dict(order)
    assert seen["a"] == seen["b"] == {"first"}
    assert seen["after"] == {"first", "a", "b"}
    assert "needs b" not in seen, "a step whose prerequisite failed is left out"
    assert "needs a and b" not in seen, "a step runs only if each of its prerequisites passed"
    assert [o.name for o in outcomes] == ["first", "a", "b", "after", "needs a", "needs first and a"]


def test_a_group_never_runs_more_than_its_width_at_once():
    running, peak = [0], [0]
    lock = threading.Lock()
    pairs = threading.Barrier(2, timeout=30)  # two at a time, always: the peak is at least 2

    def run_one(step: Step) -> Outcome:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        pairs.wait()
        with lock:
            running[0] -= 1
        return Outcome(step.name, True, (1, 0, 0), 0.0)

    schedule([Step(str(i), [], "n") for i in range(6)], {"n": 2}, run_one)
    assert peak[0] == 2


def test_the_steps_keep_the_suites_order_and_parallelism(monkeypatch):
    monkeypatch.setattr(suite, "notebook_command", lambda nb, scale, py=None: ["run", nb.name, scale])
    plan = suite.steps("py", "mvn", 2, ["browser"])
    groups = suite.plan_text(plan)
    notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    alone = [n for n in sorted(notebooks, reverse=True) if suite.runs_alone(ROOT / "notebooks" / n)]
    assert groups[0] == (None, ["mvn verify"])
    assert groups[1] == ("checks", ["spotless:check", 'pytest tools/tests -m "kernel and not hub"',
                                    'pytest tools/tests -m "not kernel and not hub"'])
    with_classroom = suite.plan_text(suite.steps("py", "mvn", 4, ["browser"], classroom=True))
    assert with_classroom[1] == ("checks", ["spotless:check", 'pytest tools/tests -m "hub"',
                                            'pytest tools/tests -m "kernel and not hub"',
                                            'pytest tools/tests -m "not kernel and not hub"'])
    assert groups[2:2 + len(alone)] == [(None, [f"notebook {n} (alone)"]) for n in alone]
    rest = [n for n in sorted(notebooks, reverse=True) if n not in alone]
    assert groups[2 + len(alone)] == ("notebooks", ["browser test"] + [f"notebook {n}" for n in rest])
    assert groups[3 + len(alone)] == ("audits", [f"audit {n}" for n in notebooks])
    assert groups[4 + len(alone)] == (None, ["book (from the executed notebooks) in a browser"])
    assert len(groups) == 5 + len(alone)
    book = plan[-1]
    assert set(book.needs) == {s.name for s in plan if s.name.startswith("notebook ")}, "the book needs every notebook"
    assert all(s.run[2] == "quick" for s in plan if s.name.startswith("notebook"))
    one_core = suite.plan_text(suite.steps("py", "mvn", 1, None))
    assert one_core[1] == ("checks", ["spotless:check", 'pytest tools/tests -m "not hub"'])
