"""Each claim of an explanation confirmed by a second paradigm: CP (CP-SAT) or ASP (clingo), never the SAT
solver that found it.

A claim is "these constraints, with these facts, have no solution" (a step:
its units, the facts it uses and the negation of the fact it derives; a
MUS: its units) or "these have a solution" (a MUS less one unit, which is
what makes it minimal).  The claim's constraints are put in a model of
their own -- the same variables, only those constraints, each fact a unit
clause -- and that model goes through the other paradigm's compiler, as
any family's model does.  An answer other than the claim is a finding.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..constraints import AllDifferent, Clause, Constraint, Linear, Model, kind_of

#: The paradigms a claim can be checked by, with the backend that does it.
CHECKERS: dict[str, str] = {"cpsat": "CP (OR-Tools CP-SAT)", "clingo": "ASP (clingo)"}


@dataclass(frozen=True)
class Verdict:
    """What the checking paradigm said: "no solution", "a solution", or "unknown" (its time ran out)."""

    answer: str
    seconds: float


def sub_model(model: Model, constraints: Iterable[int], facts: Iterable[int]) -> Model:
    """A model with ``model``'s variables, only the constraints at these indices, and each fact a given.

    An integer counts as one only where its "takes one value" is among the constraints: a compiler may then
    read it as an integer (and derive totals from it), which the other constraints alone would not allow.
    An all-different says its variables take one value each (``semantics.holds``); where their own
    "takes one value" is left out, it is stated with the all-different (a compiler may rely on the model
    stating it, as the plain CNF compiler does)."""
    chosen = [model.constraints[i] for i in sorted(set(constraints))]
    chosen += [Clause(literals=(lit,), label=f"fact {lit}", role="given") for lit in facts]
    stated = {frozenset(lit for _, lit in c.terms) for c in chosen if isinstance(c, Linear)}
    for constraint in [c for c in chosen if isinstance(c, AllDifferent)]:
        for variable in constraint.variables:
            if frozenset(variable.literals) not in stated:
                stated.add(frozenset(variable.literals))
                terms = tuple((1, lit) for lit in variable.literals)
                chosen.append(Linear(terms=terms, op="==", bound=1, label=constraint.label, role=constraint.role))
    ints = [v for v in model.ints if frozenset(v.literals) in stated]
    part = Model(
        name=model.name, keys=list(model.keys), constraints=chosen, own=list(model.own), ints=ints, decoder=_nothing
    )
    return part.freeze()


def _nothing(values: object) -> None:
    return None


class Checker:
    """Asks one paradigm whether parts of a model have a solution."""

    def __init__(self, paradigm: str = "cpsat") -> None:
        if paradigm not in CHECKERS:
            raise ValueError(f"no checker {paradigm!r}: {', '.join(CHECKERS)}")
        self.paradigm = paradigm
        self.name = CHECKERS[paradigm]
        # the solver's library loads now, before any time limit starts (it takes seconds on a busy machine)
        from ..backends.cpsat.engine import cp_model  # counting is CP-SAT's for every checker

        cp_model()
        if paradigm == "clingo":
            import clingo  # noqa: F401

            from ..backends.clingo import compiled  # noqa: F401
        self.calls = 0
        self.seconds = 0.0

    def satisfiable(self, model: Model, seconds: float) -> Verdict:
        """ "a solution", "no solution" or "unknown" for a (small) model, within ``seconds``."""
        started = time.monotonic()
        self.calls += 1
        answer = self._cpsat(model, seconds) if self.paradigm == "cpsat" else self._clingo(model, seconds)
        took = time.monotonic() - started
        self.seconds += took
        return Verdict(answer, took)

    def claim(self, model: Model, constraints: Sequence[int], facts: Sequence[int], seconds: float) -> Verdict:
        return self.satisfiable(sub_model(model, constraints, facts), seconds)

    def count(self, model: Model, limit: int, seconds: float) -> str:
        """How many solutions ``model`` has, projected on its own variables, up to ``limit`` ("2+": at least
        two; a count cut short by time ends in "+"), by CP-SAT (it counts for every checker)."""
        from ..backends.cpsat.compiled import encode
        from ..backends.cpsat.engine import cp_model

        cp = cp_model()
        built = encode(model, "compiled", enumerate_=True)
        own = list(model.own)
        seen: set[tuple[int, ...]] = set()

        class Counter(cp.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                seen.add(tuple(v for v, x in zip(own, built.projection) if self.value(x)))
                if len(seen) >= limit:
                    self.stop_search()

        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.max_time_in_seconds = max(0.05, seconds)
        status = solver.solve(built.model, Counter())
        self.calls += 1
        if len(seen) >= limit:
            return f"{len(seen)}+"
        return str(len(seen)) if status in (cp.OPTIMAL, cp.INFEASIBLE) else f"{len(seen)}+"

    @staticmethod
    def _cpsat(model: Model, seconds: float) -> str:
        from ..backends.cpsat.compiled import encode
        from ..backends.cpsat.engine import cp_model

        built = encode(model, "compiled", enumerate_=True)
        cp = cp_model()
        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = max(0.05, seconds)
        status = solver.solve(built.model)
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            return "a solution"
        if status == cp.INFEASIBLE:
            return "no solution"
        return "unknown"

    @staticmethod
    def _clingo(model: Model, seconds: float) -> str:
        import clingo

        from ..backends.clingo.compiled import ARGUMENTS, RULES, facts
        from ..backends.clingo.engine import ENCODINGS_DIR

        control = clingo.Control([*ARGUMENTS, "--warn=none"])
        control.load(os.path.join(ENCODINGS_DIR, RULES))
        control.add("base", [], facts(model))
        control.ground([("base", [])])
        with control.solve(async_=True) as handle:
            if not handle.wait(max(0.05, seconds)):
                handle.cancel()
                return "unknown"
            result = handle.get()
        if result.satisfiable:
            return "a solution"
        if result.unsatisfiable:
            return "no solution"
        return "unknown"


def kinds_of(model: Model, constraints: Iterable[int]) -> set[str]:
    """The kinds of constraint among these (for messages)."""
    return {kind_of(model.constraints[i]) for i in constraints}


def describe(model: Model, constraints: Iterable[int]) -> list[str]:
    """The labels of these constraints, each once."""
    seen: dict[str, None] = {}
    for i in constraints:
        constraint: Constraint = model.constraints[i]
        seen.setdefault(constraint.label, None)
    return list(seen)
