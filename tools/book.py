#!/usr/bin/env python3
"""The course as a book: every notebook executed, as a static website (``./course book``).

It executes notebooks 00–08 and the appendix headless at a scale, with the reference solutions loaded for the
"Your turn" cells (``COURSE_EXERCISES_DIR=solutions``: the ``%exercise`` magic reads the exercise's classes from
there, so the learner's part shows a working run; the solution's source is never a cell of the page), or takes
notebooks already executed (``--executed DIR``: ``./course test`` executes them at the quick scale with the
exercises as they are). Then nbconvert writes one page per notebook with the course's template
(``tools/book_template/book``), Markdown pages for ``docs/reproduction.md`` and the exercises' READMEs, and an
``index.html`` with the README's contents table and the machine the figures were measured on.

No page needs a network: the styles are nbconvert's JupyterLab CSS inlined in each chapter and ``assets/book.css``,
the search box is MiniSearch (vendored from its npm package, ``book_template/book/vendor``) over an index of the
pages' text that this writes, the charts are PNGs inlined as data URLs, and MathJax (for the ``$…$`` formulas) is copied into ``assets/mathjax``
from Debian's ``libjs-mathjax`` (the files its TeX-AMS_CHTML configuration loads). The repository and Binder links
come from one setting, :func:`repository`.

Runs under the course's Python environment (nbconvert 7, nbclient 0.11, from tools/python/requirements.lock); ``./course book`` starts it there.
"""
from __future__ import annotations

import argparse
import copy
import datetime
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from course_cli import answers  # noqa: E402  (what the course's answers are: the book's and the template's)
from course_cli.notebooks import runs_alone  # noqa: E402  (one reading of the notebook's "runs_alone")
from course_cli.schedule import Outcome, Step, schedule  # noqa: E402  (one scheduler of steps: ./course test's too)
TEMPLATES = Path(__file__).resolve().parent / "book_template"
PLACEHOLDER = "OWNER/REPOSITORY"
MATHJAX = Path(os.environ.get("COURSE_MATHJAX_DIR", "/usr/share/javascript/mathjax"))
# What MathJax 2's TeX-AMS_CHTML configuration loads at reading time: itself, its configuration, the TeX input,
# the CommonHTML output and its TeX web fonts (woff, otf as a fallback), and the extensions TeX may ask for.
MATHJAX_FILES = ["MathJax.js", "config/TeX-AMS_CHTML.js", "config/local", "jax/input/TeX", "jax/element",
                 "jax/output/CommonHTML", "extensions", "fonts/HTML-CSS/TeX/woff", "fonts/HTML-CSS/TeX/otf"]
# The search box's library, as its npm package publishes it (see SOURCE.md there).
MINISEARCH = TEMPLATES / "book" / "vendor" / "minisearch-7.2.0"
# The grade cell grades the learner's own exercises/ folder: the book does not run it (see NOT_RUN).
GRADE_CELL = re.compile(r"\bGrade\.exercise\(")
NOT_RUN = ("Not run in the book: on your machine this cell grades your own code in exercises/ with the course's "
           "tests, as ./course grade does.")


def say(msg: str) -> None:
    print(f"[book] {msg}", flush=True)


# ------------------------------------------------------------------------------------------------ links

def repository(root: Path = ROOT) -> str:
    """``owner/name`` of the course on GitHub: ``$COURSE_BOOK_REPOSITORY`` if set (the Pages workflow sets it to
    the repository it runs for), else ``git remote get-url origin`` when that is a GitHub URL, else the README's
    placeholder ``OWNER/REPOSITORY``. Every GitHub, Binder and Pages link of the book derives from it."""
    if re.fullmatch(r"[\w.-]+/[\w.-]+", os.environ.get("COURSE_BOOK_REPOSITORY", "")):
        return os.environ["COURSE_BOOK_REPOSITORY"]
    try:
        url = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root, capture_output=True, text=True,
                             timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        url = ""
    m = re.fullmatch(r"(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)([\w.-]+)/([\w.-]+?)(?:\.git)?/?",
                     url)
    return f"{m.group(1)}/{m.group(2)}" if m else PLACEHOLDER


