"""Small constraint models, each stated once and counted two ways: by the brute force of
``trisolve.constraints.semantics`` (the referee) and by every compiler and variant that takes it.

``register()`` adds a family ``cases`` whose levels are these models: a family stated only as a constraint
model, which every backend with a ``compiled`` translator runs with no file under backends/ naming it.  A
solution is the tuple of the own variables' keys that are true.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from trisolve.constraints import KINDS, Model
from trisolve.models import Family
from trisolve.models.errors import UsageError

FAMILY_NAME = "cases"


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Model]


@dataclass(frozen=True)
class Chosen:
    """A solution: the true own variables, by key."""

    keys: tuple

    def to_json(self) -> dict:
        return {"true": [list(k) if isinstance(k, tuple) else k for k in self.keys]}


def _decoded(model: Model) -> Model:
    own = list(model.own)
    model.decode_with(lambda values: Chosen(tuple(model.keys[v - 1] for v in own if values[v])))
    return model


# ------------------------------------------------------------------ graphs


def grid(rows: int, cols: int) -> tuple[int, list[tuple[int, int]]]:
    """The vertices and edges of a rows x cols grid graph (vertex r * cols + c)."""
    edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return rows * cols, edges


def connected_case(name: str, vertex_count: int, edges: list[tuple[int, int]], k: int | None = None) -> Case:
    def build() -> Model:
        model = Model(name)
        chosen = [model.boolean(("v", i), own=True) for i in range(vertex_count)]
        model.connected(chosen, edges, label="the chosen vertices are connected")
        if k is not None:
            model.exactly(k, chosen, label=f"{k} vertices are chosen")
        return _decoded(model)

    return Case(name, build)


def cycle_case(name: str, vertex_count: int, edges: list[tuple[int, int]], extra: Callable | None = None) -> Case:
    def build() -> Model:
        model = Model(name)
        chosen = [model.boolean(("e", a, b), own=True) for a, b in edges]
        model.single_cycle(vertex_count, [(a, b, lit) for (a, b), lit in zip(edges, chosen)], label="one loop")
        if extra is not None:
            extra(model, chosen)
        return _decoded(model)

    return Case(name, build)


def _two_triangles() -> tuple[int, list[tuple[int, int]]]:
    return 6, [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)]


def _k4() -> tuple[int, list[tuple[int, int]]]:
    return 4, list(combinations(range(4), 2))


def _top_edge_used(model: Model, chosen: list[int]) -> None:
    model.fix(chosen[0], label="the first edge is used", role="clue")


def _square_has_two(model: Model, chosen: list[int]) -> None:
    # a Slitherlink-like clue on the 3x3 points grid: the top-left square uses exactly two of its sides
    sides = [chosen[0], chosen[6], chosen[2], chosen[7]]
    model.exactly(2, sides, label="the 2 in the top-left square", role="clue")


# ------------------------------------------------------------------ the other kinds


def local_case() -> Case:
    """Clauses, an enforced weighted sum, an all-different: everything but the graphs."""

    def build() -> Model:
        model = Model("local")
        a, b, c, d = (model.boolean(name, own=True) for name in "abcd")
        x = model.integer("x", range(3), own=True)
        y = model.integer("y", range(3), own=True)
        model.all_different([x, y], label="x and y differ")
        model.clause([a, -b, c], label="a or not b or c")
        model.linear([(2, a), (3, b), (1, -d)], "<=", 3, label="2a + 3b + (1-d) <= 3", enforce=[c])
        model.at_least(1, [b, d, x.eq(2)], label="b, d or x = 2")
        model.at_most(1, [c, d], label="not both c and d")
        model.implies([a, b], y.eq(0), label="a and b give y = 0")
        return _decoded(model)

    return Case("local", build)


def cover_case() -> Case:
    """Only what exact cover takes (exactly-one, at-most-one, a unit): dominoes on a 2x3 board."""

    def build() -> Model:
        model = Model("cover")
        cells = [(r, c) for r in range(2) for c in range(3)]
        placements = [((r, c), (r, c + 1)) for r in range(2) for c in range(2)]
        placements += [((0, c), (1, c)) for c in range(3)]
        chosen = {p: model.boolean(("domino", *p), own=True) for p in placements}
        for cell in cells:
            model.exactly(1, [lit for p, lit in chosen.items() if cell in p], label=f"cell {cell} is covered once")
        model.at_most(1, [chosen[((0, 0), (1, 0))], chosen[((0, 1), (1, 1))]], label="one upright domino on the left")
        model.exactly(2, [lit for (a, b), lit in chosen.items() if a[0] == b[0]], label="two flat dominoes")
        model.fix(chosen[((0, 2), (1, 2))], label="the right column is upright", role="given")
        return _decoded(model)

    return Case("cover", build)


def unsat_case() -> Case:
    def build() -> Model:
        model = Model("unsat")
        chosen = [model.boolean(("v", i), own=True) for i in range(4)]
        model.connected(chosen, [(0, 1), (2, 3)], label="connected")
        model.fix(chosen[0], label="0 is chosen")
        model.fix(chosen[3], label="3 is chosen")
        return _decoded(model)

    return Case("unsat", build)


def auxiliary_case() -> Case:
    """Own variables and free auxiliaries: counts must project (4 solutions, not 16)."""

    def build() -> Model:
        model = Model("auxiliary")
        own = [model.boolean(("own", i)) for i in range(2)]
        model.own.extend(own)
        spare = [model.boolean(("spare", i)) for i in range(2)]
        model.clause([own[0], own[1], spare[0], -spare[0]], label="always")
        model.at_most(2, [*own, *spare], label="at most two")
        return _decoded(model)

    return Case("auxiliary", build)


def cases() -> list[Case]:
    p4 = (4, [(0, 1), (1, 2), (2, 3)])
    points = grid(3, 3)
    return [
        connected_case("connected-path4", *p4),
        connected_case("connected-grid2x3", *grid(2, 3)),
        connected_case("connected-grid3x3-k4", *grid(3, 3), k=4),
        connected_case("connected-two-parts", 5, [(0, 1), (1, 2), (3, 4)]),
        connected_case("connected-star", 5, [(0, 1), (0, 2), (0, 3), (0, 4)]),
        connected_case("connected-isolated", 3, []),
        cycle_case("cycle-points3x3", *points),
        cycle_case("cycle-points3x3-top", *points, extra=_top_edge_used),
        cycle_case("cycle-points3x3-clue2", *points, extra=_square_has_two),
        cycle_case("cycle-points3x4", *grid(3, 4)),
        cycle_case("cycle-k4", *_k4()),
        cycle_case("cycle-two-triangles", *_two_triangles()),
        cycle_case("cycle-no-edges", 3, []),
        local_case(),
        cover_case(),
        unsat_case(),
        auxiliary_case(),
    ]


def _refuse(*_: object) -> None:
    raise UsageError("the cases family has no files: its levels are built in tests/model_cases.py")


FAMILY = Family(
    name=FAMILY_NAME,
    parse=_refuse,
    parse_text=_refuse,
    validate=lambda level, solution: [],  # the brute force referees these; the compilers' answers are compared
    render=lambda level, solution=None: level.name if solution is None else str(solution.keys),
    canonical=lambda level, solution: solution.keys,
    solution_from_json=lambda level, data: Chosen(tuple(tuple(k) if isinstance(k, list) else k for k in data["true"])),
    describe=lambda level: f"cases: {level.name}",
    sniff=lambda path, text: False,
    constraints=lambda level: level.build(),
    constraint_kinds=frozenset(KINDS),
)


def register() -> None:
    from trisolve import models

    models.register(FAMILY)


def unregister() -> None:
    from trisolve import models

    models.unregister(FAMILY_NAME)
