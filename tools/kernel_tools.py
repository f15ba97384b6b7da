"""A small client for the course's ``vthreads-java`` kernel, for tests and measurements.

    from kernel_tools import Kernel
    with Kernel() as k:                       # starts the kernel, waits for kernel_info
        r = k.execute('System.out.println(6 * 7);')
        assert r.ok and r.stdout == "42\\n"

Each cell's outputs are collected by their parent message id, so an output that lands in the wrong cell shows
up in ``CellResult.foreign`` of the cell that was waiting, instead of being silently merged. Set JUPYTER_PATH
to test a kernelspec that is not installed in the default places.
"""
from __future__ import annotations

import queue
import re
import time
from dataclasses import dataclass, field
from typing import Any

from jupyter_client import KernelManager

KERNEL_NAME = "vthreads-java"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(s: str) -> str:
    return _ANSI.sub("", s)


@dataclass
class CellResult:
    """What one execute request produced, gathered from the messages whose parent is ``msg_id``."""
    msg_id: str
    status: str | None = None               # 'ok' / 'error' from execute_reply, None if no reply came
    stdout: str = ""
    stderr: str = ""
    error: dict | None = None               # the 'error' output: ename, evalue, traceback
    data: list[dict] = field(default_factory=list)   # execute_result / display_data bundles
    displays: list[dict] = field(default_factory=list)  # display_data / update_display_data contents, in order
    busy_at: float | None = None            # time.monotonic() of this cell's 'busy'
    idle_at: float | None = None            # time.monotonic() of this cell's 'idle'
    reply_at: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.error is None

    @property
    def error_text(self) -> str:
        if not self.error:
            return ""
        return strip_ansi(f"{self.error.get('ename')}: {self.error.get('evalue')}\n"
                          + "\n".join(self.error.get("traceback") or []))

    @property
    def text(self) -> str:
        """Everything a learner would read in the cell: streams, error and the text/html or plain results."""
        parts = [self.stdout, self.stderr, self.error_text]
        for d in self.data:
            parts.append(str(d.get("text/plain") or d.get("text/html") or ""))
        return strip_ansi("\n".join(p for p in parts if p))


class KernelError(RuntimeError):
    pass


