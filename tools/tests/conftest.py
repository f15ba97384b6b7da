"""Markers of the course's Python tests. `./course test` runs them all; `-m "not kernel"` leaves out the slow ones."""


def pytest_configure(config):
    config.addinivalue_line("markers", "kernel: starts the course's Jupyter kernel (a JVM): integration, not unit")
    config.addinivalue_line("markers", "hub: the classroom: a real JupyterHub with five learners (root; a step of its own)")
    config.addinivalue_line("markers", "conformance: jupyter_kernel_test's protocol suite against the course kernel "
                                       "(./course test runs it in the pytest process of the tests without a kernel, "
                                       "which would otherwise end some 40 s before the other)")
