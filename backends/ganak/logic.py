"""Logic for Ganak: the pysat translator's CNF (``backends/pysat/logic.py``), counted projected on its
variables ``("place", category, value, position)`` (see ``translation.py``)."""

from __future__ import annotations

from ..catalog import Catalog
from .translation import pysat_cnf

CATALOG = Catalog(
    default="pairwise",
    variants={
        "pairwise": "pysat:pairwise CNF (no auxiliaries), projected on the place(value, position) variables",
        "seqcounter": "pysat:seqcounter CNF (sequential-counter auxiliaries), projected on the place variables",
    },
    count_only=True,
)
encode = pysat_cnf("logic", CATALOG)
