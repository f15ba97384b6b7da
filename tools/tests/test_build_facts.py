"""Maven owns the Java facts: ./course reads the version and the kernel's class path from files the build
writes (target/build-info.properties, kernel/target/runtime.classpath) and knows neither itself."""
import json
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import course  # noqa: E402
import kernelspec  # noqa: E402


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
