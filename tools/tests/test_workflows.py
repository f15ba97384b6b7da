"""The GitHub workflows: every action pinned by a full commit SHA, CI running .ci/run on pushes and PRs, the book
built on the default branch and published to GitHub Pages."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def course_only(path: str):
    """A file of the course's own repository that a learners' template (./course template) leaves out."""
    return pytest.mark.skipif(not (ROOT / path).is_file(),
                              reason=f"no {path}: a learners' template (./course template) leaves it out")


def test_every_action_is_pinned_by_a_full_commit_sha():
    uses = [(wf.name, m.group(1)) for wf in WORKFLOWS
            for m in re.finditer(r"^\s*-?\s*uses:\s*(\S+)", wf.read_text(), re.M)]
    assert uses, "no action found"
    loose = [(wf, u) for wf, u in uses if not re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u)]
    assert not loose, f"actions not pinned by commit SHA: {loose}"


@course_only(".github/workflows/ci.yml")
def test_ci_runs_the_course_tests_on_every_push_and_pull_request():
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert re.search(r"^on:\s*\n(\s+\S.*\n)*?\s+push:", ci, re.M), ci
    assert re.search(r"^\s+pull_request:", ci, re.M), ci
    assert "bash .ci/run" in ci
    assert re.search(r"java-version:\s*'25'", ci)


@course_only(".github/dependabot.yml")
def test_dependabot_watches_maven_and_the_actions():
    text = (ROOT / ".github" / "dependabot.yml").read_text()
    assert "package-ecosystem: maven" in text and "package-ecosystem: github-actions" in text


@course_only(".github/workflows/book.yml")
def test_the_book_is_built_on_the_default_branch_and_published_to_pages():
    book = (ROOT / ".github" / "workflows" / "book.yml").read_text()
    assert re.search(r"^on:\s*\n(\s+\S.*\n)*?\s+push:", book, re.M), book
    assert "if: github.ref_name == github.event.repository.default_branch" in book
    assert re.search(r"^\s+run: \./course book --scale full --out target/book$", book, re.M)
    for action in ["actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"]:
        assert re.search(rf"uses: {action}@[0-9a-f]{{40}} # v\d+\.\d+\.\d+$", book, re.M), action
    assert re.search(r"uses: actions/upload-pages-artifact@\S+ # \S+\n\s+with:\n\s+path: target/book/", book)
    # Pages' deployment needs these two, on the deploying job only; the rest reads
    deploy = book.split("\n  deploy:\n", 1)[1]
    assert re.search(r"permissions:\n\s+pages: write\n\s+id-token: write", deploy)
    assert re.search(r"^permissions:\n  contents: read$", book, re.M)
    assert "needs: build" in deploy and "name: github-pages" in deploy
    # the same Debian packages as the tests, and MathJax for the formulas, vendored into the site
    assert "libjs-mathjax" in book and "fonts-mathjax" in book
    assert re.search(r"java-version:\s*'25'", book)