def github(repo: str, path: str, folder: bool = False) -> str:
    return f"https://github.com/{repo}/{'tree' if folder else 'blob'}/HEAD/{path}"


def binder(repo: str, notebook: str) -> str:
    """The same Binder link as the README's: the image's copy of the course, opened in JupyterLab."""
    return f"https://mybinder.org/v2/gh/{repo}/HEAD?urlpath=lab/tree/work/vthreads-course/notebooks/{notebook}"


def pages_url(repo: str) -> str:
    owner, _, name = repo.partition("/")
    return f"https://{owner}.github.io/{name}/"


# ------------------------------------------------------------------------------------------------ the pages

def notebooks(root: Path = ROOT) -> list[Path]:
    return sorted((root / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def exercise_readmes(root: Path = ROOT) -> list[Path]:
    return sorted((root / "exercises").glob("[0-9][0-9]-*/README.md"))


def site_pages(root: Path = ROOT) -> dict[str, str]:
    """Each source file that becomes a page, by its path in the repository, and the page's file name."""
    pages = {f"notebooks/{nb.name}": nb.stem + ".html" for nb in notebooks(root)}
    if (root / "docs" / "reproduction.md").exists():
        pages["docs/reproduction.md"] = "reproduction.html"
    if (root / "exercises" / "README.md").exists():
        pages["exercises/README.md"] = "exercises.html"
    for readme in exercise_readmes(root):
        pages[f"exercises/{readme.parent.name}/README.md"] = f"exercise-{readme.parent.name}.html"
    pages["README.md"] = "index.html"
    return pages


def rewrite_links(body: str, source: str, pages: dict[str, str], repo: str, root: Path = ROOT) -> str:
    """Links between the course's files, written for GitHub (``../exercises/02-cafe/README.md``), made links
    between the book's pages; a link to any other file of the repository goes to that file on GitHub."""
    folder = posixpath.dirname(source)
    site = set(pages.values())

    def fix(m: re.Match) -> str:
        href = html.unescape(m.group(2))
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^//", href, re.I) or not href:
            return m.group(0)
        path, _, fragment = href.partition("#")
        if path in site or path.startswith("assets/"):
            return m.group(0)  # already a link of the book's (the navigation bars)
        target = posixpath.normpath(posixpath.join(folder, path))
        if target in pages:
            new = pages[target] + (f"#{fragment}" if fragment else "")
        elif target.startswith(".."):
            return m.group(0)
        else:
            new = github(repo, target, (root / target).is_dir()) + (f"#{fragment}" if fragment else "")
        return f'{m.group(1)}"{html.escape(new, quote=True)}"'

    return re.sub(r'(<a\s[^>]*?href=)"([^"]*)"', fix, body)


def title_of(markdown: str, fallback: str) -> str:
    m = re.search(r"^#\s+(.+)$", markdown, re.M)
    return re.sub(r"[*_`]", "", m.group(1)).strip() if m else fallback


def notebook_title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            return title_of(cell.source, "")
    return ""


def readme_contents(root: Path = ROOT) -> tuple[str, str]:
    """The README's first paragraph and its contents table (``## The course``), as Markdown."""
    text = (root / "README.md").read_text(encoding="utf-8")
    paragraphs = [p for p in text.split("\n\n") if p.strip() and not p.lstrip().startswith("#")]
    section = text.split("\n## The course", 1)[1] if "\n## The course" in text else ""
    table = "\n".join(re.findall(r"^\|.*\|$", section.split("\n\n", 2)[1] if section.count("\n\n") > 1 else "",
                                 re.M))
    if not table:
        raise ValueError("README.md has no contents table under '## The course'")
    return paragraphs[0], table


def markdown(text: str) -> str:
    from nbconvert.filters.markdown import markdown2html
    return markdown2html(text)


# ------------------------------------------------------------------------------------------------ executing

def prepare(nb):
    """The book's copy of a notebook: the grade cell is tagged ``skip-execution`` (nbclient then leaves it out)
    and carries the note the template shows under it."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code" and GRADE_CELL.search(cell.source):
            tags = cell.metadata.setdefault("tags", [])
            if "skip-execution" not in tags:
                tags.append("skip-execution")
            cell.metadata["course_book"] = {"note": NOT_RUN}
            cell.outputs = []
            cell.execution_count = None
    return nb


def execute(root: Path, work: Path, scale: str, at_once: int, python: str = sys.executable,
            timeout: int | None = None) -> Path:
    """Executes every notebook (its book copy, see :func:`prepare`) headless with tools/run_notebook.py and the
    solutions loaded; the notebooks marked runs_alone first, one at a time, then the others ``at_once`` at a time.
    Returns the folder of executed notebooks; raises RuntimeError naming the notebooks that failed."""
    import nbformat
    src, done = work / "notebooks", work / "executed"
    shutil.rmtree(work, ignore_errors=True)
    src.mkdir(parents=True)
    for nb in notebooks(root):
        nbformat.write(prepare(nbformat.read(nb, as_version=4)), src / nb.name)
    env = dict(os.environ, COURSE_SCALE=scale, COURSE_EXERCISES_DIR=str(root / "solutions"))

    def command(nb: Path) -> list[str]:
        return [python, str(root / "tools" / "run_notebook.py"), str(src / nb.name), "--out", str(done),
                "--scale", scale] + (["--timeout", str(timeout)] if timeout else [])

    failed = []

    def run_one(step: Step) -> Outcome:
        t0 = time.monotonic()
        r = subprocess.run(step.run, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           encoding="utf-8", errors="replace")
        took = time.monotonic() - t0
        say(f"{step.name}: {'executed' if r.returncode == 0 else 'FAILED'} in {took:.0f} s")
        if r.returncode != 0:
            print(r.stdout, end="" if r.stdout.endswith("\n") else "\n", flush=True)
            failed.append(step.name)
        return Outcome(step.name, r.returncode == 0, (0, 0, 0), took)

    # As ./course test runs them: the runs_alone ones first, one at a time; then the others, the longer ones (the
    # later chapters) first, ``at_once`` at a time.
    all_notebooks = notebooks(root)
    alone = [nb for nb in all_notebooks if runs_alone(nb)]
    schedule([Step(nb.name, command(nb)) for nb in alone]
             + [Step(nb.name, command(nb), "book") for nb in reversed(all_notebooks) if nb not in alone],
             {"book": at_once}, run_one)
    if failed:
        raise RuntimeError("notebooks that failed: " + ", ".join(failed))
    return done


def machine(scale: str, when: float) -> dict:
    """What the figures were measured on: cores, processor, JDK (``$JAVA_HOME``, as ./course sets it, else the
    ``java`` on PATH), date."""
    cpu = "unknown processor"
    try:
        m = re.search(r"^model name\s*:\s*(.+)$", Path("/proc/cpuinfo").read_text(), re.M)
        cpu = m.group(1).strip() if m else cpu
    except OSError:
        pass
    jdk = "JDK unknown"
    java_home = os.environ.get("JAVA_HOME") or (
        str(Path(shutil.which("java")).resolve().parent.parent) if shutil.which("java") else None)
    if java_home and (Path(java_home) / "release").exists():
        release = (Path(java_home) / "release").read_text(errors="replace")
        version = re.search(r'^JAVA_RUNTIME_VERSION="([^"]+)"', release, re.M) or re.search(
            r'^JAVA_VERSION="([^"]+)"', release, re.M)
        vendor = re.search(r'^IMPLEMENTOR="([^"]+)"', release, re.M)
        jdk = f"JDK {version.group(1) if version else '?'}" + (f" ({vendor.group(1)})" if vendor else "")
    date = datetime.datetime.fromtimestamp(when, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return {"scale": scale, "cores": cores, "cpu": cpu, "jdk": jdk, "date": date}


# ------------------------------------------------------------------------------------------------ leaks

def page_text(page: Path) -> str:
    """A page's text as a reader sees it: tags out (the code's highlighting splits a line into spans), entities
    decoded, each line's spaces kept."""
    body = page.read_text(encoding="utf-8")
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def solution_lines(root: Path = ROOT) -> dict[str, list[str]]:
    """The distinctive lines of each exercise's reference solution (course_cli.answers)."""
    return answers.solution_lines(root)


def self_check_answers(root: Path = ROOT) -> list[dict]:
    """Every self-check question of kit/src/main/resources/course/kit/selfcheck/NN.json, its answer opened."""
    return answers.self_check_questions(root)


def leaks(root: Path, site: Path) -> list[str]:
    """What the site shows that a learner should find alone: a distinctive line of a solution's source, a
    self-check's confirmation (its "right" text, shown only to a right answer) or an answer cell holding the
    expected answer. Empty when the site is clean."""
    texts = {p.name: page_text(p) for p in sorted(site.glob("*.html"))}
    page_lines = {name: {l.strip() for l in text.splitlines()} for name, text in texts.items()}
    # the arguments of every answer cell on a page, comments out ("/* true or false */ null" answers nothing)
    cells = {name: answers.answer_calls(text, only="answer") for name, text in texts.items()}
    found = []
    for source, lines in solution_lines(root).items():
        for line in lines:
            for name, shown in page_lines.items():
                if line in shown:
                    found.append(f"{name}: a line of solutions/{source}: {line}")
    for q in self_check_answers(root):
        value = answers.answer_value(q)
        for name, text in texts.items():
            if q["right"] in text:
                found.append(f"{name}: the confirmation of self-check {q['id']}: {q['right']}")
            if any(qid == q["id"] and value.search(arg) for qid, arg in cells[name]):
                found.append(f"{name}: an answer cell with the expected answer of self-check {q['id']}")
    return found


# ------------------------------------------------------------------------------------------------ writing

def copy_assets(out: Path) -> None:
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    for own in ["book.css", "search.js"]:
        shutil.copy2(TEMPLATES / "book" / own, assets / own)
    shutil.copy2(MINISEARCH / "minisearch.js", assets / "minisearch.js")
    shutil.copy2(MINISEARCH / "LICENSE.txt", assets / "minisearch-LICENSE.txt")
    if not (MATHJAX / "MathJax.js").exists():
        raise RuntimeError(f"no MathJax at {MATHJAX}: install Debian's libjs-mathjax and fonts-mathjax "
                           f"(or set COURSE_MATHJAX_DIR to a MathJax 2 folder)")
    for rel in MATHJAX_FILES:
        src, dst = MATHJAX / rel, assets / "mathjax" / rel
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)  # Debian's fonts are symbolic links: copy the files
        elif src.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def write_search_index(out: Path, pages: list[tuple[str, str]]) -> None:
    """assets/search-index.js: each page's address, title and text (what a reader sees, spaces squeezed), as a
    script that sets ``window.BOOK_SEARCH`` (a script loads from a file: page, where fetch() may not)."""
    docs = [{"id": i, "href": href, "title": title, "text": re.sub(r"\s+", " ", page_text(out / href)).strip()}
            for i, (href, title) in enumerate(pages)]
    (out / "assets" / "search-index.js").write_text(
        "window.BOOK_SEARCH = " + json.dumps(docs, ensure_ascii=False) + ";\n", encoding="utf-8")


