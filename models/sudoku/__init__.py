"""Sudoku (``sudoku``), a puzz.link genre: its package (``grids.family_record``), rules in ``sudoku.lp``."""

from __future__ import annotations

from .. import grids
from ..family import Ladder, Parameter, Rung

FAMILY = grids.family_record(
    __name__,
    generator_parameters=(
        Parameter("size", int, 4, 25, "digits per row: 4, 6, 9, 16 or 25 (default 9)"),
        Parameter("keep", float, 0, 1, "without --unique: share of the cells given (default 0.4)"),
    ),
    ladder=Ladder(
        "grid side",
        lambda level: level.size,
        tuple(Rung(size, {"size": size}) for size in (4, 6, 9, 16)),
        unique=True,
    ),
)

__all__ = ["FAMILY", "model"]
