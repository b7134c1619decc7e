"""A toy puzzle family defined entirely outside the package: "choose K of N cells".

It proves the short path: a family is its model (parser, validator,
renderer) and its rules stated once as a constraint model
(``constraints(level)``), touching no CLI file and no backend: ``register()``
adds the family record, and every backend that compiles constraint models
(pysat, clingo, cpsat, mip, exactcover, ganak, dimacs) runs it, with no
translator written for it.  A level file reads ``choose N K``; a solution is
the set of chosen cells; there are C(N, K) of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trisolve.constraints import Assignment, Model
from trisolve.models import Family
from trisolve.models.errors import LevelSyntaxError
from trisolve.models.files import read_instance_text

LINE = re.compile(r"^choose\s+(\d+)\s+(\d+)\s*$")


@dataclass(frozen=True)
class Level:
    name: str
    cells: int
    chosen: int


@dataclass(frozen=True)
class Solution:
    cells: tuple[int, ...]  # the chosen cells, ascending

    def to_json(self) -> dict:
        return {"cells": list(self.cells)}


@dataclass(frozen=True)
class Violation:
    message: str


def parse_text(text: str, file: str = "<string>") -> Level:
    found = LINE.match(text.strip())
    if not found:
        raise LevelSyntaxError(file, 1, "expected 'choose N K'")
    return Level(file, int(found[1]), int(found[2]))


def parse(path: str) -> Level:
    return parse_text(read_instance_text(path), path)


def validate(level: Level, solution: Solution) -> list[Violation]:
    problems = []
    if len(set(solution.cells)) != level.chosen:
        problems.append(Violation(f"{len(set(solution.cells))} cells chosen, not {level.chosen}"))
    problems += [Violation(f"cell {c} is not on the board") for c in solution.cells if not 0 <= c < level.cells]
    return problems


def render(level: Level, solution: Solution | None = None) -> str:
    chosen = set(solution.cells) if solution else set()
    return "".join("#" if c in chosen else "." for c in range(level.cells))


def constraints(level: Level) -> Model:
    """The rules once: one Boolean per cell (the puzzle's own), exactly K of them true."""
    model = Model(f"toy {level.name}")
    cell = [model.boolean(("cell", c), own=True) for c in range(level.cells)]
    model.exactly(level.chosen, cell, label=f"{level.chosen} of the {level.cells} cells are chosen")

    def decode(values: Assignment) -> Solution:
        return Solution(tuple(c for c in range(level.cells) if values[cell[c]]))

    model.decode_with(decode)
    return model


TOY = Family(
    name="toy",
    parse=parse,
    parse_text=parse_text,
    validate=validate,
    render=render,
    canonical=lambda level, solution: tuple(sorted(solution.cells)),
    solution_from_json=lambda level, data: Solution(tuple(data["cells"])),
    describe=lambda level: f"toy: choose {level.chosen} of {level.cells} cells",
    sniff=lambda path, text: LINE.match(text.strip()) is not None,
    suffix=".toy",
    default_backend="cpsat",
    constraints=constraints,
    constraint_kinds=frozenset({"exactly_one", "exactly_k"}),
)


def register() -> None:
    from trisolve import models

    models.register(TOY)


def unregister() -> None:
    from trisolve import models

    models.unregister("toy")


if __name__ == "trisolve_plugin":  # loaded with --plugin
    register()
