"""Hexiom: place numbered tiles on a hexagonal board so that each tile numbered d
has exactly d occupied neighbouring cells.

Everything here is written from the rules alone and never imports a backend:
the validator is the referee the backends are checked against.

Cells are numbered in reading order (row by row, left to right), the order of
the tokens in a level file.  Internally a cell also has axial coordinates
(q, r) with r the row offset from the middle row, which makes neighbours and
the 12 symmetries of the hexagon one-liners.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..errors import InstanceTooLarge, LevelSyntaxError, shorten, whole_number
from ..files import read_instance_text

MAX_TILE = 6
#: Largest side accepted; checked before any board is built (side 16 has 721 cells).
MAX_SIDE = 16

AXIAL_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
TOKEN = re.compile(r"(\+?)(\.|[0-9])")


# ---------------------------------------------------------------- topology


@dataclass(frozen=True)
class Board:
    """The hexagon of side ``side``: cells in reading order and their neighbours."""

    side: int

    @cached_property
    def coordinates(self) -> tuple[tuple[int, int], ...]:
        n = self.side - 1
        cells = []
        for r in range(-n, n + 1):
            for q in range(max(-n, -n - r), min(n, n - r) + 1):
                cells.append((q, r))
        return tuple(cells)

    @cached_property
    def index(self) -> Mapping[tuple[int, int], int]:
        return {coord: i for i, coord in enumerate(self.coordinates)}

    @property
    def size(self) -> int:
        return len(self.coordinates)

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Cell indices per row, top to bottom."""
        rows: dict[int, list[int]] = {}
        for i, (_, r) in enumerate(self.coordinates):
            rows.setdefault(r, []).append(i)
        return tuple(tuple(rows[r]) for r in sorted(rows))

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of its adjacent cells (2 to 6 of them)."""
        result = []
        for q, r in self.coordinates:
            adjacent = (self.index.get((q + dq, r + dr)) for dq, dr in AXIAL_DIRECTIONS)
            result.append(tuple(sorted(i for i in adjacent if i is not None)))
        return tuple(result)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The 12 rotations and reflections of the hexagon as cell permutations.

        ``perm[i]`` is the cell that cell ``i`` is moved to.  Element 0 is the
        identity; 0-5 are rotations by 60 degrees, 6-11 rotations after a mirror.
        """

        def rotate(q: int, r: int) -> tuple[int, int]:
            # cube (x, y, z) = (q, -q-r, r) -> (-z, -x, -y)
            return -r, q + r

        def mirror(q: int, r: int) -> tuple[int, int]:
            # swap the cube axes x and z: (q, r) -> (r, q)
            return r, q

        perms = []
        for mirrored in (False, True):
            for turns in range(6):
                perm = []
                for q, r in self.coordinates:
                    if mirrored:
                        q, r = mirror(q, r)
                    for _ in range(turns):
                        q, r = rotate(q, r)
                    perm.append(self.index[(q, r)])
                perms.append(tuple(perm))
        return tuple(perms)


def cell_count(side: int) -> int:
    return 3 * side * (side - 1) + 1


# ------------------------------------------------------------------ models


