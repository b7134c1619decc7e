"""Backends that misbehave on purpose, to test the runner and the cross-checker's judgement.

They answer Hexiom levels from a fixed script, without any solver.
"""

from __future__ import annotations

import time

from trisolve.backends import base
from trisolve.models.hexiom import model as hexiom


class ScriptedBackend:
    """Streams the given solutions, then behaves as told: finish, hang, or crash."""

    def __init__(
        self,
        name: str,
        solutions,
        *,
        then: str = "finish",
        complete: bool = True,
        pause: float = 0.0,
        proves: tuple[int, ...] = (),
    ):
        self.name = name
        self._proves = proves  # lower bounds reported, as a count-only backend does, before ``then``
        self.family = "hexiom"
        self._solutions = solutions
        self._then = then
        self._complete = complete
        self._pause = pause

    def run(self, level, limits, options, on_solution=None):
        found = []
        for cells in self._solutions:
            solution = hexiom.Solution(tuple(cells))
            found.append(solution)
            if on_solution:
                on_solution(solution)
            time.sleep(self._pause)
        for bound in self._proves:
            base.report_partial_count(bound)
        if self._then == "hang":
            time.sleep(3600)  # ignores its time limit: the runner must kill it
        if self._then == "crash":
            raise RuntimeError("scripted crash")
        return base.finish(
            self.name,
            "hexiom",
            found,
            exhausted=self._complete,
            proved_unsat=self._complete and not found,
            stats={"scripted": 1},
            times={"solve": 0.0},
        )

    def export(self, level, options):
        return ""


def register(name: str, factory) -> None:
    """Register ``name:script`` as a backend whose make() calls ``factory``."""
    from support import plugin_backend

    from trisolve.backends import registry

    make = lambda family, variant, translator: factory(f"{name}:{variant}")  # noqa: E731
    registry.register(name, plugin_backend(make, {"script": "scripted answers for tests"}))
