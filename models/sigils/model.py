"""Sigils: fill a rectangular frame exactly with a given multiset of polyominoes.

The Talos Principle's sigil gates use the seven one-sided tetrominoes
``I O T S Z L J``, turned but never flipped.  A level file may also draw its
own pieces (the twelve pentominoes, say) and allow mirroring, so classic
benchmarks fit the same model.  The file format is in ``docs/sigils.md``.

Everything here is written from the rules alone and never imports a backend:
the validator is the referee the backends are checked against.

Cells are numbered in reading order: cell ``row * width + col``, rows top to
bottom.  A *placement* is a piece name and the set of cells it covers; a
solution is the set of placements.  Equal pieces are interchangeable, so a
tiling is one solution however its equal pieces are permuted -- but two
equal pieces whose union could be cut differently are different tilings,
which is why a solution records the cells of each piece and not only the
name on each cell.
"""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from .. import grids
from ..errors import InstanceTooLarge, LevelSyntaxError, shorten, whole_number
from ..files import read_instance_text

#: Largest frame side accepted; checked before anything is built.
MAX_SIDE = 40
#: Largest side of a custom piece's drawing.
MAX_PIECE_SIDE = 40

Cell = tuple[int, int]  # (row, col)
Shape = tuple[Cell, ...]  # normalised: sorted, smallest row and col are 0

#: The seven one-sided tetrominoes, drawn as in the issue (rows top to bottom).
TETROMINOES: Mapping[str, str] = {
    "I": "####",
    "O": "##/##",
    "T": "###/.#.",
    "S": ".##/##.",
    "Z": "##./.##",
    "L": "#./#./##",
    "J": ".#/.#/##",
}

SIZE_LINE = re.compile(r"^([0-9]+)\s*[xX]\s*([0-9]+)$")
PIECE_NAME = re.compile(r"^[A-Za-z0-9]$")
KEYWORDS = ("piece", "mirror")


# ---------------------------------------------------------------- geometry


