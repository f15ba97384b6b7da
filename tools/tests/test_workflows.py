"""The GitHub workflows: every action pinned by a full commit SHA, CI running .ci/run on pushes and PRs."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def test_every_action_is_pinned_by_a_full_commit_sha():
    uses = [(wf.name, m.group(1)) for wf in WORKFLOWS
            for m in re.finditer(r"^\s*-?\s*uses:\s*(\S+)", wf.read_text(), re.M)]
    assert uses, "no action found"
    loose = [(wf, u) for wf, u in uses if not re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u)]
    assert not loose, f"actions not pinned by commit SHA: {loose}"


def test_ci_runs_the_course_tests_on_every_push_and_pull_request():
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert re.search(r"^on:\s*\n(\s+\S.*\n)*?\s+push:", ci, re.M), ci
    assert re.search(r"^\s+pull_request:", ci, re.M), ci
    assert "bash .ci/run" in ci
    assert re.search(r"java-version:\s*'25'", ci)


def test_dependabot_watches_maven_and_the_actions():
    text = (ROOT / ".github" / "dependabot.yml").read_text()
    assert "package-ecosystem: maven" in text and "package-ecosystem: github-actions" in text
