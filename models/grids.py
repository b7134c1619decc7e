"""Rectangular grids of cells, as the puzz.link families (slither, nurikabe, sudoku) share them.

These live here so that each family states them once:

* a level's size and cell numbering (``Grid``), and the level of a genre with at
  most one clue per cell (``CluedGrid``): its clues in reading order.
* the text format's frame: a header line ``<genre> <W>x<H>`` (width, then
  height), then H rows of W cells, each row either tokens separated by spaces
  or, when every token is one character, the characters written together;
  ``#`` starts a comment; blank lines are skipped.  The family says what a cell's
  number may be (``cell_value``).
* the symmetries of a rectangle: turns by 180 degrees and the two mirrors, and
  on a square also the quarter turns and the two diagonal mirrors.  Each acts on
  positions ``(row, col)`` of any array of positions over the grid (its cells, or
  its points, one more each way).
* the family record built from the modules of a genre's package, which name their
  parts alike (``family_record``), with the orbit functions from the model's symmetries.
"""

from __future__ import annotations

import importlib
import os
import random
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from . import puzzlink
from .errors import InstanceTooLarge, LevelSyntaxError, shorten, whole_number
from .family import Family, Ladder, Parameter, Rung, SolutionCounter, from_model, is_address
from .files import read_instance_text

Level = TypeVar("Level")

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


@dataclass(frozen=True)
class Grid:
    """A level on ``width`` x ``height`` cells (nurikabe, slither, sigils), cell ``(row, col)`` numbered
    ``row * width + col`` in reading order.  The family's ``Level`` adds what stands on the cells."""

    width: int
    height: int

    @property
    def cell_count(self) -> int:
        return self.width * self.height

    def cell(self, row: int, col: int) -> int:
        return row * self.width + col


@dataclass(frozen=True)
class CluedGrid(Grid):
    """A level of a genre that writes at most one clue in a cell (nurikabe, slither): ``clues`` per cell in
    reading order, None where there is none (what a clue means is the genre's).  The genre's ``Level`` adds its
    picture and what it derives from the clues."""

    clues: tuple[int | None, ...]
    name: str = ""


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


def cell_value(
    token: Token,
    file: str,
    expected: str,
    problem: Callable[[int, str], str | None],
    unknown: str | None = None,
) -> int | None:
    """One cell of a grid file: ``.`` None, ``?`` ``puzzlink.UNKNOWN`` (or, when the genre gives ``unknown``, an
    error saying that), ASCII digits a number that ``problem(number, text)`` finds nothing wrong with; anything
    else is unexpected (``expected`` says what is).  Errors name the line and column."""
    if token.text == ".":
        return None
    if token.text == "?" and unknown is None:
        return puzzlink.UNKNOWN
    if token.text == "?":
        raise LevelSyntaxError(file, token.line, unknown, token.column)
    number = whole_number(token.text)
    if number is None:
        raise LevelSyntaxError(
            file, token.line, f"unexpected {shorten(token.text, 12)!r}: expected {expected}", token.column
        )
    wrong = problem(number, shorten(token.text, 12))
    if wrong is not None:
        raise LevelSyntaxError(file, token.line, wrong, token.column)
    return number


def read_level(path: str, parse_text: Callable[..., Level], parse_link: Callable[[str], Level]) -> Level:
    """A level file, named after it, or a puzz.link link given in its place (``Family.parse``)."""
    if is_address(path):
        return parse_link(path)
    return parse_text(read_instance_text(path), file=path, name=os.path.splitext(os.path.basename(path))[0])


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


# ------------------------------------------------------------------ the family record


