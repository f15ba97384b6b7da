"""``./course classroom``: a real JupyterHub of learners on this machine, as a trainer tries one before class.

It starts JupyterHub (from the course's lock) with configurable-http-proxy (from npm, ``tools/hub/package-lock.json``)
on 127.0.0.1, configured by ``tools/hub/jupyterhub_config.py``: the trial login of ``deploy/jupyterhub/values.yaml``,
its idle culler, the image's kernel timeout, and the class view (``tools/hub/class_view.py``). Each learner is a
system user made for the class, with a home of their own (mode 700) that holds a copy of the learners' repository
(``./course template``: no answers). Their servers run the course kernel from a kernelspec and a Python environment
that every learner can read, in the classroom's folder, as the image has them outside the learners' homes.

Everything it made (users, homes, processes, the folder) is removed when it stops: at the end of the test, on
Ctrl-C, on SIGTERM. It needs root (to make users and to start servers as them) and a Debian-like ``useradd``.
``tools/tests/test_hub_classroom.py`` runs five learners through it inside ``./course test``.
"""
from __future__ import annotations

import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from . import pyenv, template
from .debian import apt_install, is_debian_root
from .facts import ROOT
from .ui import fail, say

HUB = ROOT / "tools" / "hub"
DEPLOY = ROOT / "deploy"
MARK = "vthreads-course classroom"  # the users' comment field: what this module made, and may remove


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proxy_command() -> str:
    """configurable-http-proxy from tools/hub/package-lock.json, installed by npm once (``npm ci``)."""
    chp = HUB / "node_modules" / ".bin" / "configurable-http-proxy"
    if chp.exists():
        return str(chp)
    if not shutil.which("npm") and is_debian_root():
        apt_install(["nodejs", "npm"])
    if not shutil.which("npm"):
        fail("the classroom needs Node.js and npm for configurable-http-proxy (Debian: apt-get install nodejs npm)")
    say("installing configurable-http-proxy from tools/hub/package-lock.json (npm ci, once)…")
    r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HUB,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0 or not chp.exists():
        fail("npm ci in tools/hub failed:\n" + r.stdout)
    return str(chp)


