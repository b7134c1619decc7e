"""The mip backend: 0-1 linear models of each family, solved by a MIP solver.

A variant names the solver: HiGHS (``highspy``) or SCIP through OR-Tools'
own MIP interface (``ortools.linear_solver.pywraplp``, bundled with
OR-Tools).  The model is the same for both, written once per family in
``backends/mip/<family>.py``; the solver mechanics, the no-good cuts that
enumerate solutions and the time limits live in ``engine.py``.  Nothing
here imports a solver.
"""

from __future__ import annotations

import importlib.util


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def available() -> str | None:
    """None when HiGHS (the default solver) and OR-Tools (SCIP) can be imported, else how to install them."""
    if not _installed("highspy"):
        return "pip install highspy"
    if not _installed("ortools"):
        return "pip install ortools"
    return None


def make(family: str, variant: str):
    """A MipBackend for ``family``; ``variant`` names the solver (see ``engine.SOLVERS``)."""
    from .engine import MipBackend

    return MipBackend(family, variant)


def preload(family: str) -> None:
    """Import both solvers and the family's translator now (see registry.preload)."""
    from .. import registry
    from . import engine

    engine.preload()
    registry.translator("mip", family)
