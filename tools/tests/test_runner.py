"""The notebook runner (tools/run_notebook.py) fails a notebook that fails, and passes one that works.

Each fixture in ``fixtures/`` runs once, through the runner as ``./course run`` and ``./course test`` call it,
in the installed ``vthreads-java`` kernel (``./course setup``; set JUPYTER_PATH to use another one). The
failing fixtures must make the runner exit non-zero with a message naming the notebook and the cell:

- ``cell-throws``    a cell throws an exception;
- ``check-fails``    a kit check misses its prediction (a ``✘`` line);
- ``writes-stderr``  a cell writes to stderr, and nothing else is wrong.

``good`` must pass with a kit chart (``image/png``) and a kit table (an HTML ``<table>``) in its outputs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.kernel

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RUNNER = REPO / "tools" / "run_notebook.py"
FIXTURES = HERE / "fixtures"
KERNEL = "vthreads-java"
RUN_TIMEOUT_S = 240  # a deadlock guard for one whole run (kernel start included), not a performance figure


def _kernelspec_found() -> bool:
    from jupyter_client.kernelspec import KernelSpecManager
    return KERNEL in KernelSpecManager().find_kernel_specs()


needs_kernel = pytest.mark.skipif(
    not _kernelspec_found(),
    reason=f"no '{KERNEL}' kernelspec on this machine (run ./course setup, or set JUPYTER_PATH to one)")


class Outcome:
    """One run of the runner on one fixture: exit code, its output, and the executed notebook."""

    def __init__(self, name: str, out_dir: Path):
        self.name = name
        self.out_dir = out_dir
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        proc = subprocess.run(
            [sys.executable, str(RUNNER), str(FIXTURES / f"{name}.ipynb"), "--out", str(out_dir), "--scale", "quick",
             "--memory", str(int(1.25e9))],
            cwd=REPO, env=env, capture_output=True, text=True, encoding="utf-8", timeout=RUN_TIMEOUT_S)
        self.rc = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        executed = out_dir / f"{name}.ipynb"
        self.nb = nbformat.read(executed, as_version=4) if executed.exists() else None

    def explain(self) -> str:
        return f"exit {self.rc}\n--- stdout\n{self.stdout}\n--- stderr\n{self.stderr}"

    def outputs(self, cell_index: int) -> list:
        assert self.nb is not None, f"no executed notebook in {self.out_dir}\n{self.explain()}"
        return self.nb.cells[cell_index].get("outputs", [])

    def failure_lines(self) -> list[str]:
        """The runner's verdicts: the stderr lines that start with ✘ (one per problem found)."""
        return [line for line in self.stderr.splitlines() if line.startswith("✘ ")]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Runs a fixture through the runner once per test module; later calls reuse the outcome."""
    done: dict[str, Outcome] = {}

    def get(name: str) -> Outcome:
        if name not in done:
            done[name] = Outcome(name, tmp_path_factory.mktemp(name))
        return done[name]

    return get


def test_fixtures_are_committed_without_outputs():
    names = sorted(p.stem for p in FIXTURES.glob("*.ipynb"))
    assert names == ["cell-throws", "check-fails", "exercise-live", "good", "writes-stderr"]
    for p in FIXTURES.glob("*.ipynb"):
        nb = nbformat.read(p, as_version=4)
        nbformat.validate(nb)
        assert nb.metadata.kernelspec.name == KERNEL, p.name
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{p.name} has outputs"


@needs_kernel
def test_a_cell_that_throws_fails_the_run_at_that_cell(run):
    o = run("cell-throws")
    assert o.rc != 0, o.explain()
    lines = o.failure_lines()
    assert len(lines) == 1, o.explain()
    assert lines[0].startswith("✘ cell-throws.ipynb: code cell 2 (cell index 2) "), o.explain()
    assert "boom from the fixture" in lines[0], o.explain()
    assert "throw new IllegalStateException" in o.stderr, "the message quotes the cell's source\n" + o.explain()
    # the cell before it ran; the cell after it did not (later cells depend on earlier ones)
    assert any("before the failure" in out.get("text", "") for out in o.outputs(1)), o.explain()
    assert any(out.output_type == "error" for out in o.outputs(2)), o.explain()
    assert o.outputs(3) == [] and o.nb.cells[3].execution_count is None, "the run stopped at the failing cell"


@needs_kernel
def test_a_failed_kit_check_fails_the_run(run):
    o = run("check-fails")
    assert o.rc != 0, o.explain()
    lines = o.failure_lines()
    assert lines, o.explain()
    assert all(line.startswith("✘ check-fails.ipynb: code cell 1 (cell index 1) ") for line in lines), o.explain()
    assert any("failed check: ✘ x: measured 2 s, predicted 1 s" in line for line in lines), o.explain()
    printed = "".join(out.get("text", "") for out in o.outputs(1) if out.output_type == "stream")
    assert printed.startswith("✘ x: measured 2 s"), "the check printed its cross line in the cell\n" + o.explain()


@needs_kernel
def test_a_cell_that_writes_to_stderr_fails_the_run(run):
    o = run("writes-stderr")
    assert o.rc != 0, o.explain()
    lines = o.failure_lines()
    assert len(lines) == 1, o.explain()
    assert lines[0].startswith("✘ writes-stderr.ipynb: code cell 2 (cell index 2) wrote to stderr: "), o.explain()
    assert "something went to stderr" in lines[0], o.explain()
    assert not any(out.output_type == "error" for cell in o.nb.cells for out in cell.get("outputs", [])), \
        "nothing threw: stderr alone failed the run"


@needs_kernel
def test_a_good_notebook_passes_with_a_chart_and_a_table(run):
    o = run("good")
    assert o.rc == 0, o.explain()
    assert o.failure_lines() == [], o.explain()
    assert "✘" not in o.stderr, o.explain()
    assert (o.out_dir / "good.html").stat().st_size > 0, "the HTML export was written"
    if Path("/proc/self/status").exists():  # --memory: the kernel's resident memory once the last cell ran
        memory = json.loads((o.out_dir / "good.memory.json").read_text())
        assert 20e6 < memory["bytes"] <= memory["first_bytes"] < 1.25e9 and memory["after_s"] == 0.0, memory
        assert f"kernel resident when idle: {memory['bytes'] / 1e9:.2f} GB" in o.stdout, o.explain()
    every = [out for cell in o.nb.cells for out in cell.get("outputs", [])]
    assert not any(out.output_type == "error" for out in every), o.explain()
    assert not any(out.output_type == "stream" and out.name == "stderr" for out in every), o.explain()
    assert "200 tasks on virtual threads" in "".join(out.get("text", "") for out in o.outputs(2))
    chart = [out for out in o.outputs(3) if "image/png" in out.get("data", {})]
    assert chart, f"the kit chart is an inline PNG: {o.outputs(3)}"
    assert len(chart[0].data["image/png"]) > 1000, "a real image, not an empty one"
    html = "".join(str(out.get("data", {}).get("text/html", "")) for out in o.outputs(4))
    assert "<table" in html and "good fixture" in html, f"the kit table is an HTML table: {o.outputs(4)}"
    check = "".join(out.get("text", "") for out in o.outputs(5))
    assert check.startswith("✔ tasks that ran: measured 200, predicted 200"), o.explain()
