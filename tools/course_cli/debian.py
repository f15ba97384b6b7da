"""Debian's packages, for what ./course installs itself when it runs as root on Debian or Ubuntu."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .ui import fail, say


def is_debian_root() -> bool:
    return os.geteuid() == 0 and Path("/etc/debian_version").exists() and shutil.which("apt-get") is not None


def apt_install(packages: list[str]) -> None:
    say("installing Debian packages: " + " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    r = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout, file=sys.stderr)
        fail("apt-get install failed (see above)")
