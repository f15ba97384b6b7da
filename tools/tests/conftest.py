"""Markers of the course's Python tests. `./course test` runs them all; `-m "not kernel"` leaves out the slow ones."""


def pytest_configure(config):
    config.addinivalue_line("markers", "kernel: starts the course's Jupyter kernel (a JVM): integration, not unit")
