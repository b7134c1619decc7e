"""puzz.link links: the address split into genre, size and body, and the body codes genres share.

pzpr.js, the editor behind puzz.link (and pzv.jp before it), writes a puzzle as
``https://puzz.link/p?<genre>/<cols>/<rows>/<body>``.  The body lists the
cells in reading order with a few small codes, shared by many genres:

* ``four`` (Slitherlink's code): ``0``-``4`` a clue; ``5``-``9`` a clue plus 5,
  followed by one empty cell; ``a``-``e`` a clue plus 10, followed by two empty
  cells; ``g``-``z`` 1 to 20 empty cells; ``.`` a clue whose number is not given.
* ``numbers`` (Nurikabe's and Sudoku's): a hex digit ``0``-``f`` is a number;
  ``-`` plus two hex digits 16-255, ``+`` plus three 256-4095, ``=`` plus three
  4096 more, ``%`` or ``@`` plus three 8192 more, ``*`` plus four 12240 more,
  ``$`` plus five 77776 more; ``.`` a number not given; ``g``-``z`` 1 to 20 empty cells.

Each family decodes its own body with these codes and checks the values against
its rules.  Reading is strict where pzpr.js is lenient: a character no code
knows, a body that stops before the last cell or goes on after it, and a run
of empty cells past the end are errors (pzpr.js itself never writes them), so a
size that does not match its body is caught.  Errors are ``AddressError``:
"the URL: position N: what was expected", N counting characters from 1.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .errors import AddressError, AddressTooLarge, LevelSyntaxError, shorten, whole_number
from .family import UrlFormat, is_address

#: The sites that write this format: puzz.link, and pzv.jp before it (``www.`` and http or https alike).
SITE = re.compile(r"https?://(?:www\.)?(?:puzz\.link|pzv\.jp)/p(?:\.html)?\?", re.ASCII)
#: How links are written back.
WRITTEN = "https://puzz.link/p?"
#: The name ``trisolve export --format`` knows the links by.
FORMAT = "puzzlink"
EXAMPLE = "https://puzz.link/p?<genre>/<cols>/<rows>/<body> (or http://pzv.jp/p.html?...)"
#: Longest link read, in characters (a 100x100 grid of clues takes at most 60,000).
MAX_LINK = 100_000
#: A number whose value the puzzle does not give (``.`` in a body, ``?`` in the text format).
UNKNOWN = -1
#: ``g`` stands for one empty cell, ``z`` for twenty.
SKIP_LETTERS = "ghijklmnopqrstuvwxyz"
HEX = "0123456789abcdef"
#: The wider number codes: prefix -> (hex digits after it, added to their value).
WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192), "*": (4, 12240), "$": (5, 77776)}
#: The code pzpr.js writes for a number, by range: (prefix, lowest, past the highest).
WRITTEN_WIDE = (
    ("-", 16, 256),
    ("+", 256, 4096),
    ("=", 4096, 8192),
    ("@", 8192, 12240),
    ("*", 12240, 77776),
    ("$", 77776, 77776 + 16**5),
)
#: Suffixes of a genre that only choose how the editor opens.
MODES = ("_edit", "_play")


@dataclass(frozen=True)
class Link:
    """A link's parts: ``flags`` are pzpr's display options (letters before the size), ``body_at``
    the position of the body's first character (for messages)."""

    genre: str
    cols: int
    rows: int
    body: str
    body_at: int
    flags: str = ""
    flags_at: int = 0
    #: the position of the number of columns
    size_at: int = 0

    @property
    def cells(self) -> int:
        return self.cols * self.rows

    @property
    def name(self) -> str:
        """A short name for a level read from a link: genre, size and a digest of the body."""
        digest = hashlib.sha1(self.body.encode("ascii", "replace")).hexdigest()[:6]
        return f"{self.genre}-{self.cols}x{self.rows}-{digest}"


