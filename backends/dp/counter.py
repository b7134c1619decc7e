"""What every dp counter is as a backend: its name, and the Results it answers with.

Each family's counter (``backends/dp/<family>.py``) counts its own way, but a
count, an answer cut short and a rebuilt first solution become Results one way
for all of them, so the cross-checker reads every dp run alike: a count lists
no solutions (it is compared by its count), a first-solution run hands on the
one board it rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import base
from ..base import Result, SolutionSink, Status
from ..catalog import Catalog


class Counter:
    """``dp:<variant>`` on one family: a subclass names its ``family`` and the ``catalog`` of its variants."""

    family: str
    catalog: Catalog

    def __init__(self, variant: str | None = None) -> None:
        variant = self.catalog.default if variant is None else variant
        self.catalog.require(variant, "dp", self.family)
        self.variant = variant
        self.name = f"dp:{variant}"

    def _unknown(self, stats: Mapping[str, Any], watch: base.Stopwatch, why: str | None) -> Result:
        """No answer: a limit, or something the counter cannot do, came first (``why`` says which)."""
        return Result(
            self.name, self.family, Status.UNKNOWN, (), False, 0, dict(stats), dict(watch.times), stopped_by=why
        )

    def _counted(self, count: int, stats: Mapping[str, Any], watch: base.Stopwatch) -> Result:
        """An exact count, with no solutions listed (count-only)."""
        status = Status.SAT if count else Status.UNSAT
        return Result(self.name, self.family, status, (), True, count, dict(stats), dict(watch.times))

    def _no_solution(self, stats: Mapping[str, Any], watch: base.Stopwatch) -> Result:
        """A first-solution run whose count is 0: proved unsat, not merely unfound."""
        return base.finish(
            self.name, self.family, [], exhausted=True, proved_unsat=True, stats=stats, times=watch.times
        )

    def _first_solution(
        self, solution: Any, stats: Mapping[str, Any], watch: base.Stopwatch, on_solution: SolutionSink | None
    ) -> Result:
        """A first-solution run's one rebuilt solution, handed on; the count is known, the listing is not done."""
        if on_solution is not None:
            on_solution(solution)
        return base.finish(
            self.name, self.family, [solution], exhausted=False, proved_unsat=False, stats=stats, times=watch.times
        )
