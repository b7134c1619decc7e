"""Constraint models for Ganak: pysat's compiled CNF (``backends/pysat/compiled.py``), counted projected on the
model's own variables.

Only the eager variant: its reachability levels state connectivity in the
CNF, with every auxiliary defined by the model's variables.  The lazy
variants leave connectivity out and cut candidates as a SAT solver finds
them; Ganak counts one fixed formula and never shows a candidate, so their
CNF would be counted with every disconnected assignment in it.
"""

from __future__ import annotations

from typing import Any

from ..base import Options
from ..catalog import Catalog

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


def for_family(family: str) -> CompiledForGanak:
    return CompiledForGanak(family)


class CompiledForGanak:
    """``encode`` gives pysat's eager compiled CNF of the family's constraint model."""

    CATALOG = CATALOG

    def __init__(self, family: str) -> None:
        self.family = family

    def encode(self, level: Any, variant: str, options: Options) -> Any:
        from ..pysat.compiled import for_family as pysat_compiler

        CATALOG.require(variant, "ganak", self.family)
        return pysat_compiler(self.family).encode(level, "compiled", options)