def _parts(address: str) -> tuple[list[tuple[str, int]], int]:
    """The '/'-separated parts after the '?' with their positions, and the position after the address."""
    start = SITE.match(address).end()  # type: ignore[union-attr]
    parts, position = [], start + 1
    for part in address[start:].split("/"):
        parts.append((part, position))
        position += len(part) + 1
    return parts, len(address) + 1


def _genre(part: str) -> str:
    for mode in MODES:
        if part.endswith(mode):
            return part[: -len(mode)]
    return part


def genre_of(address: str) -> tuple[str, int] | None:
    """The genre a link names and its position, or None when it is no puzz.link link."""
    if SITE.match(address) is None:
        return None
    parts, _ = _parts(address[:MAX_LINK])
    first, at = parts[1] if parts[0][0].startswith("v:") and len(parts) > 1 else parts[0]  # a variant comes first
    return _genre(first), at


def split(address: str, genre: str, max_side: int, flags: str = "") -> Link:
    """Check a link of ``genre`` and take it apart; the size is checked (1 to ``max_side``) before anything
    else is read.  ``flags`` are the display options the genre may carry (dropped: they do not change the puzzle)."""
    if len(address) > MAX_LINK:
        raise AddressTooLarge(None, f"a link of {len(address)} characters; links are at most {MAX_LINK}")
    if SITE.match(address) is None:
        raise AddressError(1, f"expected a puzz.link link, {EXAMPLE}")
    parts, end = _parts(address)
    first, at = parts[0]
    if first.startswith("v:") or "=" in first or "&" in first:
        raise AddressError(at, "expected the genre right after '?' (editor options such as type= or v: are not read)")
    if _genre(first) != genre:
        raise AddressError(at, f"expected a {genre} link, found the genre {shorten(first, 30)!r}")
    rest = parts[1:]
    found_flags, flags_at = "", 0
    if rest and rest[0][0] and whole_number(rest[0][0]) is None:
        (found_flags, flags_at), rest = rest[0], rest[1:]
        stray = next((i for i, ch in enumerate(found_flags) if ch not in flags), None)
        if stray is not None:
            known = f"only {', '.join(flags)}" if flags else "none"
            raise AddressError(
                flags_at + stray,
                f"expected the number of columns, found {shorten(found_flags, 20)!r} "
                f"(display options of {genre} links: {known})",
            )
    if len(rest) < 2:
        raise AddressError(rest[0][1] if rest else end, "expected the size, /<cols>/<rows>/, after the genre")
    cols = _side(*rest[0], "columns", genre, max_side)
    rows = _side(*rest[1], "rows", genre, max_side)
    body = rest[2:]
    if len(body) > 1 and body[-1][0] == "":  # pzpr.js ends a link whose body ends in a sign with '/'
        body = body[:-1]
    if len(body) > 1:
        raise AddressError(body[1][1] - 1, "stray '/' in the body (the body is one part, after /<cols>/<rows>/)")
    text, text_at = body[0] if body else ("", end)
    return Link(_genre(first), cols, rows, text, text_at, found_flags, flags_at, rest[0][1])


def _side(text: str, at: int, what: str, genre: str, max_side: int) -> int:
    number = whole_number(text)
    if number is None:
        raise AddressError(at, f"expected the number of {what} (digits), found {shorten(text, 20)!r}")
    if number < 1:
        raise AddressError(at, f"expected 1 or more {what}, found {number}")
    if number > max_side:
        raise AddressTooLarge(at, f"{shorten(text, 20)} {what}: {genre} grids have at most {max_side}")
    return number


# ------------------------------------------------------------------ the body codes


def _ended(link: Link, read: int, cell: int) -> None:
    """The body must describe the grid's cells exactly: no characters left, no cell missing."""
    if read < len(link.body):
        raise AddressError(
            link.body_at + read,
            f"the body goes on after the last of the {link.cells} cells of a {link.cols}x{link.rows} grid "
            "(the size does not match the body)",
        )
    if cell < link.cells:
        raise AddressError(
            link.body_at + len(link.body),
            f"the body ends after {cell} of the {link.cells} cells of a {link.cols}x{link.rows} grid "
            "(the size does not match the body)",
        )


