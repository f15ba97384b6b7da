#!/usr/bin/env python3
"""``./course``: set up, serve, run and test the Java virtual threads course.

Only the standard library is needed for ``setup``; ``lab``, ``run`` and ``test`` need Jupyter, which this
script installs from Debian's packages when it runs as root on Debian or Ubuntu.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
sys.path.insert(0, str(TOOLS))

import kernelspec  # noqa: E402

# Written by the Maven build: the course's version (from the parent pom) and the kernel's class path.
BUILD_INFO = ROOT / "target" / "build-info.properties"
KERNEL_CLASSPATH = ROOT / "kernel" / "target" / "runtime.classpath"
DEBIAN_PACKAGES = ["jupyter-notebook", "python3-nbclient", "python3-nbconvert", "jupyter-nbconvert",
                   "jupyter-client", "python3-ipykernel", "python3-pytest", "fontconfig", "fonts-dejavu-core"]
JUPYTER_MODULES = ["nbclient", "nbconvert", "jupyter_client", "nbformat"]
MIN_JAVA = 25


def say(msg: str) -> None:
    print(f"[course] {msg}", flush=True)


def fail(msg: str, code: int = 2) -> "NoReturn":  # type: ignore[name-defined]
    print(f"[course] error: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


# ---------------------------------------------------------------------------------------------- JDK and Maven

def java_major(home: Path) -> int | None:
    """The feature version of the JDK at ``home`` (from its ``release`` file), or None if it is no JDK."""
    release = home / "release"
    if not (home / "bin" / "java").exists() or not release.exists():
        return None
    m = re.search(r'^JAVA_VERSION="(\d+)', release.read_text(errors="replace"), re.M)
    return int(m.group(1)) if m else None


def candidate_jdks() -> list[Path]:
    cands: list[Path] = []
    if os.environ.get("JAVA_HOME"):
        cands.append(Path(os.environ["JAVA_HOME"]))
    for var in ("CONDA_PREFIX", "CONDA_DIR"):
        if os.environ.get(var):
            cands += [Path(os.environ[var]) / "lib" / "jvm", Path(os.environ[var])]
    patterns = ["/usr/lib/jvm/*", "/opt/java/*", "/opt/jdk*", "/opt/*jdk*", "/usr/local/lib/jvm/*",
                os.path.expanduser("~/.sdkman/candidates/java/*"), os.path.expanduser("~/.jdks/*"),
                "/Library/Java/JavaVirtualMachines/*/Contents/Home", "/opt/conda/lib/jvm"]
    for pat in patterns:
        cands += sorted((Path(p) for p in glob.glob(pat)), reverse=True)
    on_path = shutil.which("java")
    if on_path:
        cands.append(Path(on_path).resolve().parent.parent)
    return cands


def find_jdk() -> Path:
    """JAVA_HOME first, then the usual install folders; the first JDK of version 25 or newer wins."""
    seen = set()
    for c in candidate_jdks():
        c = c.resolve()
        if c in seen:
            continue
        seen.add(c)
        v = java_major(c)
        if v is not None and v >= MIN_JAVA:
            return c
    fail(f"no JDK {MIN_JAVA} or newer found (looked at JAVA_HOME, /usr/lib/jvm, /opt/java, ~/.sdkman, conda).\n"
         f"  Install one, for example Eclipse Temurin {MIN_JAVA} from https://adoptium.net, or\n"
         f"  `sdk install java {MIN_JAVA}-tem` with SDKMAN, then set JAVA_HOME to it and run ./course setup again.")


def java_env(jdk: Path) -> dict:
    env = dict(os.environ)
    env["JAVA_HOME"] = str(jdk)
    env["PATH"] = f"{jdk / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    # Maven's own Guava calls sun.misc.Unsafe, which JDK 24+ warns about on every run: allow it quietly.
    if "unsafe-memory-access" not in env.get("MAVEN_OPTS", ""):
        env["MAVEN_OPTS"] = (env.get("MAVEN_OPTS", "") + " --sun-misc-unsafe-memory-access=allow").strip()
    return env


def is_debian_root() -> bool:
    return os.geteuid() == 0 and Path("/etc/debian_version").exists() and shutil.which("apt-get") is not None


def apt_install(packages: list[str]) -> None:
    say("installing Debian packages: " + " ".join(packages))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    r = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout, file=sys.stderr)
        fail("apt-get install failed (see above)")


def find_maven() -> str:
    """$COURSE_MAVEN, else the Maven on PATH (the Docker image's, which works offline), else ./mvnw, which
    downloads the Maven named in .mvn/wrapper/maven-wrapper.properties from Maven Central once."""
    if os.environ.get("COURSE_MAVEN"):
        return os.environ["COURSE_MAVEN"]
    mvn = shutil.which("mvn")
    if mvn:
        return mvn
    wrapper = ROOT / ("mvnw.cmd" if os.name == "nt" else "mvnw")
    if wrapper.exists():
        return str(wrapper)
    if is_debian_root():
        apt_install(["maven"])
        mvn = shutil.which("mvn")
        if mvn:
            return mvn
    fail("Maven (mvn) is not on PATH. Install it: `sudo apt-get install maven` (Debian/Ubuntu), "
         "`brew install maven` (macOS), or `conda install -c conda-forge maven`.")


# ---------------------------------------------------------------------------------------------- build and setup

def source_fingerprint() -> str:
    """A hash of the contents of every file the Maven build reads, so that an unchanged tree skips the build."""
    h = hashlib.sha256()
    files = [ROOT / "pom.xml", *sorted((ROOT / "src" / "build").glob("*"))]
    for module in ["kit", "kernel", "grader"]:
        base = ROOT / module
        if base.exists():
            files += [p for p in base.rglob("*") if p.is_file() and "target" not in p.relative_to(ROOT).parts]
    # Learner code is compiled by the grader itself, and the grader embeds the course's pristine tests when
    # it is built: a learner's edit must neither trigger a rebuild nor reach those copies. Only the exercise
    # poms feed this build. (After changing an exercise's tests on purpose: ./course setup --rebuild.)
    files += sorted((ROOT / "exercises").glob("**/pom.xml"))
    # Contents, not file times: an image layer keeps contents but cuts times to whole seconds (and a copy
    # or a checkout may change them), and a pulled, already built course must not build again.
    for p in sorted(files):
        h.update(f"{p.relative_to(ROOT).as_posix()}\0{hashlib.sha256(p.read_bytes()).hexdigest()}\n".encode())
    return h.hexdigest()


def version() -> str | None:
    """The course's version, as the last Maven build wrote it (None before the first build)."""
    try:
        text = BUILD_INFO.read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r"^version=(\S+)$", text, re.M)
    return m.group(1) if m else None


