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

from .errors import AddressError, LevelSyntaxError, TrisolveError, UsageError, shorten
from .family import Family, Parameter, is_address
from .files import read_instance_text


def _shipped() -> dict[str, Family]:
    """Each folder ``models/<name>/`` whose ``__init__`` has a ``FAMILY`` record, by the record's name."""
    found: dict[str, Family] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if info.ispkg and info.name.isidentifier() and info.name == info.name.lower():
            family = getattr(importlib.import_module(f"{__name__}.{info.name}"), "FAMILY", None)
            if isinstance(family, Family):
                found[family.name] = family
    return found


FAMILIES: dict[str, Family] = _shipped()
#: the families that ship with trisolve (``FAMILIES`` also holds those added at run time)
SHIPPED: tuple[str, ...] = tuple(FAMILIES)


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
    owners = [family for family in FAMILIES.values() if family.suffix == suffix]
    if len(owners) == 1:
        return owners[0]
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
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
