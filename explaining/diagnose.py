"""Diagnoses over the whole model: minimal causes of "no solution" (MUSes, in units), the wrong entries of a
partly filled board, the backbone of a puzzle with several solutions and extra givens that make it unique.

A first MUS comes from deletion refined by cores (as PySAT's MUSX does, but
under the reasoner's time limit); more of them, smallest first, from PySAT's
OptUx (implicit hitting sets over the units' selectors).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence

from pysat.examples.optux import OptUx
from pysat.formula import WCNF

from .reasoner import OutOfTime, Reasoner
from .units import Unit


def muses(reasoner: Reasoner, limit: int = 1) -> Iterator[tuple[Unit, ...]]:
    """Up to ``limit`` minimal sets of units with no solution together; the model must have none."""
    first = reasoner.shrink([], reasoner.all_units())
    yield _units(reasoner, first)
    if limit <= 1:
        return
    seen = {frozenset(first)}
    for found in _optux(reasoner, limit):
        if frozenset(found) not in seen:
            seen.add(frozenset(found))
            yield _units(reasoner, found)
            if len(seen) >= limit:
                return


def _units(reasoner: Reasoner, selectors: Sequence[int]) -> tuple[Unit, ...]:
    chosen = {reasoner.unit_of_selector[s] for s in selectors}
    return tuple(unit for unit in reasoner.units if unit in chosen)


def _optux(reasoner: Reasoner, limit: int) -> list[list[int]]:
    """Smallest MUSes first, by PySAT's OptUx, in a thread the time limit leaves behind (OptUx has no limit
    of its own): what it finished by then is returned."""
    formula = WCNF()
    for clause in reasoner.cnf.clauses:
        formula.append(clause)
    selectors = reasoner.all_units()
    for s in selectors:
        formula.append([s], weight=1)
    found: list[list[int]] = []

    def run() -> None:
        with OptUx(formula, solver="g4") as optux:
            for indices in optux.enumerate():
                found.append([selectors[i - 1] for i in indices])
                if len(found) >= limit:
                    return

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    wait = None if reasoner.deadline is None else max(0.0, reasoner.deadline - time.monotonic())
    worker.join(wait)
    if worker.is_alive():
        raise OutOfTime("time limit")
    return list(found)


def wrong_entries(reasoner: Reasoner, entries: Sequence[int]) -> list[int]:
    """A minimal set of a partly filled board's entries (own literals) that the puzzle rules out together;
    empty when they fit some solution."""
    if reasoner.solve([*reasoner.all_units(), *entries]):
        return []
    return reasoner.shrink(reasoner.all_units(), list(entries))


def backbone(reasoner: Reasoner, solution: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The facts true in every solution, and the own literals of ``solution`` that some other solution
    changes (one solution's disagreement rules out many candidates at once)."""
    candidates = sorted(solution, key=abs)
    on = reasoner.all_units()
    kept: list[int] = []
    differ: set[int] = set()
    while candidates:
        fact = candidates.pop()
        reasoner.solver.set_phases([-f for f in candidates])
        if reasoner.solve([*on, -fact]):
            true = reasoner.true_variables()
            differ.add(fact)
            broken = {f for f in candidates if (abs(f) in true) != (f > 0)}
            differ |= broken
            candidates = [f for f in candidates if f not in broken]
        else:
            kept.append(fact)
    return tuple(sorted(kept, key=abs)), tuple(sorted(differ, key=abs))


def extra_givens(reasoner: Reasoner, solution: frozenset[int], differ: Sequence[int]) -> tuple[int, ...]:
    """A set of ``solution``'s facts that leaves it the only solution, none of them superfluous: facts
    where solutions differ are added until no other solution is left, then each is dropped if the rest
    still suffices."""
    givens: list[int] = []
    while True:
        other = reasoner.other_solution(solution, givens)
        if other is None:
            break
        # a fact of the solution that this other solution breaks: giving it rules that one out
        fact = next(
            f for f in sorted(differ, key=lambda f: (f < 0, abs(f))) if f not in givens and (abs(f) in other) != (f > 0)
        )
        givens.append(fact)
    for fact in list(givens):
        rest = [g for g in givens if g != fact]
        if reasoner.other_solution(solution, rest) is None:
            givens = rest
    return tuple(givens)
