"""Sigils for Ganak: the pysat translator's CNF (``backends/pysat/sigils.py``), counted projected on its
placement variables ``("place", piece, cells)``.

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
    default="seqcounter",
    variants={
        "seqcounter": "pysat:seqcounter CNF (sequential counters), projected on the placement variables",
        "totalizer": "pysat:totalizer CNF (pairwise one per cell, totalizer piece counts), "
        "projected on the placement variables",
    },
    count_only=True,
)


def encode(level: Any, variant: str, options: Options) -> Any:
    """The pysat translator's ``CnfEncoding`` of the level under encoding ``variant``."""
    from ..pysat import sigils as cnf

    CATALOG.require(variant, "ganak", "sigils")
    return cnf.encode(level, variant, options)
