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
    assert groups[1] == ("checks", ["spotless:check", 'pytest tools/tests -m "kernel and not conformance and not hub"',
                                    'pytest tools/tests -m "(not kernel or conformance) and not hub"'])
    with_classroom = suite.plan_text(suite.steps("py", "mvn", 4, ["browser"], classroom=True))
    assert with_classroom[1] == ("checks", ["spotless:check", 'pytest tools/tests -m "hub"',
                                            'pytest tools/tests -m "kernel and not conformance and not hub"',
                                            'pytest tools/tests -m "(not kernel or conformance) and not hub"'])
    assert groups[2:2 + len(alone)] == [(None, [f"notebook {n} (alone)"]) for n in alone]
    rest = [n for n in sorted(notebooks, reverse=True) if n not in alone]
    assert groups[2 + len(alone)] == ("notebooks", ["browser test"] + [f"notebook {n}" for n in rest])
    assert groups[3 + len(alone)] == ("audits", [f"audit {n}" for n in notebooks]
                                      + ["audit: two idle kernels fit a learner's pod"])
    memory = next(s for s in plan if s.name == "audit: two idle kernels fit a learner's pod")
    assert set(memory.needs) == {s.name for s in plan if s.name.startswith("notebook ")}
    assert groups[4 + len(alone)] == (None, ["book (from the executed notebooks) in a browser"])
    assert len(groups) == 5 + len(alone)
    book = plan[-1]
    assert set(book.needs) == {s.name for s in plan if s.name.startswith("notebook ")}, "the book needs every notebook"
    assert all(s.run[2] == "quick" and s.run[-2:] == ["--memory", str(suite.TWO_KERNELS_BYTES // 2)]
               for s in plan if s.name.startswith("notebook"))
    one_core = suite.plan_text(suite.steps("py", "mvn", 1, None))
    assert one_core[1] == ("checks", ["spotless:check", 'pytest tools/tests -m "not hub"'])


def write_memory(folder: Path, sizes: dict[str, float]) -> list[Path]:
    """A run's NAME.memory.json for each notebook, as run_notebook.py --memory writes them (sizes in GB)."""
    import json
    folder.mkdir(parents=True, exist_ok=True)
    for name, gb in sizes.items():
        (folder / f"{name}.memory.json").write_text(json.dumps({"first_bytes": int(gb * 1e9), "bytes": int(gb * 1e9),
                                                                 "after_s": 0.0}))
    return [Path(f"{name}.ipynb") for name in sizes]


def test_the_memory_audit_passes_when_the_two_largest_idle_kernels_fit(tmp_path, capsys):
    from course_cli.notebooks import kernel_memory_problems
    nbs = write_memory(tmp_path, {"01-a": 0.4, "05-b": 1.2, "08-c": 1.25, "00-d": 0.1})
    assert kernel_memory_problems(tmp_path, nbs) == []
    assert "08-c.ipynb 1.25 GB and 05-b.ipynb 1.20 GB, 2.45 GB together" in capsys.readouterr().out


def test_the_memory_audit_fails_on_two_kernels_over_a_pod_and_names_them(tmp_path):
    from course_cli.notebooks import kernel_memory_problems
    nbs = write_memory(tmp_path, {"01-a": 1.3, "05-b": 0.3, "08-c": 1.2})
    problems = kernel_memory_problems(tmp_path, nbs)
    assert len(problems) == 1 and "01-a.ipynb and 08-c.ipynb still hold 2.50 GB" in problems[0], problems


def test_the_memory_audit_fails_when_a_notebook_wrote_no_figure(tmp_path):
    from course_cli.notebooks import kernel_memory_problems
    nbs = write_memory(tmp_path, {"01-a": 0.3, "05-b": 0.3}) + [Path("07-c.ipynb")]
    assert kernel_memory_problems(tmp_path, nbs) == ["07-c.ipynb: its run wrote no 07-c.memory.json (needs Linux's /proc)"]