@dataclass(frozen=True)
class Level:
    """A Hexiom level: which tiles exist and which cells are fixed.

    ``tile_counts[d]`` counts all tiles numbered d, locked ones included.
    ``locked_tiles`` maps a cell to the number of the tile locked there.
    ``blocked_cells`` are cells where no tile may go.
    """

    board: Board
    tile_counts: tuple[int, ...]
    locked_tiles: tuple[tuple[int, int], ...]
    blocked_cells: frozenset[int]
    name: str = ""

    @property
    def side(self) -> int:
        return self.board.side

    @cached_property
    def locked(self) -> Mapping[int, int]:
        return dict(self.locked_tiles)

    @property
    def tile_total(self) -> int:
        return sum(self.tile_counts)

    @cached_property
    def free_cells(self) -> tuple[int, ...]:
        """Cells that may receive a movable tile (neither blocked nor locked)."""
        return tuple(c for c in range(self.board.size) if c not in self.blocked_cells and c not in self.locked)

    @cached_property
    def movable_counts(self) -> tuple[int, ...]:
        """Per number, the tiles that are not locked (and so must be placed)."""
        counts = list(self.tile_counts)
        for _, number in self.locked_tiles:
            counts[number] -= 1
        return tuple(counts)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board symmetries that also preserve this level (locks and blocks).

        Always contains the identity first.  Used by symmetry breaking; a
        symmetry not in this list would merge solutions that are not equivalent.
        """
        keep = []
        for perm in self.board.symmetries:
            if {perm[c] for c in self.blocked_cells} != self.blocked_cells:
                continue
            if any(self.locked.get(perm[c]) != number for c, number in self.locked_tiles):
                continue
            keep.append(perm)
        return tuple(keep)

    @cached_property
    def lex_leader_pairs(self) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """Per non-identity symmetry ``s`` of ``symmetries``: the cell pairs ``(a, b)`` a lex-leader
        constraint compares, in order (the contents of a against the contents its image shows there).

        The image puts the contents of cell i on cell perm[i], so position j shows cell source[j].
        A pair is left out when the two sides are equal for sure: a fixed point, a blocked or locked
        cell (its image holds the same), or a pair already compared (the lex chain only goes on while
        earlier positions are equal).  One home for this fact, so every translator compares the same.
        """
        fixed = self.blocked_cells | set(self.locked)
        result = []
        for s, perm in enumerate(self.symmetries):
            if all(perm[c] == c for c in range(len(perm))):
                continue
            source = [0] * len(perm)
            for c, moved_to in enumerate(perm):
                source[moved_to] = c
            compared: set[frozenset[int]] = set()
            pairs = []
            for a in range(len(perm)):
                b = source[a]
                if a == b or a in fixed or frozenset((a, b)) in compared:
                    continue
                compared.add(frozenset((a, b)))
                pairs.append((a, b))
            result.append((s, tuple(pairs)))
        return tuple(result)


@dataclass(frozen=True)
class Solution:
    """What is on each cell, in reading order: a tile number or None (empty)."""

    cells: tuple[int | None, ...]

    def to_json(self) -> dict:
        return {"cells": list(self.cells)}


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the cell it concerns where there is one."""

    rule: str
    message: str
    cell: int | None = None


