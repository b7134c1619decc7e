"""SAT under assumptions over a model whose units can be switched on: the questions every explanation asks.

The model is compiled once to CNF with one selector per unit (the pysat
compiler's ``compile_selected``); a question names the units it switches on
and the facts it assumes, and an unsatisfiable answer comes with a core.
What PySAT lacks is written here: a subset-minimal set of assumptions with
no solution under the reasoner's time limit (``shrink``: deletion refined by
cores, as PySAT's MUSX does).  PySAT's OptUx finds further MUSes
(``diagnose.py``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping, Sequence

from pysat.solvers import Solver

from ..backends.base import OutOfTime, building
from ..backends.pysat.compiled import SelectedCnf, compile_selected
from ..constraints import Model, semantics
from .units import Unit

#: PySAT's name of the SAT solver asked (Glucose 4: fast on many small calls, cores and interrupts).
SOLVER = "g4"


class Reasoner:
    """One incremental SAT solver over the model with every unit switchable; all questions go through it."""

    def __init__(self, model: Model, units: Sequence[Unit], deadline: float | None) -> None:
        self.model = model
        self.units = tuple(units)
        self.deadline = deadline
        with building(deadline):
            self.cnf: SelectedCnf = compile_selected(model, lambda constraint: constraint.label)
        self.selector: Mapping[str, int] = {unit.label: self.cnf.selectors[unit.label] for unit in self.units}
        self.unit_of_selector = {self.selector[unit.label]: unit for unit in self.units}
        self.solver = Solver(name=SOLVER, bootstrap_with=self.cnf.clauses)
        self.calls = 0
        self._top = self.cnf.top
        self._timer: threading.Timer | None = None
        if deadline is not None:
            self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self.solver.interrupt)
            self._timer.daemon = True
            self._timer.start()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.solver.delete()

    def __enter__(self) -> Reasoner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plain questions

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime("time limit")

    def solve(self, assumptions: Iterable[int]) -> bool:
        """Whether the switched-on units and assumed facts have a solution (``OutOfTime`` at the deadline)."""
        self.check_time()
        self.calls += 1
        answer = self.solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
        if answer is None:
            raise OutOfTime("time limit")
        return answer

    def true_variables(self) -> set[int]:
        """The model's variables true in the last solution found."""
        found = self.solver.get_model() or []
        top = self.model.variables
        return {lit for lit in found if 0 < lit <= top}

    def other_solution(self, solution: frozenset[int], assumptions: Sequence[int] = ()) -> set[int] | None:
        """The true variables of a solution (every unit on, ``assumptions`` held) whose own variables differ
        from ``solution``'s somewhere; None when there is none."""
        self._top += 1
        switch = self._top
        self.solver.add_clause([-switch, *(-lit for lit in solution)])
        try:
            if self.solve([*self.all_units(), *assumptions, switch]):
                return self.true_variables()
            return None
        finally:
            self.solver.add_clause([-switch])

    def core(self) -> set[int]:
        """The assumptions the last unsatisfiable answer needed."""
        return set(self.solver.get_core() or ())

    def all_units(self) -> list[int]:
        return [self.selector[unit.label] for unit in self.units]

    def holds(self, unit: Unit, true: set[int]) -> bool:
        """Whether ``unit``'s constraints hold under an assignment of the model's variables."""

        def value(literal: int) -> bool:
            return (abs(literal) in true) == (literal > 0)

        return all(semantics.holds(self.model.constraints[i], value) for i in unit.constraints)

    # ------------------------------------------------------------------ cheapest unsatisfiable subsets

    def shrink(self, fixed: Sequence[int], soft: Sequence[int]) -> list[int]:
        """A subset-minimal part of ``soft`` that, with ``fixed``, has no solution (deletion, refined by cores);
        ``fixed + soft`` must have none."""
        if self.solve([*fixed, *soft]):
            raise ValueError("shrink: the assumptions have a solution")
        kept = [lit for lit in soft if lit in self.core()]
        for lit in list(kept):
            if lit not in kept:
                continue
            trial = [other for other in kept if other != lit]
            if not self.solve([*fixed, *trial]):
                core = self.core()
                kept = [other for other in trial if other in core]
        return kept