def quantity(q) -> int:
    """A Kubernetes memory quantity of values.yaml (``4G``, ``1.5G``, ``512Mi``) in bytes."""
    m = re.fullmatch(r"([\d.]+)\s*([KMGT]i?)?", str(q).strip())
    if not m:
        raise ValueError(f"not a memory quantity: {q!r}")
    mult = {None: 1, "K": 10 ** 3, "M": 10 ** 6, "G": 10 ** 9, "T": 10 ** 12,
            "Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40}[m.group(2)]
    return int(float(m.group(1)) * mult)


def values_yaml() -> dict:
    import yaml  # the course's environment has it; this module runs there
    return yaml.safe_load((DEPLOY / "jupyterhub" / "values.yaml").read_text())


def deploy_settings() -> tuple[dict, dict]:
    """values.yaml's ``cull`` (timeout, every) and the image's kernel culling (jupyter_server_config.json)."""
    values = values_yaml()
    cull = {"timeout": int(values["cull"]["timeout"]), "every": int(values["cull"]["every"])}
    kernels = json.loads((DEPLOY / "docker" / "jupyter_server_config.json").read_text())["MappingKernelManager"]
    return cull, kernels


def base_python_for_everyone() -> str:
    """A Python every learner can run: not one under root's home (a pyenv there is closed to other users)."""
    for c in ("/usr/bin/python3", "/usr/local/bin/python3", shutil.which("python3") or ""):
        if c and os.path.exists(c):
            r = subprocess.run(["runuser", "-u", "nobody", "--", c, "-c",
                                "import sys, venv, ensurepip; print(*sys.version_info[:2])"],
                               capture_output=True, text=True)
            if r.returncode == 0 and tuple(int(x) for x in r.stdout.split()) >= pyenv.MIN_PYTHON:
                return c
    if is_debian_root():
        apt_install(["python3-venv"])
        return "/usr/bin/python3"
    fail("the classroom needs a Python 3.10+ with venv that every user can run (Debian: apt-get install python3-venv)")


class Classroom:
    """A hub with ``learners`` on loopback, in ``folder`` (made here, removed by :meth:`stop`).

    ``cull``/``kernel_culling`` override deploy/'s idle timeouts (the test shortens them); ``activity_interval``
    is how often activity reaches the hub (seconds)."""

    def __init__(self, folder: Path, learners: list[str], *, scale: str, trainer: str = "trainer",
                 cull: dict | None = None, kernel_culling: dict | None = None, activity_interval: int = 300):
        if os.geteuid() != 0:
            fail("./course classroom needs root: it makes a system user per learner and starts their servers as them")
        self.folder = folder.resolve()
        self.learners = list(learners)
        self.trainer = trainer
        self.password = secrets.token_urlsafe(12)
        self.admin_token = secrets.token_hex(32)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.scale = scale
        deploy_cull, deploy_kernels = deploy_settings()
        self.cull = {**deploy_cull, **(cull or {})}
        self.kernel_culling = {**deploy_kernels, **(kernel_culling or {})}
        self.activity_interval = activity_interval
        self.hub: subprocess.Popen | None = None
        self.made_users: list[str] = []

    # ------------------------------------------------------------------------------------------- making it

    def start(self) -> "Classroom":
        t0 = time.monotonic()
        for name in self.learners:
            self._check_free(name)
        self.folder.mkdir(parents=True, exist_ok=True)
        os.chmod(self.folder, 0o755)
        self.state = self.folder / "hub"
        self.state.mkdir(mode=0o700, exist_ok=True)
        proxy = proxy_command()
        venv = self._environment()
        course = self.folder / "learners-course"
        written = template.build(ROOT, course)
        say(f"classroom: the learners' repository ({written.files} files, no answers) in {course}")
        homes = self.folder / "home"
        homes.mkdir(mode=0o755, exist_ok=True)
        for name in self.learners:
            self._learner(name, homes / name, course)
        settings = {
            "state": str(self.state), "port": self.port, "hub_port": free_port(),
            "proxy": proxy, "proxy_api_port": free_port(), "proxy_token": secrets.token_hex(32),
            "password": self.password, "learners": self.learners, "trainer": self.trainer,
            "singleuser": str(venv / "bin" / "jupyterhub-singleuser"),
            "default_url": "/lab/tree/vthreads-course/notebooks/00-welcome.ipynb",
            "scale": self.scale, "java_home": os.environ.get("JAVA_HOME") or str(_jdk()),
            "class_view_port": free_port(),
            "class_view_events": f"{self.url}/services/class-view/api/events",
            "activity_interval": self.activity_interval, "cull": self.cull, "kernel_culling": self.kernel_culling,
            "admin_token": self.admin_token,
        }
        (self.state / "settings.json").write_text(json.dumps(settings, indent=1))
        os.chmod(self.state / "settings.json", 0o600)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "COURSE_"))}
        env.update(COURSE_HUB_SETTINGS=str(self.state / "settings.json"), PATH=f"{venv / 'bin'}:{env.get('PATH', '')}")
        self.log = self.state / "jupyterhub.log"
        with open(self.log, "ab") as log:
            self.hub = subprocess.Popen([str(venv / "bin" / "jupyterhub"), "-f", str(HUB / "jupyterhub_config.py")],
                                        cwd=self.state, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self._wait_for_hub()
        say(f"classroom: JupyterHub at {self.url} with {len(self.learners)} learners, ready in "
            f"{time.monotonic() - t0:.0f} s (class view: {self.url}/services/class-view/)")
        return self

    def _check_free(self, name: str) -> None:
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            return
        if pw.pw_gecos != MARK:
            fail(f"a user named {name} exists on this machine and is not the classroom's: choose other names")
        _remove_user(name)  # left by a classroom that was killed before it could clean up

    def _environment(self) -> Path:
        """The Python environment of the hub and of every learner's server, with the course kernel in it."""
        venv = self.folder / "venv"
        t0 = time.monotonic()
        pyenv.make(venv, base=base_python_for_everyone())  # the course's lock, as ./course makes .venv
        # the kernelspec with its jars and AOT cache, where the learners' Jupyter finds it (the venv's share/jupyter)
        from .setup import cmd_setup
        import argparse
        cmd_setup(argparse.Namespace(prefix=str(venv), rebuild=False))
        # In a pod the JVM sizes its heap from the container's memory limit; here it would see the whole machine.
        # Tell the kernel's JVM the limit of values.yaml, as the pod's cgroup would.
        spec = venv / "share" / "jupyter" / "kernels" / "vthreads-java" / "kernel.json"
        kernel = json.loads(spec.read_text())
        limit = quantity(values_yaml()["singleuser"]["memory"]["limit"])
        kernel["argv"].insert(1, f"-XX:MaxRAM={limit}")
        spec.write_text(json.dumps(kernel, indent=2))
        say(f"classroom: Python environment and course kernel for the learners in {time.monotonic() - t0:.0f} s")
        return venv

    def _learner(self, name: str, home: Path, course: Path) -> None:
        subprocess.run(["useradd", "--no-create-home", "--home-dir", str(home), "--shell", "/bin/bash",
                        "--user-group", "--comment", MARK, name], check=True)
        self.made_users.append(name)
        pw = pwd.getpwnam(name)
        shutil.copytree(course, home / "vthreads-course", symlinks=True)
        os.chmod(home, 0o700)
        for d, dirs, files in os.walk(home):
            os.chown(d, pw.pw_uid, pw.pw_gid)
            for f in files:
                os.lchown(os.path.join(d, f), pw.pw_uid, pw.pw_gid)

    def _wait_for_hub(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.hub.poll() is not None:
                fail(f"JupyterHub exited ({self.hub.returncode}); its log:\n{self.log.read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/api/", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        fail(f"JupyterHub did not answer within {timeout:.0f} s; its log:\n{self.log.read_text()[-4000:]}")

    # ------------------------------------------------------------------------------------------- the hub's API

    def api(self, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, object]:
        """A call of the hub's REST API (``/hub/api`` + path) with ``token`` (the classroom's admin token by
        default); returns the status and the decoded JSON (None when there is none)."""
        return call(method, f"{self.url}/hub/api{path}", token or self.admin_token, body)

    # ------------------------------------------------------------------------------------------- stopping it

    def stop(self, keep_log: Path | None = None) -> None:
        """Stops the hub and removes what the classroom made; ``keep_log``: where to copy the hub's log first."""
        if self.hub is not None and self.hub.poll() is None:
            self.hub.send_signal(signal.SIGTERM)  # the hub stops the learners' servers and its services
            try:
                self.hub.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.hub.pid, signal.SIGKILL)
                self.hub.wait()
        if self.hub is not None:
            try:
                os.killpg(self.hub.pid, signal.SIGKILL)  # the proxy and the services, if any outlived the hub
            except ProcessLookupError:
                pass
        if keep_log is not None and getattr(self, "log", None) is not None and self.log.exists():
            keep_log.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.log, keep_log)
        for name in self.made_users:
            _remove_user(name)
        self.made_users.clear()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "Classroom":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def call(method: str, url: str, token: str, body: dict | None = None) -> tuple[int, object]:
    """An HTTP call with a hub token (the hub's API, a learner's server, a service): the status and the decoded
    JSON (None when there is none; the text when it is not JSON)."""
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None, method=method,
                                 headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            text = r.read().decode()
            return r.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text


def _remove_user(name: str) -> None:
    subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
    for _ in range(50):  # userdel refuses a user with processes; pkill is asynchronous
        if subprocess.run(["pgrep", "-u", name], capture_output=True).returncode != 0:
            break
        time.sleep(0.1)
    subprocess.run(["userdel", name], capture_output=True)
    subprocess.run(["groupdel", name], capture_output=True)


def _jdk() -> Path:
    from .host import find_jdk
    return find_jdk()


def cmd_classroom(args) -> int:
    """Starts a hub with ``args.learners`` learners and waits (Ctrl-C stops it and removes what it made)."""
    names = [f"learner{i}" for i in range(1, args.learners + 1)]
    from .build import course_scale
    room = Classroom(Path(args.dir), names, scale=course_scale(args.scale))
    def interrupted(*_):
        raise KeyboardInterrupt

    # Ctrl-C, a kill, a closed terminal: each stops the hub and removes what the classroom made (a shell that
    # started this in the background may have set SIGINT to be ignored)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupted)
    try:
        room.start()
        say(f"log in at {room.url}/hub/login as {', '.join(names)} (learners) or {room.trainer} (the class view), "
            f"password {room.password}")
        say(f"the class view: {room.url}/services/class-view/ · Ctrl-C stops the hub and removes the learners")
        while room.hub.poll() is None:
            time.sleep(1)
        say(f"JupyterHub exited ({room.hub.returncode}); see {room.log}")
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        room.stop()
        say("classroom stopped: learners, homes and servers removed")
