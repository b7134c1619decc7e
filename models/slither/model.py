"""Slitherlink: draw one loop along the grid lines; a number in a cell says how many of its four sides
the loop uses.

Written from the rules alone; nothing here imports a backend (the validator is the referee).

A grid of W x H cells has (W+1) x (H+1) points ``(row, col)``, 0 <= row <= H,
0 <= col <= W.  An edge joins two neighbouring points, written ``(a, b)`` with
``a < b``; ``Level.edges`` numbers them plainly: the horizontal edges row by row,
then the vertical ones.  A solution is the set of edges the loop uses (the
published form: ``{"edges": [[[r, c], [r, c]], ...]}``).  The file format and the
link format are in docs/slither.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from .. import grids, puzzlink
from ..files import listed, whole

GENRE = "slither"
#: Largest width and height accepted, checked before anything is built.
MAX_SIDE = 100
#: A clue cell whose number is not given ('?'): the loop may use any number of its sides.
UNKNOWN = puzzlink.UNKNOWN
#: pzpr.js's display option for slither links (drawn with all grid lines): read, dropped.
LINK_FLAGS = "f"
EXAMPLE = "slither 5x5"

Point = tuple[int, int]
Edge = tuple[Point, Point]


@dataclass(frozen=True)
class Level(grids.CluedGrid):
    """A Slitherlink puzzle: ``clues`` per cell in reading order, None (no number), 0-4, or ``UNKNOWN``."""

    def _repr_svg_(self) -> str:
        from .picture import picture

        return picture(self, None)

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        """Every edge of the grid: horizontal ones row by row, then vertical ones."""
        w, h = self.width, self.height
        horizontal = [((r, c), (r, c + 1)) for r in range(h + 1) for c in range(w)]
        vertical = [((r, c), (r + 1, c)) for r in range(h) for c in range(w + 1)]
        return tuple(horizontal + vertical)

    @cached_property
    def edge_index(self) -> Mapping[Edge, int]:
        return {edge: i for i, edge in enumerate(self.edges)}

    def sides(self, row: int, col: int) -> tuple[Edge, Edge, Edge, Edge]:
        """The four sides of a cell: top, bottom, left, right."""
        return (
            ((row, col), (row, col + 1)),
            ((row + 1, col), (row + 1, col + 1)),
            ((row, col), (row + 1, col)),
            ((row, col + 1), (row + 1, col + 1)),
        )

    @cached_property
    def numbered(self) -> tuple[tuple[int, int, int], ...]:
        """(row, col, number) of every clue that gives its number."""
        return tuple(
            (*divmod(cell, self.width), clue)
            for cell, clue in enumerate(self.clues)
            if clue is not None and clue != UNKNOWN
        )

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The turns and mirrors of the grid that keep every clue, as permutations of ``edges`` (``perm[e]`` is
        where edge e goes), identity first.  A move that maps a clue onto a different one is left out: it
        would merge solutions that are not equivalent."""
        found = []
        for move in grids.moves(self.width, self.height):
            cells = grids.permutation(move, self.height, self.width)
            if any(self.clues[cells[c]] != clue for c, clue in enumerate(self.clues)):
                continue
            last = (self.height, self.width)
            found.append(tuple(self.edge_index[_edge(move.at(*a, *last), move.at(*b, *last))] for a, b in self.edges))
        return tuple(dict.fromkeys(found))


