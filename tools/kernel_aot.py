#!/usr/bin/env python3
"""Writes the kernel's ahead-of-time cache (JDK 25, JEP 483/514/515) with one training run.

    python3 tools/kernel_aot.py SPEC_DIR

`./course setup` runs this after it has written SPEC_DIR/kernel.json: the kernel is started once with
``-XX:AOTCacheOutput`` in place of ``-XX:AOTCache``, runs a few cells that go through what every notebook
uses (JShell compiling and running a snippet, printed output, a rendered value, an error, a chart), and is
shut down; the JVM then assembles SPEC_DIR/kernel.aot from what it loaded, linked and profiled. Every later
start maps those classes instead of loading them from the jars.

A cache that does not match the JVM or the classpath (another JDK, changed jars) is refused by the JVM,
which then starts as if there were none: the kernel works, only without the speed-up. Its messages go to
the kernel's stderr, that is the Jupyter server's log, never to a notebook.
"""
from __future__ import annotations

import json
import queue
import sys
import tempfile
import time
from pathlib import Path

from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager

# What a first notebook does: print, show a value, fail once, draw a chart with the kit, render a table.
TRAINING_CELLS = [
    'System.out.println(1 + 1);',
    'var xs = new java.util.ArrayList<Integer>();\nfor (int i = 0; i < 1000; i++) xs.add(i * i);\nxs.size()',
    'Thread.ofVirtual().start(() -> System.out.println("virtual")).join();',
    'int broken = "not a number";',
    'throw new IllegalStateException("training");',
    'var img = new java.awt.image.BufferedImage(200, 100, java.awt.image.BufferedImage.TYPE_INT_RGB);\n'
    'var g = img.createGraphics();\ng.drawString("training", 20, 50);\ng.dispose();\nimg',
    'display("<b>training</b>");',
]


def training_argv(argv: list[str], output: Path) -> list[str]:
    out = [a for a in argv if not a.startswith("-XX:AOTCache=")]
    return [out[0], f"-XX:AOTCacheOutput={output}", "-Dcourse.kernel.aotTraining=true"] + out[1:]


def _wait(kc, msg_id: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.5)
        except queue.Empty:
            continue
        if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                and msg["content"].get("execution_state") == "idle"):
            return
    raise TimeoutError("a training cell did not finish")


def train(spec_dir: Path, timeout: float = 300.0) -> Path:
    spec = json.loads((spec_dir / "kernel.json").read_text())
    cache = spec_dir / "kernel.aot"
    tmp = spec_dir / "kernel.aot.new"
    tmp.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmpdir:
        kernels = Path(tmpdir) / "kernels"
        (kernels / spec_dir.name).mkdir(parents=True)
        (kernels / spec_dir.name / "kernel.json").write_text(
            json.dumps({**spec, "argv": training_argv(spec["argv"], tmp)}))
        km = KernelManager(kernel_name=spec_dir.name,
                           kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
        km.kernel_spec  # read now: the folder is gone once the kernel has started
    km.shutdown_wait_time = timeout  # the JVM writes the cache as it exits: let it, do not kill it
    with tempfile.TemporaryFile("w+") as log:
        km.start_kernel(stdout=log, stderr=log)  # the JVM reports each step of the cache's assembly
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=timeout)
            for code in TRAINING_CELLS:
                _wait(kc, kc.execute(code), timeout)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
        # The JVM assembles the cache as it exits (a child JVM writes it); shutdown_kernel waited for the exit.
        if not tmp.exists() or "AOTCache creation is complete" not in (log.seek(0) or log.read()):
            log.seek(0)
            raise RuntimeError("the training run wrote no AOT cache:\n" + log.read()[-3000:])
    tmp.replace(cache)
    return cache


if __name__ == "__main__":
    t0 = time.monotonic()
    path = train(Path(sys.argv[1]))
    print(f"[course] AOT cache {path} ({path.stat().st_size >> 20} MB) written in {time.monotonic() - t0:.0f} s",
          flush=True)
