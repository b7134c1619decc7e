"""The ganak backend: exact model counting of the pysat translators' CNF with Ganak (``pyganak``).

Count-only: Ganak counts the CNF's models projected on the puzzle's own
variables (the pysat encoding's ``projection``), so the auxiliaries of
cardinality encodings never inflate the count.  A first-solution run is
answered with Ganak alone, by fixing projection variables one block at a
time and counting again (``engine.first_solution``).  Ganak runs in a
forked child that the run abandons (kills) at its time limit.  Each
family's variants (the pysat encodings worth counting) are declared in
``backends/ganak/<family>.py``.  Nothing here imports pyganak or pysat.
"""

from __future__ import annotations

import importlib.util


def available() -> str | None:
    """None when pyganak and pysat (the CNF translators) can be imported, else how to install them."""
    for module, package in (("pyganak", "pyganak"), ("pysat", "python-sat")):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return f"pip install {package}"
    return None


def make(family: str, variant: str):
    """A GanakBackend for ``family`` under ``variant`` (a pysat CNF encoding)."""
    from .engine import GanakBackend

    return GanakBackend(family, variant)


def preload(family: str) -> None:
    """Import pyganak and the family's CNF translator now (see registry.preload)."""
    from .. import registry
    from . import engine

    engine.pyganak()
    registry.translator("ganak", family)
