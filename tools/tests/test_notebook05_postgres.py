"""Notebook 05's real PostgreSQL, seen from outside the kit: the embedded server goes away with the kernel, and the
notebook runs against an existing server named by COURSE_JDBC_URL.

The kernel test starts the course's kernel, has a cell start the embedded server, shuts the kernel down as Jupyter
does, and checks that no server process and no data folder is left.

The COURSE_JDBC_URL test starts a cluster of its own with Debian's PostgreSQL (the ``postgresql`` package: ``initdb`` and ``pg_ctl``
from ``/usr/lib/postgresql/*/bin``), as the ``postgres`` user when it runs as root, on a free loopback port, runs the
notebook through the runner at the quick scale with ``COURSE_JDBC_URL`` pointing at it, and stops the cluster. The
notebook must pass every check and say that it used that server, and the server must report the notebook's pool.
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RUNNER = REPO / "tools" / "run_notebook.py"
NOTEBOOK = REPO / "notebooks" / "05-semaphore-throttling.ipynb"
KERNEL = "vthreads-java"
RUN_TIMEOUT_S = 300  # a deadlock guard for the whole run (kernel start included), not a performance figure


def _debian_postgres_bin() -> Path | None:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True):
        if os.access(Path(d) / "initdb", os.X_OK) and os.access(Path(d) / "pg_ctl", os.X_OK):
            return Path(d)
    return None


def _kernelspec_found() -> bool:
    from jupyter_client.kernelspec import KernelSpecManager
    return KERNEL in KernelSpecManager().find_kernel_specs()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PG_BIN = _debian_postgres_bin()
AS_ROOT = os.geteuid() == 0

pytestmark = [pytest.mark.kernel,  # both tests start the course's kernel
              pytest.mark.skipif(not _kernelspec_found(),
                                 reason=f"no '{KERNEL}' kernelspec on this machine (run ./course setup)")]
needs_debian_postgres = pytest.mark.skipif(PG_BIN is None, reason="Debian's PostgreSQL server binaries are absent "
                                           "(/usr/lib/postgresql/*/bin/initdb): apt-get install postgresql")

START_CELL = """var server = course.kit.experiments.Postgres.server();
try (var c = server.connect(); var st = c.createStatement();
     var rs = st.executeQuery("SELECT current_setting('data_directory')")) {
    rs.next();
    System.out.println("DATA " + rs.getString(1));
}
"""


def _alive(pid: int) -> bool:
    """A live process (a zombie is not: it has exited and waits only to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def test_the_embedded_server_and_its_data_folder_go_away_when_the_kernel_exits():
    from jupyter_client import KernelManager
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_JDBC_")}
    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel(env=env)
    kc = km.client()
    kc.start_channels()
    data = pid = None
    lines: list[str] = []

    def collect(msg) -> None:
        if msg["msg_type"] == "stream":
            lines.extend(msg["content"]["text"].splitlines())

    try:
        kc.wait_for_ready(timeout=120)
        reply = kc.execute_interactive(START_CELL, timeout=180, output_hook=collect)
        assert reply["content"]["status"] == "ok", reply["content"]
        data = Path(next(l for l in lines if l.startswith("DATA ")).split(" ", 1)[1].strip())
        pid = int((data / "postmaster.pid").read_text().split()[0])
        assert _alive(pid), "the server is not running while the kernel is"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)  # as Jupyter does: a shutdown request, then the kernel's JVM exits
    assert not data.exists(), f"data folder left: {data}"
    assert not _alive(pid), f"postgres process {pid} left"



@pytest.fixture
def debian_postgres():
    """A cluster of its own on a free 127.0.0.1 port; yields (url, version line); stopped and deleted afterwards."""
    as_user = ["runuser", "-u", "postgres", "--"] if AS_ROOT else []
    folder = Path(tempfile.mkdtemp(prefix="course-debian-pg-"))
    data = folder / "data"
    if AS_ROOT:
        shutil.chown(folder, "postgres")
    port = _free_port()
    pg_ctl = [*as_user, str(PG_BIN / "pg_ctl"), "-D", str(data)]
    try:
        subprocess.run([*as_user, str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                        "--no-sync"], check=True, capture_output=True, text=True, timeout=120)
        subprocess.run([*pg_ctl, "-l", str(folder / "server.log"), "-w", "-t", "60", "-o",
                        f"-p {port} -c listen_addresses=127.0.0.1 -k {folder} -c max_connections=100", "start"],
                       check=True, capture_output=True, text=True, timeout=120)
        version = subprocess.run([str(PG_BIN / "postgres"), "--version"], capture_output=True, text=True).stdout
        yield f"jdbc:postgresql://127.0.0.1:{port}/postgres", version.strip()
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "-t", "60", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


def _text(nb, index: int) -> str:
    return "".join(o.get("text", "") for o in nb.cells[index].get("outputs", []) if o.get("output_type") == "stream")


@needs_debian_postgres
def test_notebook_05_runs_against_the_server_that_course_jdbc_url_names(debian_postgres, tmp_path):
    url, version = debian_postgres  # e.g. "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
    number = version.split(")")[1].split()[0]
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COURSE_JDBC_URL=url, COURSE_JDBC_USER="postgres")
    env.pop("COURSE_JDBC_PASSWORD", None)
    proc = subprocess.run([sys.executable, str(RUNNER), str(NOTEBOOK), "--out", str(tmp_path), "--scale", "quick"],
                          cwd=REPO, env=env, capture_output=True, text=True, encoding="utf-8", timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    nb = nbformat.read(tmp_path / NOTEBOOK.name, as_version=4)
    setup = _text(nb, 1)
    assert f"PostgreSQL {number}" in setup, setup
    assert f"127.0.0.1:{url.split(':')[3].split('/')[0]} (COURSE_JDBC_URL)" in setup, setup
    everything = "\n".join(_text(nb, i) for i in range(len(nb.cells)) if nb.cells[i].cell_type == "code")
    assert "✘" not in everything
    assert "✔ Semaphore: time-outs at the pool: measured 0, predicted 0" in everything
    assert "sees 50 connections named vthreads-course-" in everything, everything
