"""Hexiom for Ganak: the pysat translator's CNF (``backends/pysat/hexiom.py``), counted projected on its
tile variables ``("tile", cell, number)`` (see ``translation.py``)."""

from __future__ import annotations

from ..catalog import Catalog
from .translation import pysat_cnf

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
encode = pysat_cnf("hexiom", CATALOG)