def normalise(cells: Iterable[Cell]) -> Shape:
    """Slide a set of cells to the top-left corner and sort it."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def shape_from_drawing(drawing: str, mark: str = "#") -> Shape:
    """``".##/##."`` -> the S shape: rows separated by '/', ``mark`` for a cell."""
    return normalise((r, c) for r, row in enumerate(drawing.split("/")) for c, ch in enumerate(row) if ch == mark)


def turn(shape: Iterable[Cell]) -> Shape:
    """A quarter turn clockwise: (row, col) -> (col, -row)."""
    return normalise((c, -r) for r, c in shape)


def flip(shape: Iterable[Cell]) -> Shape:
    """Turn the piece over (left-right mirror): (row, col) -> (row, -col)."""
    return normalise((r, -c) for r, c in shape)


def is_connected(shape: Sequence[Cell]) -> bool:
    """Edge-connected, as a polyomino must be."""
    cells = set(shape)
    seen = {shape[0]}
    todo = [shape[0]]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


@dataclass(frozen=True)
class Piece:
    """A piece type: its name (one letter or digit) and its shape as drawn."""

    name: str
    shape: Shape

    @property
    def size(self) -> int:
        return len(self.shape)

    def orientations(self, mirroring: bool = False) -> tuple[Shape, ...]:
        """The distinct shapes the piece takes when turned (and flipped, if allowed), sorted."""
        return _orientations(self.shape, mirroring)

    def drawing(self, mark: str | None = None) -> str:
        """The shape as rows of ``mark`` (default: the name) and '.'."""
        mark = mark or self.name
        height = 1 + max(r for r, _ in self.shape)
        width = 1 + max(c for _, c in self.shape)
        cells = set(self.shape)
        return "\n".join("".join(mark if (r, c) in cells else "." for c in range(width)) for r in range(height))


@functools.lru_cache(maxsize=4096)
def _orientations(shape: Shape, mirroring: bool) -> tuple[Shape, ...]:
    """Piece.orientations, remembered: the validator asks once per placement of every listed tiling."""
    found: set[Shape] = set()
    starts = [shape, flip(shape)] if mirroring else [shape]
    for start in starts:
        for _ in range(4):
            found.add(start)
            start = turn(start)
    return tuple(sorted(found))


BUILTIN_PIECES: Mapping[str, Piece] = {
    name: Piece(name, shape_from_drawing(drawing)) for name, drawing in TETROMINOES.items()
}


# ------------------------------------------------------------------ models


@dataclass(frozen=True)
class FrameSymmetry:
    """A symmetry of the frame that maps every tiling of the level to a tiling.

    ``cells[i]`` is the cell that cell ``i`` moves to.  A mirror of a level
    without mirroring turns each piece into its mirror image, which must be
    another piece type of the level with the same count: ``renaming`` says
    which (``(name, image name)`` pairs; identity pairs are left out).
    """

    name: str
    cells: tuple[int, ...]
    renaming: tuple[tuple[str, str], ...] = ()

    def rename(self, piece: str) -> str:
        return dict(self.renaming).get(piece, piece)

    def apply(self, solution: Solution) -> Solution:
        return Solution.of((self.rename(p.piece), [self.cells[c] for c in p.cells]) for p in solution.placements)


@dataclass(frozen=True)
class Level(grids.Grid):
    """A sigil frame: its size, the piece types with their counts, and whether pieces may flip.

    ``pieces`` are the distinct piece types in the order first listed;
    ``piece_counts[i]`` is how many copies of ``pieces[i]`` must be placed.
    """

    pieces: tuple[Piece, ...]
    piece_counts: tuple[int, ...]
    mirroring: bool = False
    name: str = ""

    def row_col(self, cell: int) -> Cell:
        return divmod(cell, self.width)

    @cached_property
    def piece(self) -> Mapping[str, Piece]:
        return {p.name: p for p in self.pieces}

    @cached_property
    def counts(self) -> Mapping[str, int]:
        return {p.name: n for p, n in zip(self.pieces, self.piece_counts)}

    @cached_property
    def type_index(self) -> Mapping[str, int]:
        """Position of each piece type in ``pieces`` (the symmetry-breaking order uses it)."""
        return {p.name: i for i, p in enumerate(self.pieces)}

    @property
    def piece_total(self) -> int:
        return sum(self.piece_counts)

    @property
    def piece_area(self) -> int:
        return sum(p.size * n for p, n in zip(self.pieces, self.piece_counts))

    @cached_property
    def obstruction(self) -> str | None:
        """Why the level has no solution, when that is plain without solving; else None.

        Area first (the pieces must cover the frame exactly), then a piece that
        fits nowhere in the frame whatever its orientation.
        """
        if self.piece_area != self.cell_count:
            return (
                f"the pieces cover {self.piece_area} cells, the {self.width}x{self.height} frame has {self.cell_count}"
            )
        for piece in self.pieces:
            fits = any(
                1 + max(r for r, _ in s) <= self.height and 1 + max(c for _, c in s) <= self.width
                for s in piece.orientations(self.mirroring)
            )
            if not fits:
                return f"piece {piece.name} fits nowhere in a {self.width}x{self.height} frame"
        return None

    @cached_property
    def mirror_renaming(self) -> tuple[tuple[str, str], ...] | None:
        """How a mirror of the frame renames the pieces, or None when it maps tilings to non-tilings.

        With mirroring allowed every piece is its own mirror image.  Without,
        piece P becomes the type whose turns are P's mirror images (S <-> Z,
        L <-> J, I, O and T stay); that type must be in the level with P's count.
        """
        if self.mirroring:
            return ()
        by_turns = {p.orientations(False): p.name for p in self.pieces}
        renaming = []
        for p in self.pieces:
            image = by_turns.get(Piece(p.name, flip(p.shape)).orientations(False))
            if image is None or self.counts[image] != self.counts[p.name]:
                return None
            if image != p.name:
                renaming.append((p.name, image))
        return tuple(renaming)

    @cached_property
    def symmetries(self) -> tuple[FrameSymmetry, ...]:
        """The frame symmetries that preserve this level, identity first.

        Turns by 180 degrees (and 90 on a square frame) always qualify: pieces
        may be turned.  Mirrors qualify only when ``mirror_renaming`` exists.
        Used by symmetry breaking; a symmetry not in this list would merge
        tilings that are not equivalent.
        """
        w, h = self.width, self.height
        moves: list[tuple[str, bool, object]] = [
            ("identity", False, lambda r, c: (r, c)),
            ("turn 180", False, lambda r, c: (h - 1 - r, w - 1 - c)),
        ]
        if w == h:
            moves += [
                ("turn 90", False, lambda r, c: (c, w - 1 - r)),
                ("turn 270", False, lambda r, c: (w - 1 - c, r)),
            ]
        moves += [
            ("mirror left-right", True, lambda r, c: (r, w - 1 - c)),
            ("mirror top-bottom", True, lambda r, c: (h - 1 - r, c)),
        ]
        if w == h:
            moves += [
                ("mirror diagonal", True, lambda r, c: (c, r)),
                ("mirror antidiagonal", True, lambda r, c: (w - 1 - c, h - 1 - r)),
            ]
        renaming = self.mirror_renaming
        result = []
        seen: set[tuple[tuple[int, ...], tuple]] = set()
        for name, mirrors, move in moves:
            if mirrors and renaming is None:
                continue
            perm = tuple(self.cell(*move(*self.row_col(cell))) for cell in range(self.cell_count))  # type: ignore[operator]
            key = (perm, renaming if mirrors else ())
            if key in seen:  # a 1-wide or 1-high frame: some moves coincide
                continue
            seen.add(key)
            result.append(FrameSymmetry(name, perm, renaming if mirrors else ()))
        return tuple(result)


@dataclass(frozen=True, order=True)
class Placement:
    """One piece on the frame: its type and the cells it covers (sorted)."""

    piece: str
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Solution:
    """The set of placements, listed by their first cell in reading order.

    Listing by first cell numbers the piece instances canonically, so tilings
    that differ only by swapping equal pieces are the same Solution.  Build
    one with ``Solution.of`` to get that order.
    """

    placements: tuple[Placement, ...]

    @classmethod
    def of(cls, placements: Iterable[tuple[str, Iterable[int]]]) -> Solution:
        listed = [Placement(piece, tuple(sorted(cells))) for piece, cells in placements]
        listed.sort(key=lambda p: (p.cells, p.piece))
        return cls(tuple(listed))

    def to_json(self) -> dict:
        return {"placements": [{"piece": p.piece, "cells": list(p.cells)} for p in self.placements]}


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the cell it concerns where there is one."""

    rule: str
    message: str
    cell: int | None = None


