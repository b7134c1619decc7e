"""The ``mutated`` backend: a shipped backend with one mutation applied (``trisolve mutate`` runs it).

Its variant is ``<backend>:<variant>~<mutation>``, e.g.
``mutated:pysat:totalizer~drop-group@backends/pysat/hexiom.py:71[locked tiles]``
(a translator hook, see ``backends/mutation.py``) or
``mutated:clingo:count~lp:hexiom_count.lp=/path/to/mutant.lp`` (the named
``.lp`` file replaced by a mutant file).  The whole mutation travels in the
name, so a forked child or a Dask worker rebuilds it from the job alone.
Never run unless asked for by name.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from .base import Limits, Options, Result, SolutionSink
from .catalog import Catalog

#: Marks a replaced ASP rules file in a mutation spec.
LP_PREFIX = "lp:"


def catalog(family: str) -> Catalog:
    """Any family: the base backend named in the variant says whether it really handles it."""
    return Catalog(default="", variants={"": "a shipped backend with one mutation: BACKEND:VARIANT~MUTATION"})


def available() -> str | None:
    return None


def make(family: str, variant: str) -> MutatedBackend:
    return MutatedBackend(family, variant)


def split(variant: str) -> tuple[str, str]:
    """``"pysat:totalizer~SPEC"`` -> ``("pysat:totalizer", "SPEC")``."""
    base, sep, spec = variant.partition("~")
    if not sep or not base or not spec:
        raise ValueError(f"a mutated backend is named mutated:BACKEND:VARIANT~MUTATION, not {variant!r}")
    return base, spec


def _check_lp(base: str, family: str, original: str, replacement: str) -> None:
    """A mutated ``.lp`` file must be one the base variant loads, and its replacement a readable file:
    otherwise the run would be the unmutated encoding, silently."""
    from . import registry
    from .base import Options

    name, variant = registry.split_spec(base)
    if name != "clingo":
        raise ValueError(f"a mutated .lp file needs a clingo base, not {base!r}")
    translator = registry.translator("clingo", family)
    variant = variant or registry.default_variant("clingo", family)
    loaded = {rule for sb in (False, True) for rule in translator.rules(variant, Options(symmetry_breaking=sb))}
    if original not in loaded:
        raise ValueError(
            f"mutated: {base} does not load {original!r} for {family} (it loads {', '.join(sorted(loaded))})"
        )
    from trisolve.models import files

    try:
        files.read_bytes(replacement, what="mutant encoding", limit=files.MAX_PLUGIN_BYTES)
    except files.FileProblem as problem:
        raise ValueError(f"mutated: the replacement of {original!r}: {problem}") from None


def _check_site(mutation: Any) -> None:
    """A hook mutation must name a translator file of the package and a line in it."""
    from .mutation import _ROOT

    path = os.path.normpath(os.path.join(_ROOT, mutation.file))
    if not path.startswith(_ROOT + os.sep) or not os.path.isfile(path):
        raise ValueError(f"mutated: no translator file {mutation.file!r} in the package")
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().count("\n") + 1
    if not 1 <= mutation.line <= lines:
        raise ValueError(f"mutated: {mutation.file} has no line {mutation.line}")


class MutatedBackend:
    """Runs the base backend with the mutation switched on for its translation."""

    def __init__(self, family: str, variant: str) -> None:
        from . import registry
        from .mutation import Mutation

        base, spec = split(variant)
        self.family = family
        self.name = f"mutated:{variant}"
        self.base = registry.get(base, family)
        self.lp_file: tuple[str, str] | None = None
        self.mutation: Mutation | None = None
        if spec.startswith(LP_PREFIX):
            original, _, replacement = spec[len(LP_PREFIX) :].partition("=")
            _check_lp(base, family, original, replacement)
            self.lp_file = (original, replacement)
        else:
            self.mutation = Mutation.parse(spec)
            _check_site(self.mutation)

    def _applied(self):
        from contextlib import ExitStack

        from . import mutation

        stack = ExitStack()
        stack.enter_context(mutation.active(self.mutation))
        if self.lp_file is not None:
            from .clingo import engine

            stack.enter_context(engine.replaced_encoding(*self.lp_file))
        return stack

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        with self._applied():
            result = self.base.run(level, limits, options, on_solution)
        return dataclasses.replace(result, backend=self.name)

    def export(self, level: Any, options: Options) -> str:
        with self._applied():
            return self.base.export(level, options)