# ------------------------------------------------------------------ parser


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """Parse a level in the Hexiom file format (see the module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(i + 1, line) for i, line in enumerate(lines)]
    content = [(n, line) for n, line in numbered if line.strip()]
    if not content:
        raise LevelSyntaxError(file, None, "empty file: expected the side length on the first line")
    side_line, side_text = content[0]
    side_text = side_text.strip()
    side = whole_number(side_text)
    if side is None:
        raise LevelSyntaxError(
            file,
            side_line,
            f"expected the side length (a whole number, digits 0-9) on the first line, found {side_text[:40]!r}",
        )
    if side < 1:
        raise LevelSyntaxError(file, side_line, "the side length must be at least 1")
    if side > MAX_SIDE:
        raise InstanceTooLarge(
            file, side_line, f"side {shorten(side_text, 20)} is larger than the largest supported side, {MAX_SIDE}"
        )

    board = Board(side)
    rows = content[1:]
    expected_rows = [len(row) for row in board.rows]
    tokens: list[tuple[str, str]] = []
    for row_number, (line_number, line) in enumerate(rows):
        row_tokens = _tokenize(line, file, line_number)
        if row_number >= len(expected_rows):
            raise LevelSyntaxError(
                file,
                line_number,
                f"a side-{side} board has {len(expected_rows)} rows and {board.size} cells; this is row "
                f"{row_number + 1}",
            )
        if len(row_tokens) != expected_rows[row_number]:
            raise LevelSyntaxError(
                file,
                line_number,
                f"row {row_number + 1} of a side-{side} board has {expected_rows[row_number]} cells, "
                f"found {len(row_tokens)}",
            )
        tokens.extend(row_tokens)
    if len(rows) < len(expected_rows):
        last = rows[-1][0] if rows else side_line
        raise LevelSyntaxError(
            file,
            last,
            f"a side-{side} board has {len(expected_rows)} rows and {board.size} cells (3s(s-1)+1); "
            f"found {len(rows)} rows and {len(tokens)} cells",
        )

    counts = [0] * (MAX_TILE + 1)
    locked: list[tuple[int, int]] = []
    blocked: set[int] = set()
    for cell, (plus, symbol) in enumerate(tokens):
        if symbol == ".":
            if plus:
                blocked.add(cell)
            continue
        number = int(symbol)
        counts[number] += 1
        if plus:
            locked.append((cell, number))
    return Level(board, tuple(counts), tuple(locked), frozenset(blocked), name=name)


def _tokenize(line: str, file: str, line_number: int) -> list[tuple[str, str]]:
    tokens = []
    position = 0
    while position < len(line):
        char = line[position]
        if char in " \t":
            position += 1
            continue
        match = TOKEN.match(line, position)
        if not match:
            if char == "+":
                what = "'+' must be followed by a tile number or '.'"
            else:
                what = f"unexpected character {char!r}: expected '.', a tile number 0-6, '+d' or '+.'"
            raise LevelSyntaxError(file, line_number, what, column=position + 1)
        plus, symbol = match.groups()
        if symbol != "." and int(symbol) > MAX_TILE:
            raise LevelSyntaxError(
                file,
                line_number,
                f"tile number {symbol} is above {MAX_TILE}: a cell has at most 6 neighbours",
                column=match.start(2) + 1,
            )
        tokens.append((plus, symbol))
        position = match.end()
    return tokens


def parse(path: str) -> Level:
    """Read a level file, with errors that name the file and line."""
    import os

    text = read_instance_text(path)
    return parse_text(text, file=path, name=os.path.splitext(os.path.basename(path))[0])


# --------------------------------------------------------------- validator


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Check a solution against the rules alone; an empty list means valid."""
    board = level.board
    cells = solution.cells
    if len(cells) != board.size:
        return [Violation("shape", f"solution has {len(cells)} cells, the board has {board.size}")]
    violations: list[Violation] = []
    for cell, value in enumerate(cells):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_TILE):
            violations.append(Violation("value", f"cell {cell} holds {value!r}, not a tile number 0-6", cell))
    if violations:
        return violations
    for cell in sorted(level.blocked_cells):
        if cells[cell] is not None:
            violations.append(Violation("blocked", f"cell {cell} is blocked but holds tile {cells[cell]}", cell))
    for cell, number in level.locked_tiles:
        if cells[cell] != number:
            violations.append(
                Violation("locked", f"cell {cell} must keep its locked tile {number}, holds {cells[cell]}", cell)
            )
    placed = Counter(v for v in cells if v is not None)
    for number in range(MAX_TILE + 1):
        if placed[number] != level.tile_counts[number]:
            violations.append(
                Violation(
                    "tiles",
                    f"{placed[number]} tiles numbered {number} placed, the level has {level.tile_counts[number]}",
                )
            )
    for cell, value in enumerate(cells):
        if value is None:
            continue
        occupied = sum(1 for n in board.neighbours[cell] if cells[n] is not None)
        if occupied != value:
            violations.append(
                Violation("neighbours", f"tile {value} on cell {cell} has {occupied} occupied neighbours", cell)
            )
    return violations


# ---------------------------------------------------------------- rendering


def _draw(board: Board, symbols: Sequence[str]) -> str:
    # Like the level files: each cell is two characters, a '+' or a space and
    # its symbol, and rows are indented so the hexagon's columns line up.
    lines = []
    for row in board.rows:
        indent = " " * (board.side * 2 - 1 - len(row))
        lines.append((indent + "".join(symbols[c].rjust(2) for c in row)).rstrip())
    return "\n".join(lines) + "\n"


def render(level: Level, solution: Solution | None = None) -> str:
    """Draw the board as a hexagon, like the level files.

    Without a solution this is the level itself, in the file format
    (``parse_text(str(side) + "\\n" + render(level))`` gives the level back).
    With one, it is the solved board: locked tiles keep their ``+``.
    """
    symbols = []
    if solution is None:
        movable = list(level.movable_counts)
        # a level file lists movable tiles on free cells; put them in reading order
        queue = [n for n in range(MAX_TILE + 1) for _ in range(movable[n])]
        for cell in range(level.board.size):
            if cell in level.blocked_cells:
                symbols.append("+.")
            elif cell in level.locked:
                symbols.append(f"+{level.locked[cell]}")
            elif queue:
                symbols.append(str(queue.pop(0)))
            else:
                symbols.append(".")
    else:
        for cell, value in enumerate(solution.cells):
            if cell in level.blocked_cells:
                symbols.append("+.")
            elif cell in level.locked:
                symbols.append(f"+{value}")
            else:
                symbols.append("." if value is None else str(value))
    return _draw(level.board, symbols)


