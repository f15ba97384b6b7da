"""``./course setup``: the build, then the course's Jupyter kernelspec (and its AOT cache)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import facts, kernelspec
from .build import build, cell_jar_names, kernel_jars
from .facts import ROOT
from .host import find_jdk, has_modules, java_major
from .ui import fail, say

TOOLS = ROOT / "tools"


def user_kernels_dir() -> Path:
    if os.environ.get("JUPYTER_DATA_DIR"):
        return Path(os.environ["JUPYTER_DATA_DIR"]) / "kernels"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Jupyter" / "kernels"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "jupyter" / "kernels"


def jupyter_kernel_dirs() -> tuple[list[Path], list[Path]] | None:
    """The folders Jupyter searches for kernelspecs, in its order, and the user's own ones, as the Python that
    runs Jupyter sees them (its prefix, e.g. $CONDA_DIR, is one of them); None where no Python has Jupyter.
    The user's own folders are Jupyter's data folder and Python's user site (~/.local/share/jupyter)."""
    code = ("import json, site; from jupyter_core.paths import jupyter_path, jupyter_data_dir; "
            "print(json.dumps([jupyter_path('kernels'), [jupyter_data_dir(), site.getuserbase() + '/share/jupyter']]))")
    for py in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        if not py:
            continue
        try:
            r = subprocess.run([py, "-c", code], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            dirs, own = json.loads(r.stdout)
            return [Path(d) for d in dirs], [Path(d) / "kernels" for d in own]
    return None


def installed_kernelspec() -> tuple[Path | None, list[Path]]:
    """A kernelspec of the course's name in a system or prefix folder (the image's $CONDA_DIR/share/jupyter),
    or None; and the user's own kernelspec folders (the first is where `./course setup` writes)."""
    found = jupyter_kernel_dirs()
    if found is None:
        return None, [user_kernels_dir()]
    dirs, own = found
    resolved = [d.resolve() for d in own]
    for d in dirs:
        spec = d / kernelspec.NAME
        if (spec / "kernel.json").is_file() and d.resolve() not in resolved:
            return spec, own
    return None, own


def use_installed_kernelspec(installed: Path, own: list[Path], jars: list[Path]) -> None:
    """The course's kernel is already installed outside $HOME: use it, and let no user copy hide it."""
    for copy in dict.fromkeys(d / kernelspec.NAME for d in own):
        if not copy.exists():
            continue
        if kernelspec.is_course_kernelspec(copy):
            shutil.rmtree(copy)
            say(f"removed the older user copy of the kernel, {copy}: Jupyter looks in your own folder first, "
                f"so it hid the course's kernel in {installed}, which is used from now on")
        else:
            say(f"warning: {copy} has the course kernel's name but was not written by ./course; it hides the "
                f"course's kernel in {installed}. Remove it with: rm -r '{copy}'")
    say(f"kernel '{kernelspec.NAME}' installed in {installed}: using it (no user copy written)")
    if not kernelspec.has_jars(installed, jars):
        say(f"note: that kernel runs other jars than this copy's build; `./course setup --prefix "
            f"{installed.parents[3]}` updates it")


def aot_python() -> str | None:
    """A Python with jupyter_client, to drive the kernel's AOT training run; None when there is none, or
    when COURSE_AOT=off."""
    if os.environ.get("COURSE_AOT", "").lower() in ("off", "0", "no", "false"):
        return None
    for py in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        if py and has_modules(py, ["jupyter_client"]):
            return py
    return None


def cmd_setup(args) -> int:
    jdk = find_jdk()
    feature = java_major(jdk)
    say(f"JDK {feature} at {jdk}" + (", the release the course runs on" if feature == facts.release() else ""))
    build(jdk, force=getattr(args, "rebuild", False))
    jars = kernel_jars()
    if not jars:
        fail("the build produced no jars")
    if args.prefix:
        kernels = Path(args.prefix).resolve() / "share" / "jupyter" / "kernels"
    else:
        # One kernelspec wins: one installed with the course (the image's, in $CONDA_DIR) is used as it is;
        # a user copy on the home volume would hide it and outlive image updates.
        installed, own = installed_kernelspec()
        if installed is not None:
            use_installed_kernelspec(installed, own, jars)
            return 0
        kernels = own[0]
    train_with = aot_python()
    cells = cell_jar_names()
    spec_dir, changed = kernelspec.write(kernels, jdk / "bin" / "java", jars, ROOT, aot=train_with is not None,
                                         cell_jar_names=cells)
    if train_with and not (spec_dir / kernelspec.AOT_CACHE).exists():
        say("training the kernel's ahead-of-time cache (one run of a few cells)…")
        r = subprocess.run([train_with, str(TOOLS / "kernel_aot.py"), str(spec_dir)])
        if r.returncode != 0:
            kernelspec.write(kernels, jdk / "bin" / "java", jars, ROOT, aot=False, cell_jar_names=cells)
            say("warning: no AOT cache (see above); the kernel starts without it, a little slower")
    say(f"kernel '{kernelspec.NAME}' ({kernelspec.DISPLAY_NAME}) {'written to' if changed else 'up to date in'} {spec_dir}")
    return 0
