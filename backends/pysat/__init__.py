"""The pysat backend: CNF translators solved with PySAT's SAT solvers.

A variant is ``<encoding>`` or ``<encoding>@<solver>``: the encoding names
the family translator's CNF variant (``backends/pysat/<family>.py``), the
solver one of ``engine.SOLVERS`` (default: ``engine.DEFAULT_SOLVER``).
Any such pair works with ``make``; each translator's ``CATALOG`` lists the
ones the cross-checker runs by default.  Nothing here imports pysat.
"""

from __future__ import annotations


def available() -> str | None:
    try:
        import pysat  # noqa: F401
    except ImportError:
        return "pip install python-sat"
    return None


def make(family: str, variant: str):
    """A PysatBackend for ``family`` under ``variant`` (imports pysat now)."""
    from .engine import PysatBackend

    return PysatBackend(family, variant)


def preload(family: str) -> None:
    """Import pysat and the family's translator (see registry.preload)."""
    from .. import registry
    from . import engine  # noqa: F401

    registry.translator("pysat", family)
