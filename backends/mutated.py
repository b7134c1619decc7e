"""A shipped backend with one mutation applied (``trisolve mutate`` runs it), named ``mutated:<spec>``.

Its spec (``backends/spec.py``) is ``mutated:<backend>:<variant>~<mutation>``, e.g.
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
import os
from typing import Any

from ..models.errors import UsageError, shorten
from .base import Limits, Options, Result, SolutionSink
from .spec import Spec

#: Marks a replaced ASP rules file in a mutation spec.
LP_PREFIX = "lp:"


def _check_lp(base: Any, original: str, replacement: str) -> None:
    """A mutated rules file must be one the base backend loads, and its replacement a readable file:
    otherwise the run would be the unmutated encoding, silently."""
    loaded = getattr(base, "rules_loaded", None)
    if loaded is None or not hasattr(base, "rules_replaced"):
        raise UsageError(f"a mutated rules file needs a backend whose mutants are rules files, not {base.name}")
    if original not in loaded():
        raise UsageError(
            f"mutated: {base.name} does not load {shorten(original)!r} for {base.family} "
            f"(it loads {', '.join(sorted(loaded()))})"
        )
    from ..models import files

    try:
        files.read_bytes(replacement, what="mutant encoding", limit=files.MAX_PLUGIN_BYTES)
    except files.FileProblem as problem:
        raise UsageError(f"mutated: the replacement of {original!r}: {problem}") from None


def _check_site(mutation: Any) -> None:
    """A hook mutation must name a translator file of the package and a line in it."""
    from .mutation import _ROOT

    path = os.path.normpath(os.path.join(_ROOT, mutation.file))
    if not path.startswith(_ROOT + os.sep) or not os.path.isfile(path):
        raise UsageError(f"mutated: no translator file {shorten(mutation.file)!r} in the package")
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().count("\n") + 1
    if not 1 <= mutation.line <= lines:
        raise UsageError(f"mutated: {shorten(mutation.file)} has no line {mutation.line}")


class MutatedBackend:
    """Runs the base backend with the mutation switched on for its translation."""

    def __init__(self, family: str, spec: Spec, base: Any) -> None:
        """``base`` is the backend ``spec.plain`` names, ready (the registry's ``get`` makes both)."""
        from .mutation import Mutation

        change = spec.mutation
        self.family = family
        self.name = str(spec)
        self.base = base
        self.lp_file: tuple[str, str] | None = None
        self.mutation: Mutation | None = None
        if change.startswith(LP_PREFIX):
            original, _, replacement = change[len(LP_PREFIX) :].partition("=")
            _check_lp(base, original, replacement)
            self.lp_file = (original, replacement)
        else:
            self.mutation = Mutation.parse(change)
            _check_site(self.mutation)

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
