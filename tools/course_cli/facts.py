"""The Java facts, as Maven writes them.

The parent pom owns the facts (the JDK release, artifact ids, main classes, the JVM flag sets, the scale names)
and filters ``src/build/build-info.properties`` into ``target/build-info.properties``; everything in ``tools/``
and Gradescope's ``run_autograder`` read them there. Before the first build, or when the pom is newer than
that file, :func:`facts` fills the same template with the pom's own properties, as Maven would: ``./course``
must find the JDK before it can run Maven. What needs the course's JDK release exactly (and why) is the kit's
``course/kit/needs-jdk.txt``, which notebook 00 reads too.
"""
from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = Path("src") / "build" / "build-info.properties"
BUILD_INFO = Path("target") / "build-info.properties"
NEEDS_JDK = Path("kit") / "src" / "main" / "resources" / "course" / "kit" / "needs-jdk.txt"


def parse_properties(text: str) -> dict[str, str]:
    """``key=value`` lines (the subset of the .properties format the build writes); comments skipped."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "!")) and "=" in line:
            key, value = line.split("=", 1)
            out[key.strip()] = value.strip()
    return out


def pom_properties(root: Path) -> dict[str, str]:
    """The parent pom's ``<properties>``, with ``${…}`` resolved among them, and ``project.version``."""
    pom = ET.parse(root / "pom.xml").getroot()
    ns = {"m": pom.tag[1:pom.tag.index("}")]} if pom.tag.startswith("{") else {}
    props_el = pom.find("m:properties", ns) if ns else pom.find("properties")
    props = {(el.tag.split("}", 1)[-1]): (el.text or "").strip() for el in props_el}
    props["project.version"] = props.get("revision", "")

    def resolve(value: str, depth: int = 0) -> str:
        if depth > 10:
            return value
        return re.sub(r"\$\{([^}]+)\}", lambda m: resolve(props.get(m.group(1), m.group(0)), depth + 1), value)

    return {k: resolve(v) for k, v in props.items()}


@functools.cache
def facts(root: Path = ROOT) -> dict[str, str]:
    """Maven's facts for the course at ``root``: ``target/build-info.properties`` as the last build wrote it, or,
    before the first build or after the pom changed, its template filled in from the pom's properties."""
    written, pom = root / BUILD_INFO, root / "pom.xml"
    if written.is_file() and written.stat().st_mtime >= pom.stat().st_mtime:
        return parse_properties(written.read_text(encoding="utf-8"))
    props = pom_properties(root)
    template = (root / TEMPLATE).read_text(encoding="utf-8")
    return parse_properties(re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m.group(1), m.group(0)), template))


def release(root: Path = ROOT) -> int:
    """The JDK feature release the course runs on, exactly (the pom's maven.compiler.release)."""
    return int(facts(root)["release"])


def jvm_options(kind: str, root: Path = ROOT) -> list[str]:
    """A JVM flag set of the build's: ``kernel``, ``grader``, ``cli`` (./course reproduce) or ``test``."""
    return facts(root)[f"{kind}.jvm.options"].split()


def needs_jdk(root: Path = ROOT) -> list[tuple[str, str]]:
    """What runs on the course's JDK release only, and why: (what, why) pairs, in the kit's order."""
    out = []
    for line in (root / NEEDS_JDK).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and " = " in line:
            what, why = line.split(" = ", 1)
            out.append((what.strip(), why.strip()))
    return out


def other_release_note(feature: int, root: Path = ROOT) -> str:
    """What ./course says on a JDK of another feature release: the release the course runs on, and what needs
    it and why (the same lines as notebook 00's course.kit.Jdk)."""
    want = release(root)
    lines = [f"JDK {feature}: the course runs on JDK {want}, exactly. On {feature} the other notebooks and "
             f"exercises run; these need JDK {want}:"]
    lines += [f"  - {what}: {why}" for what, why in needs_jdk(root)]
    lines.append(f"Install JDK {want} (Eclipse Temurin {want} from https://adoptium.net), set JAVA_HOME to it "
                 f"and run ./course setup again.")
    return "\n".join(lines)
