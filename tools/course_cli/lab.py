"""``./course lab``: JupyterLab (or classic Notebook) on notebooks/, on 127.0.0.1 with a token."""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import subprocess
import sys

from . import facts
from .facts import ROOT
from .host import JUPYTER_MODULES, ensure_fonts, find_jdk, has_modules, java_major, jupyter_python
from .setup import cmd_setup
from .ui import fail, say


def cmd_lab(args) -> int:
    cmd_setup(argparse.Namespace(prefix=None))
    feature = java_major(find_jdk())
    if feature != facts.release():  # said again where the learner looks: next to the address
        say(facts.other_release_note(feature))
    labs = [c for c in (sys.executable, shutil.which("python3") or "") if c and has_modules(c, ["jupyterlab"])]
    py = labs[0] if labs else jupyter_python(JUPYTER_MODULES + ["notebook"])
    ensure_fonts()
    lab = bool(labs)
    token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
    if not token:
        fail("an empty token is not allowed")
    app = "lab" if lab else "notebook"
    cls = "ServerApp" if lab else "NotebookApp"
    cmd = [py, "-m", "jupyterlab" if lab else "notebook", f"--{cls}.ip={args.ip}", f"--{cls}.port={args.port}",
           f"--{cls}.port_retries=0", f"--{cls}.token={token}", f"--{cls}.open_browser=False",
           f"--{cls}.notebook_dir={ROOT / 'notebooks'}" if not lab else f"--ServerApp.root_dir={ROOT / 'notebooks'}"]
    if os.geteuid() == 0:  # Jupyter refuses root without this (containers, CI); the token still guards it
        cmd.append(f"--{cls}.allow_root=True")
    url = f"http://{args.ip}:{args.port}/{'lab' if lab else 'tree'}?token={token}"
    say(f"starting {'JupyterLab' if lab else 'classic Notebook'} on notebooks/ — open {url}")
    env = dict(os.environ, JUPYTER_TOKEN=token)
    os.execve(py, cmd, env) if args.exec else subprocess.run(cmd, env=env)
    return 0
