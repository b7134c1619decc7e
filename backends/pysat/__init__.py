"""The pysat backend: CNF translators solved with PySAT's SAT solvers.

A variant is ``<encoding>`` or ``<encoding>@<solver>``: the encoding names
the family translator's CNF variant (``backends/pysat/<family>.py``), the
solver one of ``engine.SOLVERS`` (default: ``engine.DEFAULT_SOLVER``).
Any such pair works with ``make``; each translator's ``CATALOG`` lists the
ones the cross-checker runs by default.  Nothing here imports pysat.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType, SimpleNamespace
from typing import Any

#: ``--backend auto`` races it; ``bench`` and ``mutate`` take it by default
PORTFOLIO = True
#: ``trisolve export --format dimacs`` writes its CNF
EXPORTS = "dimacs"
#: ``trisolve mutate`` breaks its translators at their mutation hooks (backends/mutation.py)
MUTANTS = "hooks"


def available() -> str | None:
    """None when PySAT can be imported, else how to install it."""
    from ..base import install_hint

    return install_hint("pysat", "pip install python-sat", load=True)


def make(family: str, variant: str, translator: Any):
    """A PysatBackend for ``family`` under ``variant`` (imports pysat now)."""
    from .engine import PysatBackend

    return PysatBackend(family, variant, translator)


def preload(family: str) -> None:
    """Import pysat (``registry.preload`` then imports the family's translator)."""
    from . import engine  # noqa: F401


def cnf_translator(family: str) -> ModuleType:
    """pysat's own translator of ``family`` (``backends/pysat/<family>.py``), whose CNF the backends without an
    encoding of their own take (dimacs solves it with a binary, ganak counts it)."""
    return importlib.import_module(f"{__name__}.{family}")


class EagerCompiledCnf:
    """pysat's compiled CNF of ``family``'s constraint model in its eager variant, for a ``backend`` that hands
    the CNF to a tool outside pysat (ganak counts it, dimacs solves it with a binary): the eager variant states
    connectivity by reachability levels, all in the clauses, where the lazy ones leave it to cuts made while pysat
    solves, which no outside tool is handed.  ``catalog`` is the backend's own (its ``compiled.py``), listing
    the one variant it offers; pysat is imported only when ``encode`` runs."""

    def __init__(self, backend: str, family: str, catalog: Any) -> None:
        self.backend = backend
        self.family = family
        self.CATALOG = catalog

    def encode(self, level: Any, variant: str, options: Any) -> Any:
        from .compiled import for_family

        self.CATALOG.require(variant, self.backend, self.family)
        return for_family(self.family).encode(level, "compiled", options)


def backend(name: str, translators: Mapping[str, Any], **roles: Any) -> SimpleNamespace:
    """A backend made of your own CNF translators, run by pysat's mechanics, for ``registry.register(name, ...)``.

    ``translators`` maps each family to a translator: a module or object with
    ``CATALOG = Catalog(...)`` and ``encode(level, variant, options)``
    returning a ``CnfEncoding`` (backend-contract.md).  The solvers, projected
    enumeration, limits and DIMACS export are pysat's; ``variant@solver``
    picks a solver as for pysat.  ``roles`` are the constants a backend
    module may state (``PORTFOLIO``, ...).  See docs/examples/my_hexiom_cnf.py.
    """

    def make_one(family: str, variant: str, translator: Any):
        from .engine import PysatBackend

        return PysatBackend(family, variant, translator, backend=name)

    return SimpleNamespace(
        available=available, make=make_one, TRANSLATORS=dict(translators), **{"EXPORTS": EXPORTS, **roles}
    )
