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

from typing import Any

#: a cross-check, a campaign and a counting bench run it only when named: Ganak stops (memory, time) on the
#: larger Hexiom levels and the 8xN logic gates (docs/bench/ganak.md), so every default run would wait for it
BY_DEFAULT = False
#: ``bench --portfolio`` measures it for counts only: a first solution by counting again and again is not a paradigm
TASKS = ("count",)
#: ``trisolve export --backend ganak`` writes the CNF it counts (pysat's, with the ``c p show`` projection)
EXPORTS = "dimacs"
#: ``--memory`` caps its counting process's address space; less than this cannot hold a Ganak at all (the process
#: starts with the address space of the one that forks it), so it is refused
MIN_MEMORY = 64 << 20


def available() -> str | None:
    """None when pyganak and pysat (the CNF translators) are installed, else how to install them."""
    from ..base import install_hint

    return install_hint("pyganak", "pip install pyganak") or install_hint("pysat", "pip install python-sat")


def make(family: str, variant: str, translator: Any):
    """A GanakBackend for ``family`` under ``variant`` (a pysat CNF encoding)."""
    from .engine import GanakBackend

    return GanakBackend(family, variant, translator)


def preload(family: str) -> None:
    """Import pyganak now (``registry.preload`` then imports the family's CNF translator)."""
    from . import engine

    engine.pyganak()