#: one way to put a piece type in the frame, as the translators use it: the type's name and the cells (sorted)
PlacedType = tuple[str, tuple[int, ...]]


def frame_placements(level: Level) -> list[PlacedType]:
    """Every way to put each piece type in the frame: its orientations, slid to every offset.

    Type by type in the level's order; one entry per type, never per copy (equal pieces are
    interchangeable).  The translators that encode a choice of placements share this list.
    """
    found: list[PlacedType] = []
    for piece in level.pieces:
        for shape in piece.orientations(level.mirroring):
            tall = 1 + max(r for r, _ in shape)
            wide = 1 + max(c for _, c in shape)
            for top in range(level.height - tall + 1):
                for left in range(level.width - wide + 1):
                    found.append((piece.name, tuple(sorted(level.cell(top + r, left + c) for r, c in shape))))
    return found


# ------------------------------------------------------------------ parser


def _strip_comment(line: str) -> str:
    # '#' never appears in content (drawings use the piece's own letter).
    return line.split("#", 1)[0].strip()


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """Parse a level in the sigils file format (``docs/sigils.md``)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    content = [(i + 1, _strip_comment(line)) for i, line in enumerate(lines)]
    content = [(n, line) for n, line in content if line]
    if not content:
        raise LevelSyntaxError(file, None, "empty file: expected the frame size (WxH, e.g. 4x3) on the first line")

    # --- the frame
    size_line, size_text = content[0]
    match = SIZE_LINE.match(size_text)
    if not match:
        raise LevelSyntaxError(
            file, size_line, f"expected the frame size as WxH (e.g. 4x3) on the first line, found {size_text[:40]!r}"
        )
    width, height = whole_number(match.group(1)), whole_number(match.group(2))
    if width < 1 or height < 1:
        raise LevelSyntaxError(file, size_line, f"the frame must be at least 1x1, found {width}x{height}")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InstanceTooLarge(
            file,
            size_line,
            f"frame {shorten(size_text, 40)} is larger than the largest supported, {MAX_SIDE}x{MAX_SIDE}",
        )

    # --- the piece list (names resolved once custom pieces are known)
    if len(content) < 2:
        raise LevelSyntaxError(
            file, size_line, "expected the piece list (letters separated by spaces) on the second line"
        )
    list_line, list_text = content[1]
    if list_text.split()[0] in KEYWORDS:
        raise LevelSyntaxError(
            file, list_line, f"expected the piece list on the second line, found the keyword {list_text.split()[0]!r}"
        )
    listed: list[tuple[str, int]] = []  # (name, column)
    for match in re.finditer(r"\S+", list_text):
        token = match.group()
        if not PIECE_NAME.match(token):
            raise LevelSyntaxError(
                file,
                list_line,
                f"{token[:20]!r} is not a piece name: pieces are named by one letter or digit, separated by spaces",
                column=_column(lines[list_line - 1], token, match.start()),
            )
        listed.append((token, _column(lines[list_line - 1], token, match.start())))

    # --- options and custom pieces
    mirroring = False
    custom: dict[str, Piece] = {}
    position = 2
    while position < len(content):
        line_number, line = content[position]
        words = line.split()
        if words[0] == "mirror":
            if len(words) != 1:
                raise LevelSyntaxError(file, line_number, "'mirror' takes no arguments")
            mirroring = True
            position += 1
        elif words[0] == "piece":
            position, piece = _parse_piece(content, position, file)
            if piece.name in custom:
                raise LevelSyntaxError(file, line_number, f"piece {piece.name} is drawn twice")
            custom[piece.name] = piece
        else:
            raise LevelSyntaxError(
                file, line_number, f"expected 'piece <name>' (a custom piece) or 'mirror', found {line[:40]!r}"
            )

    # --- resolve names: a drawn piece overrides a built-in letter in this file
    known = {**BUILTIN_PIECES, **custom}
    counts: Counter[str] = Counter()
    order: list[str] = []
    for piece_name, column in listed:
        if piece_name not in known:
            raise LevelSyntaxError(
                file,
                list_line,
                f"unknown piece {piece_name!r}: the built-in pieces are {' '.join(TETROMINOES)}; draw others with "
                f"'piece {piece_name}'",
                column=column,
            )
        if piece_name not in counts:
            order.append(piece_name)
        counts[piece_name] += 1

    # --- two names for one piece would count each tiling twice
    by_orientations: dict[tuple[Shape, ...], str] = {}
    for piece_name in order:
        turns = known[piece_name].orientations(mirroring)
        other = by_orientations.get(turns)
        if other is not None:
            how = (
                " turned over"
                if mirroring and known[piece_name].orientations(False) != known[other].orientations(False)
                else ""
            )
            raise LevelSyntaxError(
                file,
                list_line,
                f"pieces {other} and {piece_name} are the same piece{how}: list {other} twice instead",
            )
        by_orientations[turns] = piece_name

    return Level(
        width=width,
        height=height,
        pieces=tuple(known[n] for n in order),
        piece_counts=tuple(counts[n] for n in order),
        mirroring=mirroring,
        name=name,
    )


def _column(line: str, token: str, start_in_stripped: int) -> int:
    """1-based column of a token of a stripped line in the original line."""
    offset = len(line) - len(line.lstrip())
    return offset + start_in_stripped + 1


def _parse_piece(content: list[tuple[int, str]], position: int, file: str) -> tuple[int, Piece]:
    """Read ``piece X`` and the drawing rows after it; return the next position and the piece."""
    line_number, line = content[position]
    words = line.split()
    if len(words) != 2 or not PIECE_NAME.match(words[1]):
        raise LevelSyntaxError(
            file, line_number, "a custom piece starts with 'piece <name>', the name one letter or digit"
        )
    piece_name = words[1]
    rows: list[tuple[int, str]] = []
    position += 1
    while position < len(content) and content[position][1].split()[0] not in KEYWORDS:
        rows.append(content[position])
        position += 1
    if not rows:
        raise LevelSyntaxError(
            file,
            line_number,
            f"piece {piece_name} has no drawing: rows of {piece_name!r} (a cell) and '.' (a gap) must follow",
        )
    if len(rows) > MAX_PIECE_SIDE or any(len(row) > MAX_PIECE_SIDE for _, row in rows):
        raise InstanceTooLarge(
            file, line_number, f"piece {piece_name} is larger than {MAX_PIECE_SIDE}x{MAX_PIECE_SIDE}"
        )
    cells = []
    for r, (row_line, row) in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == piece_name:
                cells.append((r, c))
            elif ch != ".":
                raise LevelSyntaxError(
                    file,
                    row_line,
                    f"malformed piece {piece_name}: {ch!r} in its drawing; "
                    f"use {piece_name!r} for a cell and '.' for a gap",
                )
    if not cells:
        raise LevelSyntaxError(file, line_number, f"malformed piece {piece_name}: its drawing has no cells")
    shape = normalise(cells)
    if not is_connected(shape):
        raise LevelSyntaxError(
            file, line_number, f"malformed piece {piece_name}: its cells are not connected edge to edge"
        )
    return position, Piece(piece_name, shape)


def parse(path: str) -> Level:
    """Read a level file, with errors that name the file and line."""
    text = read_instance_text(path)
    return parse_text(text, file=path, name=os.path.splitext(os.path.basename(path))[0])


def format_level(level: Level) -> str:
    """The level as a file; ``parse_text(format_level(l))`` equals ``l`` (name aside)."""
    out = [f"{level.width}x{level.height}"]
    out.append(" ".join(p.name for p, n in zip(level.pieces, level.piece_counts) for _ in range(n)))
    if level.mirroring:
        out.append("mirror")
    for piece in level.pieces:
        if piece != BUILTIN_PIECES.get(piece.name):
            out.append(f"piece {piece.name}")
            out.append(piece.drawing())
    return "\n".join(out) + "\n"


# --------------------------------------------------------------- validator


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Check a tiling against the rules alone; an empty list means valid.

    Every cell covered exactly once; each placement's cells form its piece
    turned (or flipped, when the level allows it); the pieces used are
    exactly the level's multiset.
    """
    violations: list[Violation] = []
    cover: Counter[int] = Counter()
    used: Counter[str] = Counter()
    for number, placement in enumerate(solution.placements):
        cells = placement.cells
        if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < level.cell_count for c in cells):
            violations.append(
                Violation("cells", f"placement {number} ({placement.piece}) has cells outside the frame: {list(cells)}")
            )
            continue
        cover.update(cells)
        used[placement.piece] += 1
        if not cells:  # the referee takes any solution: an empty placement is a broken rule, not a crash
            violations.append(Violation("cells", f"placement {number} ({placement.piece}) covers no cell"))
            continue
        if len(set(cells)) != len(cells):
            violations.append(Violation("cells", f"placement {number} ({placement.piece}) lists a cell twice"))
            continue
        piece = level.piece.get(placement.piece)
        if piece is None:
            violations.append(
                Violation("pieces", f"placement {number} uses {placement.piece!r}, not a piece of this level")
            )
            continue
        shape = normalise(level.row_col(c) for c in cells)
        if shape not in piece.orientations(level.mirroring):
            allowed = "turned or flipped" if level.mirroring else "turned (not flipped)"
            violations.append(
                Violation(
                    "shape",
                    f"placement {number}: cells {list(cells)} do not form piece {piece.name} {allowed}",
                    cells[0],
                )
            )
    for cell in range(level.cell_count):
        if cover[cell] == 0:
            violations.append(Violation("cover", f"cell {cell} {level.row_col(cell)} is not covered", cell))
        elif cover[cell] > 1:
            violations.append(
                Violation("overlap", f"cell {cell} {level.row_col(cell)} is covered {cover[cell]} times", cell)
            )
    for name, count in level.counts.items():
        if used[name] != count:
            violations.append(
                Violation("pieces", f"{used[name]} pieces {name} placed, the level has {level.counts[name]}")
            )
    return violations


