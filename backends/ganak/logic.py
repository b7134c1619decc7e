"""Logic for Ganak: the pysat translator's CNF (``backends/pysat/logic.py``), counted projected on its
variables ``("place", category, value, position)``.

Ganak counts what the CNF says, so a count here checks the pysat
translation by a method other than enumeration (a different tool, no
blocking clauses), not an independent translation.  The variants are the
pysat encodings worth counting (figures: docs/bench/ganak.md).
"""

from __future__ import annotations

from typing import Any

from ..base import Options
from ..catalog import Catalog

CATALOG = Catalog(
    default="pairwise",
    variants={
        "pairwise": "pysat:pairwise CNF (no auxiliaries), projected on the place(value, position) variables",
        "seqcounter": "pysat:seqcounter CNF (sequential-counter auxiliaries), projected on the place variables",
    },
    count_only=True,
)


def encode(level: Any, variant: str, options: Options) -> Any:
    """The pysat translator's ``CnfEncoding`` of the level under encoding ``variant``."""
    from ..pysat import logic as cnf

    CATALOG.require(variant, "ganak", "logic")
    return cnf.encode(level, variant, options)
