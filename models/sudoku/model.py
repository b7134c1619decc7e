"""Sudoku: fill the grid so that every row, every column and every box holds each digit once.

Written from the rules alone; nothing here imports a backend (the validator is the referee).

A grid is N x N with N one of 4, 6, 9, 16 and 25, as puzz.link draws them: boxes
of 2x2, 3 wide by 2 tall, 3x3, 4x4 and 5x5 cells.  Digits run from 1 to N.
Cells are ``(row, col)``, numbered ``row * N + col`` in reading order.  A
solution is the filled grid (the published form: ``{"grid": [[d, ...], ...]}``,
row by row).  The file format and the link format are in docs/sudoku.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from .. import grids, puzzlink
from ..errors import AddressError
from ..files import listed, whole

GENRE = "sudoku"
#: The sizes puzz.link offers, and their boxes: N -> (box width, box height) in cells.
BOXES: Mapping[int, tuple[int, int]] = {4: (2, 2), 6: (3, 2), 9: (3, 3), 16: (4, 4), 25: (5, 5)}
MAX_SIDE = max(BOXES)
EXAMPLE = "sudoku 9x9"
SIZES = "4x4, 6x6 (boxes 3 wide and 2 tall), 9x9, 16x16 or 25x25"


def size_problem(width: int, height: int) -> str | None:
    """Why a grid of this size is no sudoku trisolve reads (None: it is one)."""
    if width != height or width not in BOXES:
        return f"a {width}x{height} sudoku: the grids are {SIZES}"
    return None


@dataclass(frozen=True)
class Level:
    """A Sudoku: ``size`` N and ``givens`` per cell in reading order, None (to fill) or a digit 1-N."""

    size: int
    givens: tuple[int | None, ...]
    name: str = ""

    def _repr_svg_(self) -> str:
        from .picture import picture

        return picture(self, None)

    @property
    def box(self) -> tuple[int, int]:
        """(width, height) of a box, in cells."""
        return BOXES[self.size]

    def box_of(self, row: int, col: int) -> int:
        """The box of a cell, numbered in reading order."""
        width, height = self.box
        return (row // height) * (self.size // width) + col // width

    @cached_property
    def given_cells(self) -> tuple[tuple[int, int, int], ...]:
        """(row, col, digit) of every given, in reading order."""
        return tuple((*divmod(cell, self.size), d) for cell, d in enumerate(self.givens) if d is not None)

    @cached_property
    def obstruction(self) -> str | None:
        """Why the level plainly has no solution, else None: two equal givens in a row, column or box."""
        seen: dict[tuple[str, int, int], tuple[int, int]] = {}
        for row, col, digit in self.given_cells:
            for unit, number in (("row", row), ("column", col), ("box", self.box_of(row, col))):
                other = seen.setdefault((unit, number, digit), (row, col))
                if other != (row, col):
                    return f"the {digit}s at {other} and {(row, col)} share a {unit}"
        return None

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The turns and mirrors of the grid that map boxes onto boxes and keep every given, as cell
        permutations (``perm[i]`` is where cell i goes), identity first.  (Relabelling digits, and swapping
        rows within a band, are symmetries of the rules too; they are not listed.)"""
        n = self.size
        boxes = [self.box_of(*divmod(cell, n)) for cell in range(n * n)]
        found = []
        for move in grids.moves(n, n):
            perm = grids.permutation(move, n, n)
            if any(self.givens[perm[c]] != d for c, d in enumerate(self.givens)):
                continue
            image: dict[int, int] = {}
            if all(image.setdefault(boxes[c], boxes[perm[c]]) == boxes[perm[c]] for c in range(n * n)):
                found.append(perm)
        return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class Solution:
    """The filled grid, row by row."""

    grid: tuple[tuple[int, ...], ...]

    def to_json(self) -> dict:
        return {"grid": [list(row) for row in self.grid]}


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the cell it concerns where there is one."""

    rule: str
    message: str
    cell: tuple[int, int] | None = None


# ------------------------------------------------------------------ reading


def _given(token: grids.Token, file: str, size: int) -> int | None:
    def problem(number: int, text: str) -> str | None:
        if 1 <= number <= size:
            return None
        return f"{text} is out of range: the digits of a {size}x{size} sudoku are 1-{size} ('.' is an empty cell)"

    return grids.cell_value(
        token,
        file,
        f"'.' (to fill) or a digit 1-{size}",
        problem,
        unknown="a given without its digit ('?') means nothing in sudoku: write '.' (to fill)",
    )


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """A level in the sudoku file format, or a file holding its puzz.link link (docs/sudoku.md)."""
    linked = puzzlink.linked_level(text, file, parse_link)
    if linked is not None:
        return Level(linked.size, linked.givens, name or linked.name)
    grid = grids.read_grid(text, file, GENRE, MAX_SIDE, EXAMPLE, size_problem)
    return Level(grid.width, tuple(_given(token, file, grid.width) for token in grid.tokens), name)


def parse(path: str) -> Level:
    """A level file (or a puzz.link link given in place of one), with errors naming the file and line."""
    return grids.read_level(path, parse_text, parse_link)


def parse_link(address: str) -> Level:
    """A puzz.link sudoku link (``https://puzz.link/p?sudoku/<n>/<n>/<body>``)."""
    link = puzzlink.split(address, GENRE, MAX_SIDE)
    problem = size_problem(link.cols, link.rows)
    if problem is not None:
        raise AddressError(link.size_at, problem)
    n = link.cols

    def check(cell: int, digit: int) -> str | None:
        where = f"(row {cell // n + 1}, column {cell % n + 1})"
        if digit == puzzlink.UNKNOWN:
            return f"'.' {where}, a given without its digit, means nothing in sudoku"
        if not 1 <= digit <= n:
            return f"given {digit} {where} is out of range: the digits of a {n}x{n} sudoku are 1-{n}"
        return None

    return Level(n, tuple(puzzlink.decode_numbers(link, check)), link.name)


def write_link(level: Level) -> str:
    """The level's puzz.link link, as pzpr.js writes it."""
    return puzzlink.address(GENRE, level.size, level.size, puzzlink.encode_numbers(level.givens))


def format_level(level: Level) -> str:
    """The level as a file; ``parse_text(format_level(l))`` equals ``l`` (name aside)."""
    cells = ["." if d is None else str(d) for d in level.givens]
    return grids.format_rows(f"{GENRE} {level.size}x{level.size}", level.size, cells)


# ------------------------------------------------------------------ the referee


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Check a filled grid against the rules alone; an empty list means valid.

    N rows of N digits 1-N; every given kept; no digit twice in a row, a column or a box.
    """
    n = level.size
    grid = solution.grid
    if len(grid) != n or any(not isinstance(row, tuple) or len(row) != n for row in grid):
        return [Violation("shape", f"the grid is not {n} rows of {n} digits")]
    violations: list[Violation] = []
    for r in range(n):
        for c in range(n):
            value = grid[r][c]
            if type(value) is not int or not 1 <= value <= n:
                violations.append(Violation("digit", f"cell {(r, c)} holds {value!r}, not a digit 1-{n}", (r, c)))
    if violations:
        return violations
    for r, c, digit in level.given_cells:
        if grid[r][c] != digit:
            violations.append(Violation("given", f"cell {(r, c)} is given {digit}, holds {grid[r][c]}", (r, c)))
    units: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for r in range(n):
        for c in range(n):
            for unit in (("row", r), ("column", c), ("box", level.box_of(r, c))):
                units.setdefault(unit, []).append((r, c))
    for (kind, number), cells in units.items():
        digits = [grid[r][c] for r, c in cells]
        for digit in sorted(set(d for d in digits if digits.count(d) > 1)):
            where = [cell for cell in cells if grid[cell[0]][cell[1]] == digit]
            violations.append(Violation(kind, f"{kind} {number} holds {digit} {len(where)} times", where[0]))
    return violations


# ------------------------------------------------------------------ text


def render(level: Level, solution: Solution | None = None) -> str:
    """The grid as text, boxes marked by '|' and '-' lines; '.' an empty cell.  Without a solution: the givens."""
    n = level.size
    width, height = level.box
    wide = len(str(n))
    lines = []
    for r in range(n):
        if r and r % height == 0:
            lines.append("-+-".join("-" * (width * (wide + 1) - 1) for _ in range(n // width)))
        row = []
        for c in range(n):
            value = solution.grid[r][c] if solution is not None else level.givens[r * n + c]
            row.append(("." if value is None else str(value)).rjust(wide))
        lines.append(" | ".join(" ".join(row[b : b + width]) for b in range(0, n, width)))
    return "\n".join(lines) + "\n"


def describe(level: Level) -> str:
    """One line about the level, for headers and progress."""
    width, height = level.box
    text = (
        f"sudoku {level.size}x{level.size} (boxes {width}x{height}): {len(level.given_cells)} givens, "
        f"{len(level.symmetries)} symmetries"
    )
    return text + (f"; no solution: {level.obstruction}" if level.obstruction else "")


# ------------------------------------------------------------------ solutions


def canonical(level: Level, solution: Solution) -> tuple:
    """A key equal for equal grids."""
    return solution.grid


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """``{"grid": [[d, ...], ...]}`` back, exactly: a digit of 1.9, true or " 1 " is a ValueError."""
    rows = []
    for r, row in enumerate(listed(data["grid"], "grid"), 1):
        rows.append(tuple(whole(v, f"grid row {r}") for v in listed(row, f"grid row {r}")))
    return Solution(tuple(rows))


def apply_symmetry(level: Level, perm: Sequence[int], solution: Solution) -> Solution:
    """The grid moved by one of ``level.symmetries``."""
    n = level.size
    cells = [0] * (n * n)
    for cell in range(n * n):
        cells[perm[cell]] = solution.grid[cell // n][cell % n]
    return Solution(tuple(tuple(cells[r * n : r * n + n]) for r in range(n)))


def symmetry_key(level: Level, solution: Solution) -> tuple[int, ...]:
    """The vector compared by the lex-leader convention: the digits in reading order."""
    return tuple(d for row in solution.grid for d in row)


# ------------------------------------------------------------------ the minimiser


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller variants: one given taken away (the grid's size is part of the rules, so it stays)."""
    return [
        Level(level.size, level.givens[:cell] + (None,) + level.givens[cell + 1 :], level.name)
        for cell, digit in enumerate(level.givens)
        if digit is not None
    ]
