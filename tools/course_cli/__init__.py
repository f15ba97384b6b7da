"""``./course``, by concern: Maven's facts (``facts``), the JDK and the host (``host``), the build (``build``),
the kernelspec (``setup``), Jupyter (``lab``), notebooks (``notebooks``), the test suite's steps (``suite``),
and the command line (``cli``). ``tools/course.py`` is the entry point."""
