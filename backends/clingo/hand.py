"""A family's own ASP rules, run by clingo as the variant ``hand`` of every family that declares them.

A family may state its rules once more, by hand, as an answer-set program beside
its model (``Family.asp``, models/family.py): a real ``.lp`` file, a writer of
integer facts and a decoder of the shown atoms.  Those rules are independent of
the family's translators and of its constraint model, so a cross-check sets two
statements of the rules against each other.  This is a generic translator
(``generic="asp"``): it names no family, and the registry offers it to every
family whose record declares rules, beside the family's own translator if it
has one.

Counts are by projection, as everywhere in the engine: the rules' ``#show`` is
the projection (``--project``), so answer sets that differ only in hidden atoms
are one solution.
"""

from __future__ import annotations

from typing import Any

from ...models.errors import UsageError
from ..base import Options
from ..catalog import Catalog

CATALOG = Catalog(
    default="hand",
    variants={"hand": "the family's own hand-written rules (the .lp file beside its model), integer facts; projected"},
    symmetry_breaking=False,
    generic="asp",
)


class Translator:
    """One family's own rules as a clingo translator (``CATALOG``, ``rules``, ``encode``)."""

    CATALOG = CATALOG

    def __init__(self, family: str) -> None:
        from ...models import FAMILIES

        self.family = family
        self._rules = FAMILIES[family].asp

    def rules(self, variant: str, options: Options) -> list[str]:
        """The ``.lp`` file the variant loads: the family's own (an absolute path, beside its model)."""
        return [self._rules.rules]

    def encode(self, level: Any, variant: str, options: Options) -> Any:
        if options.symmetry_breaking:
            raise UsageError("clingo:hand states a family's rules alone: it has no symmetry breaking")
        from .engine import AspProgram

        rules = self._rules

        def decode(symbols: Any) -> Any:
            # each shown atom as a plain tuple: its name, then its arguments (integers, by the rules' design)
            return rules.decode(level, [(s.name, *(a.number for a in s.arguments)) for s in symbols])

        return AspProgram(rules=[rules.rules], facts=rules.facts(level), decode=decode)


def for_family(family: str) -> Translator:
    """The translator of ``family``'s own rules (the registry asks only for families that declare some)."""
    return Translator(family)