# ---------------------------------------------------------------- rendering

#: ANSI background colours (with black text) cycled over the piece types.
PALETTE = (101, 102, 103, 104, 105, 106, 43, 42, 41, 44, 45, 46, 47, 107)


def render(level: Level, solution: Solution | None = None, colour: bool = False) -> str:
    """Draw the frame with walls between pieces and each cell showing its piece's letter.

    Equal pieces share a letter; the walls tell them apart.  With ``colour``
    each piece type also gets an ANSI background colour (for terminals).
    Without a solution: the empty frame and the piece list.
    """
    owner: list[int | None] = [None] * level.cell_count
    letter = ["."] * level.cell_count
    if solution is not None:
        for number, placement in enumerate(solution.placements):
            for cell in placement.cells:
                if isinstance(cell, int) and 0 <= cell < level.cell_count:
                    owner[cell] = number
                    letter[cell] = placement.piece
    w, h = level.width, level.height
    paint = _painter(level) if colour else (lambda name, text: text)

    def wall_right(r: int, c: int) -> bool:  # between (r, c) and (r, c + 1); the frame's sides are walls
        if c < 0 or c >= w - 1:
            return 0 <= r < h
        return 0 <= r < h and owner[r * w + c] != owner[r * w + c + 1]

    def wall_below(r: int, c: int) -> bool:  # between (r, c) and (r + 1, c)
        if r < 0 or r >= h - 1:
            return 0 <= c < w
        return 0 <= c < w and owner[r * w + c] != owner[(r + 1) * w + c]

    lines = []
    for r in range(-1, h):
        # the line of walls below row r, then row r + 1
        border = []
        for c in range(w + 1):
            vertical = wall_right(r, c - 1) or wall_right(r + 1, c - 1)
            horizontal = wall_below(r, c - 1) or wall_below(r, c)
            border.append("+" if vertical and horizontal else "|" if vertical else "-" if horizontal else " ")
            if c < w:
                border.append("-" if wall_below(r, c) else " ")
        lines.append("".join(border).rstrip())
        if r == h - 1:
            break
        # (piece name or None, text) runs, so colour codes wrap whole pieces' stretches
        runs: list[tuple[str | None, str]] = []
        for c in range(w):
            cell = (r + 1) * w + c
            if wall_right(r + 1, c - 1):
                runs.append((None, "|"))
            else:
                runs.append((letter[cell], " "))
            runs.append((letter[cell], letter[cell]))
        runs.append((None, "|"))
        row, run, text = [], runs[0][0], ""
        for name, part in runs:
            if name != run:
                row.append(text if run is None else paint(run, text))
                run, text = name, ""
            text += part
        row.append(text if run is None else paint(run, text))
        lines.append("".join(row))
    if solution is None:
        pieces = " ".join(f"{n}x{p.name}" if n > 1 else p.name for p, n in zip(level.pieces, level.piece_counts))
        lines.append(f"pieces: {pieces}" + (" (mirroring allowed)" if level.mirroring else ""))
    return "\n".join(lines) + "\n"