def module_jar(module: str, artifact: str) -> Path:
    return ROOT / module / "target" / f"{artifact}-{version()}.jar"


def runtime_jars(module: str, artifact: str) -> list[Path]:
    """A module's jar, then its run-time class path as Maven wrote it (MODULE/target/runtime.classpath, jars in
    MODULE/target/lib), in Maven's order; empty before the first build."""
    listing = ROOT / module / "target" / "runtime.classpath"
    if not listing.exists():
        return []
    return [module_jar(module, artifact)] + [ROOT / module / "target" / e for e in classpath_entries(listing)]


def classpath_entries(listing: Path) -> list[str]:
    """The entries of a class path file that Maven's dependency:build-classpath wrote (lib/a.jar:lib/b.jar:…)."""
    return [e for e in listing.read_text(encoding="utf-8").strip().split(os.pathsep) if e]


def kernel_jars() -> list[Path]:
    """The kernel's class path: its jar, the kit, the grader, their dependencies, rapaio's shaded jar last."""
    return runtime_jars("kernel", "course-kernel")


def cell_jar_names() -> list[str]:
    """The jars a notebook cell compiles against, by file name, as Maven wrote them (kernel/target/cell.classpath:
    see kernel/pom.xml); empty (all of the kernel's jars) before a build that writes it."""
    listing = ROOT / "kernel" / "target" / "cell.classpath"
    return [Path(e).name for e in classpath_entries(listing)] if listing.exists() else []


def build(jdk: Path, force: bool = False) -> None:
    stamp = ROOT / "target" / "course-build.stamp"
    fp = source_fingerprint()
    if (not force and stamp.exists() and stamp.read_text() == fp and version()
            and all(j.exists() for m in [("kit", "course-kit"), ("grader", "course-grader"), ("kernel", "course-kernel")]
                    for j in runtime_jars(*m) or [ROOT / m[0] / "target" / "runtime.classpath"])):
        say("build is up to date")
        return
    mvn = find_maven()
    say("building the course kit, kernel and grader with Maven (first run downloads dependencies)…")
    t0 = time.monotonic()
    r = subprocess.run([mvn, "-q", "-B", "-DskipTests", "-Dmdep.analyze.skip", "install"], cwd=ROOT,
                       env=java_env(jdk))
    if r.returncode != 0:
        fail("the Maven build failed (see above)")
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(fp)
    say(f"built in {time.monotonic() - t0:.1f} s")


def user_kernels_dir() -> Path:
    if os.environ.get("JUPYTER_DATA_DIR"):
        return Path(os.environ["JUPYTER_DATA_DIR"]) / "kernels"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Jupyter" / "kernels"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "jupyter" / "kernels"


