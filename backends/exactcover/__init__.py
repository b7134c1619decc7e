"""The exactcover backend: puzzles as exact cover with colours, solved by Knuth's Algorithm C.

The solver is ``xcover`` (numba): its kernel is compiled once per machine and
kept in numba's cache (``engine.kernel`` says so on stderr the first time).
Nothing here imports xcover or numba: ``make`` loads ``engine`` (and the
family's translator) only when a backend is actually wanted.
"""

from __future__ import annotations

import importlib.util


def available() -> str | None:
    """None when xcover is installed, else how to install it (checked without importing numba)."""
    try:
        found = importlib.util.find_spec("xcover") is not None
    except (ImportError, ValueError):
        found = False
    return None if found else "pip install xcover"


def make(family: str, variant: str):
    """A ready ``exactcover:<variant>`` backend for a family (imports xcover when it runs)."""
    from .engine import ExactCoverBackend

    return ExactCoverBackend(family, variant)


def preload(family: str) -> None:
    """Load the compiled kernel and the family's translator now (see registry.preload)."""
    from .. import registry
    from . import engine

    engine.kernel()
    registry.translator("exactcover", family)
