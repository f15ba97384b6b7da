"""The course as a book (tools/book.py): the site written from executed notebooks, its links, and the check that no
page shows a solution's source or a self-check's answer. No kernel: the notebooks are the committed ones (no
outputs) with an output or two planted; ./course test builds the real book from its executed notebooks and reads
it in Chromium (e2e BookIT)."""
import base64
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import book  # noqa: E402
from course_cli import answers  # noqa: E402

# A learners' template (./course template) has no solutions/: what needs them is skipped, saying so.
needs_answers = pytest.mark.skipif(not (ROOT / "solutions").is_dir(), reason=answers.NO_ANSWERS)

# A 1×1 PNG, as the kit's charts are: image/png in a display_data output.
PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c63f8cfc0f01f0005000201e5273fd80000000049454e44ae426082")).decode()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The book written from the committed notebooks, with a chart planted in notebook 02 and a grade cell's
    output (the stubs' 0/10) left in, as ./course test's executed notebooks have it."""
    executed = tmp_path_factory.mktemp("executed")
    for nb_path in book.notebooks(ROOT):
        nb = nbformat.read(nb_path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            if book.GRADE_CELL.search(cell.source):
                cell.outputs = [nbformat.v4.new_output("stream", text="02-cafe: 0/10 points (stubs)\n")]
            elif nb_path.name.startswith("02") and not any(o.get("output_type") == "display_data"
                                                            for c in nb.cells for o in c.get("outputs", [])):
                cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG, "text/plain": "chart"})]
        nbformat.write(nb, executed / nb_path.name)
    out = tmp_path_factory.mktemp("book")
    book.write(ROOT, out, executed, "quick", repo="example-org/vthreads-course", measured_at=0)
    return out


def test_every_notebook_and_markdown_page_is_written_and_the_contents_link_every_chapter(site):
    chapters = book.notebooks(ROOT)
    assert len(chapters) >= 10
    index = (site / "index.html").read_text(encoding="utf-8")
    for nb in chapters:
        assert (site / f"{nb.stem}.html").is_file()
        assert f'href="{nb.stem}.html"' in index, nb.name
    for readme in book.exercise_readmes(ROOT):
        assert (site / f"exercise-{readme.parent.name}.html").is_file()
        assert f'href="exercise-{readme.parent.name}.html"' in index
    assert (site / "reproduction.html").is_file() and 'href="reproduction.html"' in index
    # the machine the figures were measured on
    assert re.search(r"Measured at the <b>quick</b> scale on \d+ cores", index)
    assert "JDK 25" in index and "1970-01-01 00:00 UTC" in index


def links(page: str) -> list[dict[str, str]]:
    """The rel and href of every <a> of a page, whatever the order of its attributes."""
    found = []

    class Links(HTMLParser):
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "a" and "href" in a:
                found.append({k: a[k] for k in ("rel", "href") if k in a})

    Links().feed(page)
    return found


def test_a_chapter_has_its_outputs_navigation_and_run_it_links(site):
    page = (site / "02-cafe-simulation.html").read_text(encoding="utf-8")
    # nbconvert 7 writes alt and class before src
    assert re.search(rf'<img [^>]*src="data:image/png;base64,{re.escape(PNG)}', page)
    assert 'href="index.html">Contents' in page
    # nbconvert 7 writes a tag's attributes in its own order
    assert {"rel": "prev", "href": "01-thread-creation-cost.html"} in links(page)
    assert {"rel": "next", "href": "03-fixed-pool-batch-math.html"} in links(page)
    assert 'href="https://github.com/example-org/vthreads-course/blob/HEAD/notebooks/02-cafe-simulation.ipynb"' in page
    assert ('href="https://mybinder.org/v2/gh/example-org/vthreads-course/HEAD?urlpath=lab/tree/work/'
            'vthreads-course/notebooks/02-cafe-simulation.ipynb"') in page
    # links written for GitHub become links between pages; other files of the repository, links to GitHub
    assert 'href="exercise-02-cafe.html"' in page
    assert ".ipynb\"" not in page.replace("notebooks/02-cafe-simulation.ipynb\"", "")
    # the grade cell grades the learner's own folder: not run in the book, and said so
    assert "0/10 points" not in page
    assert book.NOT_RUN in page.replace("&#39;", "'")


def test_no_page_needs_a_network(site):
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        remote = re.findall(r"<(?:script|img|iframe)\b[^>]*\bsrc=\"(?!data:)([^\"]*:[^\"]*)\"", text)
        remote += re.findall(r"<link\b[^>]*\bhref=\"([^\"]*:[^\"]*)\"", text)
        remote += re.findall(r"url\(\s*['\"]?(https?:|file:|//)", text)
        assert not remote, f"{page.name} loads {remote}"
        assert "file:///" not in text and "cdnjs" not in text and "unpkg" not in text, page.name
        for local in re.findall(r"<(?:script|link)\b[^>]*\b(?:src|href)=\"(assets/[^\"?#]+)", text):
            assert (site / local).is_file(), f"{page.name}: {local}"
    for needed in ["MathJax.js", "config/TeX-AMS_CHTML.js", "jax/output/CommonHTML/jax.js",
                   "fonts/HTML-CSS/TeX/woff/MathJax_Main-Regular.woff"]:
        assert (site / "assets" / "mathjax" / needed).is_file(), needed


def test_the_site_shows_no_solution_and_no_self_check_answer(site):
    assert book.leaks(ROOT, site) == []


@needs_answers
def test_the_leak_check_finds_a_solution_line(tmp_path):
    lines = book.solution_lines(ROOT)
    for exercise in sorted(p.name for p in (ROOT / "solutions").iterdir() if p.is_dir()):
        assert sum(len(v) for k, v in lines.items() if k.startswith(exercise + "/")) >= 3, exercise
    source, chosen = next((k, v[0]) for k, v in lines.items() if v)
    # a solution's line as nbconvert highlights it: split into spans, with entities
    highlighted = "".join(f'<span class="n">{html_escape(tok)}</span>' for tok in re.split(r"(\W)", chosen))
    (tmp_path / "a.html").write_text(f"<pre>    {highlighted}\n</pre>", encoding="utf-8")
    found = book.leaks(ROOT, tmp_path)
    assert any(f.startswith(f"a.html: a line of solutions/{source}") for f in found), found
    (tmp_path / "a.html").write_text("<p>nothing</p>", encoding="utf-8")
    assert book.leaks(ROOT, tmp_path) == []


def test_the_leak_check_finds_each_kind_of_self_check_answer(tmp_path):
    questions = {q["id"]: q for q in book.self_check_answers(ROOT)}
    assert questions
    # a learner's right answers, one of each kind (duration, boolean, choice, number), from the kit's answers
    kinds = {questions[qid]["kind"] for qid in ["02.1", "02.2", "02.3", "02.4"]}
    assert kinds == {"duration", "boolean", "choice", "number"}, kinds
    answered = [answers.answered_call(questions[qid]) for qid in ["02.1", "02.2", "02.3", "02.4"]]
    (tmp_path / "b.html").write_text("<pre>" + "\n".join(html_escape(a) for a in answered) + "</pre><p>"
                                     + html_escape(questions["02.5"]["right"]) + "</p>", encoding="utf-8")
    found = book.leaks(ROOT, tmp_path)
    for qid in ["02.1", "02.2", "02.3", "02.4"]:
        assert f"b.html: an answer cell with the expected answer of self-check {qid}" in found, (qid, found)
    assert any("confirmation of self-check 02.5" in f for f in found), found
    # the placeholders the notebooks ship answer nothing
    placeholders = ['SelfCheck.answer("02.1", Duration.ofSeconds(/* your answer */ 0));',
                    'SelfCheck.answer("02.2", /* true or false */ null);',
                    'SelfCheck.answer("02.3", SelfCheck.Choice.NONE);', 'SelfCheck.answer("02.4", /* your answer */ 0);']
    (tmp_path / "b.html").write_text("<pre>" + "\n".join(placeholders) + "</pre>", encoding="utf-8")
    assert book.leaks(ROOT, tmp_path) == []


def html_escape(s: str) -> str:
    import html
    return html.escape(s)


@needs_answers
def test_the_book_runs_the_your_turn_cells_with_the_solutions_and_skips_the_grade_cell():
    nb = book.prepare(nbformat.read(ROOT / "notebooks" / "02-cafe-simulation.ipynb", as_version=4))
    grade = [c for c in nb.cells if c.cell_type == "code" and book.GRADE_CELL.search(c.source)]
    assert len(grade) == 1 and "skip-execution" in grade[0].metadata["tags"]
    assert grade[0].metadata["course_book"]["note"] == book.NOT_RUN
    magic = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("%exercise ")]
    assert magic, "no %exercise cell: the book's runs load the solutions through it"
    # the %exercise magic reads COURSE_EXERCISES_DIR: the solutions have the exercises' layout
    for exercise in (ROOT / "exercises").glob("[0-9][0-9]-*/src/main/java"):
        assert (ROOT / "solutions" / exercise.relative_to(ROOT / "exercises")).is_dir(), exercise


def test_repository_comes_from_a_github_origin_else_the_readme_placeholder(tmp_path):
    if not shutil.which("git"):
        pytest.skip("no git")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert book.repository(tmp_path) == "OWNER/REPOSITORY"
    for url in ["https://github.com/example-org/vthreads-course.git", "git@github.com:example-org/vthreads-course.git",
                "https://github.com/example-org/vthreads-course"]:
        subprocess.run(["git", "-C", str(tmp_path), "remote", "remove", "origin"], capture_output=True)
        subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", url], check=True)
        assert book.repository(tmp_path) == "example-org/vthreads-course", url
    subprocess.run(["git", "-C", str(tmp_path), "remote", "set-url", "origin", "https://gitlab.com/a/b.git"], check=True)
    assert book.repository(tmp_path) == "OWNER/REPOSITORY"
    assert book.pages_url("example-org/vthreads-course") == "https://example-org.github.io/vthreads-course/"


def test_the_readme_links_the_book_at_the_pages_url_of_its_placeholders():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert book.pages_url(book.PLACEHOLDER) in readme
    assert "OWNER/REPOSITORY" in readme  # the same placeholders as the Binder link


def test_the_contents_are_the_readmes_table():
    intro, table = book.readme_contents(ROOT)
    assert intro.startswith("A hands-on course")
    for nb in book.notebooks(ROOT):
        assert f"(notebooks/{nb.name})" in table, nb.name
    assert json.dumps(table)  # one table, rows only
    assert all(line.startswith("|") for line in table.splitlines())


def test_out_replaces_an_earlier_book_but_never_another_folder(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(RuntimeError, match="holds no book"):
        book.build(ROOT, other, "quick", executed=tmp_path / "nothing")
    assert (other / "notes.txt").read_text() == "mine"


def test_the_search_box_searches_an_index_of_every_page(site):
    index = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    assert index.startswith("window.BOOK_SEARCH = ") and index.rstrip().endswith(";")
    docs = json.loads(index[len("window.BOOK_SEARCH = "):].rstrip().rstrip(";"))
    assert sorted(d["href"] for d in docs) == sorted(p.name for p in site.glob("*.html"))
    cafe = next(d for d in docs if d["href"] == "02-cafe-simulation.html")
    assert "virtual thread" in cafe["text"] and "<" not in cafe["title"]
    # the library as its npm package publishes it, with its licence; the box on every page
    assert (site / "assets" / "minisearch.js").read_bytes() == (book.MINISEARCH / "minisearch.js").read_bytes()
    assert "MIT" in (site / "assets" / "minisearch-LICENSE.txt").read_text() or "Permission is hereby granted" in (
        site / "assets" / "minisearch-LICENSE.txt").read_text()
    for page in site.glob("*.html"):
        assert 'id="book-search"' in page.read_text(encoding="utf-8"), page.name
