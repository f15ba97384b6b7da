"""`./course setup --prefix P`, as the Docker image runs it (with P = $CONDA_DIR).

It must write P/share/jupyter/kernels/vthreads-java with an absolute JDK 25 `java`, leave the
user's own Jupyter folder alone, and give a kernel that Jupyter finds through P alone and that runs
notebooks: Java 25, virtual threads, assertions on, preview APIs, and a headless chart as a PNG.

Where P is on the path of the Python that runs Jupyter (the image's $CONDA_DIR, here a virtual environment),
`./course run`, `lab`, `test` and `setup` use that kernel: they write no user copy, and they remove an older
user copy that would hide it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]
KERNEL = "vthreads-java"


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("setup-prefix")
    p = base / "prefix"
    user_data = base / "user-data"  # where a plain `./course setup` would write; --prefix must not
    env = dict(os.environ, JUPYTER_DATA_DIR=str(user_data))
    r = subprocess.run([str(ROOT / "course"), "setup", "--prefix", str(p)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, f"./course setup --prefix failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return {"prefix": p, "user_data": user_data, "stdout": r.stdout, "base": base}


def spec_dir(prefix: dict) -> Path:
    return prefix["prefix"] / "share" / "jupyter" / "kernels" / KERNEL


def kernel_json(prefix: dict) -> dict:
    return json.loads((spec_dir(prefix) / "kernel.json").read_text())


def java_feature_version(java: str) -> int:
    r = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    m = re.search(r'version "(\d+)', r.stderr + r.stdout)
    assert m, r.stderr
    return int(m.group(1))


def test_kernelspec_is_written_under_the_prefix_only(prefix):
    assert (spec_dir(prefix) / "kernel.json").is_file()
    assert not (prefix["user_data"] / "kernels" / KERNEL).exists(), "--prefix also wrote the user's kernelspec"
    assert str(spec_dir(prefix)) in prefix["stdout"]


def test_kernel_uses_an_absolute_jdk_25_java(prefix):
    argv = kernel_json(prefix)["argv"]
    java = Path(argv[0])
    assert java.is_absolute() and java.name == "java", argv[0]
    assert os.access(java, os.X_OK)
    assert java_feature_version(str(java)) >= 25
    assert argv[-1] == "{connection_file}"


def test_kernel_classpath_is_the_prefix_lib(prefix):
    spec = kernel_json(prefix)
    argv = spec["argv"]
    lib = spec_dir(prefix).resolve() / "lib"
    cp = argv[argv.index("-cp") + 1].split(os.pathsep)
    # Either the whole folder (lib/*) or its jars one by one: nothing from outside the prefix.
    assert cp == [f"{lib}/*"] or (cp and all(Path(e).parent == lib and Path(e).is_file() for e in cp)), cp
    jars = sorted(p.name for p in lib.glob("*.jar"))
    assert any(j.startswith("course-kit-") for j in jars), jars
    assert any(j.startswith("rapaio-jupyter-kernel-") for j in jars), jars
    for opt in ("-ea", "--enable-preview", "-Djava.awt.headless=true"):
        assert opt in argv
    assert "--enable-preview" in spec["env"]["RJK_COMPILER_OPTIONS"]


CELLS = [
    # 1. Which JVM runs the notebook, and from which classpath.
    'System.out.println("feature=" + Runtime.version().feature());\n'
    'System.out.println("cp=" + System.getProperty("java.class.path"));',
    # 2. Virtual threads and assertions.
    'var t = Thread.ofVirtual().start(() -> {});\nt.join();\n'
    'boolean ea = false;\nassert ea = true;\n'
    'System.out.println("virtual=" + t.isVirtual() + " assertions=" + ea);',
    # 3. A preview API of JDK 25 compiles and runs (RJK_COMPILER_OPTIONS and --enable-preview).
    'int answer;\n'
    'try (var scope = java.util.concurrent.StructuredTaskScope.open()) {\n'
    '    var task = scope.fork(() -> 6 * 7);\n    scope.join();\n    answer = task.get();\n}\n'
    'System.out.println("structured=" + answer);',
    # 4. A chart drawn headless with text (fonts) comes back as an inline PNG.
    'var img = new java.awt.image.BufferedImage(240, 120, java.awt.image.BufferedImage.TYPE_INT_RGB);\n'
    'var g = img.createGraphics();\ng.setColor(java.awt.Color.WHITE);\ng.fillRect(0, 0, 240, 120);\n'
    'g.setColor(java.awt.Color.BLUE);\ng.fillRect(20, 40, 60, 60);\ng.drawString("virtual threads", 100, 60);\n'
    'g.dispose();\nimg',
]


def test_a_notebook_runs_through_the_prefix_kernelspec(prefix):
    base = prefix["base"]
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": KERNEL, "language": "java"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    path = base / "prefix-check.ipynb"
    nbformat.write(nb, path)
    out = base / "out"
    # Only the prefix tells Jupyter where the kernel is: the user folder is empty and JUPYTER_PATH
    # (searched before any other folder) names the prefix.
    env = dict(os.environ, JUPYTER_PATH=str(prefix["prefix"] / "share" / "jupyter"),
               JUPYTER_DATA_DIR=str(prefix["user_data"]))
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "run_notebook.py"), str(path), "--out", str(out),
                        "--kernel", KERNEL, "--scale", "quick", "--timeout", "120"],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}"

    done = nbformat.read(out / path.name, as_version=4)
    text = ["".join(o.get("text", "") for o in c.outputs if o.output_type == "stream") for c in done.cells]
    assert "feature=25" in text[0] or re.search(r"feature=(2[5-9]|[3-9]\d)", text[0]), text[0]
    lib = str(spec_dir(prefix).resolve() / "lib")
    assert f"cp={lib}/" in text[0], "the kernel did not run from the prefix's kernelspec"
    assert "virtual=true assertions=true" in text[1]
    assert "structured=42" in text[2]
    pngs = [o for o in done.cells[3].outputs if "image/png" in o.get("data", {})]
    assert pngs, f"no image/png output: {done.cells[3].outputs}"
    assert len(pngs[0]["data"]["image/png"]) > 500


# ------------------------------------------------------------------------------------------------ precedence
# The image installs the kernel into $CONDA_DIR/share/jupyter/kernels, where the Python that runs Jupyter
# finds it after the user's own folder (~/.local/share/jupyter, on the home volume). A Python virtual
# environment is the same arrangement: its prefix is on Jupyter's path, after the user's folder.

@pytest.fixture(scope="module")
def env_prefix(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("env-prefix")
    venv = base / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python3"
    # Jupyter from the Python that runs the tests (the course's environment), seen through a .pth file: the new
    # prefix is a prefix of its own, as a conda environment is, with Jupyter importable.
    import site
    own = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], capture_output=True,
                         text=True, check=True, timeout=60).stdout.strip()
    Path(own, "course-jupyter.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    # and nbconvert's templates in the prefix's share/jupyter, where a conda environment has them
    (venv / "share" / "jupyter").mkdir(parents=True)
    (venv / "share" / "jupyter" / "nbconvert").symlink_to(Path(sys.prefix) / "share" / "jupyter" / "nbconvert")
    probe = subprocess.run([str(python), "-c", "import nbclient, jupyter_core.paths as p; print(p.jupyter_path('kernels'))"],
                           capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"a virtual environment of this Python cannot see Jupyter: {probe.stderr[-300:]}")
    env = dict(os.environ, JUPYTER_DATA_DIR=str(base / "unused"), COURSE_AOT="off")  # AOT: tested above
    env.pop("JUPYTER_PATH", None)
    r = subprocess.run([str(ROOT / "course"), "setup", "--prefix", str(venv)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    spec = venv / "share" / "jupyter" / "kernels" / KERNEL
    assert str(venv / "share" / "jupyter" / "kernels") in probe.stdout
    return {"base": base, "venv": venv, "python": python, "spec": spec}


def course_env(env_prefix: dict, user_data: Path, in_env: bool = True) -> dict:
    # HOME too: Jupyter also searches Python's user site (~/.local/share/jupyter), which is the learner's own.
    env = dict(os.environ, JUPYTER_DATA_DIR=str(user_data), HOME=str(user_data / "home"), COURSE_AOT="off")
    env.pop("JUPYTER_PATH", None)
    if in_env:  # ./course and Jupyter run on the environment's Python, as in the image
        env["COURSE_PYTHON"] = str(env_prefix["python"])
        env["PATH"] = f"{env_prefix['venv'] / 'bin'}{os.pathsep}{env['PATH']}"
    else:
        env.pop("COURSE_PYTHON", None)
    return env


def run_classpath_notebook(env_prefix: dict, env: dict, name: str) -> tuple[subprocess.CompletedProcess, str]:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": KERNEL, "language": "java"}
    nb.cells = [nbformat.v4.new_code_cell(CELLS[0])]
    path = env_prefix["base"] / f"{name}.ipynb"
    nbformat.write(nb, path)
    r = subprocess.run([str(ROOT / "course"), "run", str(path), "--scale", "quick", "--timeout", "120"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=900)
    out = ROOT / "target" / "notebooks" / path.name
    text = ""
    if out.exists():
        done = nbformat.read(out, as_version=4)
        text = "".join(o.get("text", "") for o in done.cells[0].outputs if o.output_type == "stream")
    return r, text


def test_an_installed_kernel_is_used_and_no_user_copy_is_written(env_prefix):
    user = env_prefix["base"] / "user-fresh"
    r, text = run_classpath_notebook(env_prefix, course_env(env_prefix, user), "precedence-fresh")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert f"installed in {env_prefix['spec']}: using it" in r.stdout, r.stdout
    assert not (user / "kernels" / KERNEL).exists(), "./course run wrote a user copy beside the installed kernel"
    assert f"cp={env_prefix['spec'].resolve() / 'lib'}/" in text, text


def test_an_older_user_copy_is_replaced_by_the_installed_kernel(env_prefix):
    user = env_prefix["base"] / "user-old"
    # An older ./course (or a ./course setup on a machine without the image's kernel) left a user copy.
    r = subprocess.run([str(ROOT / "course"), "setup"], cwd=ROOT, env=course_env(env_prefix, user, in_env=False),
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0 and (user / "kernels" / KERNEL / "kernel.json").is_file(), r.stdout + r.stderr
    # Seen by the environment's Jupyter, that copy comes first and would hide the installed kernel.
    r, text = run_classpath_notebook(env_prefix, course_env(env_prefix, user), "precedence-old")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert f"removed the older user copy of the kernel, {user / 'kernels' / KERNEL}" in r.stdout, r.stdout
    assert str(env_prefix["spec"]) in r.stdout
    assert not (user / "kernels" / KERNEL).exists()
    assert f"cp={env_prefix['spec'].resolve() / 'lib'}/" in text, text


def test_a_user_kernel_not_written_by_the_course_is_kept_and_named(env_prefix):
    user = env_prefix["base"] / "user-own"
    own = user / "kernels" / KERNEL
    own.mkdir(parents=True)
    (own / "kernel.json").write_text(json.dumps({"argv": ["java", "-jar", "mine.jar", "{connection_file}"],
                                                 "display_name": "mine", "language": "java"}))
    r = subprocess.run([str(ROOT / "course"), "setup"], cwd=ROOT, env=course_env(env_prefix, user),
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (own / "kernel.json").is_file(), "a kernelspec that ./course did not write was removed"
    assert f"warning: {own} has the course kernel's name but was not written by ./course" in r.stdout
    assert f"rm -r '{own}'" in r.stdout


# ------------------------------------------------------------------------------------------------ AOT cache

def jvm_aot_log(spec: dict) -> str:
    """What the kernel's JVM says about its AOT cache when it starts (the launcher's usage run: no kernel)."""
    argv = [a for a in spec["argv"] if a != "{connection_file}"]
    at = argv.index("-Xlog:all=warning:stderr") + 1
    argv = argv[:at] + ["-Xlog:aot=info:stderr"] + argv[at:]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return r.stderr


def test_setup_trains_an_aot_cache_that_the_kernel_maps(prefix):
    spec = kernel_json(prefix)
    cache = spec_dir(prefix) / "kernel.aot"
    assert f"-XX:AOTCache={cache.resolve()}" in spec["argv"]
    assert cache.is_file() and cache.stat().st_size > 1_000_000
    log = jvm_aot_log(spec)
    assert "Opened AOT cache" in log and "[error]" not in log, log[-2000:]


@pytest.mark.parametrize("how", ["made for another program", "not an AOT cache"])
def test_a_foreign_aot_cache_is_refused_and_the_kernel_runs_without_it(prefix, tmp_path, how, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    from kernel_tools import Kernel
    kernels = tmp_path / "share" / "jupyter" / "kernels"
    copy = kernels / KERNEL
    shutil.copytree(spec_dir(prefix), copy)
    spec = kernel_json(prefix)
    text = json.dumps(spec).replace(str(spec_dir(prefix).resolve()), str(copy.resolve()))
    (copy / "kernel.json").write_text(text)
    if how == "not an AOT cache":
        (copy / "kernel.aot").write_bytes(b"\0" * 4096)
    else:  # a cache this JDK trained on another command line (no agent, no classpath): what a JDK update leaves
        (copy / "kernel.aot").unlink()
        r = subprocess.run([spec["argv"][0], f"-XX:AOTCacheOutput={copy / 'kernel.aot'}", "-version"],
                           capture_output=True, text=True, timeout=300)
        assert (copy / "kernel.aot").is_file(), r.stderr[-2000:]
    copied = json.loads(text)
    log = jvm_aot_log(copied)
    assert "Unable to map shared spaces" in log, f"the JVM took a cache that does not match ({how}):\n{log[-2000:]}"
    # Its complaint goes to stderr (the server's log), and the kernel runs; the cell sees none of it.
    plain = [a for a in copied["argv"] if a != "{connection_file}"]
    r = subprocess.run(plain, capture_output=True, text=True, timeout=120)
    assert re.search(r"\[(error|warning)\]\[aot\]", r.stderr) and "aot" not in r.stdout, (r.stdout, r.stderr)

    monkeypatch.setenv("JUPYTER_PATH", str(kernels.parent))
    with Kernel() as k:
        r = k.execute('System.out.println(6 * 7);')
    assert r.ok and r.stdout == "42\n" and r.stderr == "", (r.stdout, r.stderr, r.error_text)


def test_setup_drops_the_aot_cache_when_the_jars_change(tmp_path):
    """The JVM does not notice every change of a jar: ./course never keeps a cache across one."""
    sys.path.insert(0, str(ROOT / "tools"))
    from course_cli import kernelspec
    jars = tmp_path / "jars"
    jars.mkdir()
    for name in ("course-kit-1.0.0-SNAPSHOT.jar", "course-kernel-1.0.0-SNAPSHOT.jar"):
        (jars / name).write_bytes(b"PK" + name.encode())
    java, kernels = Path(sys.executable), tmp_path / "kernels"
    spec, _ = kernelspec.write(kernels, java, sorted(jars.iterdir()), ROOT, aot=True)
    assert f"-XX:AOTCache={spec.resolve() / 'kernel.aot'}" in json.loads((spec / "kernel.json").read_text())["argv"]
    (spec / "kernel.aot").write_bytes(b"trained")
    _, changed = kernelspec.write(kernels, java, sorted(jars.iterdir()), ROOT, aot=True)
    assert not changed and (spec / "kernel.aot").exists(), "an unchanged kernelspec lost its cache"
    (jars / "course-kit-1.0.0-SNAPSHOT.jar").write_bytes(b"PK rebuilt, same size!")
    _, changed = kernelspec.write(kernels, java, sorted(jars.iterdir()), ROOT, aot=True)
    assert changed and not (spec / "kernel.aot").exists(), "a cache of the old jars was kept"
    (spec / "kernel.aot").write_bytes(b"trained")
    _, changed = kernelspec.write(kernels, java, sorted(jars.iterdir()), ROOT, aot=False)
    assert not (spec / "kernel.aot").exists()
    assert not [a for a in json.loads((spec / "kernel.json").read_text())["argv"] if a.startswith("-XX:AOTCache")]
