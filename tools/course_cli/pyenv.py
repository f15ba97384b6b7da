"""The course's own Python: a virtual environment made from ``tools/python/requirements.lock``.

Every command that needs Jupyter (``lab``, ``run``, ``test``, ``book``, ``progress``, ``bench``) runs in it:
``./course`` re-executes itself with the environment's Python (``cli.reexec_in_environment``). The lock pins every
package, with its hashes, so a learner's JupyterLab, nbclient and nbconvert are the versions the tests ran. Two
other Pythons are used as they are: ``$COURSE_PYTHON`` (the learner's choice) and the image's conda environment,
whose recipe is ``environment.yml`` (tools/tests/test_python_lock.py keeps the two recipes on the same majors).

Only the standard library is used here: this runs before the environment exists.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .debian import apt_install, is_debian_root
from .facts import ROOT
from .ui import fail, say

LOCK = ROOT / "tools" / "python" / "requirements.lock"
BOOTSTRAP = ROOT / "tools" / "python" / "bootstrap.lock"
MIN_PYTHON = (3, 10)  # Notebook 7.6, nbclient 0.11 and pytest 9 need 3.10 (3.9 reached its end of life in 2025)
# What a Python must have for the course's commands to run in it as it is (the image's conda environment).
NEEDS = ["jupyterlab", "notebook", "nbclient", "nbconvert", "nbformat", "jupyter_client", "pytest", "yaml"]
STAMP = "course-lock.sha256"


def venv_dir() -> Path:
    return Path(os.environ["COURSE_VENV"]) if os.environ.get("COURSE_VENV") else ROOT / ".venv"


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def lock_digest() -> str:
    return hashlib.sha256(LOCK.read_bytes()).hexdigest()


def has_modules(python: str, modules: list[str]) -> bool:
    """``python`` can import every one of ``modules`` (found without importing them)."""
    code = "import importlib.util,sys; sys.exit(0 if all(importlib.util.find_spec(m) for m in sys.argv[1:]) else 1)"
    try:
        return subprocess.run([python, "-c", code, *modules], capture_output=True).returncode == 0
    except OSError:
        return False


def in_conda_with_jupyter() -> bool:
    """This Python is a conda environment's (the image's) and has what the course needs."""
    prefix = os.environ.get("CONDA_PREFIX") or os.environ.get("CONDA_DIR")
    if not prefix:
        return False
    try:
        inside = Path(sys.prefix).resolve() == Path(prefix).resolve()
    except OSError:
        return False
    return inside and has_modules(sys.executable, NEEDS)


def current(venv: Path | None = None) -> bool:
    """The environment exists and was made from today's lock."""
    venv = venv or venv_dir()
    stamp = venv / STAMP
    return venv_python(venv).exists() and stamp.exists() and stamp.read_text().strip() == lock_digest()


def base_python() -> str:
    """A Python 3.10+ to make the environment with: this one, or python3 on PATH."""
    for c in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        if not c:
            continue
        r = subprocess.run([c, "-c", "import sys, venv, ensurepip; print(*sys.version_info[:2])"],
                           capture_output=True, text=True)
        if r.returncode == 0 and tuple(int(x) for x in r.stdout.split()) >= MIN_PYTHON:
            return c
    need = ".".join(map(str, MIN_PYTHON))
    if is_debian_root():  # Debian's python3 has no venv module without this package
        apt_install(["python3-venv"])
        return "/usr/bin/python3"
    fail(f"the course needs Python {need} or later with its venv module (found none).\n"
         f"  Debian/Ubuntu: sudo apt-get install python3-venv; macOS: brew install python; or use the Docker image.")


def make(venv: Path | None = None, base: str | None = None) -> Path:
    """Creates (or brings up to date) the environment from the lock, with the Python ``base`` (default
    :func:`base_python`); returns its Python."""
    venv = venv or venv_dir()
    py = venv_python(venv)
    t0 = time.monotonic()
    if not py.exists():
        say(f"making the course's Python environment in {venv} (once; from tools/python/requirements.lock) …")
        subprocess.run([base or base_python(), "-m", "venv", str(venv)], check=True)
    else:
        say(f"tools/python/requirements.lock changed: bringing {venv} up to date …")
    (venv / STAMP).unlink(missing_ok=True)
    # --no-deps: the lock names every package; --require-hashes: each file must be the one locked. uv (itself
    # locked in bootstrap.lock) installs in parallel; where it cannot be had, pip does the same, more slowly.
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--require-hashes"]
    uv = subprocess.run([*pip, "-r", str(BOOTSTRAP)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if uv.returncode == 0:
        r = subprocess.run([str(py), "-m", "uv", "pip", "install", "--quiet", "--python", str(py), "--no-deps",
                            "--require-hashes", "-r", str(LOCK)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    if uv.returncode != 0 or r.returncode != 0:
        r = subprocess.run([*pip, "-r", str(LOCK)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout, file=sys.stderr)
        fail(f"pip could not install tools/python/requirements.lock into {venv} (see above)")
    (venv / STAMP).write_text(lock_digest() + "\n")
    say(f"Python environment ready in {time.monotonic() - t0:.0f} s")
    return py


def python() -> str:
    """The Python the Jupyter commands run in (see the module's text), made first where needed: this one if it
    is an environment made from today's lock (a copy of the course run with it reuses it), or the image's
    conda environment, or ``.venv`` (``$COURSE_VENV``)."""
    if os.environ.get("COURSE_PYTHON"):
        return os.environ["COURSE_PYTHON"]
    if sys.prefix != sys.base_prefix and current(Path(sys.prefix)):
        return sys.executable
    if in_conda_with_jupyter():
        return sys.executable
    venv = venv_dir()
    if not current(venv):
        make(venv)
    return str(venv_python(venv))
