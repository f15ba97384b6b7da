#!/usr/bin/env python3
"""`./course bench kernel`: the course's Java kernel next to Python's ipykernel, on this machine, in one run.

For each kernel it measures, from the moment the kernel process is launched:
  - start to kernel_info: the reply to the first kernel_info request (the client shows "connected");
  - start to first output: the first printed line of a first cell, `System.out.println(1 + 1);` / `print(1 + 1)`;
and, in one kernel kept running, the round trip of that trivial cell once warm (request sent → reply and idle),
beside JShell's own floor: the same cell in a JShell built as the kernel builds it, with no kernel around it.
For the course kernel it also measures interrupt latency: a running cell (a CPU loop, a sleep, a fixed pool
blocked in close()) is interrupted, and the time from the interrupt request to the kernel's idle status is
taken (the stop button's "kernel ready again").
Cold starts alternate between the two kernels, so that both meet the same machine load. It prints medians
and the ratio course / ipykernel. It is a benchmark: it asserts nothing and its figures depend on the machine.

    ./course bench kernel [--starts 5] [--cells 30] [--interrupts 3] [--profile target/kernel-warm-cells.jfr]

With --profile it also records a JFR profile of warm trivial cells in the course kernel and prints where
their CPU time goes, by step (JShell analysis, javac, rapaio, the stop-check agent, messaging, logging).
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

COURSE = "vthreads-java"
IPYKERNEL = "python3"
CELL = {COURSE: "System.out.println(1 + 1);", IPYKERNEL: "print(1 + 1)"}


def _until(get, pred, deadline: float):
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer in time")
        try:
            msg = get(timeout=min(left, 0.5))
        except queue.Empty:
            continue
        if pred(msg):
            return msg


def cold_start(name: str, timeout: float = 60.0) -> tuple[float, float]:
    """Seconds from launch to the kernel_info reply, and to the first output of a first cell."""
    km = KernelManager(kernel_name=name)
    t0 = time.monotonic()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=timeout)
        t_info = time.monotonic() - t0
        msg_id = kc.execute(CELL[name])
        _until(kc.get_iopub_msg, lambda m: m["parent_header"].get("msg_id") == msg_id
               and m["msg_type"] == "stream", time.monotonic() + timeout)
        t_out = time.monotonic() - t0
        return t_info, t_out
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)


def profiled_manager(name: str, jfr: Path) -> KernelManager:
    """A manager for kernel ``name`` whose JVM records a JFR profile (sampling every 10 ms) into ``jfr``."""
    spec = KernelSpecManager().get_kernel_spec(name)
    # JFR adds a module to the JVM, which therefore refuses the AOT cache: the profiled kernel starts without it.
    argv = [a for a in spec.argv if not a.startswith("-XX:AOTCache=")]
    argv.insert(1, f"-XX:StartFlightRecording=filename={jfr},settings=profile,dumponexit=true")
    tmp = Path(tempfile.mkdtemp()) / "kernels"
    (tmp / name).mkdir(parents=True)
    (tmp / name / "kernel.json").write_text(json.dumps({**spec.to_dict(), "argv": argv}))
    km = KernelManager(kernel_name=name, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(tmp)]))
    km.kernel_spec  # read it before the folder goes
    shutil.rmtree(tmp.parent)
    return km


def warm_cells(name: str, n: int, warmup: int = 5, timeout: float = 60.0, jfr: Path | None = None) -> list[float]:
    """Round trips (seconds) of ``n`` trivial cells in one kernel, after ``warmup`` unmeasured ones."""
    km = profiled_manager(name, jfr) if jfr else KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=timeout)
        times = []
        for i in range(warmup + n):
            t0 = time.monotonic()
            msg_id = kc.execute(CELL[name])
            _until(kc.get_shell_msg, lambda m: m["parent_header"].get("msg_id") == msg_id, t0 + timeout)
            _until(kc.get_iopub_msg, lambda m: m["parent_header"].get("msg_id") == msg_id
                   and m["msg_type"] == "status" and m["content"].get("execution_state") == "idle", t0 + timeout)
            if i >= warmup:
                times.append(time.monotonic() - t0)
        return times
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)


# Where a warm cell's samples are, by the outermost recognisable step on their stack.
BUCKETS = [
    ("JShell source analysis (parse, snippet kind, completeness)", ("jdk.jshell.SourceCodeAnalysisImpl", "jdk.jshell.CompletenessAnalyzer", "jdk.jshell.Eval.sourceToSnippets", "jdk.jshell.Eval.sourceToSnippetsWithWrappers")),
    ("javac: compile the snippet's wrapper class", ("jdk.jshell.TaskFactory", "com.sun.tools.javac")),
    ("rapaio: magics, display, output formatting", ("org.rapaio.jupyter.kernel.core.magic", "org.rapaio.jupyter.kernel.core.display", "org.rapaio.jupyter.kernel.core.format")),
    ("class loading / define of the snippet", ("java.lang.ClassLoader.defineClass", "jdk.jshell.execution")),
    ("stop-check weaving (course agent)", ("course.kernel.StopCheckWeaver", "java.lang.classfile", "jdk.internal.classfile")),
    ("ZeroMQ messaging, JSON", ("zmq.", "org.zeromq", "com.google.gson")),
    ("logging", ("java.util.logging",)),
]


def profile_summary(jfr: Path, top: int = 12) -> str:
    """The profile's top self-time methods and its samples by step (inclusive), from `jfr print --json`."""
    java = os.environ.get("JAVA_HOME")
    jfr_tool = str(Path(java) / "bin" / "jfr") if java else (shutil.which("jfr") or "jfr")
    r = subprocess.run([jfr_tool, "print", "--json", "--stack-depth", "256", "--events", "jdk.ExecutionSample",
                        str(jfr)], capture_output=True, text=True)
    if r.returncode != 0:
        return f"(jfr print failed: {r.stderr.strip()[:300]})"
    events = json.loads(r.stdout)["recording"]["events"]
    self_time: dict[str, int] = {}
    buckets: dict[str, int] = {}
    total = 0
    for e in events:
        frames = [f"{f['method']['type']['name']}.{f['method']['name']}" for f in e["values"]["stackTrace"]["frames"]]
        if not frames or not any(f.startswith(("org.rapaio", "jdk.jshell", "course.kernel", "zmq.")) for f in frames):
            continue  # not the kernel's work (JIT-less runtime threads, GC helpers in Java, …)
        total += 1
        self_time[frames[0]] = self_time.get(frames[0], 0) + 1
        for label, prefixes in BUCKETS:
            if any(f.startswith(prefixes) for f in frames):
                buckets[label] = buckets.get(label, 0) + 1
                break
        else:
            buckets["other"] = buckets.get("other", 0) + 1
    lines = [f"{total} samples of the kernel's threads (every 10 ms of CPU, JFR 'profile' settings)", "",
             "| step (outermost recognisable frame) | share of samples |", "|---|---|"]
    lines += [f"| {k} | {v * 100 / max(total, 1):.0f}% |" for k, v in sorted(buckets.items(), key=lambda x: -x[1])]
    lines += ["", "| top methods by own time | share |", "|---|---|"]
    lines += [f"| `{k}` | {v * 100 / max(total, 1):.1f}% |"
              for k, v in sorted(self_time.items(), key=lambda x: -x[1])[:top]]
    return "\n".join(lines)


