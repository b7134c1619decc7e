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

from .errors import LevelSyntaxError, TrisolveError, UsageError
from .family import Family, Parameter
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


def detect_family(path: str) -> Family:
    """Which family a file belongs to: by a suffix that only one family's files have (``.toml``), then by
    folder name, then by content (each family's ``sniff``)."""
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
    "detect_family",
    "register",
    "unregister",
]
