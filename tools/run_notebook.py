#!/usr/bin/env python3
"""Executes one course notebook headless in the course kernel and judges the result.

Writes ``OUT/<name>.ipynb`` (executed) and ``OUT/<name>.html``, and exits non-zero, naming the notebook and
the cell, when a cell raises, writes to stderr, or prints a failed check (a line starting with ``✘``).
With ``--memory SHARE_BYTES``, it also writes ``OUT/<name>.memory.json``: the kernel's resident memory once the last cell
has run (see :func:`idle_memory`), which ``./course test`` holds to a learner's pod.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

KERNEL = "vthreads-java"
FAILED_CHECK = "\u2718"  # ✘, printed by course.kit.Check on a failed prediction


def output_text(out) -> str:
    if out.get("output_type") == "stream":
        return out.get("text", "")
    data = out.get("data", {})
    # dict.fromkeys: a value's text/plain is often its HTML too; a line counts once
    return "\n".join(dict.fromkeys(str(data[k]) for k in ("text/plain", "text/html", "text/markdown") if k in data))


def problems_in(cell) -> list[str]:
    """What is wrong with an executed cell's outputs, as sentences (empty if nothing)."""
    found = []
    for out in cell.get("outputs", []):
        kind = out.get("output_type")
        if kind == "error":
            found.append(f"{out.get('ename')}: {out.get('evalue')}".strip())
        elif kind == "stream" and out.get("name") == "stderr":
            found.append("wrote to stderr: " + out.get("text", "").strip()[:500])
        text = output_text(out)
        for line in text.splitlines():
            if line.lstrip().startswith(FAILED_CHECK):
                found.append("failed check: " + line.strip()[:500])
    return found


def excerpt(source: str, lines: int = 3) -> str:
    src = [l for l in source.splitlines() if l.strip()]
    more = " …" if len(src) > lines else ""
    return " | ".join(src[:lines]) + more


# How long a kernel over its share may take to give memory back once idle (its G1 does so on its periodic
# collection, every 10 s).
IDLE_WINDOW_S = 30.0


def resident_bytes(pid: int) -> int | None:
    """A process's resident memory (Linux's /proc), or None where that cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def idle_memory(pid: int, share: int) -> dict | None:
    """The kernel's resident memory right after the last cell and, while that is over ``share`` bytes, once a
    second until it is not or 30 s have passed: ``{"first_bytes", "bytes", "after_s"}``; None without /proc."""
    first = resident_bytes(pid)
    if first is None:
        return None
    t0, now = time.monotonic(), first
    while now > share and time.monotonic() - t0 < IDLE_WINDOW_S:
        time.sleep(1.0)
        now = resident_bytes(pid) or now
    return {"first_bytes": first, "bytes": now, "after_s": round(time.monotonic() - t0, 1)}


def export_html(nb, path: Path) -> None:
    from nbconvert import HTMLExporter
    body, _ = HTMLExporter().from_notebook_node(nb)
    path.write_text(body, encoding="utf-8")


def run(nb_path: Path, out_dir: Path, scale: str | None, timeout: int, kernel: str = KERNEL,
        memory: int | None = None) -> list[str]:
    """Runs the notebook (at ``scale``, else at COURSE_SCALE's); returns the list of failures (empty on success).
    With ``memory`` (a kernel's share in bytes), writes the kernel's :func:`idle_memory` to
    ``OUT/<name>.memory.json`` after the last cell."""
    nb = nbformat.read(nb_path, as_version=4)
    if scale is not None:
        os.environ["COURSE_SCALE"] = scale  # handed to the kernel, whose course.kit.Scale reads and checks it
    client = NotebookClient(nb, kernel_name=kernel, timeout=timeout, startup_timeout=60,
                            resources={"metadata": {"path": str(nb_path.parent)}})
    failures: list[str] = []
    number = 0
    t_all = time.monotonic()
    (out_dir / (nb_path.stem + ".memory.json")).unlink(missing_ok=True)  # never an earlier run's figure
    try:
        with client.setup_kernel():
            for idx, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                number += 1
                t0 = time.monotonic()
                try:
                    client.execute_cell(cell, idx)
                except CellTimeoutError:
                    failures.append(f"{nb_path.name}: code cell {number} (cell index {idx}) timed out after "
                                    f"{timeout} s: {excerpt(cell.source)}")
                    break
                except CellExecutionError:
                    pass  # the error output is judged below with the others
                problems = problems_in(cell)
                dt = time.monotonic() - t0
                mark = "FAIL" if problems else "ok  "
                print(f"  {mark} cell {number:>2} {dt:6.1f} s  {excerpt(cell.source, 1)[:70]}", flush=True)
                for pr in problems:
                    failures.append(f"{nb_path.name}: code cell {number} (cell index {idx}) {pr}\n"
                                    f"    source: {excerpt(cell.source)}")
                if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
                    break  # later cells depend on this one
            if memory is not None:
                process = getattr(getattr(client.km, "provisioner", None), "process", None)
                measured = idle_memory(process.pid, memory) if process else None
                if measured:
                    out_dir.mkdir(parents=True, exist_ok=True)
                    (out_dir / (nb_path.stem + ".memory.json")).write_text(json.dumps(measured) + "\n")
                    print(f"  kernel resident when idle: {measured['bytes'] / 1e9:.2f} GB "
                          f"({measured['first_bytes'] / 1e9:.2f} GB after the last cell)", flush=True)
    except DeadKernelError as e:
        failures.append(f"{nb_path.name}: the kernel died at code cell {number}: {e}")
    except RuntimeError as e:
        failures.append(f"{nb_path.name}: the kernel '{kernel}' did not start: {e}")
    out_dir.mkdir(parents=True, exist_ok=True)
    out_nb = out_dir / nb_path.name
    nbformat.write(nb, out_nb)
    export_html(nb, out_dir / (nb_path.stem + ".html"))
    print(f"  {nb_path.name}: {number} code cells in {time.monotonic() - t_all:.1f} s → {out_nb}", flush=True)
    return failures


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("notebook", type=Path)
    p.add_argument("--out", type=Path, default=Path("target/notebooks"))
    p.add_argument("--scale", help="the course scale the kernel runs at (default: the kernel's COURSE_SCALE)")
    p.add_argument("--timeout", type=int, help="seconds allowed per cell")
    p.add_argument("--kernel", default=KERNEL)
    p.add_argument("--memory", type=int, metavar="SHARE_BYTES",
                   help="also write the kernel's idle memory to OUT/<name>.memory.json, waiting up to 30 s for a "
                        "kernel over SHARE_BYTES to give memory back")
    a = p.parse_args()
    timeout = a.timeout or (600 if a.scale == "quick" else 1800)
    failures = run(a.notebook.resolve(), a.out.resolve(), a.scale, timeout, a.kernel, a.memory)
    for f in failures:
        print("✘ " + f if not f.startswith("✘") else f, file=sys.stderr, flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
