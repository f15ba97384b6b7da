"""The class view's arithmetic (tools/hub/class_view.py), without a hub: what the trainer's page is given for a
class's events. test_hub_classroom.py runs the service under a real hub with five learners."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "hub"))

import class_view as cv  # noqa: E402


def guess(q, g, nb="02-cafe-simulation"):
    return {"kind": "guess", "notebook": nb, "question": q, "guess": g, "unit": "ms"}


def outcome(q, g, model, measured, verdict="off", nb="02-cafe-simulation"):
    return {"kind": "outcome", "notebook": nb, "question": q, "given": g is not None, "guess": g, "model": model,
            "formula": "⌈N/P⌉ · t", "measured": measured, "unit": "ms", "verdict": verdict}


@pytest.mark.parametrize("v", [1e-6, 0.013, 0.1, 0.2, 0.5, 0.99, 1, 1.5, 2, 4.999, 5, 9.99, 10, 123, 5e4, 1.2e9])
def test_every_positive_value_falls_in_the_one_bin_of_the_1_2_5_series_that_holds_it(v):
    k = cv.edge_index(v)
    assert cv.edge(k) <= v < cv.edge(k + 1)
    assert {round(cv.edge(k) / 10 ** math.floor(math.log10(cv.edge(k))), 9)} <= {1, 2, 5}


def test_the_bins_count_every_guess_once_from_the_smallest_bin_to_the_largest():
    values = sorted([750.0, 2250.0, 6750.0, 20250.0, 60750.0, 800.0])
    bins = cv.bins(values)
    assert [b["from"] for b in bins] == [500, 1000, 2000, 5000, 10000, 20000, 50000]
    assert [b["count"] for b in bins] == [2, 0, 1, 1, 0, 1, 1]
    assert cv.bins([]) == []
    widened = cv.bins([750.0, 2250.0], marks=(297.0, None, 60000.0))
    assert [b["from"] for b in widened] == [200, 500, 1000, 2000, 5000, 10000, 20000, 50000]
    assert sum(b["count"] for b in widened) == 2


def test_a_learners_latest_guess_counts_once_and_the_page_gets_model_and_median_measurement(tmp_path):
    store = cv.Store(str(tmp_path / "events.jsonl"))
    store.add("ann", guess("q", 1000.0))
    store.add("ann", guess("q", 3000.0))  # she changed her mind: the latest counts
    store.add("bob", guess("q", 60000.0))
    store.add("cem", outcome("q", None, 50000.0, 50100.0, "none"))  # ran without a guess
    store.add("ann", outcome("q", 3000.0, 50000.0, 50300.0))
    store.add("bob", outcome("q", 60000.0, 50000.0, 50200.0, "close"))
    [p] = store.summary()["predictions"]
    assert p["guesses"] == [3000.0, 60000.0] and p["learners"] == ["ann", "bob"]
    assert sum(b["count"] for b in p["bins"]) == 2
    assert p["model"] == 50000.0 and p["measured"] == 50200.0 and p["judged"] == 3 and p["close"] == 1
    assert store.summary()["learners"] == ["ann", "bob", "cem"]


def test_self_checks_count_answers_and_the_share_right_never_an_answer(tmp_path):
    store = cv.Store(str(tmp_path / "events.jsonl"))
    for who, answered, correct in [("ann", True, True), ("bob", True, False), ("cem", False, False),
                                   ("dee", True, True)]:
        store.add(who, {"kind": "selfcheck", "notebook": "02-cafe-simulation", "id": "02.2", "answered": answered,
                        "correct": correct})
    [c] = store.summary()["selfchecks"]
    assert (c["answered"], c["right"]) == (3, 2) and c["share_right"] == pytest.approx(2 / 3)


def test_a_restarted_service_shows_what_it_had(tmp_path):
    path = str(tmp_path / "events.jsonl")
    first = cv.Store(path)
    first.add("ann", guess("q", 1000.0))
    first.add("bob", {"kind": "selfcheck", "notebook": "n", "id": "02.1", "answered": True, "correct": True})
    again = cv.Store(path)
    assert again.summary()["predictions"] == first.summary()["predictions"]
    assert again.summary()["selfchecks"] == first.summary()["selfchecks"]
