"""dimacs on constraint models: pysat's compiled CNF (``backends/pysat/compiled.py``), solved by the
--sat-command binary.

Only the eager variant: the lazy ones leave connectivity out of the CNF and
cut candidates between solver calls, which an outside solver run on a file
cannot do.  The engine takes the CNF from pysat's compiler.
"""

from __future__ import annotations

from typing import Any

from ..catalog import Catalog

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


def for_family(family: str) -> Any:
    """pysat's compiler of ``family`` (the dimacs engine solves its CNF)."""
    from ..pysat.compiled import for_family as pysat_compiler

    return pysat_compiler(family)
