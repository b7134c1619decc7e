"""Counting by orbits: search lex-leaders only, then expand each into its whole symmetry class.

``backend:variant/orbits`` (e.g. ``pysat:totalizer/orbits``) runs the
backend with symmetry breaking, so it finds one solution per symmetry class,
and lists every distinct image of each under the level's symmetries: a
lex-leader with stabiliser Stab stands for |G|/|Stab| solutions.  The
result is the plain solution set, so it is compared with plain runs
directly (the cross-checker does); its stats say ``count_method`` and how
many ``orbits`` were searched.  Where lex-leader constraints make a solver
faster (CDCL SAT on Hexiom), this counts faster than plain enumeration.

Images of two different leaders never coincide (orbits are disjoint); an
image seen twice means a backend returned two members of one orbit, and is
reported as a duplicate, never counted.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .base import Limits, Options, Result, SolutionSink, Status, finish
from .spec import ORBITS

METHOD = "lex-leaders expanded by the level's symmetries"


class OrbitExpansion:
    """A backend that counts and lists by orbits (see the module docstring)."""

    def __init__(self, inner: Any, family: str) -> None:
        from ..models import FAMILIES

        self.inner = inner
        self.family = family
        self.name = inner.name + ORBITS
        self._family = FAMILIES[family]
        if self._family.images is None:
            raise ValueError(f"the {family} family has no symmetries to count orbits by")

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        if not options.enumerate or options.symmetry_breaking:
            # a first solution is any solution; a symmetry-class count is already one per orbit
            return dataclasses.replace(self.inner.run(level, limits, options, on_solution), backend=self.name)
        wanted = limits.solutions
        seen: set = set()
        solutions: list[Any] = []
        repeated = 0
        leaders = 0

        def expand(leader: Any) -> None:
            nonlocal repeated, leaders
            leaders += 1
            fresh = {}
            for image in self._family.images(level, leader):
                fresh.setdefault(self._family.canonical(level, image), image)
            for key, image in fresh.items():
                if key in seen:
                    repeated += 1
                    continue
                seen.add(key)
                if wanted is None or len(solutions) < wanted:
                    solutions.append(image)
                    if on_solution is not None:
                        on_solution(image)

        inner = self.inner.run(level, limits, dataclasses.replace(options, symmetry_breaking=True), on_solution=expand)
        if leaders != inner.count:
            raise ValueError(f"{self.inner.name} counts without listing its solutions: its orbits cannot be expanded")
        cut = wanted is not None and len(seen) > len(solutions)
        return finish(
            self.name,
            self.family,
            solutions,
            exhausted=inner.complete and not cut,
            proved_unsat=inner.status is Status.UNSAT,
            stats={**inner.stats, "count_method": METHOD, "orbits": inner.count},
            times=inner.times,
            duplicates=inner.duplicates + repeated,
            stopped_by="solution limit" if cut else inner.stopped_by,
        )

    def export(self, level: Any, options: Options) -> str:
        return self.inner.export(level, dataclasses.replace(options, symmetry_breaking=True))
