"""The reproduction figures that the course quotes come from one place: ``docs/reproduction.md``.

- ``docs/reproduction.md`` and ``docs/reproduction.csv`` are one run of ``./course reproduce --scale full``: the same
  rows in the same order, and the same predicted and measured figures (the md writes the csv's figures rounded).
- **The rule for quotes.** A markdown paragraph (text between blank lines, fenced code left out) of a notebook or of
  ``README.md`` *quotes the reproduction* when it names it: it says "reproduction" (a link to
  ``docs/reproduction.md`` does), other than the learner's own ``target/reproduction.*``. Every *figure* in such a
  paragraph, a number followed by a unit (``6,265 ms``, ``3.79 µs``, ``857 B``, ``16.2×``), must be in
  ``docs/reproduction.md`` with the same unit, to the precision quoted: ``3.8 µs`` quotes ``3.79 µs``. A figure that
  would go stale belongs in a code cell that reads ``docs/reproduction.csv`` (the kit's ``Reproduction.snapshot()``).
"""
from __future__ import annotations

import csv
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
MD = REPO / "docs" / "reproduction.md"
CSV = REPO / "docs" / "reproduction.csv"
SOURCES = sorted((REPO / "notebooks").glob("*.ipynb")) + [REPO / "README.md"]

UNITS = r"µs|us|ms|s|KB|MB|GB|B|×|x|calls/s|connections"
FIGURE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(" + UNITS + r")(?![\w])")
QUOTING = re.compile(r"(?<!target/)\breproduction\b", re.IGNORECASE)


def unit_of(u: str) -> str:
    return {"us": "µs", "x": "×"}.get(u, u)


def figures(text: str) -> list[tuple[str, Decimal, int, str]]:
    """(as written, value, decimals quoted, unit) of every figure in text."""
    found = []
    for m in FIGURE.finditer(text):
        whole, frac, unit = m.group(1), m.group(2) or "", m.group(3)
        found.append((m.group(0), Decimal(whole.replace(",", "") + frac), max(len(frac) - 1, 0), unit_of(unit)))
    return found


def paragraphs(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        texts = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown"]
    else:
        texts = [path.read_text()]
    out = []
    for t in texts:
        t = re.sub(r"^```.*?^```", "", t, flags=re.S | re.M)
        out += [p for p in re.split(r"\n\s*\n", t) if p.strip()]
    return out


def md_rows() -> list[list[str]]:
    rows = []
    for line in MD.read_text().splitlines():
        if line.startswith("| ") and not line.startswith("| experiment |"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            rows.append(cells)
    return rows


def csv_rows() -> list[dict[str, str]]:
    with CSV.open(newline="") as f:
        return list(csv.DictReader(f))


def quoted_from(path: Path) -> list[tuple[str, str]]:
    """(figure as written, its paragraph) for every figure that path quotes from the reproduction."""
    return [(f[0], p) for p in paragraphs(path) if QUOTING.search(p) for f in figures(p)]


def in_md(figure: tuple[str, Decimal, int, str], md_figures) -> bool:
    _, value, decimals, unit = figure
    q = Decimal(1).scaleb(-decimals)
    return any(u == unit and v.quantize(q) == value.quantize(q) for _, v, _, u in md_figures)


def nearest_rows(figure: tuple[str, Decimal, int, str], n: int = 3) -> list[str]:
    _, value, _, unit = figure
    scored = []
    for row in md_rows():
        for cell in row[3:5]:
            for f in figures(cell):
                if f[3] == unit:
                    scored.append((abs(f[1] - value) / max(abs(value), Decimal(1)), f"{row[0]}: {row[4]}"))
    seen, nearest = set(), []
    for _, r in sorted(scored):
        if r not in seen:
            seen.add(r)
            nearest.append(r)
    return nearest[:n]


def stale_quotes(path: Path) -> list[str]:
    md_figures = figures(MD.read_text())
    problems = []
    for para in paragraphs(path):
        if not QUOTING.search(para):
            continue
        for f in figures(para):
            if not in_md(f, md_figures):
                problems.append(f"{path.name}: '{f[0]}' is not in docs/reproduction.md; nearest rows: "
                                + "; ".join(nearest_rows(f)) + f"\n    in: {' '.join(para.split())[:200]}")
    return problems


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_quoted_reproduction_figure_is_in_docs(path):
    problems = stale_quotes(path)
    assert not problems, "\n".join(problems)


def test_the_rule_catches_a_stale_quote_and_passes_a_true_one():
    md_figures = figures(MD.read_text())
    row = md_rows()[0]
    measured = figures(row[4])[0]
    assert in_md(measured, md_figures), f"{row[4]} is quoted as written"
    stale = figures("measured 123,456,789 ms")[0]
    assert not in_md(stale, md_figures)
    assert [f[0] for f in figures("5,021 ms against 55 ms, about 90×; 3.79 µs, 857 B, 16.2×, 2-core")] == [
        "5,021 ms", "55 ms", "90×", "3.79 µs", "857 B", "16.2×"]
    assert QUOTING.search("The course's reproduction ([docs/reproduction.md](../docs/reproduction.md))")
    assert not QUOTING.search("It writes `target/reproduction.md` and `target/reproduction.csv`")


def test_md_and_csv_are_one_run():
    md, rows = md_rows(), csv_rows()
    assert "Scale **full**" in MD.read_text(), "docs/ holds a full-scale run"
    assert [r[0] for r in md] == [r["experiment"] for r in rows], "the same experiments, in the same order"
    for m, c in zip(md, rows):
        assert (m[1], m[2], m[6]) == (c["article"], c["article reported"], c["note"]), c["experiment"]
        for column, cell in (("predicted", m[3]), ("measured", m[4])):
            number, unit = cell.split(" ", 1)
            assert unit == c["unit"], f"{c['experiment']}: unit {unit} against {c['unit']}"
            decimals = len(number.split(".")[1]) if "." in number else 0
            value = float(c[column])
            assert abs(float(number.replace(",", "")) - value) <= 0.5 * 10 ** -decimals + 1e-9, (
                f"{c['experiment']}: {column} {cell} in the md, {value} in the csv")
