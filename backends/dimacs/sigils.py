"""dimacs on sigil packings: pysat's totalizer CNF (``backends/pysat/sigils.py``), solved by the --sat-command binary.

No encoding of its own: the engine takes the CNF from pysat's translator.
"""

from ..catalog import Catalog

CATALOG = Catalog(
    default="totalizer",
    variants={
        "totalizer": "pysat's totalizer CNF solved by the external --sat-command binary; first solution and unsat "
        "proofs, counts by re-running it with blocking clauses (slow)",
    },
)
