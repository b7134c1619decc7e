"""Puzzle families: immutable models, parsers, validators, renderers, pictures and generators.

A family is a folder, ``models/<family>/`` (a lower-case name), whose
``__init__`` says ``FAMILY = Family(...)`` (``family.py``); ``FAMILIES``
holds every such folder, found by name as the registry finds backends
(``models/TEMPLATE/`` is the one to copy, and is skipped: its name is upper
case).  Nothing else lists families.  Nothing in this package imports a
backend, the cross-checker, the benchmark, the API or the command line: the
validators are the referee.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Iterator, MutableMapping

from .errors import AddressError, LevelSyntaxError, TrisolveError, UsageError, shorten
from .family import Family, Parameter, is_address
from .files import read_instance_text


def _folders() -> list[str]:
    """The family folders ``models/<name>/`` (a lower-case package name), found without importing any."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules(__path__)
        if info.ispkg and info.name.isidentifier() and info.name == info.name.lower()
    )


class _Families(MutableMapping):
    """``FAMILIES``: every family by name, each imported the first time it is asked for by name.

    A command needs the families it touches, not all: ``trisolve solve levels/hexiom/level38.txt`` asks for
    hexiom alone, and importing a family (its model, pictures, generator and constraint model) costs
    milliseconds a short command should not pay for every other one.  Asking for a name loads that folder;
    going over them all (``values()``, ``len``) loads every one.  A folder whose record names another
    family is found by its record's name when all are loaded."""

    def __init__(self) -> None:
        self._loaded: dict[str, Family] = {}
        self._pending: list[str] = _folders()
        #: the order families are listed in: the shipped folders by name, then others as they were added (plugins),
        #: whichever were loaded first (help texts and docs must not depend on what a command touched before)
        self._rank = {name: index for index, name in enumerate(self._pending)}

    def _load(self, folder: str) -> None:
        self._pending.remove(folder)
        family = getattr(importlib.import_module(f"{__name__}.{folder}"), "FAMILY", None)
        if isinstance(family, Family):
            self._loaded.setdefault(family.name, family)

    def _load_all(self) -> None:
        for folder in list(self._pending):
            self._load(folder)

    def __getitem__(self, name: str) -> Family:
        if name not in self._loaded and name in self._pending:
            self._load(name)
        if name not in self._loaded and self._pending:
            self._load_all()
        return self._loaded[name]

    def __contains__(self, name: object) -> bool:
        try:
            self[name]  # type: ignore[index]
        except (KeyError, TypeError):
            return False
        return True

    def __setitem__(self, name: str, family: Family) -> None:
        if name in self._pending:
            self._load(name)
        self._loaded[name] = family

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return iter(sorted(self._loaded, key=lambda name: self._rank.get(name, len(self._rank))))

    def __len__(self) -> int:
        self._load_all()
        return len(self._loaded)

    def __repr__(self) -> str:
        return f"FAMILIES({', '.join(self)})"


FAMILIES: MutableMapping[str, Family] = _Families()
#: the families that ship with trisolve (``FAMILIES`` also holds those added at run time): the folders' names
SHIPPED: tuple[str, ...] = tuple(_folders())


def register(family: Family) -> None:
    """Add a family at run time (a plugin, a test); its translators go to ``registry.register_translator``.
    A shipped family is not replaced."""
    if family.name in SHIPPED and FAMILIES.get(family.name) is not family:
        raise UsageError(f"family {family.name!r} ships with trisolve; a plugin cannot replace it")
    FAMILIES[family.name] = family


def unregister(name: str) -> None:
    """Forget a family added at run time."""
    if name not in SHIPPED:
        FAMILIES.pop(name, None)


def family_of_address(address: str) -> Family:
    """The family that reads a web address (a puzz.link link): the one whose ``Family.url`` reads the genre the
    address names.  An address no family reads is refused, naming the position of the genre."""
    formats: dict[str, list[str]] = {}
    found = None
    for family in FAMILIES.values():
        if family.url is None:
            continue
        named = family.url.genre(address)
        if named is not None and named[0] in family.url.genres:
            return family
        if named is not None:
            found = named
        formats.setdefault(family.url.format, []).extend(family.url.genres)
    if found is not None:
        genres = sorted({genre for names in formats.values() for genre in names})
        raise AddressError(
            found[1], f"unknown genre {shorten(found[0], 30)!r}: trisolve reads the genres {', '.join(genres)}"
        )
    examples = sorted({family.url.example for family in FAMILIES.values() if family.url is not None})
    raise AddressError(None, "not a link trisolve reads" + (f"; give {' or '.join(examples)}" if examples else ""))


def address_list(path: str) -> list[tuple[int, str]] | None:
    """The links a file lists, one per line (blank lines and ``#`` comments between), with their line numbers;
    None when the file is not such a list (it is an instance file, or one its family's reader will refuse)."""
    try:
        text = read_instance_text(path)
    except TrisolveError:
        return None
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not is_address(stripped):
            return None
        found.append((number, stripped))
    return found or None


def check_address_list(path: str, links: list[tuple[int, str]]) -> None:
    """Read every link of a list before anything runs: a bad one is refused at its file, line and column."""
    text = read_instance_text(path).splitlines()
    for number, link in links:
        try:
            family_of_address(link).parse(link)
        except AddressError as problem:
            raise problem.relocated(path, number, text[number - 1].index(link)) from None


def detect_family(path: str) -> Family:
    """Which family a file belongs to: a web address by the family that reads it (``Family.url``), then by a
    suffix that only one family's files have (``.toml``), then by folder name, then by content (each family's
    ``sniff``)."""
    if is_address(path):
        return family_of_address(path)
    suffix = os.path.splitext(path)[1]
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    folder = next((part for part in reversed(parts[:-1]) if part in SHIPPED), None)
    if folder is not None and FAMILIES[folder].suffix == suffix:
        return FAMILIES[folder]  # the folder's family owns the suffix too: no other family is asked (or loaded)
    owners = [family for family in FAMILIES.values() if family.suffix == suffix]
    if len(owners) == 1:
        return owners[0]
    for part in reversed(parts[:-1]):
        if part in FAMILIES:
            return FAMILIES[part]
    text = read_instance_text(path)
    for family in FAMILIES.values():
        if family.sniff(path, text):
            return family
    first = next(
        ((number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if line.strip()[:1] not in "#"),
        None,
    )
    if first is not None:  # name what the file starts with: an unknown genre's name, a typo
        raise LevelSyntaxError(
            path,
            first[0],
            f"cannot tell the puzzle family from {shorten(first[1], 40)!r} (known: {', '.join(FAMILIES)}); "
            "use --family",
        )
    raise LevelSyntaxError(
        path, None, f"cannot tell which puzzle family this file is (known: {', '.join(FAMILIES)}); use --family"
    )


__all__ = [
    "FAMILIES",
    "SHIPPED",
    "Family",
    "LevelSyntaxError",
    "Parameter",
    "TrisolveError",
    "UsageError",
    "address_list",
    "check_address_list",
    "detect_family",
    "family_of_address",
    "is_address",
    "register",
    "unregister",
]
