"""dimacs on constraint models: pysat's compiled CNF (``backends/pysat/compiled.py``), solved by the
--sat-command binary.

Only the eager variant: the lazy ones leave connectivity out of the CNF and
cut candidates between solver calls, which an outside solver run on a file
cannot do.
"""

from __future__ import annotations

from ..catalog import Catalog
from ..pysat import EagerCompiledCnf

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "pysat:compiled's CNF (connectivity by reachability levels) solved by the external --sat-command "
        "binary; counts by re-running it with blocking clauses (slow); no lazy variant: a solver run on a file "
        "cannot be handed cuts",
    },
    symmetry_breaking=False,
    generic="constraints",
    supports="every kind",
)


def for_family(family: str) -> EagerCompiledCnf:
    """pysat's eager compiled CNF of ``family``, under this catalog (the dimacs engine solves it)."""
    return EagerCompiledCnf("dimacs", family, CATALOG)