def _edge(a: Point, b: Point) -> Edge:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Solution:
    """The loop's edges, each ``(a, b)`` with ``a < b``, sorted (build one with ``Solution.of``)."""

    edges: tuple[Edge, ...]

    @classmethod
    def of(cls, edges: Iterable[tuple[Sequence[int], Sequence[int]]]) -> Solution:
        return cls(tuple(sorted(_edge(tuple(a), tuple(b)) for a, b in edges)))  # type: ignore[arg-type]

    def to_json(self) -> dict:
        return {"edges": [[list(a), list(b)] for a, b in self.edges]}


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the point or cell it concerns where there is one."""

    rule: str
    message: str
    where: tuple[int, int] | None = None


# ------------------------------------------------------------------ reading


def _clue(token: grids.Token, file: str) -> int | None:
    return grids.cell_value(
        token,
        file,
        "'.' (no clue), a clue 0-4 or '?' (a clue without its number)",
        lambda number, text: None if number <= 4 else f"clue {text} is out of range: a cell has four sides (0-4)",
    )


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """A level in the slither file format, or a file holding its puzz.link link (docs/slither.md)."""
    linked = puzzlink.linked_level(text, file, parse_link)
    if linked is not None:
        return Level(linked.width, linked.height, linked.clues, name or linked.name)
    grid = grids.read_grid(text, file, GENRE, MAX_SIDE, EXAMPLE)
    return Level(grid.width, grid.height, tuple(_clue(token, file) for token in grid.tokens), name)


def parse(path: str) -> Level:
    """A level file (or a puzz.link link given in place of one), with errors naming the file and line."""
    return grids.read_level(path, parse_text, parse_link)


def parse_link(address: str) -> Level:
    """A puzz.link slither link (``https://puzz.link/p?slither/<cols>/<rows>/<body>``)."""
    link = puzzlink.split(address, GENRE, MAX_SIDE, flags=LINK_FLAGS)
    return Level(link.cols, link.rows, tuple(puzzlink.decode_four(link)), link.name)


def write_link(level: Level) -> str:
    """The level's puzz.link link, as pzpr.js writes it."""
    return puzzlink.address(GENRE, level.width, level.height, puzzlink.encode_four(level.clues))


def _symbol(clue: int | None) -> str:
    return "." if clue is None else "?" if clue == UNKNOWN else str(clue)


def format_level(level: Level) -> str:
    """The level as a file; ``parse_text(format_level(l))`` equals ``l`` (name aside)."""
    return grids.format_rows(f"{GENRE} {level.width}x{level.height}", level.width, [_symbol(c) for c in level.clues])


# ------------------------------------------------------------------ the referee


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Check a loop against the rules alone; an empty list means valid.

    Every edge joins two neighbouring points of the grid, once; every point is
    passed twice or not at all; every number counts the sides of its cell on the
    loop; the edges form one loop (at least one edge, all connected).
    """
    w, h = level.width, level.height
    violations: list[Violation] = []
    used: set[Edge] = set()
    for edge in solution.edges:
        ok = (
            len(edge) == 2
            and all(_is_point(p, w, h) for p in edge)
            and abs(edge[0][0] - edge[1][0]) + abs(edge[0][1] - edge[1][1]) == 1
        )
        if not ok:
            violations.append(Violation("edge", f"{edge!r} does not join two neighbouring points of the grid"))
            continue
        edge = _edge(*edge)
        if edge in used:
            violations.append(Violation("edge", f"edge {edge} is listed twice"))
        used.add(edge)
    if violations:
        return violations
    degree: dict[Point, list[Point]] = {}
    for a, b in used:
        degree.setdefault(a, []).append(b)
        degree.setdefault(b, []).append(a)
    for point in sorted(degree):
        if len(degree[point]) != 2:
            violations.append(
                Violation(
                    "degree",
                    f"the loop meets point {point} {len(degree[point])} times; it passes a point twice or not at all",
                    point,
                )
            )
    for row, col, number in level.numbered:
        on = sum(side in used for side in level.sides(row, col))
        if on != number:
            violations.append(
                Violation("clue", f"cell ({row}, {col}) shows {number}, the loop uses {on} of its sides", (row, col))
            )
    if not used:
        violations.append(Violation("loop", "no loop is drawn"))
    else:
        pieces = _components(degree)
        if pieces > 1:
            violations.append(Violation("loop", f"the lines form {pieces} separate pieces; the rules ask for one loop"))
    return violations


def _is_point(point: object, width: int, height: int) -> bool:
    return (
        isinstance(point, tuple)
        and len(point) == 2
        and all(type(v) is int for v in point)
        and 0 <= point[0] <= height
        and 0 <= point[1] <= width
    )


def _components(neighbours: Mapping[Point, list[Point]]) -> int:
    seen: set[Point] = set()
    pieces = 0
    for start in neighbours:
        if start in seen:
            continue
        pieces += 1
        seen.add(start)
        todo = [start]
        while todo:
            for nb in neighbours[todo.pop()]:
                if nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
    return pieces


# ------------------------------------------------------------------ text


def render(level: Level, solution: Solution | None = None) -> str:
    """The grid as text: '+' points, '---' and '|' the loop's edges, the clues in their cells.
    Without a solution: the points and clues alone."""
    used = set(solution.edges) if solution is not None else set()
    lines = []
    for r in range(level.height + 1):
        lines.append("+" + "+".join("---" if ((r, c), (r, c + 1)) in used else "   " for c in range(level.width)) + "+")
        if r == level.height:
            break
        row = []
        for c in range(level.width + 1):
            row.append("|" if ((r, c), (r + 1, c)) in used else " ")
            if c < level.width:
                clue = level.clues[level.cell(r, c)]
                row.append(f" {'' if clue is None else _symbol(clue)} ".ljust(3))
        lines.append("".join(row))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def describe(level: Level) -> str:
    """One line about the level, for headers and progress."""
    given = sum(clue is not None for clue in level.clues)
    unknown = sum(clue == UNKNOWN for clue in level.clues)
    extra = f" ({unknown} without a number)" if unknown else ""
    return (
        f"slither {level.width}x{level.height}: {given} clues{extra}, {len(level.edges)} edges, "
        f"{len(level.symmetries)} symmetries"
    )


# ------------------------------------------------------------------ solutions


def canonical(level: Level, solution: Solution) -> tuple:
    """A key equal for equal loops."""
    return tuple(sorted(_edge(*e) for e in solution.edges))


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """``{"edges": [[[r, c], [r, c]], ...]}`` back, exactly: a coordinate of 1.9, true or " 1 " is a ValueError."""
    edges = []
    for number, edge in enumerate(listed(data["edges"], "edges"), 1):
        ends = listed(edge, f"edge {number}")
        if len(ends) != 2:
            raise ValueError(f"edge {number} must be two points, not {len(ends)}")
        points = []
        for point in ends:
            coordinates = listed(point, f"edge {number} point")
            if len(coordinates) != 2:
                raise ValueError(f"a point of edge {number} must be [row, col]")
            points.append(tuple(whole(v, f"edge {number} coordinate") for v in coordinates))
        edges.append(points)
    return Solution.of(edges)


def apply_symmetry(level: Level, perm: Sequence[int], solution: Solution) -> Solution:
    """The loop moved by one of ``level.symmetries`` (edge e goes to edge perm[e])."""
    index = level.edge_index
    return Solution(tuple(sorted(level.edges[perm[index[_edge(*e)]]] for e in solution.edges)))


def symmetry_key(level: Level, solution: Solution) -> tuple[int, ...]:
    """The vector compared by the lex-leader convention: the loop's edge numbers (``Level.edges``), ascending;
    a solution is the lex-leader of its orbit when no symmetry gives a smaller one."""
    return tuple(sorted(level.edge_index[_edge(*e)] for e in solution.edges))


# ------------------------------------------------------------------ the minimiser


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller variants, each one step down: the last row or column dropped (its clues with it), or one clue
    taken away."""
    w, h = level.width, level.height
    found = []
    if h > 1:
        found.append(Level(w, h - 1, level.clues[: w * (h - 1)], level.name))
    if w > 1:
        found.append(Level(w - 1, h, tuple(c for i, c in enumerate(level.clues) if i % w != w - 1), level.name))
    for cell, clue in enumerate(level.clues):
        if clue is not None:
            found.append(Level(w, h, level.clues[:cell] + (None,) + level.clues[cell + 1 :], level.name))
    return found
