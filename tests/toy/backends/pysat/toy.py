"""pysat on the toy family (models/TEMPLATE copied as models/toy/): one boolean per cell, exactly K true."""

from __future__ import annotations

from ...models.toy.model import Level, Solution
from ..base import Options
from ..catalog import Catalog

CATALOG = Catalog(
    default="plain",
    variants={"plain": "one boolean per cell; a sequential counter for exactly K"},
    symmetry_breaking=False,
)


def encode(level: Level, variant: str, options: Options):
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    from .engine import CnfEncoding

    pool = IDPool()
    cell = [pool.id(("chosen", c)) for c in range(level.cells)]
    # --- exactly K cells chosen
    clauses = CardEnc.equals(lits=cell, bound=level.chosen, vpool=pool, encoding=EncType.seqcounter).clauses
    # --- the givens
    clauses += [[cell[c] if given else -cell[c]] for c, given in level.givens]

    def decode(true: frozenset[int]) -> Solution:
        return Solution(tuple(c for c in range(level.cells) if cell[c] in true))

    return CnfEncoding(pool=pool, clauses=clauses, projection=cell, decode=decode)
