"""The machine ./course runs on: its JDKs, Maven, the Python with Jupyter (see pyenv.py), Debian's fonts."""
from __future__ import annotations

import glob
import os
import re
import shutil
import sys
from pathlib import Path

from . import facts, pyenv
from .debian import apt_install, is_debian_root
from .facts import ROOT
from .pyenv import has_modules
from .ui import fail, say

JUPYTER_MODULES = ["nbclient", "nbconvert", "jupyter_client", "nbformat"]


# ---------------------------------------------------------------------------------------------- JDK

def java_major(home: Path) -> int | None:
    """The feature version of the JDK at ``home`` (from its ``release`` file), or None if it is no JDK."""
    release = home / "release"
    if not (home / "bin" / "java").exists() or not release.exists():
        return None
    m = re.search(r'^JAVA_VERSION="(\d+)', release.read_text(errors="replace"), re.M)
    return int(m.group(1)) if m else None


def candidate_jdks() -> list[Path]:
    cands: list[Path] = []
    if os.environ.get("JAVA_HOME"):
        cands.append(Path(os.environ["JAVA_HOME"]))
    for var in ("CONDA_PREFIX", "CONDA_DIR"):
        if os.environ.get(var):
            cands += [Path(os.environ[var]) / "lib" / "jvm", Path(os.environ[var])]
    patterns = ["/usr/lib/jvm/*", "/opt/java/*", "/opt/jdk*", "/opt/*jdk*", "/usr/local/lib/jvm/*",
                os.path.expanduser("~/.sdkman/candidates/java/*"), os.path.expanduser("~/.jdks/*"),
                "/Library/Java/JavaVirtualMachines/*/Contents/Home", "/opt/conda/lib/jvm"]
    for pat in patterns:
        cands += sorted((Path(p) for p in glob.glob(pat)), reverse=True)
    on_path = shutil.which("java")
    if on_path:
        cands.append(Path(on_path).resolve().parent.parent)
    return cands


_found: list[Path] = []


def find_jdk() -> Path:
    """:func:`pick_jdk` among this machine's JDKs, once per process (what it says is said once)."""
    if not _found:
        _found.append(pick_jdk(candidate_jdks()))
    return _found[0]


def pick_jdk(candidates: list[Path], root: Path = ROOT) -> Path:
    """The first of ``candidates`` (JAVA_HOME, then the usual install folders) of the course's release (Maven's).
    With none, the first JDK of a later release, after saying plainly what needs the course's own; with none of
    those, an error that says how to get one."""
    want = facts.release(root)
    seen, later = set(), None
    for c in candidates:
        c = c.resolve()
        if c in seen:
            continue
        seen.add(c)
        v = java_major(c)
        if v == want:
            return c
        if v is not None and v > want and later is None:
            later = (c, v)
    if later is not None:
        jdk, v = later
        say(f"warning: no JDK {want} found; using JDK {v} at {jdk}.\n" + facts.other_release_note(v, root))
        return jdk
    fail(f"no JDK {want} found (looked at JAVA_HOME, /usr/lib/jvm, /opt/java, ~/.sdkman, conda).\n"
         f"  Install one, for example Eclipse Temurin {want} from https://adoptium.net, or\n"
         f"  `sdk install java {want}-tem` with SDKMAN, then set JAVA_HOME to it and run ./course setup again.")


def java_env(jdk: Path) -> dict:
    env = dict(os.environ)
    env["JAVA_HOME"] = str(jdk)
    env["PATH"] = f"{jdk / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    # Maven's own Guava calls sun.misc.Unsafe, which JDK 24+ warns about on every run: allow it quietly.
    if "unsafe-memory-access" not in env.get("MAVEN_OPTS", ""):
        env["MAVEN_OPTS"] = (env.get("MAVEN_OPTS", "") + " --sun-misc-unsafe-memory-access=allow").strip()
    return env


# ---------------------------------------------------------------------------------------------- Maven

def find_maven() -> str:
    """$COURSE_MAVEN, else the Maven on PATH (the Docker image's, which works offline), else ./mvnw, which
    downloads the Maven named in .mvn/wrapper/maven-wrapper.properties from Maven Central once."""
    if os.environ.get("COURSE_MAVEN"):
        return os.environ["COURSE_MAVEN"]
    mvn = shutil.which("mvn")
    if mvn:
        return mvn
    wrapper = ROOT / ("mvnw.cmd" if os.name == "nt" else "mvnw")
    if wrapper.exists():
        return str(wrapper)
    if is_debian_root():
        apt_install(["maven"])
        mvn = shutil.which("mvn")
        if mvn:
            return mvn
    fail("Maven (mvn) is not on PATH. Install it: `sudo apt-get install maven` (Debian/Ubuntu), "
         "`brew install maven` (macOS), or `conda install -c conda-forge maven`.")


# ---------------------------------------------------------------------------------------------- Python, Jupyter

def jupyter_python(modules: list[str] = JUPYTER_MODULES) -> str:
    """The course's Python (pyenv.py), which ``./course`` runs the Jupyter commands in; it must have ``modules``."""
    py = pyenv.python()
    if not has_modules(py, modules):
        fail(f"the Python at {py} lacks " + ", ".join(m for m in modules if not has_modules(py, [m])) + ".\n"
             "  Unset COURSE_PYTHON to let ./course make its own environment from tools/python/requirements.lock,\n"
             "  or install them there: pip install --require-hashes -r tools/python/requirements.lock")
    return py


def ensure_fonts() -> None:
    if sys.platform.startswith("linux") and not shutil.which("fc-list") and is_debian_root():
        apt_install(["fontconfig", "fonts-dejavu-core"])