INTERRUPT_CELLS = {
    "CPU loop": "while (true) {}",
    "sleep": "Thread.sleep(60_000);",
    "fixed pool in close()": ("try (var ex = java.util.concurrent.Executors.newFixedThreadPool(200)) {\n"
                              "    for (int i = 0; i < 4000; i++) ex.submit(() -> { Thread.sleep(1000); return null; });\n"
                              "}"),
}


def interrupt_latencies(n: int, running_s: float = 1.5) -> dict[str, list[float]]:
    """Seconds from each interrupt request to the course kernel's idle status, ``n`` per cell of
    INTERRUPT_CELLS, in one kernel; each interrupt is followed by a cell that must answer."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from kernel_tools import Kernel
    found: dict[str, list[float]] = {name: [] for name in INTERRUPT_CELLS}
    with Kernel() as k:
        k.execute("System.out.println(1 + 1);", timeout=60)
        for _ in range(n):
            for name, code in INTERRUPT_CELLS.items():
                msg_id = k.submit(code)
                time.sleep(running_s)
                t0 = k.interrupt()
                t_idle = k.wait_idle_of(msg_id, timeout=60)
                if t_idle is None:
                    raise TimeoutError(f"the kernel never went idle after interrupting the {name}")
                found[name].append(t_idle - t0)
                k.collect(msg_id, timeout=10)
                after = k.execute("System.out.println(6 * 7);", timeout=60)
                if after.stdout != "42\n":
                    raise RuntimeError(f"after interrupting the {name}, the next cell gave {after.text!r}")
    return found


def load() -> str:
    try:
        return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    except OSError:
        return f"{os.cpu_count()} cores"


def jshell_floor(cells: int) -> str:
    """JShell alone, as the course kernel builds it, evaluating the same trivial cell (course.kernel.JShellFloor):
    its own floor, with no kernel, messages or sockets around it. The kernelspec's JVM and class path, without the
    kernel's agent and AOT cache."""
    spec = KernelSpecManager().get_kernel_spec(COURSE)
    argv = spec.argv
    main = argv.index("course.kernel.Launcher")
    jvm = [a for a in argv[:main] if not a.startswith(("-javaagent:", "-XX:AOTCache="))]
    env = dict(os.environ, **(spec.env or {}))
    r = subprocess.run([*jvm, "course.kernel.JShellFloor", str(cells)], env=env, capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        return f"JShell alone: failed ({r.returncode}): {r.stderr.strip()[-500:]}"
    return r.stdout.strip()


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="./course bench kernel", description=__doc__.splitlines()[0])
    p.add_argument("--starts", type=int, default=5, help="cold starts of each kernel (default 5)")
    p.add_argument("--cells", type=int, default=30, help="warm trivial cells measured (default 30)")
    p.add_argument("--interrupts", type=int, default=3, help="interrupts of each kind of running cell (default 3)")
    p.add_argument("--profile", metavar="FILE.jfr", type=Path,
                   help="also run --cells warm cells in a course kernel recording a JFR profile, and summarise it")
    a = p.parse_args(argv)
    ksm = KernelSpecManager()
    kernels = []
    for name in (COURSE, IPYKERNEL):
        try:
            ksm.get_kernel_spec(name)
            kernels.append(name)
        except NoSuchKernel:
            print(f"[bench] no '{name}' kernel here: it is left out", flush=True)
    if COURSE not in kernels:
        print("[bench] the course kernel is not installed: run ./course setup first", file=sys.stderr)
        return 2
    print(f"[bench] {a.starts} cold starts each, alternating, then {a.cells} warm cells each; {load()}", flush=True)
    info = {k: [] for k in kernels}
    out = {k: [] for k in kernels}
    for i in range(a.starts):
        for k in kernels:
            t_info, t_out = cold_start(k)
            info[k].append(t_info)
            out[k].append(t_out)
            print(f"[bench] start {i + 1} {k}: kernel_info {t_info:.2f} s, first output {t_out:.2f} s", flush=True)
    warm = {}
    for k in kernels:
        warm[k] = warm_cells(k, a.cells)
        print(f"[bench] warm {k}: median {statistics.median(warm[k]) * 1000:.1f} ms", flush=True)
    floor = jshell_floor(a.cells)
    print(f"[bench] {floor}", flush=True)

    med = statistics.median
    rows = [("start to `kernel_info` (median)", {k: med(info[k]) for k in kernels}, "s"),
            ("start to first printed output (median)", {k: med(out[k]) for k in kernels}, "s"),
            ("warm trivial cell round trip (median)", {k: med(warm[k]) for k in kernels}, "ms")]
    has_py = IPYKERNEL in kernels
    print()
    print(f"| {load()} | course kernel |" + (" ipykernel | course / ipykernel |" if has_py else ""))
    print("|---|---|" + ("---|---|" if has_py else ""))
    for label, vals, unit in rows:
        f = (lambda v: f"{v * 1000:.1f} ms") if unit == "ms" else (lambda v: f"{v:.2f} s")
        line = f"| {label} | {f(vals[COURSE])} |"
        if has_py:
            line += f" {f(vals[IPYKERNEL])} | {vals[COURSE] / vals[IPYKERNEL]:.2f}× |"
        print(line)
    print(f"\n(first output: every start {', '.join(f'{x:.2f}' for x in out[COURSE])} s; "
          f"warm cells: min {min(warm[COURSE]) * 1000:.1f} ms, max {max(warm[COURSE]) * 1000:.1f} ms)")
    print(f"The floor under a warm cell, with no kernel: {floor}")
    if a.interrupts > 0:
        lat = interrupt_latencies(a.interrupts)
        print(f"\n| interrupt → idle, course kernel ({load()}) | median | max |")
        print("|---|---|---|")
        for name, xs in lat.items():
            print(f"| {name} ({len(xs)} interrupts) | {med(xs) * 1000:.0f} ms | {max(xs) * 1000:.0f} ms |")
    if a.profile:
        a.profile.parent.mkdir(parents=True, exist_ok=True)
        a.profile.unlink(missing_ok=True)
        prof = warm_cells(COURSE, a.cells, warmup=20, jfr=a.profile.resolve())
        print(f"\n[bench] profiled warm cells (median {statistics.median(prof) * 1000:.1f} ms while recording), "
              f"{a.profile}:\n")
        print(profile_summary(a.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
