"""Hexiom for Ganak: the pysat translator's CNF (``backends/pysat/hexiom.py``), counted projected on its
tile variables ``("tile", cell, number)``.

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
    default="seqcounter+binomial",
    variants={
        "seqcounter+binomial": "pysat:seqcounter+binomial CNF (sequential counters, binomial neighbour clauses), "
        "projected on the tile variables",
        "totalizer": "pysat:totalizer CNF (tile counts by totalizer, per-cell unary neighbour counter), "
        "projected on the tile variables",
    },
    count_only=True,
)


def encode(level: Any, variant: str, options: Options) -> Any:
    """The pysat translator's ``CnfEncoding`` of the level under encoding ``variant``."""
    from ..pysat import hexiom as cnf

    CATALOG.require(variant, "ganak", "hexiom")
    return cnf.encode(level, variant, options)
