"""Nurikabe (``nurikabe``), one of the puzz.link families: its model (``model.py``: Level, Solution, parsers,
the validator, text), its picture (``picture.py``) and its own ASP rules (``nurikabe.lp``, with ``asp.py``).

``FAMILY`` is the record the commands read (docs/adding-a-family.md); the file and link formats are in
docs/nurikabe.md.
"""

from __future__ import annotations

from .. import grids, puzzlink
from ..family import Family
from . import asp, model, picture

FAMILY = Family(
    name=model.GENRE,
    parse=model.parse,
    parse_text=lambda text, file: model.parse_text(text, file=file),
    validate=model.validate,
    render=model.render,
    canonical=model.canonical,
    solution_from_json=model.solution_from_json,
    describe=model.describe,
    sniff=lambda path, text: grids.is_header(text, model.GENRE) or puzzlink.names_genre(text, model.GENRE),
    symmetries=lambda level: level.symmetries,
    images=model.images,
    orbit_representative=model.orbit_representative,
    is_lex_leader=model.is_lex_leader,
    format_level=model.format_level,
    shrink=model.shrink_candidates,
    obstruction=lambda level: level.obstruction,
    picture=picture.picture,
    default_backend="clingo",
    asp=asp.RULES_FOR_CLINGO,
    url=puzzlink.url_format(model.GENRE, model.parse_link, model.write_link),
)

__all__ = ["FAMILY", "model"]
