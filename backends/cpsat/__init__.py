"""The cpsat backend: OR-Tools CP-SAT (see backends/registry.py for what this module must expose).

Mechanics live in ``engine.py``; each family has a translator module
``<family>.py`` whose ``VARIANTS`` are listed here.  Nothing here imports
OR-Tools: ``available()`` only asks whether it is installed.
"""

from __future__ import annotations

import importlib.util

VARIANTS: dict[str, dict[str, str]] = {
    "hexiom": {
        "int": "an integer per cell (-1 empty), channelled occupancy, per-number indicator counts",
        "bool": "a boolean per (cell, number), linear neighbour sums enforced by each boolean",
        "table": "an integer per cell, neighbour rule as a table over the cell and its neighbours",
    },
}
DEFAULT_VARIANT: dict[str, str] = {"hexiom": "int"}


def available() -> str | None:
    """None when OR-Tools can be imported, else how to install it."""
    try:
        found = importlib.util.find_spec("ortools") is not None
    except (ImportError, ValueError):
        found = False
    return None if found else "pip install ortools"


def make(family: str, variant: str):
    """A CpsatBackend for ``family`` using ``backends/cpsat/<family>.py``."""
    from ..base import UnsupportedFamily
    from .engine import CpsatBackend

    if family not in VARIANTS:
        raise UnsupportedFamily(f"backend cpsat has no translator for {family}")
    return CpsatBackend(family, variant)


def preload(family: str) -> None:
    """Import OR-Tools (about half a second) and the family's translator (see registry.preload)."""
    from . import engine

    engine.cp_model()
    engine.translator(family)


VARIANTS["logic"] = {"integer": "an integer position per value, AllDifferent per category", "boolean": "one-hot booleans per (value, position), positions as linear sums"}
DEFAULT_VARIANT["logic"] = "integer"
VARIANTS["sigils"] = {"booleans": "a boolean per placement of a type; AddExactlyOne per cell; a linear count per type", "copies": "per piece copy an integer placement number; cover booleans reified on its domain; AddExactlyOne per cell"}
DEFAULT_VARIANT["sigils"] = "booleans"
