"""Maven owns the Java facts: ./course reads the version and the kernel's class path from files the build
writes (target/build-info.properties, kernel/target/runtime.classpath) and knows neither itself."""
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import course  # noqa: E402
from course_cli import kernelspec  # noqa: E402


def test_no_python_file_names_the_course_version():
    pom = (ROOT / "pom.xml").read_text()
    version = re.search(r"<revision>([^<]+)</revision>", pom).group(1)
    for py in (ROOT / "tools").glob("*.py"):
        assert version not in py.read_text(), f"{py.name} names the version {version}: read it from the build"


@pytest.mark.skipif(not course.KERNEL_CLASSPATH.exists(), reason="needs a build (./course setup)")
def test_the_kernel_class_path_is_mavens_with_the_shaded_rapaio_jar_last():
    pom = (ROOT / "pom.xml").read_text()
    assert course.version() == re.search(r"<revision>([^<]+)</revision>", pom).group(1)
    jars = course.kernel_jars()
    names = [j.name for j in jars]
    assert names[0] == f"course-kernel-{course.version()}.jar"
    assert names[-1].startswith("rapaio-jupyter-kernel-"), names
    assert {f"course-kit-{course.version()}.jar", f"course-grader-{course.version()}.jar"} <= set(names)
    assert len(names) == len(set(names)), names
    assert all(j.is_file() for j in jars), [j for j in jars if not j.is_file()]
    spec = kernelspec.kernel_json(Path("/java"), Path("/lib"), names, ROOT)
    cp = spec["argv"][spec["argv"].index("-cp") + 1].split(os.pathsep)
    assert [Path(p).name for p in cp] == names, "kernel.json keeps Maven's order"
    assert f"-javaagent:{Path('/lib') / names[0]}" in spec["argv"]


@pytest.mark.skipif(not (ROOT / "kernel" / "target" / "cell.classpath").exists(), reason="needs a build")
def test_cells_compile_against_mavens_cell_class_path_a_subset_of_the_kernels():
    names = [j.name for j in course.kernel_jars()]
    cells = course.cell_jar_names()
    version = course.version()
    assert {f"course-kit-{version}.jar", f"course-grader-{version}.jar"} <= set(cells)
    assert cells[-1].startswith("rapaio-jupyter-kernel-"), "display() and rapaio's start-up import need it"
    assert not [n for n in cells if n.startswith(("fastutil-", "icu4j-", "guava-"))], cells
    assert [n for n in names if n in cells] == cells, "the cell class path keeps Maven's order"
    spec = kernelspec.kernel_json(Path("/java"), Path("/lib"), names, ROOT, cell_jar_names=cells)
    prop = [a for a in spec["argv"] if a.startswith(f"-D{kernelspec.CELL_CLASSPATH_PROPERTY}=")]
    assert len(prop) == 1 and prop[0].split("=", 1)[1].split(os.pathsep) == [str(Path("/lib") / n) for n in cells]
    assert spec["argv"].index(prop[0]) < spec["argv"].index("-cp"), "a JVM option, before the main class"
    with pytest.raises(ValueError, match="does not have"):
        kernelspec.kernel_json(Path("/java"), Path("/lib"), names, ROOT, cell_jar_names=cells + ["nowhere.jar"])


# ------------------------------------------------------------------------------------------- the release, once

import io  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tokenize  # noqa: E402

from course_cli import facts, host  # noqa: E402


def code_literals(path: Path) -> list[tuple[int, str]]:
    """The numbers and strings of a Python file's code, comments and docstrings left out."""
    out, prev = [], tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.NUMBER or (tok.type == tokenize.STRING and prev not in (
                tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)):
            out.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            prev = tok.type
    return out


