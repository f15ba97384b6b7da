#!/usr/bin/env python3
"""`./course bench first-run`: what a newcomer waits for, from a fresh clone to JupyterLab listing the course kernel.

It clones the committed course into a temporary folder and runs `./course lab` there as a newcomer would, with
nothing of this machine's to reuse: an empty Maven repository (and Maven wrapper home), no pip or uv cache, no
Python environment and an empty Jupyter data folder (the kernelspec goes there). JDK, Python and Git are the
machine's. It times each step from the lines `./course` prints, up to the moment `/api/kernelspecs` (with the
token) lists the course kernel:

  - the Python environment (venv + pip from tools/python/requirements.lock),
  - Maven: resolution and the build of the kit, kernel and grader,
  - the kernel's AOT cache (one training run),
  - JupyterLab's start, to the kernelspec listed,

and the bytes each step downloaded (Maven: what its repository holds afterwards; the Python environment: the rest
of what the machine received, from /proc/net/dev). Maven builds while the environment is made, so those two steps
overlap; each line gives its start and end. It prints; it asserts nothing; the figures depend on the network.

    ./course bench first-run [--keep] [--timeout 1800]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Each step, from the line of ./course that opens it to the line that closes it. On a first run the Python
# environment is made while Maven builds, so those two overlap.
STEPS = [
    ("python environment", re.compile(r"making the course's Python environment"),
     re.compile(r"Python environment ready")),
    ("maven (resolve + build)", re.compile(r"building the course kit, kernel and grader with Maven"),
     re.compile(r"built in [\d.]+ s")),
    ("kernelspec + AOT cache", re.compile(r"training the kernel's ahead-of-time cache"),
     re.compile(r"kernel 'vthreads-java' .* (written to|up to date in)")),
    ("JupyterLab start", re.compile(r"starting JupyterLab"), None),  # ends when the kernelspec is listed
]


def received_bytes() -> int | None:
    """Bytes this machine has received on its network interfaces other than loopback (None without /proc)."""
    try:
        lines = Path("/proc/net/dev").read_text().splitlines()[2:]
    except OSError:
        return None
    total = 0
    for line in lines:
        name, data = line.split(":", 1)
        if name.strip() != "lo":
            total += int(data.split()[0])
    return total


def size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def human(n: int | None) -> str:
    if n is None:
        return "?"
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return str(n)


def kernelspec_listed(port: int, token: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/kernelspecs?token={token}", timeout=5) as r:
            return "vthreads-java" in json.load(r).get("kernelspecs", {})
    except (OSError, ValueError):
        return False


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="./course bench first-run", description=__doc__.split("\n\n")[0])
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (and say where it is)")
    p.add_argument("--timeout", type=int, default=1800, help="seconds before giving up (default 1800)")
    args = p.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="course-first-run-"))
    clone = work / "vthreads-course"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("COURSE_PYTHON", "COURSE_VENV", "JUPYTER_PATH", "VIRTUAL_ENV", "PYTHONPATH")}
    env.update(MAVEN_OPTS=f"-Dmaven.repo.local={work / 'm2'}", MAVEN_USER_HOME=str(work / "m2-home"),
               PIP_NO_CACHE_DIR="1", UV_NO_CACHE="1", JUPYTER_DATA_DIR=str(work / "jupyter"),
               JUPYTER_TOKEN=(token := secrets.token_hex(16)), COURSE_AOT=env.get("COURSE_AOT", "on"))
    # The Python ./course starts with: the machine's, never the course's environment this command runs in.
    env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep) if not d.startswith(sys.prefix))
    base = shutil.which("python3", path=env["PATH"]) or "/usr/bin/python3"
    port = free_port()
    print(f"first run of a fresh clone ({clone}), base Python {base}, port {port} …", flush=True)

    t0 = time.monotonic()
    net0 = received_bytes()
    at: dict[str, float] = {}  # "start python environment", "end maven (resolve + build)", … → seconds from t0
    m2_at: dict[str, int] = {}
    proc = subprocess.Popen([str(clone / "course"), "lab", "--port", str(port)], cwd=clone, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    log: list[str] = []

    def read() -> None:
        for line in proc.stdout:
            log.append(line)
            for name, opens, closes in STEPS:
                for edge, rx in (("start", opens), ("end", closes)):
                    key = f"{edge} {name}"
                    if rx is not None and key not in at and rx.search(line):
                        at[key] = time.monotonic() - t0
                        m2_at[key] = size(work / "m2")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    listed = False
    try:
        while time.monotonic() - t0 < args.timeout and proc.poll() is None:
            if "start JupyterLab start" in at and kernelspec_listed(port, token):
                listed = True
                at["end JupyterLab start"] = time.monotonic() - t0
                break
            time.sleep(0.2)
    finally:
        net = (received_bytes() - net0) if net0 is not None else None
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
    if not listed:
        print("".join(log[-40:]), file=sys.stderr)
        print(f"the course kernel was not listed within {args.timeout} s (the last lines are above)", file=sys.stderr)
        return 1

    total = at["end JupyterLab start"]
    m2 = size(work / "m2")
    downloaded = {"maven (resolve + build)": m2,
                  "python environment": (net - m2) if net is not None else None}
    print("\n| step | from (s) | to (s) | seconds | downloaded |\n|---|---:|---:|---:|---:|")
    for name, _, _ in STEPS:
        a, b = at.get(f"start {name}"), at.get(f"end {name}")
        if a is None or b is None:
            print(f"| {name} | – | – | – | – |")
            continue
        print(f"| {name} | {a:.1f} | {b:.1f} | {b - a:.1f} | {human(downloaded.get(name, 0))} |")
    print(f"| **clone to kernel listed** | 0 | {total:.1f} | **{total:.1f}** | **{human(net)}** |")
    print(f"\n{os.cpu_count()} cores. Maven's download is what its repository holds afterwards; the Python "
          f"environment's is the rest of what this machine received meanwhile (every process's). Environment "
          f"{human(size(clone / '.venv'))} on disk.")
    if args.keep:
        print(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
