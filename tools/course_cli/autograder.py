"""``./course autograder``: a Gradescope autograder package (a zip) for the course's exercises.

The zip holds ``setup.sh`` and ``run_autograder`` (from ``deploy/gradescope/``), ``autograder.conf`` (the
exercises, the profile and the leaderboard setting chosen here), and the sources Maven needs to build the
grader on Gradescope: the parent pom, ``base/``, ``grader/``, ``exercises/`` (stubs and the course's tests),
``trainer/`` (the hidden tests) and the module poms the reactor lists. Solutions, notebooks and build
outputs stay out.
"""
from __future__ import annotations

import re
import stat
import zipfile
from pathlib import Path

from .build import course_files

SKIP_DIRS = {"target", "__pycache__", ".ipynb_checkpoints", ".git"}


def _tree(base: Path) -> list[Path]:
    if not base.exists():
        return []
    return sorted(p for p in base.rglob("*")
                  if p.is_file() and not SKIP_DIRS.intersection(p.relative_to(base).parts))


def package_files(root: Path) -> list[Path]:
    """The course files that go into the package, relative to ``root``."""
    files = [root / "pom.xml", root / "course", *sorted((root / "src" / "build").glob("*"))]  # Maven's facts
    modules = re.findall(r"<module>([^<]+)</module>", (root / "pom.xml").read_text())
    files += [root / m / "pom.xml" for m in modules]                  # the reactor reads every module's pom
    for module in ("base", "grader"):                                 # the grader needs the base alone
        files += _tree(root / module / "src" / "main")
    files += _tree(root / "exercises")
    files += _tree(root / "trainer")
    seen, out = set(), []
    for f in files:
        rel = f.relative_to(root)
        if rel not in seen and f.is_file():
            seen.add(rel)
            out.append(rel)
    return sorted(out)


def _add(z: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, data)


MANIFEST = Path("grader/src/main/resources/course/grader/course-files.sha256")


def manifest_mismatches(root: Path) -> list[str]:
    """Course files that differ from the grader's manifest: a package built with them would refuse to grade.
    The grader checks (course.grader.Pristine): the one implementation of the manifest's rules."""
    return course_files(root)[1]


def build(root: Path, out: Path, chosen: list[str], profile: str = "trainer", leaderboard: bool = False) -> Path:
    """Writes the autograder zip to ``out`` and returns it."""
    known, bad = course_files(root)
    if bad:
        raise ValueError("these course files differ from the grader's manifest, so the package would refuse to "
                         "grade: " + ", ".join(bad) + f". Restore them (git checkout -- FILE), or update {MANIFEST} "
                         "as exercises/README.md says.")
    unknown = [e for e in chosen if e not in known]
    if unknown:
        raise ValueError(f"no exercise named {', '.join(unknown)}; the exercises are {', '.join(known)}")
    conf = (f"EXERCISES=\"{' '.join(chosen or known)}\"\n"
            f"PROFILE={profile}\n"
            f"LEADERBOARD={1 if leaderboard else 0}\n")
    gradescope = root / "deploy" / "gradescope"
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w") as z:
        _add(z, "setup.sh", (gradescope / "setup.sh").read_bytes(), executable=True)
        _add(z, "run_autograder", (gradescope / "run_autograder").read_bytes(), executable=True)
        _add(z, "autograder.conf", conf.encode())
        for rel in package_files(root):
            _add(z, rel.as_posix(), (root / rel).read_bytes(), executable=rel.as_posix() == "course")
    return out
