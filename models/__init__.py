"""Puzzle families: immutable models, parsers, validators and renderers.

Nothing in this package imports a backend: the validators are the referee.
"""

from __future__ import annotations

import os
from types import ModuleType

from . import hexiom, logic, pictures, sigils
from .errors import LevelSyntaxError, TrisolveError, UsageError, whole_number
from .family import Family, Parameter
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
    answers=logic.answers,
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

FAMILIES: dict[str, Family] = {family.name: family for family in (HEXIOM, LOGIC, SIGILS)}
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
    """Which family a file belongs to: ``.toml`` is always logic (docs/logic.md), then by folder name,
    then by content."""
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
    "detect_family",
    "hexiom",
    "register",
    "unregister",
]