def _painter(level: Level):
    codes = {p.name: PALETTE[i % len(PALETTE)] for i, p in enumerate(level.pieces)}

    def paint(name: str, text: str) -> str:
        code = codes.get(name)
        return text if code is None else f"\x1b[30;{code}m{text}\x1b[0m"

    return paint


def describe(level: Level) -> str:
    """One line about the level, for headers and progress."""
    pieces = " ".join(f"{n}x{p.name}" if n > 1 else p.name for p, n in zip(level.pieces, level.piece_counts))
    text = (
        f"sigils {level.width}x{level.height}: {level.piece_total} pieces ({pieces})"
        f"{', mirroring allowed' if level.mirroring else ''}, {len(level.symmetries)} symmetries"
    )
    if level.obstruction:
        text += f"; no solution: {level.obstruction}"
    return text


# --------------------------------------------------------- solution handling


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller variants of a level, for the cross-checker's minimiser.

    Each candidate takes one step down and keeps the areas equal (a level
    whose areas differ is refuted without search, which hides most bugs):
    a frame one row or one column smaller with pieces covering that many
    cells taken away (at most three), one piece swapped for a smaller-index
    type of the same size, or mirroring switched off.
    """
    counts = dict(level.counts)
    candidates: list[Level] = []
    seen: set[tuple] = set()

    def add(width: int, height: int, new_counts: Mapping[str, int], mirroring: bool) -> None:
        kept = tuple(p for p in level.pieces if new_counts.get(p.name, 0) > 0)
        if not kept or width < 1 or height < 1:
            return
        candidate = Level(width, height, kept, tuple(new_counts[p.name] for p in kept), mirroring, level.name)
        key = (width, height, candidate.pieces, candidate.piece_counts, mirroring)
        if key not in seen and candidate.obstruction is None:
            seen.add(key)
            candidates.append(candidate)

    for width, height in ((level.width, level.height - 1), (level.width - 1, level.height)):
        removed = level.cell_count - width * height
        for taken in _piece_subsets(level, removed, limit=3):
            remaining = dict(counts)
            for name in taken:
                remaining[name] -= 1
            add(width, height, remaining, level.mirroring)
    for i, piece in enumerate(level.pieces):
        for other in level.pieces[:i]:
            if other.size == piece.size:
                swapped = dict(counts)
                swapped[piece.name] -= 1
                swapped[other.name] += 1
                add(level.width, level.height, swapped, level.mirroring)
    if level.mirroring:
        add(level.width, level.height, counts, False)
    return candidates


def _piece_subsets(level: Level, area: int, limit: int) -> list[tuple[str, ...]]:
    """Multisets of at most ``limit`` of the level's pieces covering exactly ``area`` cells."""
    found: list[tuple[str, ...]] = []

    def extend(start: int, chosen: tuple[str, ...], left: int) -> None:
        if left == 0:
            found.append(chosen)
            return
        if len(chosen) == limit:
            return
        for i in range(start, len(level.pieces)):
            piece = level.pieces[i]
            if piece.size <= left and chosen.count(piece.name) < level.piece_counts[i]:
                extend(i, chosen + (piece.name,), left - piece.size)

    extend(0, (), area)
    return found