def format_level(level: Level) -> str:
    """The level as a file (side line and rows); parse_text(format_level(l)) == l."""
    return f"{level.side}\n{render(level)}"


# --------------------------------------------------------- solution handling


def canonical(level: Level, solution: Solution) -> tuple:
    """A hashable key that equal boards share (tiles of one number are interchangeable)."""
    return tuple(-1 if v is None else v for v in solution.cells)


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """``{"cells": [tile number or null, ...]}`` back, exactly: a cell of 1.9, true or " 1 " is a ValueError."""
    from ..files import listed, whole

    cells = listed(data["cells"], "cells")
    return Solution(tuple(None if v is None else whole(v, f"cell {i}") for i, v in enumerate(cells)))


def apply_symmetry(perm: Sequence[int], solution: Solution) -> Solution:
    """Move the contents of cell i to cell perm[i]."""
    moved: list[int | None] = [None] * len(perm)
    for cell, value in enumerate(solution.cells):
        moved[perm[cell]] = value
    return Solution(tuple(moved))


def symmetry_key(solution: Solution) -> tuple[int, ...]:
    """The vector compared lexicographically by the lex-leader convention.

    Convention (documented in the README): cell contents in reading order,
    with empty as -1; a solution is the lex-leader of its orbit when no
    symmetry of the level maps it to a lexicographically *smaller* vector.
    """
    return tuple(-1 if v is None else v for v in solution.cells)


def orbit_representative(
    level: Level, solution: Solution, symmetries: Iterable[Sequence[int]] | None = None
) -> tuple[int, ...]:
    """The lex-smallest key over the orbit: equal for solutions in one symmetry class."""
    perms = level.symmetries if symmetries is None else symmetries
    return min(symmetry_key(apply_symmetry(p, solution)) for p in perms)


def is_lex_leader(level: Level, solution: Solution, symmetries: Iterable[Sequence[int]] | None = None) -> bool:
    return symmetry_key(solution) == orbit_representative(level, solution, symmetries)


def describe(level: Level) -> str:
    """One line about the level, for headers and progress."""
    return (
        f"hexiom side {level.side}: {level.board.size} cells, {level.tile_total} tiles, "
        f"{len(level.locked_tiles)} locked, {len(level.blocked_cells)} blocked, "
        f"{len(level.symmetries)} symmetries"
    )


# ---------------------------------------------------------------- shrinking


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller variants of a level, for the cross-checker's minimiser.

    Each candidate removes one thing: a movable tile, a lock (the tile stays,
    movable), a blocked cell, or the outer ring of the board.  The minimiser
    keeps a candidate while the disagreement it chases persists.
    """
    candidates: list[Level] = []
    if level.side > 1:
        candidates.append(_inner_board(level))
    for number in range(MAX_TILE, -1, -1):
        if level.movable_counts[number] > 0:
            counts = list(level.tile_counts)
            counts[number] -= 1
            candidates.append(Level(level.board, tuple(counts), level.locked_tiles, level.blocked_cells, level.name))
    for cell, number in level.locked_tiles:
        locked = tuple((c, n) for c, n in level.locked_tiles if c != cell)
        candidates.append(Level(level.board, level.tile_counts, locked, level.blocked_cells, level.name))
        counts = list(level.tile_counts)
        counts[number] -= 1
        candidates.append(Level(level.board, tuple(counts), locked, level.blocked_cells, level.name))
    for cell in sorted(level.blocked_cells):
        candidates.append(
            Level(level.board, level.tile_counts, level.locked_tiles, level.blocked_cells - {cell}, level.name)
        )
    return candidates


def _inner_board(level: Level) -> Level:
    """The level on the board one ring smaller: outer locks and blocks dropped, tiles capped."""
    inner = Board(level.side - 1)
    old = level.board
    moved = {old.index[coord]: inner.index[coord] for coord in inner.coordinates}
    locked = tuple((moved[c], n) for c, n in level.locked_tiles if c in moved)
    blocked = frozenset(moved[c] for c in level.blocked_cells if c in moved)
    counts = [0] * (MAX_TILE + 1)
    for _, number in locked:
        counts[number] += 1
    room = inner.size - len(blocked) - len(locked)
    movable = list(level.movable_counts)
    for number in range(MAX_TILE + 1):
        take = min(movable[number], room)
        counts[number] += take
        room -= take
    return Level(inner, tuple(counts), locked, blocked, level.name)
