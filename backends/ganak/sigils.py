"""Sigils for Ganak: the pysat translator's CNF (``backends/pysat/sigils.py``), counted projected on its
placement variables ``("place", piece, cells)`` (see ``translation.py``)."""

from __future__ import annotations

from ..catalog import Catalog
from .translation import pysat_cnf

CATALOG = Catalog(
    default="seqcounter",
    variants={
        "seqcounter": "pysat:seqcounter CNF (sequential counters), projected on the placement variables",
        "totalizer": "pysat:totalizer CNF (pairwise one per cell, totalizer piece counts), "
        "projected on the placement variables",
    },
    count_only=True,
)
encode = pysat_cnf("sigils", CATALOG)
