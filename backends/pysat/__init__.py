"""The pysat backend: CNF translators solved with PySAT's SAT solvers.

A variant is ``<encoding>`` or ``<encoding>@<solver>``: the encoding names
the family translator's CNF variant (``backends/pysat/<family>.py``), the
solver one of ``engine.SOLVERS`` (default: ``engine.DEFAULT_SOLVER``).
Any such pair works with ``make``; ``VARIANTS`` lists the ones the
cross-checker runs by default.  Nothing here imports pysat.
"""

from __future__ import annotations

VARIANTS: dict[str, dict[str, str]] = {
    "hexiom": {
        "totalizer": "tile counts by totalizer, per-cell unary neighbour counter; CaDiCaL 1.9.5",
        "seqcounter+binomial": "tile counts by sequential counter, binomial neighbour clauses; CaDiCaL 1.9.5",
        "seqcounter+gated": "tile counts by sequential counter, guarded CardEnc neighbour counts; CaDiCaL 1.9.5",
        "totalizer@glucose4": "tile counts by totalizer, per-cell unary neighbour counter; Glucose 4",
    },
}
#: the measured fastest on the hard levels 38 and 40 (medians over variable shuffles)
DEFAULT_VARIANT: dict[str, str] = {"hexiom": "totalizer"}


def available() -> str | None:
    try:
        import pysat  # noqa: F401
    except ImportError:
        return "pip install python-sat"
    return None


def make(family: str, variant: str):
    """A PysatBackend for ``family`` under ``variant`` (imports pysat now)."""
    from .engine import PysatBackend

    return PysatBackend(family, variant)


def preload(family: str) -> None:
    """Import pysat and the family's translator (see registry.preload)."""
    from . import engine

    engine.translator(family)


VARIANTS["logic"] = {"pairwise": "one-hot place(value, position), exactly-one pairwise; CaDiCaL 1.9.5", "seqcounter": "one-hot place(value, position), exactly-one by sequential counter; CaDiCaL 1.9.5"}
DEFAULT_VARIANT["logic"] = "pairwise"
VARIANTS["sigils"] = {"totalizer": "placement booleans; one per cell by pairwise at-most-one; piece counts by totalizer; CaDiCaL 1.9.5", "seqcounter": "placement booleans; one per cell and piece counts by sequential counters; CaDiCaL 1.9.5"}
DEFAULT_VARIANT["sigils"] = "totalizer"