def exporter():
    from nbconvert import HTMLExporter
    return HTMLExporter(template_name="book", extra_template_basedirs=[str(TEMPLATES)])


def jinja():
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader([str(TEMPLATES / "book")]), autoescape=False)


def write(root: Path, out: Path, executed: Path, scale: str, repo: str | None = None,
          measured_at: float | None = None) -> list[Path]:
    """Writes the site into ``out`` from the executed notebooks in ``executed``; returns the pages written."""
    import nbformat
    repo = repo or repository(root)
    pages = site_pages(root)
    chapters = notebooks(root)
    missing = [nb.name for nb in chapters if not (executed / nb.name).exists()]
    if missing:
        raise RuntimeError(f"no executed notebook in {executed} for: {', '.join(missing)}")
    if measured_at is None:
        measured_at = max((executed / nb.name).stat().st_mtime for nb in chapters)
    info = machine(scale, measured_at)
    out.mkdir(parents=True, exist_ok=True)
    copy_assets(out)

    loaded = {nb.name: prepare(nbformat.read(executed / nb.name, as_version=4)) for nb in chapters}
    others = [("docs/reproduction.md", "Reproducing the articles")] if (root / "docs/reproduction.md").exists() else []
    if (root / "exercises" / "README.md").exists():
        others.append(("exercises/README.md", "The exercises"))
    others += [(f"exercises/{r.parent.name}/README.md", f"Exercise {r.parent.name}") for r in exercise_readmes(root)]
    order = [(f"notebooks/{nb.name}", notebook_title(loaded[nb.name]) or nb.stem) for nb in chapters]
    order += [(src, title_of((root / src).read_text(encoding="utf-8"), fallback)) for src, fallback in others]

    def neighbours(i: int) -> dict:
        prev = {"href": pages[order[i - 1][0]], "title": order[i - 1][1]} if i > 0 else None
        nxt = {"href": pages[order[i + 1][0]], "title": order[i + 1][1]} if i + 1 < len(order) else None
        return {"prev": prev, "next": nxt, "machine": info, "repository": f"https://github.com/{repo}"}

    written = []
    html_exporter = exporter()
    for i, (src, title) in enumerate(order):
        book = neighbours(i)
        target = out / pages[src]
        if src.startswith("notebooks/"):
            name = posixpath.basename(src)
            book["run"] = {"repository": github(repo, src), "binder": binder(repo, name)}
            resources = {"metadata": {"name": title}, "book": book}
            body, _ = html_exporter.from_notebook_node(loaded[name], resources=resources)
        else:
            text = (root / src).read_text(encoding="utf-8")
            body = jinja().get_template("page.html.j2").render(title=title, body=markdown(text), book=book)
        target.write_text(rewrite_links(body, src, pages, repo, root), encoding="utf-8")
        written.append(target)

    intro, table = readme_contents(root)
    index = {"prev": None, "next": {"href": pages[order[0][0]], "title": order[0][1]}, "machine": info,
             "repository": f"https://github.com/{repo}", "is_index": True}
    more = [{"href": pages[src], "title": title} for src, title in order if not src.startswith("notebooks/")]
    index_title = "Java virtual threads, measured"
    body = jinja().get_template("page.html.j2").render(
        title=index_title, intro=markdown(intro), body=markdown(table), book=index, more=more)
    (out / "index.html").write_text(rewrite_links(body, "README.md", pages, repo, root), encoding="utf-8")
    written.insert(0, out / "index.html")
    write_search_index(out, [(pages[src], title) for src, title in order] + [("index.html", index_title)])
    return written