def jupyter_kernel_dirs() -> tuple[list[Path], list[Path]] | None:
    """The folders Jupyter searches for kernelspecs, in its order, and the user's own ones, as the Python that
    runs Jupyter sees them (its prefix, e.g. $CONDA_DIR, is one of them); None where no Python has Jupyter.
    The user's own folders are Jupyter's data folder and Python's user site (~/.local/share/jupyter)."""
    code = ("import json, site; from jupyter_core.paths import jupyter_path, jupyter_data_dir; "
            "print(json.dumps([jupyter_path('kernels'), [jupyter_data_dir(), site.getuserbase() + '/share/jupyter']]))")
    for py in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        if not py:
            continue
        try:
            r = subprocess.run([py, "-c", code], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            dirs, own = json.loads(r.stdout)
            return [Path(d) for d in dirs], [Path(d) / "kernels" for d in own]
    return None


def installed_kernelspec() -> tuple[Path | None, list[Path]]:
    """A kernelspec of the course's name in a system or prefix folder (the image's $CONDA_DIR/share/jupyter),
    or None; and the user's own kernelspec folders (the first is where `./course setup` writes)."""
    found = jupyter_kernel_dirs()
    if found is None:
        return None, [user_kernels_dir()]
    dirs, own = found
    resolved = [d.resolve() for d in own]
    for d in dirs:
        spec = d / kernelspec.NAME
        if (spec / "kernel.json").is_file() and d.resolve() not in resolved:
            return spec, own
    return None, own


def use_installed_kernelspec(installed: Path, own: list[Path], jars: list[Path]) -> None:
    """The course's kernel is already installed outside $HOME: use it, and let no user copy hide it."""
    for copy in dict.fromkeys(d / kernelspec.NAME for d in own):
        if not copy.exists():
            continue
        if kernelspec.is_course_kernelspec(copy):
            shutil.rmtree(copy)
            say(f"removed the older user copy of the kernel, {copy}: Jupyter looks in your own folder first, "
                f"so it hid the course's kernel in {installed}, which is used from now on")
        else:
            say(f"warning: {copy} has the course kernel's name but was not written by ./course; it hides the "
                f"course's kernel in {installed}. Remove it with: rm -r '{copy}'")
    say(f"kernel '{kernelspec.NAME}' installed in {installed}: using it (no user copy written)")
    if not kernelspec.has_jars(installed, jars):
        say(f"note: that kernel runs other jars than this copy's build; `./course setup --prefix "
            f"{installed.parents[3]}` updates it")


def aot_python() -> str | None:
    """A Python with jupyter_client, to drive the kernel's AOT training run; None when there is none, or
    when COURSE_AOT=off."""
    if os.environ.get("COURSE_AOT", "").lower() in ("off", "0", "no", "false"):
        return None
    for py in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        if py and has_modules(py, ["jupyter_client"]):
            return py
    return None


def cmd_setup(args) -> int:
    jdk = find_jdk()
    say(f"JDK {java_major(jdk)} at {jdk}")
    build(jdk, force=getattr(args, "rebuild", False))
    jars = kernel_jars()
    if not jars:
        fail("the build produced no jars")
    if args.prefix:
        kernels = Path(args.prefix).resolve() / "share" / "jupyter" / "kernels"
    else:
        # One kernelspec wins: one installed with the course (the image's, in $CONDA_DIR) is used as it is;
        # a user copy on the home volume would hide it and outlive image updates.
        installed, own = installed_kernelspec()
        if installed is not None:
            use_installed_kernelspec(installed, own, jars)
            return 0
        kernels = own[0]
    train_with = aot_python()
    cells = cell_jar_names()
    spec_dir, changed = kernelspec.write(kernels, jdk / "bin" / "java", jars, ROOT, aot=train_with is not None,
                                         cell_jar_names=cells)
    if train_with and not (spec_dir / kernelspec.AOT_CACHE).exists():
        say("training the kernel's ahead-of-time cache (one run of a few cells)…")
        r = subprocess.run([train_with, str(TOOLS / "kernel_aot.py"), str(spec_dir)])
        if r.returncode != 0:
            kernelspec.write(kernels, jdk / "bin" / "java", jars, ROOT, aot=False, cell_jar_names=cells)
            say("warning: no AOT cache (see above); the kernel starts without it, a little slower")
    say(f"kernel '{kernelspec.NAME}' ({kernelspec.DISPLAY_NAME}) {'written to' if changed else 'up to date in'} {spec_dir}")
    return 0


# ---------------------------------------------------------------------------------------------- Jupyter

def has_modules(python: str, modules: list[str]) -> bool:
    code = "import importlib.util,sys; sys.exit(0 if all(importlib.util.find_spec(m) for m in sys.argv[1:]) else 1)"
    try:
        return subprocess.run([python, "-c", code, *modules], capture_output=True).returncode == 0
    except OSError:
        return False


def jupyter_python(modules: list[str] = JUPYTER_MODULES) -> str:
    """A Python interpreter that has Jupyter's modules: this one, the one on PATH, or Debian's; else install them."""
    cands = [sys.executable, shutil.which("python3") or "", "/usr/bin/python3"]
    for c in cands:
        if c and has_modules(c, modules):
            return c
    if is_debian_root():
        apt_install(DEBIAN_PACKAGES)
        if has_modules("/usr/bin/python3", modules):
            return "/usr/bin/python3"
    fail("Jupyter is missing. On Debian/Ubuntu: `sudo apt-get install " + " ".join(DEBIAN_PACKAGES) + "`;\n"
         "  elsewhere: `pip install jupyterlab nbclient nbconvert pytest` (or use the Docker image, see README.md).")


def ensure_fonts() -> None:
    if sys.platform.startswith("linux") and not shutil.which("fc-list") and is_debian_root():
        apt_install(["fontconfig", "fonts-dejavu-core"])


def cmd_lab(args) -> int:
    cmd_setup(argparse.Namespace(prefix=None))
    labs = [c for c in (sys.executable, shutil.which("python3") or "") if c and has_modules(c, ["jupyterlab"])]
    py = labs[0] if labs else jupyter_python(JUPYTER_MODULES + ["notebook"])
    ensure_fonts()
    lab = bool(labs)
    token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
    if not token:
        fail("an empty token is not allowed")
    app = "lab" if lab else "notebook"
    cls = "ServerApp" if lab else "NotebookApp"
    cmd = [py, "-m", "jupyterlab" if lab else "notebook", f"--{cls}.ip={args.ip}", f"--{cls}.port={args.port}",
           f"--{cls}.port_retries=0", f"--{cls}.token={token}", f"--{cls}.open_browser=False",
           f"--{cls}.notebook_dir={ROOT / 'notebooks'}" if not lab else f"--ServerApp.root_dir={ROOT / 'notebooks'}"]
    if os.geteuid() == 0:  # Jupyter refuses root without this (containers, CI); the token still guards it
        cmd.append(f"--{cls}.allow_root=True")
    url = f"http://{args.ip}:{args.port}/{'lab' if lab else 'tree'}?token={token}"
    say(f"starting {'JupyterLab' if lab else 'classic Notebook'} on notebooks/ — open {url}")
    env = dict(os.environ, JUPYTER_TOKEN=token)
    os.execve(py, cmd, env) if args.exec else subprocess.run(cmd, env=env)
    return 0


# ---------------------------------------------------------------------------------------------- run and test

def notebook_command(nb: Path, scale: str, timeout: int | None = None, py: str | None = None) -> list[str]:
    """The runner's command for ``nb``; ``py`` is a Python with Jupyter's modules where the caller found one (and
    the fonts) already: otherwise each command looks for one again, a child Python per candidate."""
    if py is None:
        py = jupyter_python()
        ensure_fonts()
    cmd = [py, str(TOOLS / "run_notebook.py"), str(nb), "--out", str(ROOT / "target" / "notebooks"),
           "--scale", scale]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    return cmd


def run_notebook(nb: Path, scale: str, timeout: int | None = None) -> int:
    return subprocess.run(notebook_command(nb, scale, timeout)).returncode


def runs_alone(nb: Path) -> bool:
    """A notebook whose metadata says ``"course": {"runs_alone": true}``: what it times keeps every core busy
    (notebook 04's CPU-bound tasks, notebook 08's server and its load), so `./course test` runs nothing beside it."""
    try:
        meta = json.loads(nb.read_text(encoding="utf-8")).get("metadata", {})
    except (OSError, ValueError):
        return False
    return bool(meta.get("course", {}).get("runs_alone"))


def cmd_run(args) -> int:
    nb = Path(args.notebook)
    if not nb.exists():
        fail(f"no notebook at {nb}")
    cmd_setup(argparse.Namespace(prefix=None))
    return run_notebook(nb.resolve(), args.scale, args.timeout)


def surefire_counts() -> tuple[int, int, int]:
    passed = failed = skipped = 0
    for rep in [*ROOT.glob("**/target/surefire-reports/TEST-*.xml"), *ROOT.glob("**/target/failsafe-reports/TEST-*.xml")]:
        try:
            t = ET.parse(rep).getroot()
        except ET.ParseError:
            continue
        n, f, e, s = (int(t.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        passed += n - f - e - s
        failed += f + e
        skipped += s
    return passed, failed, skipped


def junit_xml_counts(path: Path) -> tuple[int, int, int]:
    if not path.exists():
        return 0, 0, 0
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    p = f = s = 0
    for t in suites:
        n, fl, e, sk = (int(t.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        p += n - fl - e - sk
        f += fl + e
        s += sk
    return p, f, s


def audit_notebook(path: Path, graded: dict | None) -> list[str]:
    """What an executed notebook lacks of the course's standard, as sentences (empty when it has it all).

    Notebook 00 needs the Java version, a chart and a table; the lessons need two charts, a table and a ✔ check,
    and their grade cell's score must be the one ``./course grade`` gives for the same exercise; the appendix
    (9x) needs the charts, table and checks but grades nothing."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    pngs = tables = checks = 0
    texts = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            pngs += "image/png" in data
            html = "".join(data.get("text/html", "")) if isinstance(data.get("text/html"), list) else data.get("text/html", "")
            tables += "<table" in html
            text = "".join(out.get("text", "")) if isinstance(out.get("text"), list) else out.get("text", "")
            texts.append(text)
            checks += sum(1 for line in text.splitlines() if line.lstrip().startswith("\u2714"))
    problems = []
    is_welcome = path.name.startswith("00")
    is_appendix = path.name.startswith("9")
    need_png = 1 if is_welcome else 2
    if pngs < need_png:
        problems.append(f"{pngs} image/png charts, at least {need_png} expected")
    if tables < 1:
        problems.append("no HTML <table> output")
    if is_welcome:
        m = re.search(r"Java (\d+)", "".join(texts))
        if not m or int(m.group(1)) < MIN_JAVA:
            problems.append(f"no printed Java version of {MIN_JAVA} or newer")
    elif checks < 1:
        problems.append("no \u2714 check of a measurement against a prediction")
    # A ⚠ line: a timing check missed in every try while the machine was busy. In a notebook that is where it
    # stops judging; here, where two notebooks run at once by design, every check must still hit within its tries.
    warned = [line.strip() for text in texts for line in text.splitlines() if line.lstrip().startswith("\u26a0")]
    problems += [f"a timing check missed in every try (run `./course test` again on a quieter machine): {w[:300]}"
                 for w in warned]
    m = re.search(r"^(\d\d-[a-z0-9-]+): (\d+)/(\d+) points", "".join(texts), re.M)
    if not is_welcome and not is_appendix:
        if not m:
            problems.append("its grade cell printed no score")
        elif graded is not None:
            ex, got, of = m.group(1), int(m.group(2)), int(m.group(3))
            tests = [t for t in graded.get("tests", []) if str(t.get("name", "")).startswith(ex)]
            want = (sum(t["score"] for t in tests), sum(t["max_score"] for t in tests))
            if (got, of) != want:
                problems.append(f"its grade cell gave {got}/{of} for {ex}, ./course grade gives {want[0]}/{want[1]}")
    return problems


def cmd_test(args) -> int:
    t_start = time.monotonic()
    jdk = find_jdk()
    env = java_env(jdk)
    py = jupyter_python(JUPYTER_MODULES + ["pytest"])  # installs Jupyter first on a fresh Debian machine
    ensure_fonts()
    t_step = time.monotonic()
    cmd_setup(argparse.Namespace(prefix=None))
    timings: list[tuple[str, float]] = [("setup (build, kernelspec)", time.monotonic() - t_step)]
    results: list[tuple[str, int, int, int]] = []  # step, passed, failed, skipped
    failures: list[str] = []

    def step(name: str, ok: bool, counts: tuple[int, int, int] | None = None, started: float | None = None) -> None:
        p, f, s = counts if counts else ((1, 0, 0) if ok else (0, 1, 0))
        if not ok and f == 0:
            f = 1
        results.append((name, p, f, s))
        if not ok:
            failures.append(name)
        took = ""
        if started is not None:
            timings.append((name, time.monotonic() - started))
            took = f" in {timings[-1][1]:.0f} s"
        say(f"{'PASS' if ok else 'FAIL'} {name} ({p} passed, {f} failed{f', {s} skipped' if s else ''}){took}")

    # 1. Every module's unit tests (Surefire) and integration tests (Failsafe: forked JVMs, whole gradings, the
    # grader's golden results.json of every exercise's stubs, solution and a mutant), and dependency:analyze.
    for rep in [*ROOT.glob("**/target/surefire-reports"), *ROOT.glob("**/target/failsafe-reports")]:
        shutil.rmtree(rep, ignore_errors=True)
    say("mvn verify …")
    t_step = time.monotonic()
    r = subprocess.run([find_maven(), "-B", "-q", "verify"], cwd=ROOT, env=env)
    step("mvn verify", r.returncode == 0, surefire_counts(), t_step)

    # 2. One format: `mvn spotless:apply` (and the same with -f e2e/pom.xml) formats what this finds. It only reads
    # the sources, so it runs while pytest does (step 3), as does the grade of the stubs that the audits use (4b).
    def formatter() -> tuple[bool, float]:
        t0 = time.monotonic()
        r = subprocess.run([find_maven(), "-B", "-q", "spotless:check"], cwd=ROOT, env=env)
        r_e2e = subprocess.run([find_maven(), "-B", "-q", "-f", str(ROOT / "e2e" / "pom.xml"), "spotless:check"],
                               cwd=ROOT, env=env) if (ROOT / "e2e" / "pom.xml").exists() else r
        return r.returncode == 0 and r_e2e.returncode == 0, time.monotonic() - t0

    stubs = ROOT / "target" / "grade-check.json"

    def grade_stubs() -> dict | None:
        stubs.unlink(missing_ok=True)
        r = subprocess.run([sys.executable, str(TOOLS / "course.py"), "grade", "--json", str(stubs)],
                           stdout=subprocess.DEVNULL)
        return json.loads(stubs.read_text()) if r.returncode == 0 and stubs.exists() else None

    background = concurrent.futures.ThreadPoolExecutor(2)
    formatted = background.submit(formatter)
    stubs_graded = background.submit(grade_stubs)
    say("formatter (spotless:check) and the grade of the stubs for the audits: running alongside pytest …")

    # 3. Python-level tests: the notebook runner, the kernel, the kernelspec, the Docker files. With two cores or
    # more, two pytest processes at once: the tests that start kernels, and the rest (builds of copies of the
    # course, the image's steps, gradings). Each mostly waits for JVMs and Maven; every test has its own folders.
    tests = sorted((TOOLS / "tests").glob("test_*.py"))
    if tests:
        say("pytest tools/tests …")
        t_step = time.monotonic()
        shards = [("kernel", "kernel"), ("rest", "not kernel")] if (os.cpu_count() or 1) >= 2 else [("all", None)]
        runs = []
        for name, marker in shards:
            xml = ROOT / "target" / f"pytest-{name}.xml"
            log = ROOT / "target" / f"pytest-{name}.log"
            xml.unlink(missing_ok=True)
            cmd = [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=8", f"--junitxml={xml}"]
            cmd += ["-m", marker] if marker else []
            out = open(log, "w") if len(shards) > 1 else None
            runs.append((marker, xml, log, out,
                         subprocess.Popen(cmd + [str(TOOLS / "tests")], cwd=ROOT, env=env, stdout=out,
                                          stderr=subprocess.STDOUT if out else None)))
        ok, counts = True, [0, 0, 0]
        for marker, xml, log, out, proc in runs:
            rc = proc.wait()
            if out:
                out.close()
                say(f"pytest -m \"{marker}\" ({log.relative_to(ROOT)}):")
                print(log.read_text(encoding="utf-8", errors="replace"), end="", flush=True)
            ok = ok and (rc == 0 or (rc == 5 and len(runs) > 1))  # 5: this shard selected no test
            counts = [a + b for a, b in zip(counts, junit_xml_counts(xml))]
        step("pytest tools/tests", ok, tuple(counts), t_step)
    format_ok, format_took = formatted.result()
    step("spotless:check", format_ok)
    timings.append(("spotless:check (alongside pytest)", format_took))

    # 4. Every notebook, headless, at the quick scale, and (5) a real browser against ./course lab. With two cores
    # or more, two at a time: every timing check runs again on a miss, and a check that missed in every try fails
    # the audit below, busy or not. The notebooks marked `runs_alone` (what they time keeps every core busy) run
    # first, one at a time; then the others, later ones first (they are the longer ones), then the browser:
    # Debian's Chromium and its driver, never a downloaded one.
    browser = None
    if (ROOT / "e2e" / "pom.xml").exists():
        if not (shutil.which("chromium") and shutil.which("chromedriver")) and is_debian_root():
            apt_install(["chromium", "chromium-driver"])
        if shutil.which("chromium") and shutil.which("chromedriver"):
            browser = [find_maven(), "-B", "-q", "-f", str(ROOT / "e2e" / "pom.xml"), "verify"]
        else:
            say("SKIP browser test: it needs chromium and chromedriver on PATH "
                "(Debian/Ubuntu: sudo apt-get install chromium chromium-driver)")
            results.append(("browser test", 0, 0, 1))
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"), reverse=True)
    alone = [nb for nb in notebooks if runs_alone(nb)]
    jobs = [(f"notebook {nb.name}", notebook_command(nb, "quick", py=py), nb) for nb in notebooks if nb not in alone]
    if browser:
        jobs.append(("browser test", browser, None))
    at_once = 2 if (os.cpu_count() or 1) >= 2 else 1
    say(f"notebooks (quick){' and the browser test' if browser else ''}, {at_once} at a time"
        + (f" ({', '.join(nb.name for nb in alone)} alone first)" if alone else "") + " …")
    nb_start = time.monotonic()

    def run_job(cmd: list[str]) -> tuple[int, str, float]:
        t0 = time.monotonic()
        r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           encoding="utf-8", errors="replace")
        return r.returncode, r.stdout, time.monotonic() - t0

    executed = []

    def finished(name: str, nb: Path | None, rc: int, out: str, took: float) -> None:
        say(f"{name} …")
        print(out, end="" if out.endswith("\n") or not out else "\n", flush=True)
        step(name, rc == 0, started=time.monotonic() - took)
        if nb is not None and rc == 0:
            executed.append(ROOT / "target" / "notebooks" / nb.name)

    for nb in alone:
        finished(f"notebook {nb.name} (alone)", nb, *run_job(notebook_command(nb, "quick", py=py)))
    with concurrent.futures.ThreadPoolExecutor(at_once) as pool:
        running = {pool.submit(run_job, cmd): (name, nb) for name, cmd, nb in jobs}
        for done in concurrent.futures.as_completed(running):  # each job's output as one block, as it ends
            finished(*running[done], *done.result())
    executed.sort()
    say(f"notebooks{' and the browser test' if browser else ''} took {time.monotonic() - nb_start:.0f} s")

    # 4b. What every executed notebook must show, and its grade cell agreeing with ./course grade.
    graded = stubs_graded.result()
    background.shutdown()
    if executed:
        t_step = time.monotonic()
        for nb in executed:
            problems = audit_notebook(nb, graded)
            for pr in problems:
                print(f"✘ {nb.name}: {pr}", file=sys.stderr, flush=True)
            step(f"audit {nb.name}", not problems)
        timings.append(("audits (each notebook's outputs)", time.monotonic() - t_step))

    # 6. The course as a book, from the notebooks just executed (no second run; tools/book.py refuses a page that
    # shows a solution or a self-check answer), read in headless Chromium: pages, links, images (e2e BookIT).
    if browser and len(executed) == len(notebooks):
        t_step = time.monotonic()
        site = ROOT / "target" / "book"
        r = subprocess.run([py, str(TOOLS / "book.py"), "--scale", "quick", "--executed",
                            str(ROOT / "target" / "notebooks"), "--out", str(site)], cwd=ROOT, env=env)
        if r.returncode == 0:
            r = subprocess.run(browser + ["-Dit.test=BookIT", f"-Dbook.dir={site}"], cwd=ROOT, env=env)
        step("book (from the executed notebooks) in a browser", r.returncode == 0, started=t_step)
    else:
        say("SKIP book: it needs the browser and every notebook executed")
        results.append(("book in a browser", 0, 0, 1))

    passed = sum(r[1] for r in results)
    failed = sum(r[2] for r in results)
    skipped = sum(r[3] for r in results)
    say("time per step:")
    for name, took in timings:
        say(f"  {took:6.0f} s  {name}")
    say(f"took {time.monotonic() - t_start:.0f} s")
    if failures:
        say("failed steps: " + ", ".join(failures))
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""), flush=True)
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------- Java entry points

def java_main(module: str, artifact: str, main_class: str, argv: list[str], jvm_options: list[str] = ()) -> int:
    jdk = find_jdk()
    build(jdk)  # the jars only: grading and reproducing need no kernelspec
    cp = os.pathsep.join(str(j) for j in runtime_jars(module, artifact))
    return subprocess.run([str(jdk / "bin" / "java"), *jvm_options, "-ea", "--enable-preview",
                           "-Djava.awt.headless=true", "--sun-misc-unsafe-memory-access=allow",
                           "-cp", cp, main_class, *argv], cwd=ROOT, env=java_env(jdk)).returncode


def cmd_bench(args, rest: list[str]) -> int:
    """Benchmarks print figures and assert nothing; `kernel` compares the course kernel with ipykernel,
    `mutation` gives PIT's mutation score of each exercise's tests."""
    if args.what == "mutation":
        import mutation_bench
        jdk = find_jdk()
        build(jdk)  # the kit, which the exercises' tests use, in Maven's local repository
        return mutation_bench.main(rest, find_maven(), java_env(jdk))
    cmd_setup(argparse.Namespace(prefix=None))
    py = jupyter_python()
    return subprocess.run([py, str(TOOLS / "kernel_bench.py"), *rest]).returncode


def cmd_reproduce(args, rest: list[str]) -> int:
    return java_main("kit", "course-kit", "course.kit.cli.Reproduce",
                     ["--scale", args.scale, "--out", str(Path(args.out).resolve()), *rest])


def cmd_grade(rest: list[str]) -> int:
    # The grader's own JVM compiles a few small sources and waits for test JVMs (which run with C1 too, see
    # ForkedTests): C2 never pays back in it. C1 alone graded the solutions in 9-10 s instead of 11 s, with
    # 15 s of CPU instead of 18 s, on two cores. `./course reproduce` measures, and keeps both compilers.
    return java_main("grader", "course-grader", "course.grader.GradeCli", rest, ["-XX:TieredStopAtLevel=1"])


def cmd_book(args) -> int:
    """The course as a static site (tools/book.py): every notebook executed with the solutions loaded, or
    --executed DIR, notebooks already executed; nbconvert with the course's template writes target/book/."""
    cmd_setup(argparse.Namespace(prefix=None))
    py = jupyter_python()
    ensure_fonts()
    cmd = [py, str(TOOLS / "book.py"), "--scale", args.scale, "--out", str(Path(args.out).resolve())]
    cmd += ["--executed", str(Path(args.executed).resolve())] if args.executed else []
    return subprocess.run(cmd, cwd=ROOT, env=java_env(find_jdk())).returncode


def cmd_progress(args) -> int:
    """Where the learner stands, per notebook: predictions, self-check, the exercise's last grade (tools/progress.py)."""
    import progress
    notebooks = Path(args.notebooks).resolve() if args.notebooks else None
    if notebooks is not None and not notebooks.is_dir():
        fail(f"no folder {notebooks}")
    print(progress.report(ROOT, notebooks), flush=True)
    return 0


def cmd_autograder(args) -> int:
    """Builds the Gradescope autograder zip (see tools/autograder.py and deploy/README.md)."""
    import autograder
    chosen = [e for e in (args.exercises or "").split(",") if e]
    try:
        out = autograder.build(ROOT, Path(args.out).resolve(), chosen, args.profile, args.leaderboard)
    except ValueError as e:
        fail(str(e))
    say(f"wrote {out} ({out.stat().st_size // 1024} KiB): upload it as the assignment's autograder on Gradescope")
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "grade":  # the grader parses its own options
        return cmd_grade(argv[1:])
    p = argparse.ArgumentParser(prog="./course", description="The Java virtual threads course.")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup", help="find JDK 25, build the kit, install the 'vthreads-java' Jupyter kernel")
    s.add_argument("--prefix", help="install the kernelspec into PREFIX/share/jupyter/kernels (Docker, conda)")
    s.add_argument("--rebuild", action="store_true", help="run the Maven build even if nothing changed")
    s = sub.add_parser("lab", help="start JupyterLab (or classic Notebook) on notebooks/")
    s.add_argument("--port", type=int, default=8888)
    s.add_argument("--ip", default="127.0.0.1")
    s.add_argument("--no-exec", dest="exec", action="store_false", help=argparse.SUPPRESS)
    s = sub.add_parser("run", help="execute one notebook headless; writes target/notebooks/NAME.{ipynb,html}")
    s.add_argument("notebook")
    s.add_argument("--scale", choices=["quick", "full"], default=os.environ.get("COURSE_SCALE", "full"))
    s.add_argument("--timeout", type=int, help="seconds per cell (default: 600 quick, 1800 full)")
    sub.add_parser("test", help="the whole test suite: mvn verify, grader, kernel tests, notebooks (quick)")
    s = sub.add_parser("reproduce", help="run every article experiment; writes target/reproduction.{md,csv}")
    s.add_argument("--scale", choices=["quick", "full"], default=os.environ.get("COURSE_SCALE", "full"))
    s.add_argument("--out", default=str(ROOT / "target"), help="folder for reproduction.md and .csv (default: target/)")
    sub.add_parser("grade", help="grade the exercises (./course grade --help for options)")
    s = sub.add_parser("bench", help="benchmarks that print figures: `bench kernel` (the kernel next to ipykernel),"
                                      " `bench mutation [NN-name …]` (PIT's mutation score of the exercises' tests)")
    s.add_argument("what", choices=["kernel", "mutation"])
    s = sub.add_parser("book", help="execute every notebook (solutions loaded) and write the course as a static"
                                     " site to target/book/ (or --out DIR)")
    s.add_argument("--scale", choices=["quick", "full"], default="full")
    s.add_argument("--out", default=str(ROOT / "target" / "book"))
    s.add_argument("--executed", help="build from a folder of notebooks already executed (no run)")
    s = sub.add_parser("progress", help="a table per notebook: predictions made, self-check answered right, the"
                                         " exercise's last grade (from the notebooks Jupyter saved)")
    s.add_argument("--notebooks", help="the folder of executed notebooks to read (default: notebooks/)")
    s = sub.add_parser("autograder", help="build a Gradescope autograder zip (setup.sh, run_autograder, the tests)")
    s.add_argument("--exercises", help="comma-separated exercises, for example 01-thread-cost,02-cafe (default: all)")
    s.add_argument("--out", default=str(ROOT / "target" / "autograder.zip"), help="the zip (default: target/autograder.zip)")
    s.add_argument("--profile", choices=["trainer", "learner"], default="trainer",
                   help="trainer (default) also runs the hidden tests in trainer/")
    s.add_argument("--leaderboard", action="store_true", help="add Gradescope's leaderboard (the points)")
    args, rest = p.parse_known_args(argv)
    if args.cmd == "reproduce":
        return cmd_reproduce(args, rest)
    if args.cmd == "bench":
        return cmd_bench(args, rest)
    if rest:
        p.error("unrecognized arguments: " + " ".join(rest))
    return {"setup": cmd_setup, "lab": cmd_lab, "run": cmd_run, "test": cmd_test,
            "autograder": cmd_autograder, "progress": cmd_progress,
            "book": cmd_book}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