def test_no_tool_names_the_release_maven_owns_it():
    release = str(facts.release())
    word = re.compile(rf"(?<![\d.]){release}(?![\d])")
    found = [f"{py.relative_to(ROOT)}:{n}: {lit}" for py in (ROOT / "tools").rglob("*.py") if "tests" not in py.parts
             for n, lit in code_literals(py) if word.search(lit)]
    for sh in (ROOT / "deploy" / "gradescope").iterdir():
        for n, line in enumerate(sh.read_text().splitlines(), 1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
            # setup.sh's pinned Temurin build (URL and checksum) is checked against the pom's release there
            if word.search(code) and not re.match(r"JDK_(VERSION|URL_\w+|SHA256_\w+)=", code):
                found.append(f"{sh.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "read the release from Maven's facts (course_cli.facts):\n" + "\n".join(found)


def test_facts_before_the_first_build_are_the_poms_as_maven_would_write_them(tmp_path):
    course = copy_of_the_facts(tmp_path)
    written = ROOT / facts.BUILD_INFO
    if not written.exists():
        pytest.skip("needs a build (./course setup)")
    assert facts.facts(course) == facts.parse_properties(written.read_text()), "the pom's facts, read by Python"


def copy_of_the_facts(tmp_path: Path, release: int | None = None) -> Path:
    """The course's pom, its build-info template, the kit's list of what needs the release and run_autograder."""
    course = tmp_path / "course"
    for rel in ["pom.xml", "src/build", str(facts.NEEDS_JDK), "deploy/gradescope/run_autograder"]:
        (course / rel).parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if (ROOT / rel).is_dir() else shutil.copy2)(ROOT / rel, course / rel)
    if release is not None:
        pom = course / "pom.xml"
        pom.write_text(re.sub(r"<maven.compiler.release>\d+<", f"<maven.compiler.release>{release}<", pom.read_text()))
    return course


def fake_jdk(base: Path, feature: int, java: str = "#!/bin/sh\n") -> Path:
    home = base / f"jdk-{feature}"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "java").write_text(java)
    (home / "bin" / "java").chmod(0o755)
    (home / "release").write_text(f'JAVA_VERSION="{feature}.0.1"\n')
    return home


