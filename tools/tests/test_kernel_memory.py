"""Two learners' worth of kernels fit a classroom pod: memory comes back when a kernel goes idle.

JupyterLab keeps the kernel of every opened notebook. A learner who goes from notebook 01 to notebook 05
without shutting the first kernel down holds two. Each of two kernels here runs notebook 01 and then notebook 05
(whatever notebooks/01-*.ipynb and 05-*.ipynb are now) at the quick scale; within 30 s of both going idle,
their combined resident memory must be under 2.5 GB, so that two of them and the Jupyter server stay well
inside the 4 GB that deploy/jupyterhub/values.yaml gives each learner. Linux only (it reads /proc).

    .venv/bin/python -m pytest -q -s tools/tests/test_kernel_memory.py     # prints the figures
"""
from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from kernel_tools import Kernel  # noqa: E402

COMBINED_LIMIT_BYTES = int(2.5e9)
IDLE_WINDOW_S = 30.0


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def notebook(prefix: str) -> Path:
    found = sorted((ROOT / "notebooks").glob(f"{prefix}-*.ipynb"))
    assert found, f"no notebooks/{prefix}-*.ipynb"
    return found[0]


def code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for c in nb["cells"]:
        if c.get("cell_type") == "code":
            src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            if src.strip():
                cells.append(src)
    return cells


def run_notebook_in(k: Kernel, path: Path) -> list[str]:
    """Runs every code cell; returns the cells whose code failed (a notebook's own checks are judged by
    `./course test`'s notebook step, not here). Each cell must run to its end and the kernel stay up."""
    failed = []
    for i, src in enumerate(code_cells(path), 1):
        r = k.execute(src, timeout=600)
        assert r.status is not None, f"{path.name}, code cell {i}: no reply (the kernel died or hung)"
        if not r.ok:
            failed.append(f"{path.name} cell {i}: {r.text.strip().splitlines()[-1][:200] if r.text.strip() else '?'}")
    assert k.is_alive()
    return failed


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads resident memory from /proc")
def test_two_kernels_after_notebooks_01_and_05_give_memory_back_when_idle():
    pytest.importorskip("jupyter_client")
    notebooks = [notebook("01"), notebook("05")]
    t_start = time.monotonic()
    kernels = [Kernel(env={"COURSE_SCALE": "quick"}, start_timeout=60) for _ in range(2)]
    try:
        for k in kernels:
            k.start()
        # Both kernels at once (half the wall time on two cores); each runs 01, then 05.
        failed = []
        with ThreadPoolExecutor(2) as pool:
            for f in [pool.submit(lambda k=k: [run_notebook_in(k, nb) for nb in notebooks]) for k in kernels]:
                failed += [c for cells in f.result() for c in cells]
        idle_at = time.monotonic()
        samples = []
        while True:
            rss = [rss_bytes(k.pid()) for k in kernels]
            samples.append((time.monotonic() - idle_at, sum(rss), rss))
            if sum(rss) < COMBINED_LIMIT_BYTES or samples[-1][0] >= IDLE_WINDOW_S:
                break
            time.sleep(1.0)
    finally:
        for k in kernels:
            k.shutdown()
    gb = lambda b: f"{b / 1e9:.2f} GB"  # noqa: E731
    t, total, each = samples[-1]
    print(f"\n{' and '.join(nb.name for nb in notebooks)} (quick) in two kernels, {time.monotonic() - t_start:.0f} s: "
          f"resident right after the last cell {gb(samples[0][1])} ({', '.join(gb(b) for b in samples[0][2])}); "
          f"{t:.0f} s later {gb(total)} ({', '.join(gb(b) for b in each)})"
          + (f"; cells that failed their own checks: {failed}" if failed else ""))
    assert total < COMBINED_LIMIT_BYTES, (
        f"{IDLE_WINDOW_S:.0f} s after both kernels went idle they still hold {gb(total)} "
        f"({', '.join(gb(b) for b in each)}), over {gb(COMBINED_LIMIT_BYTES)}")
