"""Puzzle families: immutable models, parsers, validators and renderers.

Nothing in this package imports a backend: the validators are the referee.
"""

from __future__ import annotations

import os
from types import ModuleType

from . import hexiom, logic, nurikabe, pictures, sigils, slither, sudoku
from .errors import AddressError, LevelSyntaxError, TrisolveError, UsageError, shorten, whole_number
from .family import Family, Parameter, is_address
from .files import read_instance_text


def _first_line(text: str) -> str:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    return ""


def _from_module(module: ModuleType, **declared: object) -> Family:
    """A family whose model module names its functions the usual way (parse, validate, render, ...):
    those come from the module, ``declared`` holds what differs from family to family."""
    return Family(
        name=module.FAMILY,
        parse=module.parse,
        parse_text=lambda text, file: module.parse_text(text, file=file),
        validate=module.validate,
        render=module.render,
        canonical=module.canonical,
        solution_from_json=module.solution_from_json,
        describe=module.describe,
        format_level=module.format_level,
        shrink=module.shrink_candidates,
        **declared,
    )


HEXIOM = _from_module(
    hexiom,
    sniff=lambda path, text: whole_number(_first_line(text)) is not None,
    symmetries=lambda level: level.symmetries,
    images=lambda level, solution: [hexiom.apply_symmetry(p, solution) for p in level.symmetries],
    orbit_representative=hexiom.orbit_representative,
    is_lex_leader=hexiom.is_lex_leader,
    picture=pictures.hexiom_svg,
    # fallback only (backends/portfolio.json decides): the shortest first-solution tail over seeds on all 41 levels
    default_backend="clingo",
    generator="trisolve.generate.hexiom:generate",
    generator_parameters=(
        Parameter("side", int, 1, 16, "board side (default 3)"),
        Parameter("fill", float, 0, 1, "share of cells holding a tile (default 0.5)", low_open=True),
    ),
)

LOGIC = _from_module(
    logic,
    sniff=lambda path, text: path.endswith(".toml"),
    picture=logic.picture,
    suffix=".toml",
    default_backend="pysat",
    generator="trisolve.generate.logic:generate",
    generator_parameters=(
        Parameter("positions", int, 1, 50, "positions (default 4)"),
        Parameter("categories", int, 1, 8, "categories (default 3)"),
    ),
    always_unique=True,
)

SIGILS = _from_module(
    sigils,
    sniff=lambda path, text: sigils.SIZE_LINE.match(_first_line(text).split("#")[0].strip()) is not None,
    symmetries=lambda level: level.symmetries,
    images=lambda level, solution: [symmetry.apply(solution) for symmetry in level.symmetries],
    orbit_representative=sigils.orbit_representative,
    is_lex_leader=sigils.is_lex_leader,
    obstruction=lambda level: level.obstruction,
    picture=pictures.sigils_svg,
    default_backend="clingo",
    render_options=("colour",),
    generator="trisolve.generate.sigils:generate",
    generator_parameters=(
        Parameter("width", int, 1, 40, "frame width (default 4)"),
        Parameter("height", int, 1, 40, "frame height (default 4)"),
    ),
)

#: the puzz.link families, each a package (models/<genre>/) exporting its record
PUZZLINK = (slither.FAMILY, nurikabe.FAMILY, sudoku.FAMILY)

FAMILIES: dict[str, Family] = {family.name: family for family in (HEXIOM, LOGIC, SIGILS, *PUZZLINK)}
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
    """Which family a file belongs to: a web address by the family that reads it, ``.toml`` always logic
    (docs/logic.md), then by folder name, then by content."""
    if is_address(path):
        return family_of_address(path)
    if path.endswith(".toml") and "logic" in FAMILIES:
        return FAMILIES["logic"]
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
    "Family",
    "Parameter",
    "LevelSyntaxError",
    "TrisolveError",
    "UsageError",
    "address_list",
    "check_address_list",
    "detect_family",
    "family_of_address",
    "hexiom",
    "is_address",
    "register",
    "unregister",
]
