"""dimacs on logic grids: pysat's pairwise CNF (``backends/pysat/logic.py``), solved by the --sat-command binary.

No encoding of its own: the engine takes the CNF from pysat's translator.
"""

from ..catalog import Catalog

CATALOG = Catalog(
    default="pairwise",
    variants={
        "pairwise": "pysat's pairwise CNF solved by the external --sat-command binary; first solution and unsat "
        "proofs, counts by re-running it with blocking clauses (slow)",
    },
)
