"""TEMPLATE's mechanics, shared by every family: build, solve, enumerate, limits, statistics, export.

[GUIDELINE] Only mechanics here: a translator (``<family>.py``) builds the
native encoding, this module never knows which puzzle it solves.  The
contract it keeps is docs/backend-contract.md; in short:

* count by projection: a solution is an assignment of the puzzle's own
  variables (``TemplateModel.projection``), never of auxiliary ones, and a
  repeated one is dropped and counted in ``duplicates``;
* every limit holds on the solver's own clock (``limits.time``, from the
  start of ``run``), and a count cut short is ``N+`` (``base.finish`` derives
  status and completeness: never build a Result by hand);
* ``on_solution`` hears each new decoded solution as soon as it is found (a
  run killed at its limit keeps them);
* ``options.seed`` reaches the solver's own seed, ``options.shuffle``
  reorders its input (``base.shuffle_seed``, ``base.shuffler``), and the
  stats record both (``base.luck_stats``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .. import base
from ..base import Limits, Options, Result, SolutionSink


@dataclass(frozen=True)
class TemplateModel:
    """A translator's output: the native model, the puzzle's own variables, and a decoder.

    [GUIDELINE] Whatever the solver takes; ``decode`` turns the values of
    ``projection`` (in order) into the family's ``Solution``.
    """

    model: Any
    projection: list
    decode: Callable[[Sequence[int]], Any]


def solver_library() -> ModuleType:
    """The solver's Python module, imported on first use (never at this module's import)."""
    import TEMPLATEpy  # type: ignore[import-not-found]  # [GUIDELINE] the real library

    return TEMPLATEpy


class TemplateBackend(base.Engine):
    """One TEMPLATE configuration (``TEMPLATE:<variant>``) for one family."""

    # base.Engine refuses a variant the translator's catalog does not list and keeps family, variant, name and
    # the translator (``backends/TEMPLATE/<family>.py``) the registry hands in
    BACKEND = "TEMPLATE"

    def solve(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """The first solution, or (``options.enumerate``) every one, within ``limits`` (``base.Engine.run`` calls
        it unless the run asks for symmetry breaking the catalog does not offer)."""
        watch = base.Stopwatch()
        watch.start("translate")
        encoding = self.translator.encode(level, self.variant, options)
        watch.stop("translate")
        solutions: list[Any] = []
        watch.start("solve")
        # [GUIDELINE] Solve encoding.model with the time limit (limits.deadline()), the seed, and one solution or
        # all of them (blocking or enumerating on encoding.projection only, up to limits.solutions), appending
        # each new decoded solution and calling on_solution(solution) at once.
        exhausted = False  # [GUIDELINE] True when the search space was exhausted (the count is exact)
        raise NotImplementedError("TEMPLATE: solve encoding.model here")
        watch.stop("solve")
        return base.finish(
            self.name,
            self.family,
            solutions,
            exhausted=exhausted,
            stats={"variables": len(encoding.projection), **base.luck_stats(options, None, "nothing")},
            times=watch.times,
            stopped_by=None if exhausted else "time limit",
        )

    def export(self, level: Any, options: Options) -> str:
        """The native model as text, in the format ``EXPORTS`` names (or raise: no export)."""
        raise NotImplementedError("TEMPLATE: write the model as text here")
