"""``./course template OUT``: the learners' repository, the course without its answers.

It copies the files git tracks (``git ls-files``: never a build output, nor anything git ignores) less the
answers and what a learner's repository has no use for (:data:`LEFT_OUT`), seals the self-checks' answers in the
kit's files (``answers.sealed_file``: the kit still marks them), then checks the copy as the book checks its
pages: no distinctive line of a reference solution and no self-check answer anywhere in it (:func:`leaks`). A copy
that fails the check is deleted, never left behind. What stays grades and tests as it is: the grader grades the
visible tests and says in one line that the hidden ones are not there, and the course's own tests that need the
answers skip with one line.

Standard library only; imports nothing of the command line (``cli`` imports this).
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import answers

# What the learners' repository leaves out, and why. A pattern ending in "/" is a folder, the others match a path
# as fnmatch does.
LEFT_OUT: list[tuple[str, str]] = [
    ("solutions/", "the answers: each exercise's reference solution, alternatives, mutants and their golden results"),
    ("trainer/", "the trainer's hidden tests"),
    ("kit/src/test/java/course/kit/SelfCheck[0-9][0-9]Test.java", "the tests of the self-checks' answers"),
    (".github/workflows/book.yml", "the book's workflow: it runs the notebooks with the reference solutions"),
    (".github/workflows/ci.yml", "the course's own test suite (./course test) on every push"),
    (".github/dependabot.yml", "dependency updates, for the course's maintainers"),
]
# The kit's self-check files: copied with each answer sealed.
SEALED = answers.SELFCHECK.as_posix() + "/*.json"


@dataclass
class Written:
    """What a template holds: the files written, those left out (by reason), the self-check files sealed."""
    out: Path
    files: int = 0
    left_out: dict[str, int] = field(default_factory=dict)
    sealed: int = 0


def left_out(path: str) -> str | None:
    """Why ``path`` (relative, with "/") stays out of the learners' repository, or None if it goes in."""
    for pattern, why in LEFT_OUT:
        if path.startswith(pattern) if pattern.endswith("/") else fnmatch.fnmatchcase(path, pattern):
            return why
    return None


def tracked(root: Path) -> list[str]:
    """The files git tracks in ``root``, as they are in the working tree (a file deleted there is skipped)."""
    try:
        r = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise ValueError(f"{root} is not a git repository: ./course template copies the files git tracks, "
                         f"so it needs the course's own repository ({e})") from e
    return [p for p in r.stdout.decode().split("\0") if p and (root / p).is_file()]


def _clean_out(out: Path) -> None:
    """Checks that ``out`` may be written: new, empty, or a learners' repository this wrote before (its files are
    replaced, its ``.git`` kept, so that OUT can be the clone of the template repository)."""
    if not out.exists() or not any(out.iterdir()):
        return
    ours = (out / "course").is_file() and (out / "tools" / "course_cli" / "template.py").is_file()
    if not ours or (out / "solutions").exists():
        raise ValueError(f"{out} is not empty and holds no learners' repository: choose a new or empty folder")


def write(root: Path, out: Path) -> Written:
    """Copies the tracked files of ``root`` into ``out`` less :data:`LEFT_OUT`, the self-checks sealed."""
    w = Written(out)
    for rel in tracked(root):
        why = left_out(rel)
        if why is not None:
            w.left_out[why] = w.left_out.get(why, 0) + 1
            continue
        src, dst = root / rel, out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if fnmatch.fnmatchcase(rel, SEALED):
            dst.write_text(answers.sealed_text(json.loads(src.read_text(encoding="utf-8"))), encoding="utf-8")
            w.sealed += 1
        else:
            shutil.copy2(src, dst, follow_symlinks=False)
        w.files += 1
    return w


def build(root: Path, out: Path) -> Written:
    """Writes the learners' repository to ``out`` and checks it; raises ValueError, and leaves nothing, if the
    copy shows an answer."""
    out = out.resolve()
    if out == root.resolve() or root.resolve() in out.parents:
        raise ValueError(f"{out} is inside the course: choose a folder outside it")
    _clean_out(out)
    partial = out.parent / f".{out.name}.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        w = write(root, partial)
        found = leaks(root, partial)
        if found:
            raise ValueError("the learners' repository would show answers (nothing written):\n  "
                             + "\n  ".join(found[:50]) + (f"\n  … and {len(found) - 50} more" if len(found) > 50 else ""))
        out.mkdir(parents=True, exist_ok=True)
        for old in out.iterdir():
            if old.name != ".git":
                shutil.rmtree(old) if old.is_dir() and not old.is_symlink() else old.unlink()
        for new in partial.iterdir():
            new.rename(out / new.name)
        w.out = out
        return w
    finally:
        shutil.rmtree(partial, ignore_errors=True)


# ------------------------------------------------------------------------------------------------ the leak check

def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _text(path: Path) -> str | None:
    """A file's text as a reader sees it; a JSON file's (a notebook's) strings decoded too. None for binaries."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    text = data.decode("utf-8", errors="replace")
    if path.suffix in (".json", ".ipynb"):
        try:
            text += "\n" + "\n".join(_strings(json.loads(text)))
        except ValueError:
            pass
    return text


def _in_the_clear(q: dict) -> re.Pattern:
    """A question's expected answer beside its id, as a self-check file in the clear holds it."""
    expect = re.escape(json.dumps(q["expect"]))
    return re.compile(rf'"id"\s*:\s*"{re.escape(q["id"])}"[^{{}}]*?"expect"\s*:\s*{expect}(?![\w.])')


def leaks(root: Path, out: Path) -> list[str]:
    """What in the copy ``out`` gives an answer of the course in ``root`` away, one line each, naming the file: a
    path the template leaves out, a distinctive line of a reference solution, a self-check's confirmation (its
    "right" text, shown only to a right answer), a call that answers a self-check right, or a question's expected
    answer beside its id (a self-check file in the clear). Empty when the copy is clean."""
    lines = answers.solution_lines(root)
    questions = [(q, answers.answer_value(q), _in_the_clear(q)) for q in answers.self_check_questions(root)]
    found = []
    for path in sorted(p for p in out.rglob("*") if p.is_file() and ".git" not in p.relative_to(out).parts):
        rel = path.relative_to(out).as_posix()
        why = left_out(rel)
        if why is not None:
            found.append(f"{rel}: {why}")
        text = _text(path)
        if text is None:
            continue
        shown = {line.strip() for line in text.splitlines()}
        for source, distinctive in lines.items():
            for line in distinctive:
                if line in shown:
                    found.append(f"{rel}: a line of solutions/{source}: {line}")
        calls = answers.answer_calls(text)
        for q, value, clear in questions:
            if q["right"] in text:
                found.append(f"{rel}: the confirmation of self-check {q['id']}: {q['right']}")
            if any(qid == q["id"] and value.search(arg) for qid, arg in calls):
                found.append(f"{rel}: a call with the expected answer of self-check {q['id']}")
            if clear.search(text):
                found.append(f"{rel}: the expected answer of self-check {q['id']}, in the clear")
    return found
