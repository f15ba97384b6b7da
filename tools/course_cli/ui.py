"""How ./course talks: one prefix, errors on stderr."""
from __future__ import annotations

import sys
from typing import NoReturn


def say(msg: str) -> None:
    print(f"[course] {msg}", flush=True)


def fail(msg: str, code: int = 2) -> NoReturn:
    print(f"[course] error: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)