class Kernel:
    """One running ``vthreads-java`` kernel (or ``kernel_name``), driven through jupyter_client."""

    def __init__(self, kernel_name: str = KERNEL_NAME, argv_prefix: list[str] | None = None,
                 env: dict[str, str] | None = None, start_timeout: float = 30.0):
        self.km = KernelManager(kernel_name=kernel_name)
        if argv_prefix:
            spec = self.km.kernel_spec  # loads and caches the spec: the launch reads argv from this object
            spec.argv = list(argv_prefix) + list(spec.argv)
        self._env = env
        self._start_timeout = start_timeout
        self.kc = None
        self.start_seconds: float | None = None
        self._by_parent: dict[str, list[dict]] = {}
        self._replies: dict[str, dict] = {}

    # ------------------------------------------------------------------------------------------ life cycle

    def start(self) -> float:
        """Starts the kernel; returns the seconds from launch to the kernel_info reply."""
        t0 = time.monotonic()
        kw: dict[str, Any] = {}
        if self._env is not None:
            import os
            kw["env"] = {**os.environ, **self._env}
        self.km.start_kernel(**kw)
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=self._start_timeout)
        except RuntimeError as e:
            self.shutdown()
            raise KernelError(f"kernel did not answer kernel_info within {self._start_timeout} s: {e}") from e
        self.start_seconds = time.monotonic() - t0
        self._drain_iopub(0.05)
        return self.start_seconds

    def pid(self) -> int | None:
        prov = getattr(self.km, "provisioner", None)
        proc = getattr(prov, "process", None)
        return proc.pid if proc else None

    def is_alive(self) -> bool:
        return self.km.is_alive()

    def interrupt(self) -> float:
        """Sends an interrupt (message or SIGINT, as the kernelspec says); returns time.monotonic() of sending."""
        t = time.monotonic()
        self.km.interrupt_kernel()
        return t

    def shutdown(self) -> None:
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:
                pass
            self.kc = None  # let the client go now, not at interpreter exit (its __del__ then logs noise)
        try:
            if self.km.has_kernel:
                self.km.shutdown_kernel(now=False)
        except Exception:
            try:
                self.km.shutdown_kernel(now=True)
            except Exception:
                pass

    def __enter__(self) -> "Kernel":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()

    # ------------------------------------------------------------------------------------------ cells

    def submit(self, code: str) -> str:
        """Sends an execute request and returns its msg_id at once."""
        assert self.kc is not None, "start() the kernel first"
        return self.kc.execute(code, store_history=True, allow_stdin=False)

    def collect(self, msg_id: str, timeout: float = 60.0) -> CellResult:
        """Gathers the outputs of ``msg_id`` until its 'idle' status and its execute_reply have both arrived."""
        deadline = time.monotonic() + timeout
        r = CellResult(msg_id)
        while True:
            for msg in self._by_parent.pop(msg_id, []):
                self._apply(r, msg)
            if msg_id in self._replies:
                rep = self._replies.pop(msg_id)
                r.status = rep["content"].get("status")
                r.reply_at = rep["_t"]
            if r.idle_at is not None and r.status is not None:
                return r
            left = deadline - time.monotonic()
            if left <= 0:
                return r
            self._pump(min(left, 0.05))

    def execute(self, code: str, timeout: float = 60.0) -> CellResult:
        return self.collect(self.submit(code), timeout)

    def foreign_outputs(self, known: set[str]) -> list[dict]:
        """iopub output messages (not statuses) whose parent is none of ``known``: outputs in the wrong cell."""
        self._pump(0.05)
        out = []
        for parent, msgs in self._by_parent.items():
            if parent in known:
                continue
            out += [m for m in msgs if m["msg_type"] in ("stream", "error", "execute_result", "display_data",
                                                        "update_display_data")]
        return out

    def wait_idle_of(self, msg_id: str, timeout: float) -> float | None:
        """Waits for the 'idle' status of ``msg_id``; returns its time.monotonic() or None. Keeps the outputs."""
        return self.wait_status_of(msg_id, "idle", timeout)

    def wait_status_of(self, msg_id: str, state: str, timeout: float) -> float | None:
        """Waits for the status ``state`` ('busy', 'idle') of ``msg_id``; returns its time.monotonic() or None.
        Keeps the outputs."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in self._by_parent.get(msg_id, []):
                if msg["msg_type"] == "status" and msg["content"].get("execution_state") == state:
                    return msg["_t"]
            self._pump(0.01)
        return None

    # ------------------------------------------------------------------------------------------ plumbing

    def _apply(self, r: CellResult, msg: dict) -> None:
        t, c = msg["msg_type"], msg["content"]
        if t == "stream":
            if c.get("name") == "stderr":
                r.stderr += c.get("text", "")
            else:
                r.stdout += c.get("text", "")
        elif t == "error":
            r.error = c
        elif t in ("execute_result", "display_data"):
            r.data.append(c.get("data", {}))
            if t == "display_data":
                r.displays.append({"msg_type": t, **c})
        elif t == "update_display_data":
            r.displays.append({"msg_type": t, **c})
        elif t == "status":
            if c.get("execution_state") == "busy":
                r.busy_at = msg["_t"]
            elif c.get("execution_state") == "idle":
                r.idle_at = msg["_t"]

    def _pump(self, wait: float) -> None:
        """Moves whatever has arrived on iopub and shell into the per-parent buffers."""
        assert self.kc is not None
        got = self._read(self.kc.get_iopub_msg, wait)
        while got is not None:
            self._by_parent.setdefault(got["parent_header"].get("msg_id"), []).append(got)
            got = self._read(self.kc.get_iopub_msg, 0)
        rep = self._read(self.kc.get_shell_msg, 0)
        while rep is not None:
            self._replies[rep["parent_header"].get("msg_id")] = rep
            rep = self._read(self.kc.get_shell_msg, 0)

    @staticmethod
    def _read(get, wait: float):
        try:
            msg = get(timeout=wait) if wait > 0 else get(timeout=0.001)
        except queue.Empty:
            return None
        msg["_t"] = time.monotonic()
        return msg

    def _drain_iopub(self, wait: float) -> None:
        self._pump(wait)
        self._by_parent.clear()
        self._replies.clear()
