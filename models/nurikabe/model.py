"""Nurikabe: shade cells so that all shaded cells are connected, no 2x2 block is shaded, and each
unshaded island holds exactly one number, equal to its size.

Written from the rules alone; nothing here imports a backend (the validator is the referee).

Cells are ``(row, col)``, numbered ``row * width + col`` in reading order.  A
clue cell is never shaded.  A clue may be ``UNKNOWN`` (``?``, pzpr.js's ``.``):
its island holds exactly one clue cell, as every island does, and may have any
size.  A solution is the set of shaded cells (the published form:
``{"shaded": [[r, c], ...]}``).  The file format and the link format are in
docs/nurikabe.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from .. import grids, puzzlink
from ..files import listed, whole

GENRE = "nurikabe"
#: Largest width and height accepted, checked before anything is built.
MAX_SIDE = 64
#: A clue whose number is not given ('?'): its island may have any size.
UNKNOWN = puzzlink.UNKNOWN
EXAMPLE = "nurikabe 5x5"

Cell = tuple[int, int]


@dataclass(frozen=True)
class Level(grids.CluedGrid):
    """A Nurikabe puzzle: ``clues`` per cell in reading order, None (no clue), a size 1 or more, or ``UNKNOWN``."""

    def _repr_svg_(self) -> str:
        from .picture import picture

        return picture(self, None)

    def neighbours(self, row: int, col: int) -> list[Cell]:
        """The cells sharing a side with (row, col)."""
        found = [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        return [(r, c) for r, c in found if 0 <= r < self.height and 0 <= c < self.width]

    @cached_property
    def clue_cells(self) -> tuple[tuple[int, int, int], ...]:
        """(row, col, clue) of every clue cell, ``UNKNOWN`` included, in reading order."""
        return tuple((*divmod(cell, self.width), clue) for cell, clue in enumerate(self.clues) if clue is not None)

    @cached_property
    def obstruction(self) -> str | None:
        """Why the level plainly has no solution, else None: the islands need more cells than the grid has."""
        needed = sum(clue if clue != UNKNOWN else 1 for _, _, clue in self.clue_cells)
        if needed > self.cell_count:
            return (
                f"the islands need at least {needed} cells, the {self.width}x{self.height} grid has {self.cell_count}"
            )
        return None

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The turns and mirrors of the grid that keep every clue, as cell permutations (``perm[i]`` is where
        cell i goes), identity first."""
        found = []
        for move in grids.moves(self.width, self.height):
            perm = grids.permutation(move, self.height, self.width)
            if all(self.clues[perm[c]] == clue for c, clue in enumerate(self.clues)):
                found.append(perm)
        return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class Solution:
    """The shaded cells ``(row, col)``, sorted (build one with ``Solution.of``)."""

    shaded: tuple[Cell, ...]

    @classmethod
    def of(cls, cells: Iterable[Sequence[int]]) -> Solution:
        return cls(tuple(sorted(tuple(cell) for cell in cells)))  # type: ignore[misc]

    def to_json(self) -> dict:
        return {"shaded": [list(cell) for cell in self.shaded]}


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the cell it concerns where there is one."""

    rule: str
    message: str
    cell: Cell | None = None


# ------------------------------------------------------------------ reading


def _clue(token: grids.Token, file: str, cells: int) -> int | None:
    def problem(number: int, text: str) -> str | None:
        if number < 1:
            return f"clue {text} is out of range: an island holds its clue cell, so 1 or more"
        if number > cells:
            return f"clue {text} cannot fit: an island of {text} cells in a grid of {cells}"
        return None

    expected = "'.' (no clue), an island size 1 or more, or '?' (a clue without its size)"
    return grids.cell_value(token, file, expected, problem)


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """A level in the nurikabe file format, or a file holding its puzz.link link (docs/nurikabe.md)."""
    linked = puzzlink.linked_level(text, file, parse_link)
    if linked is not None:
        return Level(linked.width, linked.height, linked.clues, name or linked.name)
    grid = grids.read_grid(text, file, GENRE, MAX_SIDE, EXAMPLE)
    cells = grid.width * grid.height
    return Level(grid.width, grid.height, tuple(_clue(token, file, cells) for token in grid.tokens), name)


def parse(path: str) -> Level:
    """A level file (or a puzz.link link given in place of one), with errors naming the file and line."""
    return grids.read_level(path, parse_text, parse_link)


def parse_link(address: str) -> Level:
    """A puzz.link nurikabe link (``https://puzz.link/p?nurikabe/<cols>/<rows>/<body>``)."""
    link = puzzlink.split(address, GENRE, MAX_SIDE)

    def check(cell: int, clue: int) -> str | None:
        if clue == UNKNOWN or 1 <= clue <= link.cells:
            return None
        where = f"(row {cell // link.cols + 1}, column {cell % link.cols + 1})"
        if clue < 1:
            return f"clue {clue} {where} is out of range: an island holds its clue cell, so 1 or more"
        return f"clue {clue} {where} cannot fit: an island of {clue} cells in a {link.cols}x{link.rows} grid"

    return Level(link.cols, link.rows, tuple(puzzlink.decode_numbers(link, check)), link.name)


def write_link(level: Level) -> str:
    """The level's puzz.link link, as pzpr.js writes it."""
    return puzzlink.address(GENRE, level.width, level.height, puzzlink.encode_numbers(level.clues))


def _symbol(clue: int | None) -> str:
    return "." if clue is None else "?" if clue == UNKNOWN else str(clue)


def format_level(level: Level) -> str:
    """The level as a file; ``parse_text(format_level(l))`` equals ``l`` (name aside)."""
    return grids.format_rows(f"{GENRE} {level.width}x{level.height}", level.width, [_symbol(c) for c in level.clues])


# ------------------------------------------------------------------ the referee


def islands(level: Level, shaded: set[Cell]) -> list[list[Cell]]:
    """The unshaded islands: groups of unshaded cells joined side to side, each in reading order."""
    found: list[list[Cell]] = []
    seen: set[Cell] = set()
    for row in range(level.height):
        for col in range(level.width):
            if (row, col) in shaded or (row, col) in seen:
                continue
            seen.add((row, col))
            island, todo = [], [(row, col)]
            while todo:
                cell = todo.pop()
                island.append(cell)
                for nb in level.neighbours(*cell):
                    if nb not in shaded and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
            found.append(sorted(island))
    return found


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Check a shading against the rules alone; an empty list means valid.

    Every shaded cell is a cell of the grid, listed once, and holds no clue; the
    shaded cells are connected; no 2x2 block is shaded; every island holds exactly
    one clue, and a numbered island has that many cells.
    """
    violations: list[Violation] = []
    shaded: set[Cell] = set()
    for cell in solution.shaded:
        if not (
            isinstance(cell, tuple)
            and len(cell) == 2
            and all(type(v) is int for v in cell)
            and 0 <= cell[0] < level.height
            and 0 <= cell[1] < level.width
        ):
            violations.append(Violation("cell", f"{cell!r} is not a cell of the {level.width}x{level.height} grid"))
        elif cell in shaded:
            violations.append(Violation("cell", f"cell {cell} is listed twice", cell))
        shaded.add(cell)
    if violations:
        return violations
    clues = {(r, c): clue for r, c, clue in level.clue_cells}
    for cell in sorted(shaded & set(clues)):
        violations.append(Violation("clue", f"cell {cell} holds a clue and is shaded", cell))
    if shaded:
        sea = islands(level, {(r, c) for r in range(level.height) for c in range(level.width)} - shaded)
        if len(sea) > 1:
            violations.append(
                Violation("sea", f"the shaded cells fall into {len(sea)} separate groups; they must be connected")
            )
    for row in range(level.height - 1):
        for col in range(level.width - 1):
            if {(row, col), (row + 1, col), (row, col + 1), (row + 1, col + 1)} <= shaded:
                violations.append(Violation("pool", f"the 2x2 block at {(row, col)} is all shaded", (row, col)))
    for island in islands(level, shaded):
        inside = [cell for cell in island if cell in clues]
        if len(inside) != 1:
            what = "no clue" if not inside else f"{len(inside)} clues"
            violations.append(
                Violation("island", f"the island at {island[0]} holds {what}; it must hold one", island[0])
            )
        elif clues[inside[0]] != UNKNOWN and clues[inside[0]] != len(island):
            violations.append(
                Violation(
                    "size",
                    f"the island of clue {clues[inside[0]]} at {inside[0]} has {len(island)} cells",
                    inside[0],
                )
            )
    return violations


# ------------------------------------------------------------------ text


def render(level: Level, solution: Solution | None = None) -> str:
    """The grid as text: '#' a shaded cell, '.' an unshaded one, the clues in their cells.  Without a
    solution: the level in the file format's rows."""
    shaded = set(solution.shaded) if solution is not None else set()
    symbols = []
    for cell, clue in enumerate(level.clues):
        symbols.append("#" if divmod(cell, level.width) in shaded else _symbol(clue))
    return grids.format_rows("", level.width, symbols).lstrip("\n")


def describe(level: Level) -> str:
    """One line about the level, for headers and progress."""
    unknown = sum(clue == UNKNOWN for _, _, clue in level.clue_cells)
    extra = f" ({unknown} without a size)" if unknown else ""
    text = (
        f"nurikabe {level.width}x{level.height}: {len(level.clue_cells)} clues{extra}, "
        f"{len(level.symmetries)} symmetries"
    )
    return text + (f"; no solution: {level.obstruction}" if level.obstruction else "")


# ------------------------------------------------------------------ solutions


def canonical(level: Level, solution: Solution) -> tuple:
    """A key equal for equal shadings."""
    return tuple(sorted(solution.shaded))


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """``{"shaded": [[r, c], ...]}`` back, exactly: a coordinate of 1.9, true or " 1 " is a ValueError."""
    cells = []
    for number, cell in enumerate(listed(data["shaded"], "shaded"), 1):
        coordinates = listed(cell, f"shaded cell {number}")
        if len(coordinates) != 2:
            raise ValueError(f"shaded cell {number} must be [row, col]")
        cells.append(tuple(whole(v, f"shaded cell {number}") for v in coordinates))
    return Solution.of(cells)


def apply_symmetry(level: Level, perm: Sequence[int], solution: Solution) -> Solution:
    """The shading moved by one of ``level.symmetries``."""
    return Solution.of(divmod(perm[level.cell(r, c)], level.width) for r, c in solution.shaded)


def symmetry_key(level: Level, solution: Solution) -> tuple[int, ...]:
    """The vector compared by the lex-leader convention: the shaded cells' numbers, ascending."""
    return tuple(sorted(level.cell(r, c) for r, c in solution.shaded))


# ------------------------------------------------------------------ the minimiser


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller variants, each one step down: the last row or column dropped (with its clues; clues too big
    for the smaller grid become '?'), or one clue taken away."""
    w, h = level.width, level.height
    found = []

    def fitted(width: int, height: int, clues: Iterable[int | None]) -> Level:
        room = width * height
        return Level(width, height, tuple(UNKNOWN if c is not None and c > room else c for c in clues), level.name)

    if h > 1:
        found.append(fitted(w, h - 1, level.clues[: w * (h - 1)]))
    if w > 1:
        found.append(fitted(w - 1, h, (c for i, c in enumerate(level.clues) if i % w != w - 1)))
    for cell, clue in enumerate(level.clues):
        if clue is not None and len(level.clue_cells) > 1:
            found.append(Level(w, h, level.clues[:cell] + (None,) + level.clues[cell + 1 :], level.name))
    return found
