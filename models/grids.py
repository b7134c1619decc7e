"""Rectangular grids of cells, as the puzz.link families (slither, nurikabe, sudoku) share them.

Two things live here so that each family states them once:

* the text format's frame: a header line ``<genre> <W>x<H>`` (width, then
  height), then H rows of W cells, each row either tokens separated by spaces
  or, when every token is one character, the characters written together;
  ``#`` starts a comment; blank lines are skipped.  The family reads the tokens.
* the symmetries of a rectangle: turns by 180 degrees and the two mirrors, and
  on a square also the quarter turns and the two diagonal mirrors.  Each acts on
  positions ``(row, col)`` of any array of positions over the grid (its cells, or
  its points, one more each way).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .errors import InstanceTooLarge, LevelSyntaxError, shorten, whole_number

#: The header: the genre, then the size as WxH.
HEADER = re.compile(r"([A-Za-z]+)\s+([0-9]+)\s*[xX]\s*([0-9]+)", re.ASCII)

Position = tuple[int, int]  # (row, col)


@dataclass(frozen=True)
class Token:
    """One cell of a row as written, with where it is (line and 1-based column) for messages."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class GridText:
    """A grid file's header and its cells' tokens in reading order."""

    width: int
    height: int
    tokens: tuple[Token, ...]


def _content(line: str) -> str:
    return line.split("#", 1)[0]


def is_header(text: str, genre: str) -> bool:
    """Whether a file's first meaningful line is ``<genre> WxH`` (how a file of the genre is recognised)."""
    for line in text.splitlines():
        stripped = _content(line).strip()
        if stripped:
            found = HEADER.fullmatch(stripped)
            return found is not None and found.group(1).lower() == genre
    return False


def read_grid(
    text: str,
    file: str,
    genre: str,
    max_side: int,
    example: str,
    size_problem: Callable[[int, int], str | None] | None = None,
) -> GridText:
    """The header and the rows of a grid file, checked for shape: the size is checked (1 to ``max_side``, and
    ``size_problem(width, height)``, the genre's own word on it) before the rows are read, and every row must
    have W cells, H rows in all."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    content = [(number, _content(line)) for number, line in enumerate(lines, 1) if _content(line).strip()]
    if not content:
        raise LevelSyntaxError(file, None, f"empty file: expected '{genre} WxH' (e.g. '{example}') on the first line")
    header_line, header = content[0]
    found = HEADER.fullmatch(header.strip())
    if found is None or found.group(1).lower() != genre:
        raise LevelSyntaxError(
            file,
            header_line,
            f"expected '{genre} WxH' (e.g. '{example}') on the first line, found {shorten(header.strip(), 40)!r}",
        )
    width, height = whole_number(found.group(2)), whole_number(found.group(3))
    if width < 1 or height < 1:
        raise LevelSyntaxError(file, header_line, f"a grid is at least 1x1, found {width}x{height}")
    if width > max_side or height > max_side:
        raise InstanceTooLarge(
            file,
            header_line,
            f"a {shorten(found.group(2), 12)}x{shorten(found.group(3), 12)} grid: {genre} grids are at most "
            f"{max_side}x{max_side}",
        )
    problem = size_problem(width, height) if size_problem is not None else None
    if problem is not None:
        raise LevelSyntaxError(file, header_line, problem)
    rows = content[1:]
    if len(rows) > height:
        raise LevelSyntaxError(
            file, rows[height][0], f"a {width}x{height} grid has {height} rows; this is row {height + 1}"
        )
    if len(rows) < height:
        last = rows[-1][0] if rows else header_line
        raise LevelSyntaxError(file, last, f"a {width}x{height} grid has {height} rows, found {len(rows)}")
    tokens: list[Token] = []
    for row, (number, line) in enumerate(rows, 1):
        words = [(match.group(), match.start() + 1) for match in re.finditer(r"\S+", line)]
        if len(words) == 1 and len(words[0][0]) == width:
            text_, start = words[0]
            words = [(char, start + i) for i, char in enumerate(text_)]
        if len(words) != width:
            raise LevelSyntaxError(
                file, number, f"row {row} of a {width}x{height} grid has {width} cells, found {len(words)}"
            )
        tokens.extend(Token(word, number, column) for word, column in words)
    return GridText(width, height, tuple(tokens))


def format_rows(header: str, width: int, cells: list[str]) -> str:
    """A grid file: the header, then the rows, each token right-aligned to the widest."""
    wide = max((len(c) for c in cells), default=1)
    rows = [" ".join(c.rjust(wide) for c in cells[r : r + width]) for r in range(0, len(cells), width)]
    return header + "\n" + "\n".join(rows) + "\n"


# ------------------------------------------------------------------ symmetries


@dataclass(frozen=True)
class Move:
    """A turn or mirror of the grid: ``at(row, col, last_row, last_col)`` is where a position of an array
    whose last row and column are those goes."""

    name: str
    at: Callable[[int, int, int, int], Position]
    #: whether it swaps rows and columns (so it needs a square)
    transposes: bool = False


MOVES: tuple[Move, ...] = (
    Move("identity", lambda r, c, lr, lc: (r, c)),
    Move("turn 180", lambda r, c, lr, lc: (lr - r, lc - c)),
    Move("mirror left-right", lambda r, c, lr, lc: (r, lc - c)),
    Move("mirror top-bottom", lambda r, c, lr, lc: (lr - r, c)),
    Move("turn 90", lambda r, c, lr, lc: (c, lr - r), transposes=True),
    Move("turn 270", lambda r, c, lr, lc: (lc - c, r), transposes=True),
    Move("mirror diagonal", lambda r, c, lr, lc: (c, r), transposes=True),
    Move("mirror antidiagonal", lambda r, c, lr, lc: (lc - c, lr - r), transposes=True),
)


def moves(width: int, height: int) -> tuple[Move, ...]:
    """The moves that map a width x height grid onto itself, identity first."""
    return tuple(move for move in MOVES if width == height or not move.transposes)


def permutation(move: Move, rows: int, cols: int) -> tuple[int, ...]:
    """The move on an array of rows x cols positions numbered in reading order: ``perm[i]`` is where ``i`` goes."""
    result = []
    for index in range(rows * cols):
        r, c = move.at(*divmod(index, cols), rows - 1, cols - 1)
        result.append(r * cols + c)
    return tuple(result)
