"""The mip backend: 0-1 linear models of each family, solved by a MIP solver.

A variant names the solver: HiGHS (``highspy``) or SCIP through OR-Tools'
own MIP interface (``ortools.linear_solver.pywraplp``, bundled with
OR-Tools).  The model is the same for both, written once per family in
``backends/mip/<family>.py``; the solver mechanics, the no-good cuts that
enumerate solutions and the time limits live in ``engine.py``.  Nothing
here imports a solver.
"""

from __future__ import annotations

from typing import Any

#: a cross-check, a campaign and a counting bench run it only when named: it counts by one MIP solve per
#: solution (no-good cuts), so a level with thousands of solutions runs to the time limit (docs/bench/mip.md)
BY_DEFAULT = False
#: ``trisolve export --format lp`` writes its 0-1 model (CPLEX LP)
EXPORTS = "lp"
#: ``trisolve mutate`` breaks its translators at their mutation hooks (backends/mutation.py)
MUTANTS = "hooks"


def available() -> str | None:
    """None when HiGHS (the default solver) and OR-Tools (SCIP) are installed, else how to install them
    (looked up, not imported: OR-Tools costs half a second)."""
    from ..base import install_hint

    return install_hint("highspy", "pip install highspy") or install_hint("ortools", "pip install ortools")


def make(family: str, variant: str, translator: Any):
    """A MipBackend for ``family``; ``variant`` names the solver (see ``engine.SOLVERS``)."""
    from .engine import MipBackend

    return MipBackend(family, variant, translator)


def preload(family: str) -> None:
    """Import both solvers now (``registry.preload`` then imports the family's translator)."""
    from . import engine

    engine.preload()