def build(root: Path, out: Path, scale: str, executed: Path | None = None, at_once: int = 2,
          timeout: int | None = None) -> list[Path]:
    t0 = time.monotonic()
    if executed is None:
        say(f"executing {len(notebooks(root))} notebooks at the {scale} scale with the solutions loaded, "
            f"{at_once} at a time …")
        started = time.time()
        executed = execute(root, root / "target" / "book-run", scale, at_once, timeout=timeout)
        say(f"executed in {time.monotonic() - t0:.0f} s")
    else:
        started = None
    t1 = time.monotonic()
    if out.exists() and any(out.iterdir()):
        # only a book this wrote before is replaced: never a folder of something else that --out named
        if not ((out / "index.html").is_file() and (out / "assets" / "book.css").is_file()):
            raise RuntimeError(f"{out} is not empty and holds no book: choose another --out")
        shutil.rmtree(out)
    written = write(root, out, executed, scale, measured_at=started)
    found = leaks(root, out)
    if found:
        raise RuntimeError("the site shows what the learner should find alone (nothing published):\n  "
                           + "\n  ".join(found[:50]))
    say(f"wrote {len(written)} pages to {out} in {time.monotonic() - t1:.0f} s (all: {time.monotonic() - t0:.0f} s)")
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="book.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--scale", required=True, help="the scale, as ./course book names it (the kit's Scale checks it)")
    p.add_argument("--out", type=Path, default=ROOT / "target" / "book")
    p.add_argument("--executed", type=Path,
                   help="a folder of notebooks already executed (./course test's target/notebooks): no run")
    p.add_argument("--jobs", type=int, default=2 if (os.cpu_count() or 1) >= 2 else 1)
    p.add_argument("--timeout", type=int, help="seconds per cell")
    a = p.parse_args(argv)
    try:
        build(ROOT, a.out.resolve(), a.scale, a.executed.resolve() if a.executed else None, a.jobs, a.timeout)
    except (RuntimeError, ValueError) as e:
        print(f"[book] error: {e}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
