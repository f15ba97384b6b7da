#!/usr/bin/env python3
"""``./course``: set up, serve, run and test the Java virtual threads course.

Only the standard library is needed for ``setup``; ``lab``, ``run`` and ``test`` need Jupyter, which this
script installs from Debian's packages when it runs as root on Debian or Ubuntu. The code is in the package
``course_cli`` (one module per concern); this file is its entry point, and names what other tools import.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from course_cli.build import KERNEL_CLASSPATH, cell_jar_names, kernel_jars, version  # noqa: E402,F401
from course_cli.cli import main  # noqa: E402
from course_cli.host import find_jdk, java_env, java_major  # noqa: E402,F401
from course_cli.notebooks import audit_notebook, runs_alone  # noqa: E402,F401

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
