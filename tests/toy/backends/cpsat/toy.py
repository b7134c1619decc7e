"""cpsat on the toy family (models/TEMPLATE copied as models/toy/): one boolean per cell, a linear sum of K."""

from __future__ import annotations

from ...models.toy.model import Level, Solution
from ..base import Options
from ..catalog import Catalog

CATALOG = Catalog(
    default="plain",
    variants={"plain": "one boolean per cell; their sum is K"},
    symmetry_breaking=False,
)


def encode(level: Level, variant: str, options: Options):
    from .engine import CpsatModel, cp_model

    model = cp_model().CpModel()
    cell = [model.new_bool_var(f"chosen{c}") for c in range(level.cells)]
    # --- exactly K cells chosen
    model.add(sum(cell) == level.chosen)
    # --- the givens
    for c, given in level.givens:
        model.add(cell[c] == int(given))

    def decode(values) -> Solution:
        return Solution(tuple(c for c, value in enumerate(values) if value))

    return CpsatModel(model=model, projection=cell, decode=decode)
