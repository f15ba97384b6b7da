"""Static checks of the Docker image's files, which CI cannot build (it has no Docker engine).

What is checked, and why:
- the Dockerfile starts FROM a pinned docker-stacks base-notebook tag, so that a rebuild next month
  gives the learner the same JupyterLab and Python;
- its last USER is the notebook user, as docker-stacks, repo2docker (Binder) and JupyterHub expect;
- nothing disables token authentication, here or in the JupyterHub values;
- it installs environment.yml into the base environment and the kernel with ./course setup --prefix,
  and runs no install step that CI does not also run (apt fonts, the conda environment and ./course
  are the only installers);
- the Maven repository it fills lives outside $HOME;
- the start hook that gives the learner a working copy copies once and then never overwrites;
- environment.yml, the JupyterHub values and the README agree with the Dockerfile and the kernel's heap.
Each checker is also run on a broken sample, to show that it can fail.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import kernelspec  # noqa: E402

DOCKERFILE = ROOT / "Dockerfile"
ENV_YML = ROOT / "environment.yml"
VALUES = ROOT / "deploy" / "jupyterhub" / "values.yaml"
HOOK = ROOT / "deploy" / "docker" / "copy-course-to-work"
README = ROOT / "README.md"
IMAGE = "vthreads-course"


# ------------------------------------------------------------------------------------------- parsing

def instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    buf = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not buf and (not line or line.startswith("#")):
            continue
        if buf and line.startswith("#"):  # a comment inside a continued instruction
            continue
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        if buf.strip():
            word, _, rest = buf.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
        buf = ""
    if buf.strip():
        word, _, rest = buf.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def run_commands(text: str) -> list[str]:
    """Every shell command of every RUN, split on && ; and |, with leading VAR=value assignments kept."""
    cmds = []
    for word, args in instructions(text):
        if word != "RUN":
            continue
        args = re.sub(r"--mount=\S+\s*", "", args)
        for part in re.split(r"&&|;|\|\|?", args):
            if part.strip():
                cmds.append(part.strip())
    return cmds


# ------------------------------------------------------------------------------------------- checkers

BASE_IMAGE = "quay.io/jupyter/base-notebook"
PINNED_TAG = re.compile(r"^(\d{4}-\d{2}-\d{2}|[0-9a-f]{12})$")  # dated or commit tags never move


def base_image_problems(text: str) -> list[str]:
    froms = [args for word, args in instructions(text) if word == "FROM"]
    if not froms:
        return ["no FROM"]
    problems = []
    for ref in froms:
        image = re.sub(r"^--platform=\S+\s+", "", ref).split()[0]
        if "$" in image:
            problems.append(f"FROM {image}: a build argument can unpin the base image")
            continue
        name, _, digest = image.partition("@")
        repo, _, tag = name.rpartition(":") if ":" in name.split("/")[-1] else (name, "", "")
        if repo != BASE_IMAGE:
            problems.append(f"FROM {image}: not {BASE_IMAGE}")
        if not tag and not digest:
            problems.append(f"FROM {image}: no tag (that means latest)")
        elif tag == "latest" or (tag and not PINNED_TAG.match(tag)):
            problems.append(f"FROM {image}: tag {tag!r} moves; use a dated tag such as 2026-07-28")
    return problems


def final_user_problems(text: str) -> list[str]:
    users = [args for word, args in instructions(text) if word == "USER"]
    if not users:
        return ["no USER: the image would run as the base image's last user, implicitly"]
    last = users[-1].split(":")[0]
    if last not in ("${NB_UID}", "$NB_UID", "1000", "${NB_USER}", "$NB_USER", "jovyan"):
        return [f"final USER is {last!r}, not the notebook user (USER ${{NB_UID}})"]
    return []


TOKEN_OFF = [
    re.compile(r"(NotebookApp|ServerApp|IdentityProvider)\.token\s*=\s*(''|\"\"|(?=\s|$))", re.I),
    re.compile(r"(NotebookApp|ServerApp)\.password\s*=\s*(''|\"\"|(?=\s|$))", re.I),
    re.compile(r"JUPYTER_TOKEN\s*[=:]\s*(''|\"\"|$)", re.M),
    re.compile(r"disable_check_xsrf\s*=\s*True", re.I),
    re.compile(r"allow_unauthenticated_access\s*=\s*True", re.I),
    re.compile(r"c\.\w+\.token\s*=\s*(''|\"\")"),
]


def token_problems(text: str) -> list[str]:
    return [f"token authentication disabled: {m.group(0)!r}" for rx in TOKEN_OFF for m in rx.finditer(text)]


# A RUN command may only start with one of these: the apt fonts, the conda environment, ./course and
# the Maven build that CI also runs, and file housekeeping. Anything else would install something that
# CI never exercises.
ALLOWED_COMMANDS = {"apt-get", "mamba", "./course", "mvn", "fix-permissions", "mkdir", "chown", "chmod", "rm"}


def install_step_problems(text: str) -> list[str]:
    problems = []
    for cmd in run_commands(text):
        words = shlex.split(cmd)
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            words.pop(0)
        if not words:
            continue
        exe = words[0]
        if exe not in ALLOWED_COMMANDS:
            problems.append(f"RUN {cmd!r}: {exe} is not a step that CI exercises")
        elif exe == "apt-get" and len(words) > 1 and words[1] == "install":
            pkgs = [w for w in words[2:] if not w.startswith("-")]
            extra = set(pkgs) - {"fontconfig", "fonts-dejavu-core"}
            if extra:
                problems.append(f"apt-get install {sorted(extra)}: only the fonts for headless charts come from apt")
        elif exe == "mamba" and words[1:3] != ["env", "update"] and words[1:2] != ["clean"]:
            problems.append(f"RUN {cmd!r}: conda packages come from environment.yml only")
        elif exe == "./course" and words[1:2] not in (["setup"], ["grade"]):
            problems.append(f"RUN {cmd!r}: only ./course setup and ./course grade build the image")
    return problems


def cleanup_problems(text: str) -> list[str]:
    """Package caches go in the same RUN that made them, or they stay in a layer for ever."""
    problems = []
    for word, args in instructions(text):
        if word != "RUN":
            continue
        if "apt-get install" in args and "rm -rf /var/lib/apt/lists" not in args:
            problems.append("apt-get install without removing /var/lib/apt/lists in the same RUN")
        if "mamba env update" in args and "mamba clean" not in args:
            problems.append("mamba env update without mamba clean in the same RUN")
    return problems


def maven_repo(text: str) -> str | None:
    m = re.search(r"-Dmaven\.repo\.local=(\S+?)[\"'\s]", text)
    return m.group(1) if m else None


# ------------------------------------------------------------------------------------------- the Dockerfile

@pytest.fixture(scope="module")
def dockerfile() -> str:
    assert DOCKERFILE.exists(), "Dockerfile is missing"
    return DOCKERFILE.read_text()


def test_base_image_is_a_pinned_base_notebook(dockerfile):
    assert base_image_problems(dockerfile) == []


@pytest.mark.parametrize("bad", [
    "FROM quay.io/jupyter/base-notebook\n",
    "FROM quay.io/jupyter/base-notebook:latest\n",
    "FROM quay.io/jupyter/base-notebook:python-3\n",
    "ARG T=latest\nFROM quay.io/jupyter/base-notebook:${T}\n",
    "FROM ubuntu:24.04\n",
])
def test_base_image_check_rejects_moving_tags(bad):
    assert base_image_problems(bad)


def test_final_user_is_the_notebook_user(dockerfile):
    assert final_user_problems(dockerfile) == []
    users = [args for word, args in instructions(dockerfile) if word == "USER"]
    assert users[-1] == "${NB_UID}"


@pytest.mark.parametrize("bad", ["FROM x:1\nUSER root\n", "FROM x:1\nUSER ${NB_UID}\nUSER 0\n", "FROM x:1\n"])
def test_final_user_check_rejects_root(bad):
    assert final_user_problems(bad)


def test_nothing_disables_the_token(dockerfile):
    texts = {"Dockerfile": dockerfile, "values.yaml": VALUES.read_text(), "hook": HOOK.read_text()}
    for name, text in texts.items():
        assert token_problems(text) == [], name
    # The image keeps the base image's start command, which generates and prints a token.
    assert not [a for w, a in instructions(dockerfile) if w in ("CMD", "ENTRYPOINT")]


@pytest.mark.parametrize("bad", [
    "CMD [\"start-notebook.py\", \"--IdentityProvider.token=''\"]",
    "CMD start-notebook.py --NotebookApp.token=''",
    "CMD jupyter lab --ServerApp.token= --ip=0.0.0.0",
    "ENV JUPYTER_TOKEN=",
    "ENV JUPYTER_TOKEN=\"\"",
    "RUN echo \"c.ServerApp.token = ''\" >> /etc/jupyter/jupyter_server_config.py",
    "RUN echo 'c.ServerApp.disable_check_xsrf = True' >> x.py",
    "CMD jupyter lab --ServerApp.password=''",
])
def test_token_check_catches_each_way_of_disabling(bad):
    assert token_problems(bad)


def test_installs_environment_yml_into_the_base_environment(dockerfile):
    copies = [a for w, a in instructions(dockerfile) if w == "COPY" and "environment.yml" in a]
    assert copies, "environment.yml is not copied into the image"
    cmds = run_commands(dockerfile)
    updates = [c for c in cmds if c.startswith("mamba env update")]
    assert updates, "no `mamba env update` of environment.yml"
    words = shlex.split(updates[0])
    assert ("--name" in words and words[words.index("--name") + 1] == "base") or \
           ("-n" in words and words[words.index("-n") + 1] == "base")
    assert any(w.endswith("environment.yml") for w in words)


def test_kernel_is_installed_with_course_setup_prefix(dockerfile):
    cmds = [shlex.split(c) for c in run_commands(dockerfile)]
    setups = [c for c in cmds if c[:2] == ["./course", "setup"]]
    assert setups, "the image does not run ./course setup"
    assert setups[0][2:] == ["--prefix", "${CONDA_DIR}"], "the kernel must go to $CONDA_DIR, outside $HOME"


def test_runs_no_install_step_that_ci_does_not_exercise(dockerfile):
    assert install_step_problems(dockerfile) == []


@pytest.mark.parametrize("bad", [
    "RUN pip install selenium",
    "RUN mamba install --yes openjdk=25",
    "RUN wget https://example.org/jdk.tar.gz",
    "RUN apt-get update && apt-get install -y chromium",
    "RUN curl -fsSL https://example.org/install.sh | bash",
    "RUN ./course lab",
])
def test_install_step_check_rejects_other_installers(bad):
    assert install_step_problems(bad)


def test_package_caches_are_cleaned_in_the_same_layer(dockerfile):
    assert cleanup_problems(dockerfile) == []
    assert cleanup_problems("RUN apt-get update && apt-get install -y fontconfig\n")
    assert cleanup_problems("RUN mamba env update -n base -f e.yml\n")


def test_fonts_for_headless_charts(dockerfile):
    installs = [shlex.split(c) for c in run_commands(dockerfile) if c.startswith("apt-get install")]
    pkgs = {w for c in installs for w in c[2:] if not w.startswith("-")}
    assert {"fontconfig", "fonts-dejavu-core"} <= pkgs


def test_maven_repository_is_shared_and_outside_home(dockerfile):
    repo = maven_repo(dockerfile)
    assert repo, "no -Dmaven.repo.local: every user would fill their own ~/.m2"
    assert repo.startswith("/opt/") and not repo.startswith("/home"), repo
    envs = " ".join(a for w, a in instructions(dockerfile) if w == "ENV")
    assert "MAVEN_OPTS=" in envs and repo in envs, "the repository must be set for every user (ENV MAVEN_OPTS)"
    assert re.search(rf"fix-permissions\s+{re.escape(str(Path(repo).parent))}", dockerfile), \
        "the notebook user's group must be able to write the shared repository"
    # Filled by the same commands CI runs, and proven to work offline.
    cmds = run_commands(dockerfile)
    assert any(c.startswith("mvn ") and "verify" in c for c in cmds)
    assert any("--offline" in c and "./course grade" in c for c in cmds), "no offline grading check"


def test_java_home_points_at_conda_forge_openjdk(dockerfile):
    envs = " ".join(a for w, a in instructions(dockerfile) if w == "ENV")
    assert 'JAVA_HOME="${CONDA_DIR}/lib/jvm"' in envs


def test_learner_copy_hook_is_installed(dockerfile):
    copies = [a for w, a in instructions(dockerfile) if w == "COPY"]
    assert any(a.split()[-2:] == ["deploy/docker/copy-course-to-work",
                                  "/usr/local/bin/before-notebook.d/50-copy-course-to-work"] for a in copies)
    assert os.access(HOOK, os.X_OK), "the hook must be executable (start.sh runs it, not sources it)"


def test_copied_sources_exist_and_are_not_docker_ignored(dockerfile):
    ignored = [l.strip() for l in (ROOT / ".dockerignore").read_text().splitlines() if l.strip() and not l.startswith("#")]
    for w, a in instructions(dockerfile):
        if w != "COPY":
            continue
        srcs = [s for s in a.split() if not s.startswith("--")][:-1]
        for s in srcs:
            assert (ROOT / s).exists(), f"COPY {s}: no such file"
            if s != ".":
                assert s.split("/")[0] not in ignored and s not in ignored, f"COPY {s} is in .dockerignore"
    # What the course needs in the image is not ignored; build outputs and the browser test are.
    for needed in ["course", "tools", "pom.xml", "notebooks", "kit", "grader", "exercises", "deploy"]:
        assert needed not in ignored
    assert "**/target" in ignored and ".git" in ignored


def test_repo2docker_requirements(dockerfile):
    """Binder builds this Dockerfile: uid 1000 (the base image's jovyan), HOME, jupyter on PATH, no root at the end."""
    ins = instructions(dockerfile)
    assert not any(w == "ENV" and re.search(r"\bHOME=", a) for w, a in ins), "keep the base image's HOME"
    assert not any(w == "ENV" and re.search(r"\bNB_UID=", a) for w, a in ins), "keep uid 1000"
    assert not any(w == "ENV" and re.search(r"(^|\s)PATH=", a) for w, a in ins), "keep $CONDA_DIR/bin (jupyter) on PATH"
    assert [a for w, a in ins if w == "WORKDIR"][-1] == '"${HOME}"'


# ------------------------------------------------------------------------------------------- environment.yml

def conda_specs() -> dict[str, str]:
    env = yaml.safe_load(ENV_YML.read_text())
    specs = {}
    for dep in env["dependencies"]:
        assert isinstance(dep, str), f"{dep!r}: pip sections are not allowed (conda-forge only)"
        m = re.match(r"^([A-Za-z0-9_.-]+)\s*(.*)$", dep)
        specs[m.group(1)] = m.group(2)
    return specs


def test_environment_is_conda_forge_only_with_major_pins():
    env = yaml.safe_load(ENV_YML.read_text())
    assert env["channels"] == ["conda-forge"]
    specs = conda_specs()
    for name, spec in specs.items():
        assert re.match(r"^(=\d+(\.\d+)?|>=[\d.]+,<\d+)$", spec), f"{name}{spec}: pin the major version"
    assert specs["jupyterlab"] == "=4"
    assert specs["openjdk"] == "=25"
    for needed in ["maven", "nbclient", "nbconvert", "pytest", "python", "notebook"]:
        assert needed in specs, f"environment.yml lacks {needed}"


def test_environment_python_matches_the_base_image():
    # The base image pins Python 3.13 (conda-meta/pinned); asking for another would make mamba fail.
    assert conda_specs()["python"] == "=3.13"


# ------------------------------------------------------------------------------------------- JupyterHub values

def size_in_gib(v) -> float:
    m = re.fullmatch(r"([\d.]+)\s*(G|Gi|M|Mi)?", str(v))
    assert m, v
    n, unit = float(m.group(1)), m.group(2) or ""
    return {"G": 1e9 / 2**30, "Gi": 1.0, "M": 1e6 / 2**30, "Mi": 1 / 1024, "": 1 / 2**30}[unit] * n


def kernel_heap_gib() -> float:
    xmx = [o for o in kernelspec.JVM_OPTIONS if o.startswith("-Xmx")]
    assert xmx, "the kernel has no -Xmx"
    m = re.fullmatch(r"-Xmx(\d+)([gGmM])", xmx[0])
    return int(m.group(1)) * (1.0 if m.group(2) in "gG" else 1 / 1024)


def test_jupyterhub_values_use_the_image_with_sized_resources():
    v = yaml.safe_load(VALUES.read_text())["singleuser"]
    assert v["image"]["name"].endswith("/" + IMAGE)
    assert v["image"]["tag"] and v["image"]["tag"] != "latest"
    mem, cpu = v["memory"], v["cpu"]
    assert size_in_gib(mem["guarantee"]) <= size_in_gib(mem["limit"])
    assert float(cpu["guarantee"]) <= float(cpu["limit"])
    # The limit must hold the kernel's whole heap plus the JVM's non-heap memory and the server,
    # so that a learner meets Java's OutOfMemoryError, not a silent pod kill.
    assert size_in_gib(mem["limit"]) >= kernel_heap_gib() + 0.5, (mem["limit"], kernel_heap_gib())
    # The guarantee holds notebook 01's measured 1.19 GB kernel (1M parked virtual threads).
    assert size_in_gib(mem["guarantee"]) >= 1.19 * 1e9 / 2**30
    assert v["storage"]["homeMountPath"] == "/home/jovyan"
    assert v["defaultUrl"].startswith("/lab/tree/work/vthreads-course/notebooks/")
    assert (ROOT / "notebooks").exists()
    assert "cmd" not in v, "keep jupyterhub-singleuser behind the image's entrypoint, which runs the start hook"


def test_values_explain_the_memory_figure():
    text = VALUES.read_text()
    assert "1,000,000 virtual threads" in text and "-Xmx3g" in text
    assert f"-Xmx{int(kernel_heap_gib())}g" in text, "values.yaml quotes a heap size the kernel no longer has"


# ------------------------------------------------------------------------------------------- the start hook

def run_hook(src: Path, dest: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, VTHREADS_COURSE=str(src), VTHREADS_COURSE_WORK=str(dest))
    return subprocess.run([str(HOOK)], env=env, capture_output=True, text=True, timeout=60)


def test_hook_copies_the_course_once_and_keeps_the_learners_work(tmp_path):
    src = tmp_path / "opt" / "vthreads-course"
    (src / "exercises" / "01").mkdir(parents=True)
    (src / "course").write_text("#!/bin/sh\n")
    (src / "course").chmod(0o755)
    (src / "exercises" / "01" / "Stub.java").write_text("class Stub {}\n")
    os.utime(src / "exercises" / "01" / "Stub.java", (1_000_000_000, 1_000_000_000))
    dest = tmp_path / "home" / "work" / "vthreads-course"

    r = run_hook(src, dest)
    assert r.returncode == 0, r.stderr
    copied = dest / "exercises" / "01" / "Stub.java"
    assert copied.read_text() == "class Stub {}\n"
    assert copied.stat().st_mtime == 1_000_000_000, "times are kept, so the copy's build stays up to date"
    assert os.access(dest / "course", os.X_OK)
    assert not [p for p in dest.parent.iterdir() if p.name.startswith(".vthreads-course")], "temporary folder left"

    # The learner edits; the image is updated; the container restarts: their work stays.
    copied.write_text("class Stub { int answer = 42; }\n")
    (src / "exercises" / "01" / "Stub.java").write_text("class Stub { /* new */ }\n")
    r = run_hook(src, dest)
    assert r.returncode == 0, r.stderr
    assert "keeping your copy" in r.stdout
    assert copied.read_text() == "class Stub { int answer = 42; }\n"


def test_hook_fails_clearly_without_a_course(tmp_path):
    r = run_hook(tmp_path / "nothing", tmp_path / "work" / "vthreads-course")
    assert r.returncode != 0 and "no course" in r.stderr
    assert not (tmp_path / "work" / "vthreads-course").exists()


# ------------------------------------------------------------------------------------------- README

def docker_section() -> str:
    text = README.read_text()
    m = re.search(r"^## Run it with Docker\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, "README.md has no '## Run it with Docker' section"
    return m.group(1)


def test_readme_docker_section_matches_the_image():
    s = docker_section()
    assert f"docker build -t {IMAGE} ." in s
    runs = [l.strip() for l in s.splitlines() if l.strip().startswith("docker run")]
    assert runs, "no docker run line"
    run = runs[0]
    assert "-p 8888:8888" in run and run.endswith(IMAGE)
    assert re.search(r"-v \S+:/home/jovyan/work\b", run), "the work volume must be mounted on /home/jovyan/work"
    assert "./course lab" in s and "./course test" in s
    assert "mybinder.org/v2/gh/" in s
    assert token_problems(s) == []
