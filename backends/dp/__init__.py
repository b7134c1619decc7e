"""The dp backend: exact solution counts by dynamic programming, no solver at all.

A fourth, solver-free opinion for the cross-checker, and the only exact
reference where a level has too many solutions to list.  Enumeration runs
are count-only (``solutions=()``, so the cross-checker compares them by
count); first-solution runs rebuild one board.  Symmetry classes are
counted for Hexiom (Burnside); for sigils such runs answer ``unknown``.  Python and numpy (a
dependency): always available.
See ``backends/dp/<family>.py``; nothing here imports it.
"""

from __future__ import annotations

VARIANTS: dict[str, dict[str, str]] = {
    "hexiom": {
        "frontier": "exact count by a DP over occupancy in reading order (frontier neighbour counts + tile stock); "
        "enumeration is count-only, a first-solution run rebuilds one board; no symmetry breaking",
    },
}
VARIANTS["sigils"] = {
    "scanline": "exact count by a DP along the frame's shorter side (covered window + piece stock); "
    "enumeration is count-only, a first-solution run rebuilds one tiling; no symmetry breaking",
}
DEFAULT_VARIANT: dict[str, str] = {"hexiom": "frontier", "sigils": "scanline"}
#: no Burnside count of tilings yet: symmetry-breaking runs would only say "unknown"
NO_SYMMETRY_BREAKING: set[str] = {"sigils"}


def available() -> str | None:
    """Always usable: the programs need only Python and numpy."""
    return None


def preload(family: str) -> None:
    """Import the family's counter (see registry.preload): a forked run then imports nothing."""
    import importlib

    importlib.import_module(f"{__name__}.{family}")


def make(family: str, variant: str):
    """The dp backend for ``family`` (``backends/dp/<family>.py``)."""
    from ..base import UnsupportedFamily

    if family not in VARIANTS:
        raise UnsupportedFamily(f"backend dp has no translator for {family}")
    if family == "hexiom":
        from .hexiom import DpHexiom

        return DpHexiom(variant)
    if family == "sigils":
        from .sigils import DpSigils

        return DpSigils(variant)
    raise UnsupportedFamily(f"backend dp has no translator for {family}")
