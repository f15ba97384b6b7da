#!/usr/bin/env python3
"""``./course``: set up, serve, run and test the Java virtual threads course.

Only the standard library is needed for ``setup``, ``grade``, ``reproduce`` and ``autograder``; the commands that
need Jupyter run in the course's own Python environment, made from ``tools/python/requirements.lock`` on first use
(``course_cli.pyenv``). The code is in the package ``course_cli`` (one module per concern); this file is its entry
point, and names what other tools import.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from course_cli.build import KERNEL_CLASSPATH, cell_jar_names, kernel_jars, version  # noqa: E402,F401
from course_cli.cli import main, reexec_in_environment  # noqa: E402
from course_cli.host import find_jdk, java_env, java_major  # noqa: E402,F401
from course_cli.notebooks import audit_notebook, runs_alone  # noqa: E402,F401

# What other tools (the tests) import from here.
__all__ = ["KERNEL_CLASSPATH", "audit_notebook", "cell_jar_names", "find_jdk", "java_env", "java_major", "kernel_jars",
           "main", "runs_alone", "version"]

# The commands that run Jupyter, pytest or nbconvert: they run in the course's Python environment.
NEEDS_JUPYTER = {"lab", "run", "test", "book", "progress", "bench", "classroom"}

if __name__ == "__main__":
    if sys.argv[1:2] and sys.argv[1] in NEEDS_JUPYTER:
        reexec_in_environment(sys.argv[1:], Path(__file__).resolve())  # this file, run again in that Python
    sys.exit(main(sys.argv[1:]))
