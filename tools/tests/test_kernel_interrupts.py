"""Every interrupt returns the kernel to idle: many of them, both kinds, busy and idle, with the cores kept busy.

An interrupt lost in a classroom is a restarted kernel and a lost session, so this test sends more than 50:
SIGINT (what a kernelspec with ``interrupt_mode: signal`` sends) and ``interrupt_request`` (the course's
kernelspec, ``message``), to a kernel running a CPU loop, a sleep or a pool of sleeping tasks, at several
moments after the cell started, and to an idle kernel; meanwhile every core is busy (a process burns CPU on each
core that other programs leave idle). After every interrupt the kernel must report idle and run the next cell in
its own output.

The kernel is started the way that once lost every SIGINT: by a process that ignores SIGINT, as a shell
without job control leaves a program started with ``&``, ``nohup`` or some CI runners. A JVM declines to
handle a signal that was ignored when it started, and says nothing; the launcher takes SIGINT back.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kernel_tools import Kernel  # noqa: E402

# Deadlock guards, not performance figures.
BUSY_GUARD_S = 30.0
IDLE_GUARD_S = 15.0

CELLS = {
    "cpu-loop": "while (true) {}",
    "sleep": "Thread.sleep(60_000);",
    "pool": ("try (var ex = java.util.concurrent.Executors.newFixedThreadPool(50)) {\n"
             "    for (int i = 0; i < 1000; i++) ex.submit(() -> { Thread.sleep(1000); return null; });\n"
             "}"),
}
# How long after the cell's 'busy' status the interrupt comes: at once (JShell may still be compiling), soon,
# and when the cell's code is surely running.
DELAYS_S = (0.0, 0.05, 0.3, 1.0)
NEXT_CELL = 'System.out.println("next " + (6 * 7));'


def busy_cores(seconds: float = 1.0) -> float:
    """How many cores the machine kept busy over ``seconds`` (Linux's /proc/stat); 0.0 where it cannot be read."""
    def read() -> tuple[int, int]:
        with open("/proc/stat", encoding="ascii") as f:
            v = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
        return sum(v), v[3] + v[4]
    try:
        (t0, i0), _, (t1, i1) = read(), time.sleep(seconds), read()
    except OSError:
        return 0.0
    return (os.cpu_count() or 1) * (1 - (i1 - i0) / (t1 - t0)) if t1 > t0 else 0.0


@pytest.fixture(scope="module")
def load():
    """CPU-bound processes for as long as the test runs, one per core that other programs leave idle: the cores are
    kept busy either way, and inside ./course test, whose other pytest process already keeps them busy, burners
    would only take CPU from it (two for 22 s)."""
    idle = max(0, (os.cpu_count() or 1) - int(busy_cores()))
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(idle)]
    yield len(burners)
    for b in burners:
        b.kill()
        b.wait()


@pytest.fixture(scope="module")
def kernel(load):
    """A kernel started by a process that ignores SIGINT (the child inherits it)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        k = Kernel(start_timeout=60)
        k.start()
    finally:
        signal.signal(signal.SIGINT, previous)
    yield k
    k.shutdown()


def _send(k: Kernel, how: str) -> None:
    if how == "SIGINT":
        os.kill(k.pid(), signal.SIGINT)
    else:
        k.km.interrupt_kernel()  # the course's kernelspec: interrupt_mode "message", an interrupt_request


def _interrupt_idle(k: Kernel, how: str) -> None:
    """An interrupt to an idle kernel. An ``interrupt_request`` goes on the client's control channel and the
    kernel's ``interrupt_reply`` is awaited: the shell and control channels are not ordered with each other, so
    only the reply says the kernel has handled it before the next cell is sent. SIGINT has no reply: the JVM runs
    the handler on a thread of its own, which, with every core busy, may run once the next cell has started."""
    if how == "SIGINT":
        os.kill(k.pid(), signal.SIGINT)
        time.sleep(0.05)  # usually handled by then; the caller accepts a handler that runs later (see below)
        return
    msg = k.kc.session.msg("interrupt_request", {})
    k.kc.control_channel.send(msg)
    deadline = time.monotonic() + IDLE_GUARD_S
    while True:  # queue.Empty after the guard: the kernel never answered
        reply = k.kc.get_control_msg(timeout=max(0.01, deadline - time.monotonic()))
        if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
            assert reply["msg_type"] == "interrupt_reply", reply
            return


def _next_cell_is_its_own(k: Kernel, known: set[str]) -> None:
    nxt = k.execute(NEXT_CELL, timeout=BUSY_GUARD_S)
    assert nxt.ok and nxt.stdout == "next 42\n", nxt.text
    known.add(nxt.msg_id)


def test_every_interrupt_returns_the_kernel_to_idle(kernel, load):
    plan = [(cell, delay, how) for how in ("SIGINT", "interrupt_request") for cell in CELLS for delay in DELAYS_S]
    plan += [(cell, delay, how) for how in ("SIGINT", "interrupt_request") for cell in ("cpu-loop", "sleep")
             for delay in DELAYS_S]
    idle = [how for how in ("SIGINT", "interrupt_request") for _ in range(6)]
    assert len(plan) + len(idle) >= 50
    known: set[str] = set()
    latencies: dict[str, list[float]] = {"SIGINT": [], "interrupt_request": []}
    for cell, delay, how in plan:
        msg_id = kernel.submit(CELLS[cell])
        known.add(msg_id)
        assert kernel.wait_status_of(msg_id, "busy", BUSY_GUARD_S) is not None, f"{cell}: never busy"
        time.sleep(delay)
        t0 = time.monotonic()
        _send(kernel, how)
        t_idle = kernel.wait_idle_of(msg_id, IDLE_GUARD_S)
        assert t_idle is not None, f"{how} {delay * 1000:.0f} ms into '{cell}': the kernel never reported idle"
        latencies[how].append(t_idle - t0)
        r = kernel.collect(msg_id, timeout=5)
        assert r.status == "error", f"{how} into '{cell}': the cell ended with {r.status}: {r.text}"
        _next_cell_is_its_own(kernel, known)
    late = 0
    for how in idle:  # nothing runs: the interrupt must leave the kernel as it was
        _interrupt_idle(kernel, how)
        if how == "SIGINT":
            # A SIGINT handled late stops the cell that has started by then, and no later one.
            first = kernel.execute(NEXT_CELL, timeout=BUSY_GUARD_S)
            known.add(first.msg_id)
            if not first.ok:
                assert "interrupted" in first.text.lower(), first.text
                late += 1
        _next_cell_is_its_own(kernel, known)
    assert late < idle.count("SIGINT"), "every SIGINT to an idle kernel stopped the next cell: a stale stop request"
    assert kernel.is_alive()
    stray = kernel.foreign_outputs(known)
    assert not stray, f"outputs under another parent: {stray}"
    for how, ts in latencies.items():
        ts.sort()
        print(f"\n{how}: {len(ts)} interrupts of busy cells with {load} CPU burners: idle after "
              f"median {ts[len(ts) // 2] * 1000:.0f} ms, max {ts[-1] * 1000:.0f} ms")
