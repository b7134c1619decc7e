"""Levels and solutions: ``load`` and the objects every verb takes and returns; instance files and folders."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from trisolve import arguments
from trisolve.models import FAMILIES, address_list, check_address_list, detect_family, is_address
from trisolve.models.errors import LevelSyntaxError, TrisolveError, UsageError, shorten
from trisolve.models.family import Family


@dataclass(frozen=True)
class Level:
    """A parsed puzzle instance of one family; ``model`` is the family's own level object."""

    family: str
    model: Any = field(repr=False)
    path: str | None = None
    #: seconds spent reading and parsing (reported as the ``parse`` phase of a solve)
    parse_time: float = field(default=0.0, compare=False, repr=False)

    @property
    def kind(self) -> Family:
        """The family's functions (parser, validator, renderer, ...)."""
        return FAMILIES[self.family]

    @property
    def name(self) -> str:
        return getattr(self.model, "name", "") or (
            os.path.splitext(os.path.basename(self.path))[0] if self.path else ""
        )

    def describe(self) -> str:
        """One line: size, pieces, clues."""
        return self.kind.describe(self.model)

    def render(self, **options: Any) -> str:
        """The puzzle as text (sigils take ``colour=True``)."""
        return self.kind.render(self.model, None, **options)

    def __str__(self) -> str:
        return self.render().rstrip("\n")

    def picture(self) -> str:
        """The level as an SVG picture: locked and blocked cells, the empty frame and its pieces, the clues."""
        return self.kind.picture(self.model, None)

    def _repr_svg_(self) -> str:  # notebooks show the picture
        return self.picture()

    def solution(self, data: Mapping[str, Any]) -> Solution:
        """A solution of this level from its JSON form (``Solution.to_json``, ``solve --json``)."""
        return Solution(self, self.kind.solution_from_json(self.model, data))

    @property
    def run_path(self) -> str:
        """What runs and reports call this level: its file, or ``<name>`` for text."""
        return self.path or f"<{self.name or 'string'}>"


@dataclass(frozen=True)
class Solution:
    """One solution of a level; printing it draws the solved board, grid or tiling."""

    level: Level = field(repr=False, compare=False)
    model: Any

    def render(self, **options: Any) -> str:
        """The solved puzzle as text (sigils take ``colour=True``)."""
        return self.level.kind.render(self.level.model, self.model, **options)

    def __str__(self) -> str:
        return self.render().rstrip("\n")

    def picture(self) -> str:
        """The solved board, tiling or grid as an SVG picture."""
        return self.level.kind.picture(self.level.model, self.model)

    def _repr_svg_(self) -> str:  # notebooks show the picture
        return self.picture()

    def to_json(self) -> dict:
        return self.model.to_json()

    def violations(self) -> list[str]:
        """The family validator's verdict: rules this solution breaks (empty when valid)."""
        return [v.message for v in self.level.kind.validate(self.level.model, self.model)]


def load(path_or_text: str | os.PathLike, family: str | None = None) -> Level:
    """Parse an instance file, or an instance given as text.

    A ``pathlib.Path`` (any ``os.PathLike``) is always a file; a ``str`` is
    text when it holds a line break (every instance format has more than one
    line) and a file name otherwise.  A file whose name holds a line break is
    given as a ``pathlib.Path``.  The family is told by the file's folder,
    then by its content (logic grids given as text need ``family="logic"``).

    Bad input raises ``LevelSyntaxError`` (a ``UsageError``) naming file and line.
    """
    started = time.monotonic()
    text = os.fspath(arguments.path(path_or_text, "path_or_text") or "")
    kind = family_named(arguments.text(family, "family")) if family else None
    if isinstance(path_or_text, os.PathLike) or "\n" not in text:
        # the reader refuses missing, special and oversized files (models.files.read_instance_text)
        kind = kind or detect_family(text)
        model, path = kind.parse(text), text
    else:
        kind = kind or _sniff(text)
        model, path = kind.parse_text(text, "<string>"), None
    return Level(kind.name, model, path, parse_time=time.monotonic() - started)


