"""The clingo backend (see backends/registry.py for what this module must expose).

Nothing here imports clingo: ``make`` loads ``engine`` (and the family's
translator) only when a backend is actually wanted.  A family plugs in by
adding ``backends/clingo/<family>.py`` (VARIANTS, DEFAULT, rules, encode), its
``encodings/<family>*.lp`` files, and entries below.
"""

from __future__ import annotations

VARIANTS: dict[str, dict[str, str]] = {
    "hexiom": {
        "count": "choose each cell's tile; two one-sided #count bounds on occupied neighbours",
        "derived": "choose each cell's tile; derive occupied_neighbours(C,K) and require K = N",
        "occupancy": "choose only occupied cells; a tile's number is derived from its neighbours",
    },
}
DEFAULT_VARIANT: dict[str, str] = {"hexiom": "count"}


def available() -> str | None:
    """None when clingo can be imported, else how to install it."""
    try:
        import clingo  # noqa: F401  (cheap, about 30 ms; a broken install shows here, not mid-run)
    except ImportError:
        return "pip install clingo"
    return None


def make(family: str, variant: str):
    """A ready ``clingo:<variant>`` backend for a family (imports clingo)."""
    from . import engine

    return engine.ClingoBackend(family, variant)


def preload(family: str) -> None:
    """Import clingo and the family's translator (see registry.preload)."""
    from . import engine

    engine.translator(family)


VARIANTS["logic"] = {"choice": "choice rule place(C,V,P) per value, #count per position, one constraint per clue kind"}
DEFAULT_VARIANT["logic"] = "choice"
VARIANTS["sigils"] = {"choice": "orientations and placements derived in ASP; a choice rule per type bounded by its count; #count = 1 per cell; placements decided in reading order (#heuristic)"}
DEFAULT_VARIANT["sigils"] = "choice"
