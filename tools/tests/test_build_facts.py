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
