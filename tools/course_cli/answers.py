"""The course's answers, as the book and the learners' template look for them: the distinctive lines of each
reference solution, and the self-checks' expected answers and confirmations.

The self-checks' answers live in the kit, ``kit/src/main/resources/course/kit/selfcheck/NN.json``, which marks a
learner's answer in the notebook. A learners' template (``./course template``) keeps those files, since the kit
needs them, with each question's answer **sealed**: ``expect``, its tolerance and the ``right`` confirmation become
one ``sealed`` string, XOR-ed with SHA-256 of the question's id and base64-encoded, which the kit's ``SelfCheck``
opens when it reads the file. That keeps the answers out of sight (a reader of the file, a search of the
repository) but not secret: anyone who reads the kit's code can open them, as the kit does.

Standard library only; imports nothing of the course's command line.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

SELFCHECK = Path("kit/src/main/resources/course/kit/selfcheck")
# What a sealed question keeps in the clear: what the kit and the notebooks' own tests need to find it and to tell a
# wrong answer where to look. The rest (expect, relative, absolute, right) is the answer, sealed.
IN_THE_CLEAR = ("id", "kind", "hint")
SEAL_KEY = "vthreads-course self-check "  # the same in course.kit.SelfCheck
# Why a test that needs the answers is skipped in a learners' template: the line the grader's tests give too
# (course.base.Exercises.NO_ANSWERS).
NO_ANSWERS = ("no solutions/ folder in this course (a learners' template, written by ./course template): the tests"
              " that need the course's answers are skipped")


def _keystream(qid: str, length: int) -> bytes:
    out = b""
    block = 0
    while len(out) < length:
        out += hashlib.sha256(f"{SEAL_KEY}{qid}:{block}".encode()).digest()
        block += 1
    return out[:length]


def seal(qid: str, answer: dict) -> str:
    """``answer`` (the question's fields other than those kept in the clear) as the ``sealed`` string."""
    data = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(bytes(a ^ b for a, b in zip(data, _keystream(qid, len(data))))).decode("ascii")


def unseal(qid: str, sealed: str) -> dict:
    data = base64.b64decode(sealed)
    return json.loads(bytes(a ^ b for a, b in zip(data, _keystream(qid, len(data)))).decode())


SEALED_NOTE = ("In this copy each question's answer is sealed (./course template): course.kit.SelfCheck opens it"
               " to mark an answer; out of sight, not secret.")


def sealed_file(data: dict) -> dict:
    """A self-check file (one notebook's questions) with every answer sealed; the file's other fields kept. A file
    already sealed (a template of a template) comes out the same."""
    out = dict(data)
    about = data.get("about", "")
    out["about"] = about if SEALED_NOTE in about else " ".join(filter(None, [about, SEALED_NOTE]))
    questions = []
    for q in map(opened, data["questions"]):
        kept = {k: q[k] for k in IN_THE_CLEAR if k in q}
        kept["sealed"] = seal(q["id"], {k: v for k, v in q.items() if k not in IN_THE_CLEAR})
        questions.append(kept)
    out["questions"] = questions
    return out


def sealed_text(data: dict) -> str:
    """The text of a self-check file with every answer sealed, as a learners' template holds it."""
    return json.dumps(sealed_file(data), ensure_ascii=False, indent=2) + "\n"


def opened(q: dict) -> dict:
    """A question with its answer in the clear, whether the file had it sealed or not."""
    if "sealed" not in q:
        return q
    out = {k: v for k, v in q.items() if k != "sealed"}
    out.update(unseal(q["id"], q["sealed"]))
    return out


def self_check_questions(root: Path) -> list[dict]:
    """Every self-check question of the kit's selfcheck/NN.json, with its answer (``expect``, ``right``)."""
    folder = root / SELFCHECK
    return [opened(q) for f in sorted(folder.glob("*.json"))
            for q in json.loads(f.read_text(encoding="utf-8"))["questions"]]


def answer_value(q: dict) -> re.Pattern:
    """The expected answer as it would stand in an answer cell's argument: ``48`` (or ``48000``) for PT48S."""
    expect = q["expect"]
    if q["kind"] == "duration":
        m = re.fullmatch(r"PT(?:(\d+)M)?(?:([\d.]+)S)?", str(expect))
        seconds = (int(m.group(1) or 0) * 60 + float(m.group(2) or 0)) if m else None
        value = (f"{seconds:g}" if seconds is not None else re.escape(str(expect)))
        value = rf"(?:{value}|{int(seconds * 1000)})" if seconds is not None else value
    elif q["kind"] == "choice":
        return re.compile(rf"\.{re.escape(str(expect))}(?!\w)")  # SelfCheck.Choice.B
    elif q["kind"] == "boolean":
        value = str(expect).lower()
    else:
        value = re.escape(f"{expect:g}" if isinstance(expect, float) else str(expect))
    return re.compile(rf"(?<![\w.]){value}(?![\w])")


def answered_call(q: dict) -> str:
    """The answer cell a learner who got question ``q`` right would write (for the leak checks' own tests)."""
    expect = q["expect"]
    if q["kind"] == "duration":
        m = re.fullmatch(r"PT(?:(\d+)M)?(?:([\d.]+)S)?", str(expect))
        millis = round((int(m.group(1) or 0) * 60 + float(m.group(2) or 0)) * 1000)
        value = f"Duration.ofMillis({millis})"
    elif q["kind"] == "choice":
        value = f"SelfCheck.Choice.{expect}"
    elif q["kind"] == "boolean":
        value = str(expect).lower()
    else:
        value = f"{expect:g}" if isinstance(expect, float) else str(expect)
    return f'SelfCheck.answer("{q["id"]}", {value});'


def solution_lines(root: Path) -> dict[str, list[str]]:
    """The distinctive lines of each exercise's reference solution: code lines of 20 characters or more that are
    in no other Java source of the course (the stubs and their tests, the kit, the kernel, the grader: ``} catch (InterruptedException e) {``
    is everyone's) nor in any notebook or README (those a learner reads anyway). Comments, imports and package
    lines are left out. Empty where the course has no ``solutions/`` (a learners' template)."""
    shown = set()
    # (not solutions/NN-name/{alternatives,mutants}: they are answers too)
    for java in [*root.glob("kit/src/**/*.java"), *root.glob("kernel/src/**/*.java"),
                 *root.glob("grader/src/main/**/*.java"), *root.glob("exercises/*/src/**/*.java")]:
        shown.update(l.strip() for l in java.read_text(encoding="utf-8", errors="replace").splitlines())
    for nb in sorted((root / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        for cell in json.loads(nb.read_text(encoding="utf-8")).get("cells", []):
            src = cell.get("source", "")
            shown.update(l.strip() for l in ("".join(src) if isinstance(src, list) else src).splitlines())
    for md in [root / "README.md", *sorted((root / "exercises").glob("**/README.md"))]:
        shown.update(l.strip() for l in md.read_text(encoding="utf-8").splitlines())
    found: dict[str, list[str]] = {}
    for java in sorted((root / "solutions").glob("*/src/main/java/**/*.java")):
        rel = java.relative_to(root / "solutions")
        stub = root / "exercises" / rel
        stub_lines = {l.strip() for l in stub.read_text(encoding="utf-8").splitlines()} if stub.exists() else set()
        lines = []
        for line in java.read_text(encoding="utf-8").splitlines():
            t = line.strip()
            if (len(t) < 20 or t.startswith(("//", "*", "/*", "import ", "package ", "@"))
                    or t in stub_lines or t in shown):
                continue
            lines.append(t)
        found[rel.as_posix()] = lines
    return found


# A call whose first argument is a question's id: SelfCheck.answer("02.1", …) in a notebook, right("02.1", …) in a test
ANSWER_CALL = re.compile(r'\b(\w+)\(\s*"(\d\d\.\d+)"\s*,')


def answer_calls(text: str, only: str | None = None) -> list[tuple[str, str]]:
    """(question id, the rest of the call's arguments) of each call in ``text`` whose first argument is a
    question's id, comments out of the arguments (``/* true or false */ null`` answers nothing); ``only``: the
    calls of that method alone (``answer``)."""
    out = []
    for m in ANSWER_CALL.finditer(text):
        if only is not None and m.group(1) != only:
            continue
        depth, end = 0, m.end()
        while end < len(text) and depth >= 0 and text[end] != ";":
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        out.append((m.group(2), re.sub(r"/\*.*?\*/|//[^\n]*", "", text[m.end():end - (depth < 0)])))
    return out