def _skip(link: Link, read: int, cell: int) -> int:
    """The cell after a run of empty cells (``g``-``z``), which must not pass the grid's end."""
    after = cell + SKIP_LETTERS.index(link.body[read]) + 1
    if after > link.cells:
        raise AddressError(
            link.body_at + read,
            f"{link.body[read]!r} skips {after - cell} cells, past the end of the {link.cols}x{link.rows} grid "
            "(the size does not match the body)",
        )
    return after


def decode_four(link: Link) -> list[int | None]:
    """The cells of a body in the ``four`` code: a clue 0-4, ``UNKNOWN`` or None (no clue)."""
    values: list[int | None] = [None] * link.cells
    body, cell, read = link.body, 0, 0
    while read < len(body) and cell < link.cells:
        char = body[read]
        if "0" <= char <= "9":
            values[cell] = int(char) % 5
            cell += 1 + int(char) // 5
        elif "a" <= char <= "e":
            values[cell] = HEX.index(char) - 10
            cell += 3
        elif char in SKIP_LETTERS:
            cell = _skip(link, read, cell)
        elif char == ".":
            values[cell] = UNKNOWN
            cell += 1
        else:
            raise AddressError(
                link.body_at + read,
                f"unexpected {shorten(repr(char), 10)}: expected a clue 0-4 (5-9, a-e: a clue then 1 or 2 empty "
                "cells), g-z (1 to 20 empty cells) or '.' (a clue without its number)",
            )
        read += 1
    _ended(link, read, min(cell, link.cells))
    return values


def encode_four(values: Sequence[int | None]) -> str:
    """The ``four`` code of cells (clues 0-4, ``UNKNOWN``, None), written as pzpr.js writes it: a clue takes the
    one or two empty cells after it into its character where it can."""
    out: list[str] = []
    empty, cell = 0, 0
    while cell < len(values):
        value = values[cell]
        if value is None:
            empty += 1
            if empty == len(SKIP_LETTERS):
                out.append(SKIP_LETTERS[-1])
                empty = 0
            cell += 1
            continue
        if empty:
            out.append(SKIP_LETTERS[empty - 1])
            empty = 0
        if value == UNKNOWN:
            out.append(".")
            cell += 1
            continue
        if not 0 <= value <= 4:
            raise ValueError(f"clue {value} does not fit the four code (0-4)")
        # the empty cells right after the clue, at most two, go into its character (past the grid's end
        # counts as empty: the last clue always takes two)
        if cell + 1 < len(values) and values[cell + 1] is not None:
            taken = 0
        elif cell + 2 < len(values) and values[cell + 2] is not None:
            taken = 1
        else:
            taken = 2
        out.append(HEX[value + 5 * taken])
        cell += 1 + taken
    if empty:
        out.append(SKIP_LETTERS[empty - 1])
    return "".join(out)


