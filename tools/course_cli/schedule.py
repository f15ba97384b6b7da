"""Steps, and the one function that runs them: ``./course test``'s (``suite``) and the book's notebook runs
(``tools/book.py``).

A step is a name, what it runs (a command, or a Python function), and the group it belongs to: consecutive steps
of one group run side by side (at most the group's width at a time), and a group starts when the steps before it
have ended. Standard library only; imports nothing of the command line, so that a script the command line runs as
a step (``tools/book.py``) can import it.
"""
from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass
from typing import Callable, Union

Counts = tuple[int, int, int]  # passed, failed, skipped


@dataclass(frozen=True)
class Step:
    """One step of ``./course test`` (or of the book's runs).

    ``run`` is a command, or commands run one after the other (in the course folder; a step of a group prints
    their output as one block when it ends), or a function that returns its problems (none: the step passed). ``group``:
    steps of one group run side by side. ``counts`` reads the step's test counts once it ended (else 1 passed
    or 1 failed). ``ok_codes`` are the exit codes that pass. ``needs``: the step runs only if that step (or
    each of those steps) passed, else it is left out. ``reported``: False for a step whose result only later steps read."""
    name: str
    run: Union[list[str], list[list[str]], Callable[[], list[str]]]
    group: str | None = None
    counts: Callable[[], Counts] | None = None
    ok_codes: tuple[int, ...] = (0,)
    needs: str | tuple[str, ...] | None = None
    reported: bool = True

    def commands(self) -> list[list[str]]:
        return self.run if self.run and isinstance(self.run[0], list) else [self.run]


@dataclass
class Outcome:
    name: str
    ok: bool
    counts: Counts
    took: float


def schedule(steps: list[Step], width: dict[str, int], run_one: Callable[[Step], Outcome | None],
             starting: Callable[[list[Step]], None] = lambda batch: None) -> list[Outcome]:
    """Runs ``steps`` in order: consecutive steps of one group side by side, at most ``width[group]`` at a time
    (in list order), the next step or group once they all ended. A step whose ``needs`` did not pass is left out.
    ``starting`` hears of each step alone or group as it starts."""
    outcomes: dict[str, Outcome] = {}
    i = 0
    while i < len(steps):
        j = i + 1
        while steps[i].group is not None and j < len(steps) and steps[j].group == steps[i].group:
            j += 1
        batch = [s for s in steps[i:j]
                 if all(n in outcomes and outcomes[n].ok for n in ((s.needs,) if isinstance(s.needs, str) else s.needs or ()))]
        if batch:
            starting(batch)
        with concurrent.futures.ThreadPoolExecutor(max(1, width.get(steps[i].group, 1))) as pool:
            for done in [pool.submit(run_one, s) for s in batch]:
                out = done.result()
                if out is not None:
                    outcomes[out.name] = out
        i = j
    return list(outcomes.values())