def family_record(package: str, **declared: Any) -> Family:
    """The ``Family`` of a puzz.link genre from the modules of its package (``models/<genre>/``), which name
    their parts alike, so that a genre's ``__init__.py`` states only what differs (``declared``: its generator's
    parameters, its ladder).

    ``package`` is the genre package's name (its ``__name__``). Its ``model`` holds the level and solution types
    and ``parse``, ``parse_text``, ``parse_link``, ``write_link``, ``validate``, ``render``, ``canonical``,
    ``solution_from_json``, ``describe``, ``format_level``, ``shrink_candidates``, and for the symmetries
    (``Level.symmetries``, identity first) ``apply_symmetry(level, perm, solution)`` and
    ``symmetry_key(level, solution)``, the vector the lex-leader convention compares (the leader is the orbit's
    smallest); a ``Level`` that can tell an obstruction before solving has an ``obstruction`` property; ``asp``
    the genre's own ASP rules (``RULES_FOR_CLINGO``, beside them ``<genre>.lp``); ``constraints`` its constraint
    model (``constraints`` and ``KINDS``); ``generate`` its generator (``generate``); ``picture`` its SVG
    (``picture``)."""
    model, asp, constraints, generate, picture = (
        importlib.import_module(f"{package}.{part}") for part in ("model", "asp", "constraints", "generate", "picture")
    )
    if hasattr(model.Level, "obstruction"):
        declared.setdefault("obstruction", lambda level: level.obstruction)

    def images(level: Any, solution: Any) -> list:
        return [model.apply_symmetry(level, perm, solution) for perm in level.symmetries]

    def orbit_representative(level: Any, solution: Any) -> Hashable:
        return min(model.symmetry_key(level, image) for image in images(level, solution))

    def is_lex_leader(level: Any, solution: Any) -> bool:
        return model.symmetry_key(level, solution) == orbit_representative(level, solution)

    return from_model(
        model.GENRE,
        model,
        sniff=lambda path, text: is_header(text, model.GENRE) or puzzlink.names_genre(text, model.GENRE),
        symmetries=lambda level: level.symmetries,
        images=images,
        orbit_representative=orbit_representative,
        is_lex_leader=is_lex_leader,
        picture=picture.picture,
        step_picture=getattr(picture, "step_picture", None),
        default_backend="clingo",
        counting_backend="clingo",
        asp=asp.RULES_FOR_CLINGO,
        url=puzzlink.url_format(model.GENRE, model.parse_link, model.write_link),
        constraints=constraints.constraints,
        constraint_kinds=constraints.KINDS,
        generate=generate.generate,
        **declared,
    )


# ------------------------------------------------------------------ generating


def side_parameters(max_side: int) -> tuple[Parameter, Parameter]:
    """A grid generator's width and height."""
    return (
        Parameter("width", int, 1, max_side, "cells across (default 10)"),
        Parameter("height", int, 1, max_side, "cells down (default 10)"),
    )


def side_ladder(sides: Sequence[int] = (10, 15, 20, 25, 30)) -> Ladder:
    """Square grids of growing side, each level proved unique: what the benchmark's ladder generates."""
    return Ladder(
        "grid side",
        lambda level: max(level.width, level.height),
        tuple(Rung(side, {"width": side, "height": side}) for side in sides),
        unique=True,
    )


def unique_under(counter: SolutionCounter, level: Any, time: float) -> tuple[bool, tuple]:
    """Whether ``counter`` proves ``level`` unique (a complete count of 1), and the solutions it saw (a second
    one shows where uniqueness fails).  A count cut short proves nothing: not unique."""
    count, complete, found = counter(level, 2, time)
    return count == 1 and complete, found


def thin_clues(
    clues: Sequence[int],
    level_without: Callable[[frozenset[int]], Any],
    counter: SolutionCounter,
    rng: random.Random,
    time: float,
) -> frozenset[int]:
    """The clues (cell numbers) taken away, in random order, as long as the level stays unique; the level with
    every clue must be unique.  ``level_without(removed)`` is the level without the clues ``removed``.

    Clues are tried in blocks that double while the level stays unique and halve when it does not, down to
    one clue: a clue kept was tried alone, against fewer removed clues than the end has, so the result is
    minimal (taking any clue left away gives a second solution) in far fewer counts than one per clue when
    most clues go."""
    order = list(clues)
    rng.shuffle(order)
    removed: frozenset[int] = frozenset()
    block = max(1, len(order) // 4)
    while order:
        trial = removed | frozenset(order[:block])
        if unique_under(counter, level_without(trial), time)[0]:
            removed, order = trial, order[block:]
            block *= 2
        elif block == 1:
            order = order[1:]  # needed: without it the level has another solution
        else:
            block //= 2
    return removed


def random_share(count: int, share: float, rng: random.Random) -> frozenset[int]:
    """A random ``share`` of ``range(count)`` (the clues a generator takes away when no uniqueness is asked)."""
    return frozenset(rng.sample(range(count), round(share * count)))
