"""``./course``, one module per concern, in layers (:data:`LAYERS`, lowest first)::

    ui, facts, answers, schedule → debian → pyenv → host → build, kernelspec
      → setup, template, autograder, progress, mutation_bench → notebooks, lab, classroom → suite → cli

A module imports only modules of the layers below its own (and the standard library), never one of its own layer
or above, and nothing of ``tools/`` outside this package.

``tools/course.py`` is the entry point: it imports :mod:`course_cli.cli` and, for a command that needs Jupyter,
re-executes itself in the course's Python environment with its own path (:func:`cli.reexec_in_environment`).
The scripts beside it (``book.py``, ``run_notebook.py``, ``kernel_aot.py``, ``kernel_bench.py``,
``first_run_bench.py``) are programs this package runs, as a command or a step of ``./course test``: they may
import this package (``book.py`` imports ``schedule``, ``notebooks`` and ``answers``), and nothing of it imports
them. Nothing here runs ``./course`` again. ``tools/tests/test_tools_imports.py`` reads the sources (it imports
none) and holds them to this: no cycle among tools' modules, counting running a script as depending on it; this
package's imports downward only; no ``course.py`` named here.
"""

LAYERS = (
    # The standard library only: how ./course talks (ui), Maven's facts (facts), what the course's answers are
    # (answers), the one scheduler of steps (schedule: ./course test's, and the book's notebook runs).
    ("ui", "facts", "answers", "schedule"),
    ("debian",),                 # Debian's packages, installed when ./course runs as root
    ("pyenv",),                  # the course's Python environment, from tools/python/requirements.lock
    ("host",),                   # the JDK, Maven, the Python with Jupyter, fonts
    ("build", "kernelspec"),     # the Maven build and its jars; what the course's kernelspec holds
    # One command's work each: ./course setup, template, autograder, progress, bench mutation.
    ("setup", "template", "autograder", "progress", "mutation_bench"),
    ("notebooks", "lab", "classroom"),     # ./course run (and the audit of a notebook), lab, classroom: after setup
    ("suite",),                  # ./course test: its steps
    ("cli",),                    # the command line, and the re-execution in the course's Python
)
