"""A CNF's cuts checked inside CaDiCaL 1.9.5's search, through its external propagator (IPASIR-UP).

A ``CnfEncoding`` with ``cuts`` leaves constraints out of its clauses
(connectivity, in ``compiled.py``'s lazy variants); ``cuts`` reads a full
candidate and returns clauses that cut it off.  Between solver calls
(``engine.solve_checked``) each cut candidate costs a return to Python and a
new solve.  Here the solver asks ``check_model`` itself whenever its
assignment is complete, and learns the cuts at once, inside the same search.

The propagator only checks complete assignments (``is_lazy``, and passive:
the solver tells it of no single assignment): it propagates nothing on
partial ones.  It observes ``cnf.cut_variables`` (the literals a
cut reads or names: IPASIR-UP takes external clauses over observed variables
only).  The engine checks each model the solver returns once more, so the
answer is exact whatever happens here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pysat.engines import Propagator
from pysat.solvers import Solver


class CutPropagator(Propagator):
    """Checks each complete assignment with ``cnf.cuts`` and hands the solver its cuts, one per call."""

    def __init__(self, cnf: Any) -> None:
        super().__init__()
        self.is_lazy = True  # complete assignments only
        self.cnf = cnf
        self.pending: list[list[int]] = []
        self.checked = 0
        self.cut = 0

    def connect(self, solver: Solver, observed: Iterable[int] | None = None) -> None:
        """Attach to ``solver``, observing ``observed`` (by default ``cnf.cut_variables``), in passive mode:
        the solver then calls ``check_model`` only, not ``on_assignment`` at every assignment of an observed
        variable (some 17 million calls to Python, 12% of a 10x10 Slitherlink's explanation)."""
        solver.connect_propagator(self)
        for var in self.cnf.cut_variables if observed is None else observed:
            solver.observe(var)
        solver.disable_propagator()

    # ------------------------------------------------------------------ what the solver calls

    def check_model(self, model: list[int]) -> bool:
        self.checked += 1
        true = {lit for lit in model if lit > 0}

        def value(literal: int) -> bool:
            return (abs(literal) in true) == (literal > 0)

        self.pending = list(self.cnf.cuts(value))
        self.cut += bool(self.pending)
        return not self.pending

    def has_clause(self) -> bool:
        return bool(self.pending)

    def add_clause(self) -> list[int]:
        return self.pending.pop()

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        pass

    def on_new_level(self) -> None:
        pass

    def on_backtrack(self, to: int) -> None:
        pass

    def decide(self) -> int:
        return 0

    def propagate(self) -> list[int]:
        return []

    def provide_reason(self, lit: int) -> list[int]:
        return []
