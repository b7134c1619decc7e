"""TEMPLATE's rules as a constraint model (``trisolve.constraints``): the whole of what a backend needs.

[GUIDELINE] With ``constraints(level)`` and ``KINDS`` named in the family's
record, every backend that compiles constraint models runs the family (pysat,
clingo, cpsat, mip, ganak, dimacs, and exactcover when the kinds are all
exactly-one / at-most-one / exactly-k / units): no file under ``backends/``
names it.  State each rule once, in the puzzle's words: the labels are what
explanations and error messages show.

One Boolean per cell, "cell c is chosen": the puzzle's own variables.  The
rules: exactly K cells are chosen; a given cell is chosen or not as given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Level, Solution

if TYPE_CHECKING:
    from ...constraints import Assignment, Model

#: [GUIDELINE] The kinds of constraint the model uses (``trisolve.constraints.KINDS``): the registry leaves out a
#: compiler that cannot state one of them, and ``trisolve backends`` says why.
KINDS = frozenset({"unit", "exactly_one", "exactly_k"})


def constraints(level: Level) -> Model:
    from ...constraints import Model

    model = Model(f"TEMPLATE {level.name}".strip())
    chosen = [model.boolean(("chosen", c + 1), own=True) for c in range(level.cells)]

    # Exactly K cells are chosen.
    model.exactly(level.chosen, chosen, label=f"{level.chosen} of the {level.cells} cells are chosen")

    # The givens.
    for cell, given in level.givens:
        state = "chosen" if given else "not chosen"
        model.fix(chosen[cell] if given else -chosen[cell], label=f"cell {cell + 1} is given as {state}")

    def decode(values: Assignment) -> Solution:
        return Solution(tuple(c for c in range(level.cells) if values[chosen[c]]))

    model.decode_with(decode)
    return model
