"""A toy puzzle family defined entirely outside the package: "choose K of N cells".

It proves that a family plugs in with one model and one translator per
backend, touching no CLI file: ``register()`` adds the family and gives the
pysat and cpsat backends a translator each (clingo and dp have none, so the
registry leaves them out).  A level file reads ``choose N K``; a solution is
the set of chosen cells; there are C(N, K) of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from trisolve.backends.catalog import Catalog
from trisolve.models import Family
from trisolve.models.errors import LevelSyntaxError, read_instance_text

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
)

#: what both translators declare (a test module may share it; shipped translators each write their own)
CATALOG_LITERAL: dict[str, Any] = {
    "default": "plain",
    "variants": {"plain": "one boolean per cell, a count of K"},
    "symmetry_breaking": False,
}


def encode_cnf(level: Level, variant: str, options: Any) -> Any:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    from trisolve.backends.pysat.engine import CnfEncoding

    pool = IDPool()
    cell = [pool.id(("cell", c)) for c in range(level.cells)]
    clauses = CardEnc.equals(lits=cell, bound=level.chosen, vpool=pool, encoding=EncType.seqcounter).clauses

    def decode(true: frozenset[int]) -> Solution:
        return Solution(tuple(c for c in range(level.cells) if cell[c] in true))

    return CnfEncoding(pool=pool, clauses=clauses, projection=cell, decode=decode, block_true_only=True)


def encode_cp(level: Level, variant: str, options: Any) -> Any:
    from trisolve.backends.cpsat.engine import CpsatModel, cp_model

    model = cp_model().CpModel()
    cell = [model.new_bool_var(f"cell{c}") for c in range(level.cells)]
    model.add(sum(cell) == level.chosen)

    def decode(values: Mapping) -> Solution:
        return Solution(tuple(c for c, v in enumerate(values) if v))

    return CpsatModel(model=model, projection=cell, decode=decode)


def register() -> None:
    from trisolve import models
    from trisolve.backends import registry

    models.register(TOY)
    catalog = Catalog(**CATALOG_LITERAL)
    registry.register_translator("pysat", "toy", SimpleNamespace(CATALOG=catalog, encode=encode_cnf))
    registry.register_translator("cpsat", "toy", SimpleNamespace(CATALOG=catalog, encode=encode_cp))


def unregister() -> None:
    from trisolve import models
    from trisolve.backends import registry

    models.unregister("toy")
    for backend in ("pysat", "cpsat"):
        registry.unregister_translator(backend, "toy")


if __name__ == "trisolve_plugin":  # loaded with --plugin
    register()
