"""Constraint models for Ganak: pysat's compiled CNF (``backends/pysat/compiled.py``), counted projected on the
model's own variables.

Only the eager variant: its reachability levels state connectivity in the
CNF, with every auxiliary defined by the model's variables.  The lazy
variants leave connectivity out and cut candidates as a SAT solver finds
them; Ganak counts one fixed formula and never shows a candidate, so their
CNF would be counted with every disconnected assignment in it.
"""

from __future__ import annotations

from ..catalog import Catalog
from ..pysat import EagerCompiledCnf

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "pysat:compiled's CNF (connectivity by reachability levels), counted projected on the model's "
        "own variables; no lazy variant: cuts made while solving cannot be counted by an outside counter",
    },
    count_only=True,
    symmetry_breaking=False,
    generic="constraints",
    supports="every kind",
)


def for_family(family: str) -> EagerCompiledCnf:
    """pysat's eager compiled CNF of ``family``, under this catalog."""
    return EagerCompiledCnf("ganak", family, CATALOG)
