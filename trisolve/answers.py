"""The answers to a level's questions (logic grids ask them), and whether each is determined.

A first solution says what *one* solution holds.  A puzzle with two solutions may hold Kim in the one
found and Max in the other, so an answer is stated firmly only when no other solution can give another:
the run listed or counted every solution, or, after a first solution, a second one was ruled out by
asking for two (``settle``).  Otherwise the answer is *not determined*, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def answers(result: Any, *, solve: Callable[..., Any] | None = None, timeout: float | None = None) -> tuple[Any, ...]:
    """The answers to ``result``'s level's questions (an ``api.Result``), each with ``text()``, ``to_json()``
    and ``determined``; () when the family or the level asks none, or no solution was found.

    With ``solve`` (``api.solve``), a run that did not find every solution (a first solution; a complete count
    that holds only its first) is followed by one more run of the same backend asking for two solutions,
    within ``timeout``: a second solution is ruled out, or shows its answer."""
    level = result.level
    family = level.kind
    if family.answers is None or level.model is None or not result.solutions:
        return ()
    solutions = _valid(result)
    if not solutions or not family.answers(level.model, solutions, False):
        return ()  # no question asked (or only invalid solutions: the run's own report says so)
    complete = result.complete and result.mode != "first"
    count = result.count if complete else None
    if solve is not None and not (complete and (result.count == 1 or result.count == len(solutions))):
        from trisolve.models.errors import TrisolveError

        try:
            second = solve(level, result.backend, all=True, limit=2, timeout=timeout)
        except TrisolveError:  # a backend that cannot list: the answer stays not determined
            second = None
        seen = {family.canonical(level.model, s) for s in solutions}
        for extra in _valid(second) if second is not None else ():
            if family.canonical(level.model, extra) not in seen:
                solutions.append(extra)
        if second is not None and second.complete:
            complete, count = True, second.count
    return tuple(family.answers(level.model, solutions, complete, count))


def _valid(result: Any) -> list:
    """The models of a result's solutions that the validator accepts."""
    invalid = {i for i, _ in result.invalid}
    return [s.model for i, s in enumerate(result.solutions) if i not in invalid]


def to_json(found: Sequence[Any]) -> list[dict]:
    return [answer.to_json() for answer in found]
