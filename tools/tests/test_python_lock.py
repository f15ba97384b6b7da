"""The course's two Python recipes cannot drift: the lock file that ``./course`` makes its environment from
(``tools/python/requirements.lock``, from ``requirements.in``) and the image's ``environment.yml`` name the same
packages, and the lock's versions (for the image's Python) lie within environment.yml's majors. And the
environment ``./course`` makes is remade when the lock changes, and only then.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml
from packaging.markers import Marker
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from course_cli import pyenv  # noqa: E402

LOCK = ROOT / "tools" / "python" / "requirements.lock"
IN = ROOT / "tools" / "python" / "requirements.in"
# conda-forge's names for the same projects, where they differ from PyPI's
CONDA_TO_PYPI = {"nbconvert-core": "nbconvert"}
NOT_PYTHON = {"python", "openjdk", "maven", "git", "fontconfig"}


def conda_spec(spec: str) -> SpecifierSet:
    """conda's ``=4`` is ``4.*``; its ``>=0.10,<1`` is PEP 440 already."""
    if re.fullmatch(r"=[\d.]+", spec):
        return SpecifierSet(f"=={spec[1:]}.*")
    return SpecifierSet(spec)


def environment_yml() -> tuple[str, dict[str, SpecifierSet]]:
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    out, python = {}, None
    for d in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", d.strip())
        name, spec = m.group(1), m.group(2).strip()
        if name == "python":
            python = spec.lstrip("=")
        if name in NOT_PYTHON:
            continue
        out[canonicalize_name(CONDA_TO_PYPI.get(name, name))] = conda_spec(spec) if spec else SpecifierSet()
    return python, out


def lock_entries(text: str) -> list[tuple[str, Version, Marker | None, list[str]]]:
    """(name, version, marker, hashes) of each pinned requirement of a pip-compile/uv lock."""
    out = []
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        m = re.match(r"([A-Za-z0-9_.-]+)==([^\s;\\]+)\s*(?:;\s*([^\\\n]+))?", block)
        if not m:
            continue
        marker = Marker(m.group(3).strip()) if m.group(3) else None
        out.append((canonicalize_name(m.group(1)), Version(m.group(2)), marker,
                    re.findall(r"--hash=sha256:([0-9a-f]{64})", block)))
    return out


def locked_for(python: str, entries) -> dict[str, Version]:
    env = {"python_full_version": f"{python}.0", "python_version": python}
    return {n: v for n, v, marker, _ in entries if marker is None or marker.evaluate(env)}


def requirements_in() -> dict[str, SpecifierSet]:
    out = {}
    for line in IN.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", line)
            out[canonicalize_name(m.group(1))] = SpecifierSet(m.group(2))
    return out


def test_the_lock_and_environment_yml_name_the_same_packages():
    _, conda = environment_yml()
    assert set(requirements_in()) == set(conda), (
        "requirements.in and environment.yml must name the same Python packages: only in requirements.in "
        f"{sorted(set(requirements_in()) - set(conda))}, only in environment.yml {sorted(set(conda) - set(requirements_in()))}")


def test_every_locked_version_lies_within_environment_yml_majors():
    python, conda = environment_yml()
    assert python, "environment.yml pins Python"
    locked = locked_for(python, lock_entries(LOCK.read_text()))
    for name, spec in conda.items():
        assert name in locked, f"{name} (environment.yml) is not in requirements.lock for Python {python}"
        assert locked[name] in spec, (f"requirements.lock has {name} {locked[name]}, outside environment.yml's "
                                      f"{spec} (refresh the lock with tools/python/lock, or change both)")


@pytest.mark.parametrize("python", ["3.10", "3.11", "3.12", "3.13", "3.14"])
def test_the_lock_satisfies_requirements_in_on_every_supported_python(python):
    entries = lock_entries(LOCK.read_text())
    locked = locked_for(python, entries)
    for name, spec in requirements_in().items():
        assert name in locked and locked[name] in spec, (
            f"requirements.in asks {name}{spec}, the lock has {locked.get(name)} for Python {python}: "
            "run tools/python/lock")
    names = [(n, str(m)) for n, _, m, _ in entries]
    assert len(names) == len(set(names)), "a package is pinned twice for the same Pythons"


def test_every_locked_file_has_its_hash():
    entries = lock_entries(LOCK.read_text())
    assert len(entries) > 50, "the lock names every package, dependencies included"
    assert [n for n, _, _, hashes in entries if not hashes] == [], "pinned without a hash"
    # uv, which installs the lock, is pinned the same way: one package, a wheel per platform
    uv = lock_entries(pyenv.BOOTSTRAP.read_text())
    assert [n for n, *_ in uv] == ["uv"] and len(uv[0][3]) >= 10, uv


def test_lock_parser_sees_a_version_outside_the_majors():
    # the check above must be able to fail: a lock with JupyterLab 3 lies outside environment.yml's 4
    entries = lock_entries("jupyterlab==3.6.8 \\\n    --hash=sha256:" + "0" * 64 + "\n")
    assert locked_for("3.13", entries)["jupyterlab"] not in environment_yml()[1]["jupyterlab"]


def test_the_environment_is_remade_when_the_lock_changes_and_only_then(tmp_path, monkeypatch):
    venv = tmp_path / "venv"
    py = pyenv.venv_python(venv)
    py.parent.mkdir(parents=True)
    py.write_text("")
    assert not pyenv.current(venv), "no stamp: never made from a lock"
    (venv / pyenv.STAMP).write_text(pyenv.lock_digest() + "\n")
    assert pyenv.current(venv)
    lock = tmp_path / "requirements.lock"
    lock.write_text(LOCK.read_text() + "\n# changed\n")
    monkeypatch.setattr(pyenv, "LOCK", lock)
    assert not pyenv.current(venv), "a changed lock must remake the environment"


def test_this_python_is_the_course_environment():
    # ./course test runs pytest in the environment it made (or the learner's COURSE_PYTHON, or the image's conda)
    import os
    if os.environ.get("COURSE_PYTHON") or pyenv.in_conda_with_jupyter():
        pytest.skip("COURSE_PYTHON or the image's conda environment is in use")
    assert sys.prefix != sys.base_prefix and pyenv.current(Path(sys.prefix)), (
        f"pytest runs in {sys.prefix}, not an environment made from today's requirements.lock")
