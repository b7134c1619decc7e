"""Where things are in a TOML file, for error messages that name the line.

``tomllib`` parses without positions; a puzzle file's errors must still say
"file:line".  ``TomlSource`` finds the line of a key, a table header or the
n-th element of an array of tables from the raw text (strings and comments
masked out first), ``toml_error_line`` reads tomllib's own message, and
``load_toml`` parses, turning every failure (deep nesting and huge integers too) into a located error.
Used by ``models/logic/model.py``; of the puzzle format it knows only that clues are ``[[clues]]``
tables or a ``clues = [...]`` array.
"""

from __future__ import annotations

import json
import re
from functools import cached_property

from .errors import InstanceTooLarge, LevelSyntaxError

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]


class TomlSource:
    """The raw file text, to point error messages at a line (tomllib gives no positions)."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.lines = text.split("\n")

    def error(self, line: int | None, message: str) -> LevelSyntaxError:
        return LevelSyntaxError(self.file, line, message)

    def key_line(self, key: str, table: str | None = None) -> int | None:
        """The first line assigning ``key`` (bare or quoted, maybe dotted under ``table``)."""
        names = [re.escape(key), re.escape(json.dumps(key, ensure_ascii=False)), re.escape(f"'{key}'")]
        prefix = rf"(?:{re.escape(table)}\s*\.\s*)?" if table else ""
        pattern = re.compile(rf"^\s*{prefix}(?:{'|'.join(names)})\s*[=.]")  # "key =" or dotted "key.sub ="
        header = self.header_line(table) if table else None
        for number in range(header or 0, len(self.lines)):
            if pattern.match(self.lines[number]):
                return number + 1
        if table:
            return header or self.key_line(table)
        return self.header_line(key)

    def header_line(self, table: str) -> int | None:
        """The line of the ``[table]`` or ``[[table]]`` header."""
        pattern = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}\s*\]\]?")
        for number, line in enumerate(self.lines):
            if pattern.match(line):
                return number + 1
        return None

    @cached_property
    def masked(self) -> str:
        """The text with string contents and comments blanked out (newlines kept).

        Only called on text tomllib has accepted, so strings are well formed.
        """
        out = []
        i, n = 0, len(self.text)
        while i < n:
            ch = self.text[i]
            if ch == "#":
                end = self.text.find("\n", i)
                end = n if end < 0 else end
                out.append(" " * (end - i))
                i = end
            elif ch in "\"'":
                quote = ch * 3 if self.text.startswith(ch * 3, i) else ch
                j = i + len(quote)
                while j < n and not self.text.startswith(quote, j):
                    j += 2 if (ch == '"' and self.text[j] == "\\") else 1
                j = min(n, j + len(quote))
                while len(quote) == 3 and j < n and self.text[j] == ch:  # """a"""" ends with extra quotes
                    j += 1
                body = self.text[i:j]
                out.append(quote + re.sub(r"[^\n]", " ", body[len(quote) :]))
                i = j
            else:
                out.append(ch)
                i += 1
        return "".join(out)

    @cached_property
    def clue_lines(self) -> tuple[int, ...]:
        """The line where each clue starts, in order: ``[[clues]]`` headers or
        the elements of a ``clues = [...]`` array."""
        masked = self.masked
        lines = [m.start() for m in re.finditer(r"^[ \t]*\[\[[ \t]*clues[ \t]*\]\]", masked, re.M)]
        array = re.search(r"^[ \t]*clues[ \t]*=[ \t]*\[", masked, re.M)
        if array:
            depth, expecting = 1, True
            for i in range(array.end(), len(masked)):
                ch = masked[i]
                if ch.isspace() or ch == "\n":
                    continue
                if depth == 1 and expecting and ch not in ",]":
                    lines.append(i)
                    expecting = False
                if ch in "[{":
                    depth += 1
                elif ch in "]}":
                    depth -= 1
                    if depth == 0:
                        break
                elif ch == "," and depth == 1:
                    expecting = True
        return tuple(masked.count("\n", 0, offset) + 1 for offset in sorted(lines))

    def clue_line(self, index: int, kind: str | None = None) -> int | None:
        """Where clue ``index`` is: its ``kind = ...`` line inside a ``[[clues]]``
        table, else the line where the clue starts."""
        lines = self.clue_lines
        if index >= len(lines):
            return self.key_line("clues")
        start = lines[index]
        if kind and re.match(r"^\s*\[\[", self.lines[start - 1]):
            pattern = re.compile(rf"^\s*(?:{re.escape(kind)}|\"{re.escape(kind)}\")\s*=")
            for number in range(start, len(self.lines)):
                if re.match(r"^\s*\[", self.lines[number]):
                    break
                if pattern.match(self.lines[number]):
                    return number + 1
        return start


def toml_error_line(exc: Exception, text: str) -> tuple[int | None, str]:
    message = str(exc)
    match = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if match:
        return int(match.group(1)), message[: match.start()] + f" (column {match.group(2)})"
    match = re.search(r"\s*\(at end of document\)$", message)
    if match:
        return text.count("\n") + 1, message[: match.start()] + " (at end of file)"
    return None, message


#: Deeper nesting than this is where an error points when tomllib runs out of recursion.
MAX_NESTING = 100


def load_toml(source: TomlSource) -> dict:
    """The parsed file; every failure is a LevelSyntaxError with its line.

    Beyond tomllib's own errors: nesting deep enough to exhaust Python's
    recursion, and integers past Python's 4300-digit conversion limit.
    """
    try:
        return tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as exc:
        line, message = toml_error_line(exc, source.text)
        raise source.error(line, f"not valid TOML: {message}") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise source.error(_deepest_line(source), "arrays or tables nested too deeply to read") from None
    except ValueError:  # an integer longer than Python converts
        long_number = re.search(r"[0-9_]{100,}", source.text)
        line = source.text.count("\n", 0, long_number.start()) + 1 if long_number else None
        raise InstanceTooLarge(source.file, line, "a number too long to read (over 4300 digits)") from None


def _deepest_line(source: TomlSource) -> int | None:
    """The line where brackets first nest deeper than MAX_NESTING (strings and comments ignored)."""
    depth = 0
    for number, line in enumerate(source.masked.split("\n"), start=1):
        for char in line:
            depth += 1 if char in "[{" else -1 if char in "]}" else 0
            if depth > MAX_NESTING:
                return number
    return None
