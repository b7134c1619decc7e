"""Small constraint models, each stated once and counted two ways: by the brute force of
``trisolve.constraints.semantics`` (the referee) and by every compiler and variant that takes it.

``register()`` adds a family ``cases`` whose levels are these models: a family stated only as a constraint
model, which every backend with a ``compiled`` translator runs with no file under backends/ naming it.  A
solution is the tuple of the own variables' keys that are true.  ``cases`` declares every kind, so only the
compilers that take them all run it; ``family_of(case)`` is a family of the same levels declaring the case's
kinds only (``cases-<name>``), which every compiler of those kinds takes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
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


def grid_turns(rows: int, cols: int) -> list[list[int]]:
    """The vertex permutations of a rows x cols grid graph that keep its edges (turns and mirrors), identity
    left out: ``perm[v]`` is where vertex v goes."""
    moves = [lambda r, c: (rows - 1 - r, c), lambda r, c: (r, cols - 1 - c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
    if rows == cols:
        moves += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, r),
        ]
    return [[_at(cols, *move(v // cols, v % cols)) for v in range(rows * cols)] for move in moves]


def _at(cols: int, r: int, c: int) -> int:
    return r * cols + c


def connected_case(
    name: str,
    vertex_count: int,
    edges: list[tuple[int, int]],
    k: int | None = None,
    turns: list | None = None,
    fixed: tuple[int, ...] = (),
    counted: tuple[int, ...] = (),
) -> Case:
    """A connected set over the graph; ``fixed`` vertices are chosen by a unit clause, ``counted`` ones by an
    exactly-one over the vertex alone (a compiler finds both forced, and may root the set at one)."""

    def build() -> Model:
        model = Model(name)
        chosen = [model.boolean(("v", i), own=True) for i in range(vertex_count)]
        model.connected(chosen, edges, label="the chosen vertices are connected")
        if k is not None:
            model.exactly(k, chosen, label=f"{k} vertices are chosen")
        for v in fixed:
            model.fix(chosen[v], label=f"vertex {v} is chosen", role="clue")
        for v in counted:
            model.exactly(1, [chosen[v]], label=f"vertex {v} is counted in")
        for perm in turns or ():
            model.symmetry({chosen[v]: chosen[perm[v]] for v in range(vertex_count)})
        return _decoded(model)

    return Case(name, build)


def cycle_case(
    name: str,
    vertex_count: int,
    edges: list[tuple[int, int]],
    extra: Callable | None = None,
    turns: list | None = None,
) -> Case:
    def build() -> Model:
        model = Model(name)
        chosen = [model.boolean(("e", a, b), own=True) for a, b in edges]
        model.single_cycle(vertex_count, [(a, b, lit) for (a, b), lit in zip(edges, chosen)], label="one loop")
        if extra is not None:
            extra(model, chosen)
        of_edge = {frozenset(e): lit for e, lit in zip(edges, chosen)}
        for perm in turns or ():
            model.symmetry({lit: of_edge[frozenset((perm[a], perm[b]))] for (a, b), lit in zip(edges, chosen)})
        return _decoded(model)

    return Case(name, build)


def _two_triangles() -> tuple[int, list[tuple[int, int]]]:
    return 6, [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)]


def _pockets() -> tuple[int, list[tuple[int, int]]]:
    """A 2x3 grid with a pendant path of two off one corner and a pendant vertex off another: pockets behind
    narrow fences."""
    vertices, edges = grid(2, 3)
    return vertices + 3, [*edges, (5, 6), (6, 7), (0, 8)]


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
        # a search hint (no rule): dominoes by their first cell, as sigils states it
        model.prefer(list(chosen.values()), rank=[-(3 * p[0][0] + p[0][1]) for p in chosen])
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
        model.prefer([-spare[1], spare[0], own[1]])  # a search hint over auxiliaries too: the count stays 4
        return _decoded(model)

    return Case("auxiliary", build)


def latin_case() -> Case:
    """A 3x3 Latin square with one given: integers under all-different, every value taken (4 squares)."""

    def build() -> Model:
        model = Model("latin")
        cell = {(r, c): model.integer(("cell", r, c), range(3), own=True) for r in range(3) for c in range(3)}
        for r in range(3):
            model.all_different([cell[r, c] for c in range(3)], label=f"row {r} holds each digit once")
        for c in range(3):
            model.all_different([cell[r, c] for r in range(3)], label=f"column {c} holds each digit once")
        model.fix(cell[0, 0].eq(0), label="the 0 at the top left", role="given")
        return _decoded(model)

    return Case("latin", build)


def choices_case() -> Case:
    """What exact cover must get right beyond plain items: exactly k in order, a negative unit, an own
    variable no constraint names (twice the count), auxiliaries (in an at-most-one only, or free in an
    exactly-one: covers project), all-different over unequal domains, exactly none."""

    def build() -> Model:
        model = Model("choices")
        a, b, c, d, e, free = (model.boolean(name, own=True) for name in ("a", "b", "c", "d", "e", "free"))
        model.exactly(2, [a, b, c, d], label="two of a, b, c, d")
        model.fix(-a, label="not a")
        model.at_most(1, [c, e], label="not both c and e")
        spare = model.boolean("spare")
        model.at_most(1, [spare, b], label="not both spare and b")
        left, right = model.boolean("left"), model.boolean("right")
        model.exactly(1, [left, right], label="left or right")
        x = model.integer("x", [1, 2, 3], own=True)
        y = model.integer("y", [2, 3, 4], own=True)
        model.all_different([x, y], label="x and y differ")
        never = model.boolean("never", own=True)
        model.exactly(0, [never], label="never")
        return _decoded(model)

    return Case("choices", build)


def numbers_case(name: str, rows: int, cols: int, tiles: dict[int, int], as_integers: bool) -> Case:
    """A small Hexiom on a grid: tiles numbered d go on cells with exactly d occupied neighbours, as many of
    each number as ``tiles`` says.  A cell is an integer (-1: empty) or a Boolean per number under an
    at-most-one: either way "a tile d has d occupied neighbours" is one enforced count per number, which the
    compilers may group (a cell's tiles: occupied) and channel (its number is its count)."""

    def build() -> Model:
        model = Model(name)
        cells, edges = grid(rows, cols)
        around: list[list[int]] = [[] for _ in range(cells)]
        for a, b in edges:
            around[a].append(b)
            around[b].append(a)
        numbers = sorted(tiles)
        if as_integers:
            cell = [model.integer(("cell", c), [-1, *numbers], own=True) for c in range(cells)]
            tile = {(c, d): cell[c].eq(d) for c in range(cells) for d in numbers}
        else:
            tile = {(c, d): model.boolean(("tile", c, d), own=True) for c in range(cells) for d in numbers}
            for c in range(cells):
                model.at_most(1, [tile[c, d] for d in numbers], label=f"cell {c} holds one tile at most")
        for d, count in tiles.items():
            model.exactly(count, [tile[c, d] for c in range(cells)], label=f"{count} tiles numbered {d}")
        for (c, d), lit in tile.items():
            occupied = [tile[n, e] for n in around[c] for e in numbers]
            model.exactly(d, occupied, label=f"a {d} on cell {c} has {d} occupied neighbours", enforce=[lit])
        if as_integers:  # a search hint for counting, as Hexiom states it: occupancy first, occupied first
            model.prefer([-cell[c].eq(-1) for c in range(cells)], counting=True)
        return _decoded(model)

    return Case(name, build)


def degenerate_cases() -> list[Case]:
    """Models with nothing to decide: no variable (one solution, the empty one), no own variable (one
    solution when any assignment holds), an empty clause (none)."""

    def nothing() -> Model:
        return _decoded(Model("nothing"))

    def nothing_own() -> Model:
        model = Model("nothing-own")
        hidden = [model.boolean(("hidden", i)) for i in range(3)]
        model.exactly(1, hidden, label="one of three hidden")
        return _decoded(model)

    def never() -> Model:
        model = Model("empty-clause")
        model.boolean("a", own=True)
        model.clause([], label="never")
        return _decoded(model)

    return [Case("nothing", nothing), Case("nothing-own", nothing_own), Case("empty-clause", never)]


def cases() -> list[Case]:
    p4 = (4, [(0, 1), (1, 2), (2, 3)])
    points = grid(3, 3)
    return [
        connected_case("connected-path4", *p4),
        connected_case("connected-grid2x3", *grid(2, 3)),
        connected_case("connected-grid3x3-k4", *grid(3, 3), k=4, turns=grid_turns(3, 3)),
        connected_case("connected-two-parts", 5, [(0, 1), (1, 2), (3, 4)]),
        connected_case("connected-star", 5, [(0, 1), (0, 2), (0, 3), (0, 4)]),
        connected_case("connected-isolated", 3, []),
        connected_case("connected-grid3x3-centre", *grid(3, 3), fixed=(4,)),
        connected_case("connected-grid3x3-corners", *grid(3, 3), fixed=(0, 8)),
        connected_case("connected-grid3x4-k5-side", *grid(3, 4), k=5, counted=(5,)),
        connected_case("connected-pockets", *_pockets(), fixed=(7,)),
        connected_case("connected-pockets-root", *_pockets(), fixed=(1, 8)),
        connected_case("connected-two-parts-fixed", 5, [(0, 1), (1, 2), (3, 4)], fixed=(4,)),
        connected_case("connected-apart-fixed", 5, [(0, 1), (1, 2), (3, 4)], fixed=(0, 4)),
        cycle_case("cycle-points3x3", *points, turns=grid_turns(3, 3)),
        cycle_case("cycle-points3x3-top", *points, extra=_top_edge_used),
        cycle_case("cycle-points3x3-clue2", *points, extra=_square_has_two),
        cycle_case("cycle-points3x4", *grid(3, 4), turns=grid_turns(3, 4)),
        cycle_case("cycle-k4", *_k4()),
        cycle_case("cycle-two-triangles", *_two_triangles()),
        cycle_case("cycle-no-edges", 3, []),
        local_case(),
        cover_case(),
        unsat_case(),
        auxiliary_case(),
        latin_case(),
        numbers_case("numbers-int", 2, 3, {1: 2, 2: 2}, as_integers=True),
        numbers_case("numbers-bool", 2, 2, {1: 2, 2: 1}, as_integers=False),
        choices_case(),
        *degenerate_cases(),
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


def family_of(case: Case) -> str:
    """The family declaring exactly the kinds ``case`` uses (registered by ``register``)."""
    return f"{FAMILY_NAME}-{case.name}"


def register() -> None:
    from trisolve import models

    models.register(FAMILY)
    for case in cases():
        models.register(replace(FAMILY, name=family_of(case), constraint_kinds=case.build().kinds()))


def unregister() -> None:
    from trisolve import models

    models.unregister(FAMILY_NAME)
    for case in cases():
        models.unregister(family_of(case))