def family_of(path: str | os.PathLike, family: str | None = None) -> Family:
    """The family of an instance file (``family`` if given), without parsing it."""
    return family_named(family) if family else detect_family(os.fspath(path))


def family_named(name: str) -> Family:
    if name not in FAMILIES:
        raise UsageError(f"unknown family {shorten(name)!r}; known: {', '.join(FAMILIES)}")
    return FAMILIES[name]


def _sniff(text: str) -> Family:
    for kind in FAMILIES.values():
        if kind.sniff("<string>", text):
            return kind
    raise LevelSyntaxError(
        "<string>", None, f"cannot tell which puzzle family this text is (known: {', '.join(FAMILIES)}); give family="
    )


def named(argument: str | os.PathLike) -> str | os.PathLike:
    """An instance argument as ``load`` takes it: a web address (a puzz.link link) as it is, anything else as a
    file name (``FileName``: a file whose name holds a line break is still a file; a path would fold a link's
    ``//``)."""
    if isinstance(argument, str) and is_address(argument):
        return argument
    return FileName(argument)


class FileName(os.PathLike):
    """A file name that is always a file (``os.PathLike``), spelt as ``pathlib.PurePosixPath`` spells it (``./a//b/``
    is ``a/b``), without importing ``pathlib`` (with ``urllib.parse`` and ``fnmatch`` it costs a solve's start-up
    milliseconds)."""

    __slots__ = ("_text",)

    def __init__(self, name: str | os.PathLike) -> None:
        text = os.fspath(name)
        root = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
        self._text = root + "/".join(part for part in text.split("/") if part not in ("", ".")) or "."

    def __fspath__(self) -> str:
        return self._text

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"FileName({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FileName) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)


def instance_files(paths: Iterable[str | os.PathLike]) -> list[str]:
    """Files named, and instance files inside named folders (sorted), for many-instance runs.

    A web address is an instance of its own; a file listing web addresses, one per line, is a collection of
    them, as a folder is of its files (every link is read first: a bad one is refused at its line)."""
    found: list[str] = []
    for path in map(os.fspath, paths):
        if is_address(path):
            found.append(path)
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.startswith(".") or name.endswith((".json", ".jsonl", ".md")):
                        continue
                    found.extend(_listed(os.path.join(root, name)))
        elif os.path.lexists(path):  # a broken link or a loop is the reader's to explain
            found.extend(_listed(path))
        else:
            raise UsageError(f"{path}: no such file or folder")
    if not found:
        raise UsageError("no instance files found in " + ", ".join(map(os.fspath, paths)))
    return found


def _listed(path: str) -> list[str]:
    """A file as instances: itself, or the links it lists."""
    links = address_list(path)
    if links is None:
        return [path]
    check_address_list(path, links)
    return [link for _, link in links]


def levels_of(
    levels: Level | str | os.PathLike | Iterable[Level | str | os.PathLike],
    family: str | None,
    unreadable: list[tuple[str, TrisolveError]] | None = None,
) -> list[Level]:
    """Levels given as Level objects, files or folders (folders expand to their instance files).

    With ``unreadable``, a file found inside a folder that cannot be read goes there (path, problem)
    instead of stopping everything; a file named by itself always raises."""
    if isinstance(levels, (Level, str, os.PathLike)):
        levels = [levels]
    out: list[Level] = []
    for item in levels:
        if isinstance(item, Level):
            out.append(item)
            continue
        inside_folder = unreadable is not None and os.path.isdir(item)
        for path in instance_files([item]):
            try:
                out.append(load(named(path), family))  # a file name with a line break is still a name
            except TrisolveError as problem:
                if not inside_folder:
                    raise
                unreadable.append((path, problem))
    return out
