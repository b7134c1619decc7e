"""A shipped backend with one mutation applied (``trisolve mutate`` runs it), named ``mutated:<spec>``.

The spec is ``<backend>:<variant>~<mutation>``, e.g.
``mutated:pysat:totalizer~drop-group@backends/pysat/hexiom.py:71[locked tiles]``
(a translator hook, see ``backends/mutation.py``) or
``mutated:clingo:count~lp:hexiom_count.lp=/path/to/mutant.lp`` (the named
``.lp`` file replaced by a mutant file).  The whole mutation travels in the
name, so a forked child or a Dask worker rebuilds it from the job alone.
It is not a backend of its own (the registry lists no ``mutated``): like
``/orbits``, the prefix wraps the backend named after it, and the registry's
``get`` builds the wrapper.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..models.errors import UsageError, shorten
from .base import Limits, Options, Result, SolutionSink

#: What a mutated backend's name starts with.
PREFIX = "mutated:"
#: Marks a replaced ASP rules file in a mutation spec.
LP_PREFIX = "lp:"


def is_mutated(spec: str) -> bool:
    return spec.startswith(PREFIX)


def split(spec: str) -> tuple[str, str]:
    """``"mutated:pysat:totalizer~SPEC"`` -> ``("pysat:totalizer", "SPEC")``."""
    base, sep, change = spec.removeprefix(PREFIX).partition("~")
    if not is_mutated(spec) or not sep or not base or not change:
        raise UsageError(f"a mutated backend is named mutated:BACKEND:VARIANT~MUTATION, not {shorten(spec)!r}")
    return base, change


def base(spec: str) -> str:
    """The backend a mutated spec mutates: ``"mutated:pysat:totalizer~SPEC"`` -> ``"pysat:totalizer"``."""
    return split(spec)[0]


class MutatedBackend:
    """Runs the base backend with the mutation switched on for its translation."""

    def __init__(self, family: str, spec: str, base: Any) -> None:
        """``base`` is the backend ``split(spec)[0]`` names, ready (the registry's ``get`` makes both)."""
        from .mutation import Mutation

        change = split(spec)[1]
        self.family = family
        self.name = spec
        self.base = base
        self.lp_file: tuple[str, str] | None = None
        self.mutation: Mutation | None = None
        if change.startswith(LP_PREFIX):
            original, _, replacement = change[len(LP_PREFIX) :].partition("=")
            self.lp_file = (original, replacement)
        else:
            self.mutation = Mutation.parse(change)

    def _applied(self):
        from contextlib import ExitStack

        from . import mutation

        stack = ExitStack()
        stack.enter_context(mutation.active(self.mutation))
        if self.lp_file is not None:  # a backend whose MUTANTS are "rules" loads a mutant rules file instead
            stack.enter_context(self.base.rules_replaced(*self.lp_file))
        return stack

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        with self._applied():
            result = self.base.run(level, limits, options, on_solution)
        return dataclasses.replace(result, backend=self.name)

    def export(self, level: Any, options: Options) -> str:
        with self._applied():
            return self.base.export(level, options)