def canonical(level: Level, solution: Solution) -> tuple:
    """A hashable key that equal tilings share (equal pieces are interchangeable)."""
    return tuple(sorted((tuple(sorted(p.cells)), p.piece) for p in solution.placements))


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """``{"placements": [{"piece": name, "cells": [cell, ...]}, ...]}`` back, exactly: a piece name that is
    not a string, or a cell of 1.9, true or " 1 ", is a ValueError."""
    from ..files import listed, whole

    placements = []
    for number, placement in enumerate(listed(data["placements"], "placements"), 1):
        if not isinstance(placement, Mapping) or type(placement.get("piece")) is not str:
            raise ValueError(f"placement {number} must be an object with a piece name (a string)")
        cells = listed(placement["cells"], f"placement {number} cells")
        placements.append((placement["piece"], [whole(c, f"placement {number} cell") for c in cells]))
    return Solution.of(placements)


def symmetry_key(level: Level, solution: Solution) -> tuple:
    """The vector compared lexicographically by the lex-leader convention.

    Placements are ordered by their first cell, then piece type (in the
    level's order), then the rest of their cells; the key is the sorted
    tuple of the solution's placements in that order.  A solution is the
    lex-leader of its orbit when no symmetry of the level maps it to a
    smaller key.  (As 0/1 vectors over all placements in that order, the
    lex-leader is the *largest*: its first placement where two tilings
    differ is one it uses.)
    """
    return tuple(sorted((p.cells[0], level.type_index.get(p.piece, -1), p.cells) for p in solution.placements))


def orbit_representative(level: Level, solution: Solution, symmetries: Iterable[FrameSymmetry] | None = None) -> tuple:
    """The smallest key over the orbit: equal for solutions in one symmetry class."""
    group = level.symmetries if symmetries is None else symmetries
    return min(symmetry_key(level, s.apply(solution)) for s in group)


def is_lex_leader(level: Level, solution: Solution, symmetries: Iterable[FrameSymmetry] | None = None) -> bool:
    return symmetry_key(level, solution) == orbit_representative(level, solution, symmetries)