def decode_numbers(link: Link, check: Callable[[int, int], str | None] | None = None) -> list[int | None]:
    """The cells of a body in the ``numbers`` code: a number 0 or more, ``UNKNOWN`` or None (empty).

    ``check(cell, value)`` says what is wrong with a value the genre does not take (None: nothing), and the
    error points at the character that wrote it."""
    values: list[int | None] = [None] * link.cells
    body, cell, read = link.body, 0, 0
    while read < len(body) and cell < link.cells:
        char = body[read]
        if char in HEX:
            values[cell] = HEX.index(char)
            cell += 1
        elif char in WIDE:
            width, base = WIDE[char]
            digits = body[read + 1 : read + 1 + width]
            if len(digits) < width or any(d not in HEX for d in digits.lower()):
                raise AddressError(
                    link.body_at + read,
                    f"{char!r} is followed by {width} hex digits (0-9, a-f), found {shorten(repr(digits), 12)}",
                )
            values[cell] = int(digits, 16) + base
            cell += 1
        elif char == ".":
            values[cell] = UNKNOWN
            cell += 1
        elif char in SKIP_LETTERS:
            cell = _skip(link, read, cell)
        else:
            raise AddressError(
                link.body_at + read,
                f"unexpected {shorten(repr(char), 10)}: expected a number (a hex digit, or -, +, =, %, @, *, $ "
                "and hex digits), '.' (a number not given) or g-z (1 to 20 empty cells)",
            )
        if check is not None and char not in SKIP_LETTERS:
            problem = check(cell - 1, values[cell - 1])  # type: ignore[arg-type]
            if problem is not None:
                raise AddressError(link.body_at + read, problem)
        read += 1 + (WIDE[char][0] if char in WIDE else 0)
    _ended(link, read, cell)
    return values


def encode_number(value: int) -> str:
    """One number (or ``UNKNOWN``) in the ``numbers`` code, in its shortest form."""
    if value == UNKNOWN:
        return "."
    if 0 <= value < 16:
        return HEX[value]
    for sign, lowest, past in WRITTEN_WIDE:
        if lowest <= value < past:
            width, base = WIDE[sign]
            return sign + format(value - base, f"0{width}x")
    raise ValueError(f"number {value} does not fit the numbers code")


def encode_numbers(values: Sequence[int | None]) -> str:
    """The ``numbers`` code of cells, written as pzpr.js writes it."""
    out: list[str] = []
    empty = 0
    for value in values:
        if value is None:
            empty += 1
            if empty == len(SKIP_LETTERS):
                out.append(SKIP_LETTERS[-1])
                empty = 0
            continue
        if empty:
            out.append(SKIP_LETTERS[empty - 1])
            empty = 0
        out.append(encode_number(value))
    if empty:
        out.append(SKIP_LETTERS[empty - 1])
    return "".join(out)


def address(genre: str, cols: int, rows: int, body: str) -> str:
    """A puzz.link link (pzpr.js adds a '/' after a body that ends in a sign, so that link shorteners keep it)."""
    text = f"{WRITTEN}{genre}/{cols}/{rows}/{body}"
    return text if text[-1].isalnum() else text + "/"


# ------------------------------------------------------------------ links in files

Level = TypeVar("Level")


def linked_level(text: str, file: str, parse: Callable[[str], Level]) -> Level | None:
    """The level of a file whose puzzle is a link (its one meaningful line), or None when it is not one.

    A problem in the link is reported at the file, line and column of the fault; a file listing several
    links is a collection, which ``solve`` and ``crosscheck`` read link by link, not one puzzle.
    """
    meaningful = [
        (number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()[:1] not in ("", "#")
    ]
    if not meaningful or not is_address(meaningful[0][1].strip()):
        return None
    if len(meaningful) > 1:
        raise LevelSyntaxError(
            file,
            meaningful[1][0],
            "a puzzle file holds one link; a file of several links (one per line) is a collection of puzzles: "
            "solve and crosscheck read each",
        )
    number, line = meaningful[0]
    link = line.strip()
    try:
        return parse(link)
    except AddressError as problem:
        raise problem.relocated(file, number, line.index(link)) from None


def names_genre(text: str, genre: str) -> bool:
    """Whether a file's first meaningful line is a link of ``genre`` (how a file holding a link is recognised)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            found = genre_of(stripped) if is_address(stripped) else None
            return found is not None and found[0] == genre
    return False


def url_format(genre: str, parse: Callable[[str], object], write: Callable[[object], str]) -> UrlFormat:
    """The ``Family.url`` record of a genre read from puzz.link links."""
    return UrlFormat(format=FORMAT, genres=(genre,), genre=genre_of, parse=parse, write=write, example=EXAMPLE)
