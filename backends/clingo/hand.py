"""A family's own ASP rules, run by clingo as the variant ``hand`` of every family that declares them.

A family may state its rules once more, by hand, as an answer-set program beside
its model (``Family.asp``, models/family.py): a real ``.lp`` file, a writer of
integer facts and a decoder of the shown atoms.  Those rules are independent of
the family's translators, so a cross-check sets two statements of the rules
against each other.  This module names no family: the registry offers the variant
for any family whose record declares rules (``FAMILY_RULES`` in ``__init__``),
beside the variants of the family's own translator file if it has one.

Counts are by projection, as everywhere in the engine: the rules' ``#show`` is
the projection (``--project``), so answer sets that differ only in hidden atoms
are one solution.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...models.errors import UsageError
from ...models.family import AspRules
from ..base import Options
from ..catalog import Catalog

VARIANT = "hand"
DESCRIPTION = "the family's own hand-written rules (the .lp file beside its model), integer facts; projected on #show"


def catalog(declared: Catalog | None) -> Catalog:
    """What clingo offers a family with rules of its own: its translator's variants, if it has a translator
    (its default stays the default), and ``hand``."""
    if declared is None:
        return Catalog(default=VARIANT, variants={VARIANT: DESCRIPTION}, symmetry_breaking=False)
    return dataclasses.replace(declared, variants={**declared.variants, VARIANT: DESCRIPTION})


class Translator:
    """The family's rules as a clingo translator; any other variant goes to the family's translator file."""

    def __init__(self, rules: AspRules, declared: Any | None) -> None:
        self._rules = rules
        self._declared = declared
        self.CATALOG = catalog(None if declared is None else declared.CATALOG)

    def __getattr__(self, name: str) -> Any:
        if self._declared is None:
            raise AttributeError(name)
        return getattr(self._declared, name)

    def rules(self, variant: str, options: Options) -> list[str]:
        """The ``.lp`` files of a variant: the family's own file for ``hand`` (an absolute path)."""
        if variant != VARIANT:
            return self._declared.rules(variant, options)
        return [self._rules.rules]

    def encode(self, level: Any, variant: str, options: Options) -> Any:
        if variant != VARIANT:
            return self._declared.encode(level, variant, options)
        if options.symmetry_breaking:
            raise UsageError("clingo:hand states a family's rules alone: it has no symmetry breaking")
        from .engine import AspProgram

        rules = self._rules

        def decode(symbols: Any) -> Any:
            # each shown atom as a plain tuple: its name, then its arguments (integers by the rules' design)
            return rules.decode(level, [(s.name, *(a.number for a in s.arguments)) for s in symbols])

        return AspProgram(rules=[rules.rules], facts=rules.facts(level), decode=decode)


def translator(rules: AspRules, declared: Any | None) -> Translator:
    """The clingo translator of a family with rules of its own (``declared``: its translator file, if any)."""
    return Translator(rules, declared)
