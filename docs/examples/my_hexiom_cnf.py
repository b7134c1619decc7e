"""A user's own Hexiom encoding, plugged into trisolve to be cross-checked (docs/own-encoding.md).

Template: declare your variants in ``CATALOG``, write ``encode(level, variant,
options)`` returning a ``CnfEncoding`` (clauses, the puzzle's own variables as
the projection, and how to read a solution back), then register it under a
backend name of your own (last lines).  The shipped PySAT mechanics (solver,
projected enumeration, time limits, export) run it, and every trisolve command
takes it with ``--plugin THIS_FILE``.

This one is written the way a newcomer might: one Boolean per (cell, number),
"exactly d occupied neighbours" by PySAT cardinality constraints.  Variant
``as-written`` carries a real-looking bug, an extra rule that an unlocked 0
may not stand on the rim (someone misread "a 0 has no neighbours" as "a 0 is
surrounded by empty cells on every side, so it needs six of them");
``fixed`` is the same file without that rule.
"""

from __future__ import annotations

import types

from trisolve.backends import pysat
from trisolve.backends.catalog import Catalog

CATALOG = Catalog(
    default="fixed",
    variants={
        "fixed": "one Boolean per (cell, number); cardinality constraints",
        "as-written": "one Boolean per (cell, number); cardinality constraints; an unlocked 0 kept off the rim",
    },
    # no lex-leader constraints here: runs with --symmetry-breaking answer unknown
    symmetry_breaking=False,
)


def encode(level, variant, options):
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    from trisolve.backends.pysat.engine import CnfEncoding
    from trisolve.models.hexiom import model as hexiom

    board, pool, cnf = level.board, IDPool(), []
    numbers = range(hexiom.MAX_TILE + 1)
    holds = {(cell, n): pool.id(("holds", cell, n)) for cell in range(board.size) for n in numbers}
    full = {cell: pool.id(("full", cell)) for cell in range(board.size)}

    for cell in range(board.size):
        here = [holds[cell, n] for n in numbers]
        cnf.append([-full[cell], *here])  # full means some number is here ...
        cnf.extend([[-lit, full[cell]] for lit in here])  # ... and any number makes it full
        cnf.extend(CardEnc.atmost(here, 1, vpool=pool).clauses)
        if cell in level.blocked_cells:
            cnf.append([-full[cell]])
    for cell, n in level.locked_tiles:
        cnf.append([holds[cell, n]])
    for n in numbers:
        cnf.extend(
            CardEnc.equals(
                [holds[cell, n] for cell in range(board.size)],
                level.tile_counts[n],
                vpool=pool,
                encoding=EncType.totalizer,
            ).clauses
        )
    for cell in range(board.size):
        around = [full[other] for other in board.neighbours[cell]]
        for n in numbers:
            if n > len(around):
                cnf.append([-holds[cell, n]])
                continue
            for clause in CardEnc.equals(around, n, vpool=pool, encoding=EncType.seqcounter).clauses:
                cnf.append([-holds[cell, n], *clause])
    if variant == "as-written":  # the bug: "a 0 needs empty cells all around", so never on the rim
        locked = dict(level.locked_tiles)
        for cell in range(board.size):
            if len(board.neighbours[cell]) < 6 and locked.get(cell) != 0:
                cnf.append([-holds[cell, 0]])

    var_of = {var: key for key, var in holds.items()}

    def decode(true):
        cells = [None] * board.size
        for var in true:
            cell, n = var_of[var]
            cells[cell] = n
        return hexiom.Solution(tuple(cells))

    return CnfEncoding(pool, cnf, sorted(holds.values()), decode, block_true_only=True)


#: What trisolve's registry asks of a backend (backends/registry.py): your translator per family, run by
#: pysat's mechanics.  An installed package names this object in its ``trisolve.backends`` entry points
#: instead of being --plugin'ed.
BACKEND = pysat.backend("mine", {"hexiom": types.SimpleNamespace(CATALOG=CATALOG, encode=encode)})

if __name__ == "trisolve_plugin":  # run by --plugin
    from trisolve.backends import registry

    registry.register("mine", BACKEND)