def test_a_copy_whose_pom_names_another_release_is_followed_by_every_consumer(tmp_path, capsys):
    theirs = facts.release() - 1  # one the JDK running Maven here can compile for
    course = copy_of_the_facts(tmp_path, theirs)
    # Maven writes the facts (the parent pom alone: generate-resources)
    env = course_java_env()
    r = subprocess.run(["mvn", "-q", "-B", "-o", "-N", "generate-resources"], cwd=course, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"release={theirs}\n" in (course / facts.BUILD_INFO).read_text()
    assert facts.release(course) == theirs
    # the kernelspec
    spec = kernelspec.kernel_json(Path("/java"), Path("/lib"), ["course-kernel-1.jar"], course)
    assert spec["display_name"] == f"Java {theirs} (virtual threads course)"
    assert spec["env"]["RJK_COMPILER_OPTIONS"] == f"--enable-preview --source {theirs}"
    # the CLI: the JDK it picks, and what it says when it has only another one
    ours, their_jdk = fake_jdk(tmp_path, facts.release()), fake_jdk(tmp_path, theirs)
    assert host.pick_jdk([ours, their_jdk], course) == their_jdk.resolve()
    assert host.pick_jdk([ours, their_jdk]) == ours.resolve()
    capsys.readouterr()
    assert host.pick_jdk([ours], course) == ours.resolve()
    said = capsys.readouterr().out
    assert f"no JDK {theirs} found; using JDK {facts.release()}" in said and "notebook 07" in said, said
    # the autograder: run_autograder starts the grader with Maven's class, options and class path
    (course / "grader" / "target").mkdir(parents=True)
    (course / "grader" / "target" / "runtime.classpath").write_text("lib/a.jar:lib/b.jar")
    args = tmp_path / "java-args"
    java = fake_jdk(tmp_path / "gs", facts.release(), f'#!/bin/sh\necho "$@" > "{args}"\n')
    gs = tmp_path / "gradescope"
    (gs / "submission").mkdir(parents=True)
    (gs / "source").symlink_to(course)
    r = subprocess.run(["bash", str(course / "deploy" / "gradescope" / "run_autograder")], capture_output=True,
                       text=True, env=dict(os.environ, GRADESCOPE_ROOT=str(gs), JAVA_HOME=str(java)), timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"the course runs on JDK {theirs}; this is JDK {facts.release()}" in r.stdout, r.stdout
    got = args.read_text().split()
    built = facts.facts(course)
    assert got[:len(built["grader.jvm.options"].split())] == built["grader.jvm.options"].split(), got
    cp = got[got.index("-cp") + 1].split(":")
    assert cp == [f"grader/target/course-grader-{built['version']}.jar", "grader/target/lib/a.jar",
                  "grader/target/lib/b.jar"], cp
    assert got[got.index("-cp") + 2] == built["grader.main"] == "course.grader.GradeCli"
    assert "--submission" in got and "--json" in got


def course_java_env() -> dict:
    env = dict(os.environ)
    env["MAVEN_OPTS"] = (env.get("MAVEN_OPTS", "") + " --sun-misc-unsafe-memory-access=allow").strip()
    return env


# ------------------------------------------------------------------------------------------- another JDK release

def test_on_another_release_setup_names_what_needs_the_courses_and_why(tmp_path, capsys):
    other = fake_jdk(tmp_path, facts.release() + 1)
    assert host.pick_jdk([other]) == other.resolve(), "another release still runs the rest of the course"
    said = capsys.readouterr().out
    assert f"no JDK {facts.release()} found; using JDK {facts.release() + 1}" in said
    assert "notebook 07, exercise 07 and its solution" in said and "StructuredTaskScope" in said, said
    assert "anySuccessfulResultOrThrow" in said and "notebook 06" in said, said
    older = fake_jdk(tmp_path / "old", facts.release() - 4)
    with pytest.raises(SystemExit):
        host.pick_jdk([older])
    assert f"no JDK {facts.release()} found" in capsys.readouterr().err


def test_on_another_release_lab_says_so_next_to_the_address(tmp_path, capsys, monkeypatch):
    from course_cli import lab
    other = fake_jdk(tmp_path, facts.release() + 1)
    started = []
    monkeypatch.setattr(lab, "cmd_setup", lambda args: 0)
    monkeypatch.setattr(lab, "find_jdk", lambda: other)
    monkeypatch.setattr(lab, "jupyter_python", lambda modules: "python3")
    monkeypatch.setattr(lab, "ensure_fonts", lambda: None)
    monkeypatch.setattr(lab.subprocess, "run", lambda cmd, env: started.append(cmd))
    import argparse
    assert lab.cmd_lab(argparse.Namespace(ip="127.0.0.1", port=0, exec=False)) == 0
    said = capsys.readouterr().out
    assert started, "the lab still starts"
    note = said.index(f"JDK {facts.release() + 1}: the course runs on JDK {facts.release()}, exactly")
    assert note < said.index("starting JupyterLab"), said
    for what, why in facts.needs_jdk():
        assert f"  - {what}: {why}" in said


def test_on_another_release_the_kernel_compiles_cells_without_the_preview(tmp_path):
    other = fake_jdk(tmp_path, facts.release() + 1)
    spec = kernelspec.kernel_json(other / "bin" / "java", Path("/lib"), ["course-kernel-1.jar"], ROOT)
    assert spec["env"]["RJK_COMPILER_OPTIONS"] == "", "--source 25 --enable-preview would fail every cell on 26"
    ours = fake_jdk(tmp_path / "ours", facts.release())
    spec = kernelspec.kernel_json(ours / "bin" / "java", Path("/lib"), ["course-kernel-1.jar"], ROOT)
    assert spec["env"]["RJK_COMPILER_OPTIONS"] == f"--enable-preview --source {facts.release()}"


# ------------------------------------------------------------------------------------------- COURSE_SCALE

@pytest.mark.skipif(not course.KERNEL_CLASSPATH.exists(), reason="needs a build (./course setup)")
def test_the_kit_checks_and_names_the_scale_python_parses_none(capsys):
    from course_cli import build
    assert build.course_scale(" QUICK") == "quick"
    assert build.course_scale("full") == "full"
    with pytest.raises(SystemExit):
        build.course_scale("huge")
    assert "COURSE_SCALE must be 'full' or 'quick', not 'huge'" in capsys.readouterr().err
    scale_words = re.compile(r"""["'](quick|full)["']""")
    parsed = [f"{py.relative_to(ROOT)}:{n}: {lit}" for py in (ROOT / "tools" / "course_cli").glob("*.py")
              for n, lit in code_literals(py) if scale_words.fullmatch(lit) and py.name != "suite.py"]
    assert not parsed, "a scale's name outside the test suite's choice of the quick scale: " + str(parsed)


@pytest.mark.skipif(not course.KERNEL_CLASSPATH.exists(), reason="needs a build (./course setup)")
def test_a_bad_course_scale_is_refused_before_a_notebook_runs():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "course.py"), "run", "notebooks/00-welcome.ipynb"],
                       cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, COURSE_SCALE="huge"),
                       timeout=300)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "COURSE_SCALE must be 'full' or 'quick', not 'huge'" in r.stderr, r.stderr
    assert "code cells" not in r.stdout, "no notebook ran"
