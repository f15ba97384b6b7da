"""``./course lab``: JupyterLab (and Notebook 7 beside it) on notebooks/, on 127.0.0.1 with a token."""
from __future__ import annotations

import argparse
import os
import secrets
import subprocess

from . import facts
from .facts import ROOT
from .host import JUPYTER_MODULES, ensure_fonts, find_jdk, java_major, jupyter_python
from .setup import cmd_setup
from .ui import fail, say


def cmd_lab(args) -> int:
    cmd_setup(argparse.Namespace(prefix=None))
    feature = java_major(find_jdk())
    if feature != facts.release():  # said again where the learner looks: next to the address
        say(facts.other_release_note(feature))
    py = jupyter_python(JUPYTER_MODULES + ["jupyterlab", "notebook"])
    ensure_fonts()
    token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
    if not token:
        fail("an empty token is not allowed")
    cmd = [py, "-m", "jupyterlab", f"--ServerApp.ip={args.ip}", f"--ServerApp.port={args.port}",
           "--ServerApp.port_retries=0", f"--ServerApp.token={token}", "--ServerApp.open_browser=False",
           f"--ServerApp.root_dir={ROOT / 'notebooks'}"]
    if os.geteuid() == 0:  # Jupyter refuses root without this (containers, CI); the token still guards it
        cmd.append("--ServerApp.allow_root=True")
    url = f"http://{args.ip}:{args.port}/lab?token={token}"
    say(f"starting JupyterLab on notebooks/ — open {url} (Notebook 7: /tree instead of /lab)")
    env = dict(os.environ, JUPYTER_TOKEN=token)
    os.execve(py, cmd, env) if args.exec else subprocess.run(cmd, env=env)
    return 0
