"""SAT under assumptions over a model whose units can be switched on: the questions every explanation asks.

The model is compiled once to CNF with one selector per unit (the pysat
compiler's ``compile_selected``); a question names the units it switches on
and the facts it assumes, and an unsatisfiable answer comes with a core.
What PySAT lacks is written here: a subset-minimal set of assumptions with
no solution under the reasoner's time limit (``shrink``: deletion refined by
cores, as PySAT's MUSX does).  PySAT's OptUx finds further MUSes
(``diagnose.py``).

Questions about a few units only (what one unit, or two, force with the
known facts) go to a small solver of their own (``Local``): their clauses
alone, renumbered densely.  The whole model's solver would answer the same,
but it has to assign every variable of the model on each call (a Sudoku's
thousands), which made such questions a hundred times slower.  Units with a
graph constraint (one loop, a connected set) get a ``LazyLocal``: their
clauses without the reachability levels, each candidate checked and the
cuts that exclude a broken one added (shared among those solvers); on a
10x10 Slitherlink each question about the loop took a fifth of a second
with the levels.  A kept solver whose graph constraints are all loops
(Slitherlink) is a ``CycleLocal``: CaDiCaL, given the cuts inside its
search by an external propagator, instead of a solve per round of cuts.
"""

from __future__ import annotations

import operator
import threading
import time
from collections.abc import Callable, Container, Iterable, Mapping, Sequence

from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
from pysat.solvers import Solver

from ..backends.base import OutOfTime, building
from ..backends.pysat.compiled import SelectedCnf, compile_selected
from ..backends.pysat.propagator import CutPropagator
from ..constraints import Connected, Model, SingleCycle, semantics
from ..models.errors import TrisolveError
from .units import Unit, variables_of

#: PySAT's name of the SAT solver asked (Glucose 4: fast on many small calls, cores and interrupts).
SOLVER = "g4"
#: the solver of a ``CycleLocal`` (one that takes an external propagator)
IN_SEARCH_SOLVER = "cadical195"


class Oracle:
    """Questions under assumptions to one SAT solver: ``solve``, ``core``, ``shrink``."""

    deadline: float | None = None
    #: whether its graph constraints' cuts are given inside the search (a ``CycleLocal``): a question from a
    #: known solution's phases then finds another near it in a few cuts
    in_search: bool = False

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfTime("time limit")

    def solve(self, assumptions: Iterable[int]) -> bool:
        raise NotImplementedError

    #: the effort the last ``settle`` took (at most; a solver that does not count it says 0)
    spent: int = 0

    def settle(self, assumptions: Iterable[int], effort: int) -> bool | None:
        """``solve``, or None when the answer takes more than ``effort``, counted in the solver's own unit: a
        loop's (``CycleLocal``) counts conflicts, a connected set's (``LazyLocal``) rounds of cuts; the others
        answer.  ``spent`` says how much it took."""
        return self.solve(assumptions)

    def core(self) -> set[int]:
        raise NotImplementedError

    def true_variables(self) -> set[int]:
        raise NotImplementedError

    def shrink(
        self, fixed: Sequence[int], soft: Sequence[int], effort: int | None = None, enough: int | None = None
    ) -> list[int]:
        """A subset-minimal part of ``soft`` that, with ``fixed``, has no solution (deletion, refined by cores);
        ``fixed + soft`` must have none.  With ``effort``, the deletion's questions take that much together at
        most (``settle``): a part whose question is not settled within what is left is taken to
        have a solution, so the part kept still has none, but may not be minimal.  With ``enough``, it stops
        once that many members are shown to be needed (each later core keeps them), when a part that large is
        of no use to the caller: the part kept then still has no solution, and is at least that large."""
        if self.solve([*fixed, *soft]):
            raise ValueError("shrink: the assumptions have a solution")
        core = self.core()
        kept = [lit for lit in soft if lit in core]
        left = effort
        needed = 0
        for lit in list(kept):
            if lit not in kept:
                continue
            if enough is not None and needed >= enough:
                break
            trial = [other for other in kept if other != lit]
            if left is None:
                answer: bool | None = self.solve([*fixed, *trial])
            elif left <= 0:
                break  # no effort left: every fact still kept stays
            else:
                answer = self.settle([*fixed, *trial], left)
                left -= self.spent
            if answer is False:
                core = self.core()
                kept = [other for other in trial if other in core]
            else:
                needed += 1
        return kept

    #: hitting sets tried at most by ``smallest`` before it settles for the deletion's set
    SMALLEST_ROUNDS = 200

    def smallest(
        self, fixed: Sequence[int], soft: Sequence[int], below: int | None = None, rounds: int | None = None
    ) -> list[int]:
        """A part of ``soft`` as small as any that, with ``fixed``, has no solution (``fixed + soft`` must have
        none).  Deletion alone gives a set from which none can be dropped, but often not the smallest: one rule
        and four facts where the same rule and one other fact would do.  An implicit hitting-set search finds
        the smallest: RC2 picks a smallest set of facts meeting every set a solution so far left false; when
        that set has no solution it is the answer; each solution found adds the other facts it leaves false.  The
        deletion's set bounds it (and is kept after ``rounds``, by default ``SMALLEST_ROUNDS``).  ``below``:
        only a set of fewer than that many facts is of use (a step found before costs no more): when the search
        shows none is that small, the deletion's set is returned."""
        best = self.shrink(fixed, soft)
        bound = len(best) if below is None else min(len(best), below)
        if bound <= 1:
            return best
        number = {lit: i for i, lit in enumerate(soft, 1)}
        picks = WCNF()
        for lit in soft:
            picks.append([-number[lit]], weight=1)
        with RC2(picks) as hitting:
            for _ in range(self.SMALLEST_ROUNDS if rounds is None else rounds):
                picked = set(hitting.compute() or ())
                chosen = [lit for lit in soft if number[lit] in picked]
                if len(chosen) >= bound:
                    break
                if not self.solve([*fixed, *chosen]):
                    return chosen
                true = self.true_variables()  # the chosen facts hold in it (or no clause reads them)
                missed = [lit for lit in soft if lit not in chosen and (abs(lit) in true) != (lit > 0)]
                hitting.add_clause([number[lit] for lit in missed])
        return best


class Local(Oracle):
    """A small SAT solver over some units' clauses only (every one of them on), variables renumbered densely:
    what those units force with some facts, at a cost that does not grow with the model.  A fact about a
    variable these clauses do not read is left out of a question (it cannot take part in a conflict)."""

    def __init__(
        self, clauses: Iterable[Sequence[int]], deadline: float | None, extra: Iterable[int] = (), name: str = SOLVER
    ) -> None:
        self.deadline = deadline
        clauses = list(clauses)
        self.outer = [0, *sorted({abs(lit) for clause in clauses for lit in clause} | set(extra))]
        inner = self.inner = {var: number for number, var in enumerate(self.outer) if number}
        dense = [[inner[lit] if lit > 0 else -inner[-lit] for lit in clause] for clause in clauses]
        self.solver = Solver(name=name, bootstrap_with=dense)

    def _inside(self, literals: Iterable[int]) -> list[int]:
        inner = self.inner
        return [(inner[lit] if lit > 0 else -inner[-lit]) for lit in literals if abs(lit) in inner]

    def close(self) -> None:
        self.solver.delete()

    def reads(self, variable: int) -> bool:
        return variable in self.inner

    def set_phases(self, literals: Iterable[int]) -> None:
        self.solver.set_phases(self._inside(literals))

    #: whether a question may be interrupted (by a timer calling ``solver.interrupt``): then it is asked with
    #: ``solve_limited``, a little slower on many small questions
    interruptible = False

    def solve(self, assumptions: Iterable[int]) -> bool:
        self.check_time()
        if not self.interruptible:
            return bool(self.solver.solve(assumptions=self._inside(assumptions)))
        answer = self.solver.solve_limited(assumptions=self._inside(assumptions), expect_interrupt=True)
        if answer is None:
            raise OutOfTime("time limit")
        return answer

    def true_variables(self) -> set[int]:
        outer = self.outer
        return {outer[lit] for lit in self.solver.get_model() or () if lit > 0}

    def core(self) -> set[int]:
        outer = self.outer
        return {outer[lit] if lit > 0 else -outer[-lit] for lit in self.solver.get_core() or ()}


class LazyLocal(Local):
    """A ``Local`` solver over units with a graph constraint (one loop, a connected set) stated lazily: their
    clauses without reachability, and each candidate checked, the cuts that exclude a broken one added (each
    a consequence of the units, so answers and cores are those of the units themselves).  The reachability
    levels made every question about a Slitherlink loop a hundred times slower."""

    def __init__(
        self,
        clauses: Iterable[Sequence[int]],
        graph: Sequence[Connected | SingleCycle],
        cuts: Callable[[Connected | SingleCycle, Sequence[bool]], list[list[int]]],
        deadline: float | None,
        pool: dict[int, dict[tuple[int, ...], None]] | None = None,
        guards: Sequence[int | None] = (),
        name: str = SOLVER,
    ) -> None:
        read = {var for constraint in graph for var in variables_of(constraint)}
        self.guards = tuple(guards) or (None,) * len(graph)
        super().__init__(clauses, deadline, extra=read | {g for g in self.guards if g is not None}, name=name)
        #: the effort the question asked now may still take (``settle``), or None: rounds of cuts here,
        #: conflicts in a ``CycleLocal``
        self.budget: int | None = None
        self.graph = tuple(graph)
        self.cuts = cuts
        #: id(graph constraint) -> the cuts found for it so far, by any solver (each holds wherever it does; each
        #: once)
        self.pool = pool if pool is not None else {}
        #: per graph constraint, what reads whether each of its literals (vertices, or edges, in order; by their
        #: numbers in this solver) holds from a table of literal values (``_cuts_of``)
        self.getters = [_getter(self._inside(_literals(constraint))) for constraint in self.graph]
        for constraint, guard in zip(self.graph, self.guards):
            for cut in self.pool.get(id(constraint), ()):
                self.solver.add_clause(self._guarded(cut, guard))

    def _guarded(self, cut: Sequence[int], guard: int | None) -> list[int]:
        """A cut in this solver's numbering; with a guard (the selector of a unit that may be off), it holds
        only when the guard is on."""
        inside = self._inside(cut)
        if len(inside) != len(cut):
            raise RuntimeError("a cut reads a variable its units' clauses do not")
        return inside if guard is None else [-self.inner[guard], *inside]

    def settle(self, assumptions: Iterable[int], effort: int) -> bool | None:
        """``solve`` within ``effort`` (rounds of cuts here; a ``CycleLocal``'s search counts conflicts), or
        None.  A question about a connected set whose answer is "no solution" may take thousands of rounds:
        on a 24x14 Nurikabe one of a deletion's took 13,000 (9 s), and one step's deletions 67 s."""
        self.budget = effort
        try:
            return self.solve(assumptions)
        except _Unsettled:
            return None
        finally:
            self.spent = effort - self.budget
            self.budget = None

    def solve(self, assumptions: Iterable[int]) -> bool:
        assumptions = list(assumptions)
        while True:
            if not super().solve(assumptions):
                return False
            found = self.solver.get_model()  # variables 1, 2, ... in order, to the last one a clause reads
            cuts = self._cuts_of(_table_of_model(found, len(self.outer) - 1))
            for cut in cuts:
                self.solver.add_clause(cut)
            if not cuts:
                return True
            if self.budget is not None:
                self.budget -= 1
                if self.budget <= 0:
                    raise _Unsettled

    def _cuts_of(self, table: Sequence[bool]) -> list[list[int]]:
        """The cuts (in this solver's numbering, guarded) that exclude a candidate, each put in the pool too; none
        when it keeps every graph constraint whose unit is on.  ``table[lit]``: whether literal ``lit``, by its
        number here, holds in the candidate (a negative one read from the table's end, ``_table_of_model``); a
        getter per constraint reads its literals from it at once: a call per literal was a third of the check's
        time on a 24x14 Nurikabe, whose check ran half a million times."""
        cuts = []
        for constraint, guard, getter in zip(self.graph, self.guards, self.getters):
            if guard is not None and not table[self.inner[guard]]:
                continue  # its unit is off in this question
            for cut in self.cuts(constraint, getter(table)):
                cuts.append(self._guarded(cut, guard))
                self.pool.setdefault(id(constraint), {})[tuple(cut)] = None
        return cuts


class CycleLocal(LazyLocal):
    """A ``LazyLocal`` for loops (Slitherlink), its cuts handed to CaDiCaL inside the search (an external
    propagator that checks each complete assignment, ``_InSearch``) instead of a new solve per round of cuts:
    on a 20x20 Slitherlink a question took some ninety rounds.  The cuts it gave are added again as the
    solver's own clauses before the next question (the propagator's may be forgotten).  Not for a connected
    set (a Nurikabe's sea): there PySAT's calls back into Python at every propagation made a 10x10 Nurikabe
    eight times slower (92 s, was 11 s), and one question on a 24x14 took minutes (CaDiCaL cannot be
    interrupted)."""

    def __init__(
        self,
        clauses: Iterable[Sequence[int]],
        graph: Sequence[SingleCycle],
        cuts: Callable[[Connected | SingleCycle, Sequence[bool]], list[list[int]]],
        deadline: float | None,
        pool: dict[int, dict[tuple[int, ...], None]] | None = None,
        guards: Sequence[int | None] = (),
        observed: Iterable[int] = (),
    ) -> None:
        super().__init__(clauses, graph, cuts, deadline, pool, guards, name=IN_SEARCH_SOLVER)
        self.in_search = True
        self.given: list[list[int]] = []
        #: the true observed variables of the last candidate the propagator found whole (no cut)
        self.accepted: frozenset[int] | None = None
        self.propagator = _InSearch(self)
        reads = {*observed, *(g for g in self.guards if g is not None)}  # every variable a cut reads
        self.observed = frozenset(self.inner[var] for var in reads if var in self.inner)
        self.propagator.connect(self.solver, sorted(self.observed))

    def close(self) -> None:
        self.solver.disconnect_propagator()
        super().close()

    def solve(self, assumptions: Iterable[int]) -> bool:
        assumptions = list(assumptions)
        while True:
            given, self.given = self.given, []
            for cut in given:  # added before a solve, so that the last answer's model or core stays readable
                self.solver.add_clause(cut)
            self.accepted = None
            if not self._solve_in_time(assumptions):
                return False
            true = {lit for lit in self.solver.get_model() or () if lit > 0}
            if self.accepted is not None and self.observed.intersection(true) == self.accepted:
                return True  # the very candidate the propagator checked (a check took 2 ms on a 20x20)
            cuts = self._cuts_of(_table_of_true(true, len(self.outer) - 1))  # else checked here
            if not cuts:
                return True
            self.given += cuts

    #: conflicts per call to CaDiCaL, between which the time limit is looked at (it cannot be interrupted)
    CONFLICTS = 2000
    #: the candidates a slice should check at most: a slice of 2000 conflicts, each waiting for cuts computed in
    #: Python, took eight seconds on a 20x20 Slitherlink, so the next slices of that question get fewer conflicts
    #: (counted, not timed: the same question then always gets the same answer and core, whatever the load)
    CHECKS = 1000

    def _solve_in_time(self, assumptions: Sequence[int]) -> bool:
        """``Local.solve`` in slices of conflicts, the time limit looked at before each: CaDiCaL has no
        interrupt, and one question on a 20x20 Slitherlink ran seven seconds past the limit.  A slice gets
        ``CONFLICTS`` conflicts, fewer after one that checked more than ``CHECKS`` candidates."""
        inside = self._inside(assumptions)
        conflicts = self.CONFLICTS
        while True:
            self.check_time()
            budget = conflicts if self.budget is None else min(conflicts, self.budget)
            self.solver.conf_budget(budget)
            checked = self.propagator.checked
            answer = self.solver.solve_limited(assumptions=inside)
            if self.budget is not None:
                self.budget -= budget
            if answer is not None:
                return answer
            if self.budget is not None and self.budget <= 0:
                raise _Unsettled
            checks = self.propagator.checked - checked
            if checks > self.CHECKS:
                conflicts = max(10, conflicts * self.CHECKS // checks)


class _Unsettled(TrisolveError):
    """A ``LazyLocal`` question ran out of the effort ``settle`` gave it (caught by ``settle``)."""


class _InSearch(CutPropagator):
    """The external propagator of a ``CycleLocal``: ``CutPropagator``'s, its cuts those of the local solver's own
    check (in its numbering, guarded, pooled), each kept to be added again as a clause before the next question."""

    def __init__(self, local: CycleLocal) -> None:
        super().__init__(cnf=None)
        self.local = local

    def check_model(self, model: list[int]) -> bool:
        self.checked += 1
        true = {lit for lit in model if lit > 0}  # the observed variables only
        self.pending = self.local._cuts_of(_table_of_true(true, len(self.local.outer) - 1))
        self.local.given += self.pending
        self.local.accepted = None if self.pending else frozenset(true)
        return not self.pending


class Switched(Oracle):
    """Questions to a kept solver with some of its switchable units on: their selectors (``on``) are assumed
    in every question, the solver's other switchable units are off (free selectors, phase false)."""

    def __init__(self, shared: Local, on: Sequence[int]) -> None:
        self.shared = shared
        self.on = list(on)
        self.deadline = shared.deadline
        self.in_search = shared.in_search

    def solve(self, assumptions: Iterable[int]) -> bool:
        return self.shared.solve([*self.on, *assumptions])

    def settle(self, assumptions: Iterable[int], effort: int) -> bool | None:
        try:
            return self.shared.settle([*self.on, *assumptions], effort)
        finally:
            self.spent = self.shared.spent

    def core(self) -> set[int]:
        return self.shared.core() - set(self.on)

    def reads(self, variable: int) -> bool:
        return self.shared.reads(variable)

    def set_phases(self, literals: Iterable[int]) -> None:
        self.shared.set_phases(literals)

    def true_variables(self) -> set[int]:
        return self.shared.true_variables()

    def close(self) -> None:
        """Nothing: the solver is the reasoner's, closed with it."""


class Reasoner(Oracle):
    """One incremental SAT solver over the model with every unit switchable; all questions go through it
    (or, for a few units, through a ``Local`` solver it builds from their clauses)."""

    def __init__(self, model: Model, units: Sequence[Unit], deadline: float | None) -> None:
        self.model = model
        self.units = tuple(units)
        self.deadline = deadline
        with building(deadline):
            self.cnf: SelectedCnf = compile_selected(model, lambda constraint: constraint.label)
        self.selector: Mapping[str, int] = {unit.label: self.cnf.selectors[unit.label] for unit in self.units}
        self.unit_of_selector = {self.selector[unit.label]: unit for unit in self.units}
        self.solver = Solver(name=SOLVER, bootstrap_with=self.cnf.clauses)
        self._split_clauses()
        self._locals: dict[tuple[int, ...], Local] = {}
        self.calls = 0
        self._top = self.cnf.top
        self._timer = _interrupter(self.solver, deadline)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.solver.delete()
        for local in self._locals.values():
            local.close()
        self._locals.clear()
        for local, _ in self._partners.values():
            local.close()
        self._partners.clear()

    def __enter__(self) -> Reasoner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plain questions

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
        return {lit for lit in found[: self.model.variables] if lit > 0}  # PySAT lists variables 1, 2, ... in order

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

    def solutions(self) -> list[set[int]]:
        """Two solutions of every unit (the true variables of each) whose own variables differ, or the only one,
        or none.  With graph constraints, asked of a lazy solver over all the units (on a 24x14 Nurikabe the
        first solution took 18 s through the reachability levels, 0.1 s by cuts); else of this one."""
        own = self.model.own
        if not any(self.graph_of(unit) for unit in self.units):
            if not self.solve(self.all_units()):
                return []
            first = self.true_variables()
            other = self.other_solution(frozenset(v if v in first else -v for v in own))
            return [first] if other is None else [first, other]
        local, _ = self._lazy_solver(self.units, set(), None)
        local.interruptible = True
        timer = _interrupter(local.solver, self.deadline)
        try:
            if not local.solve([]):
                return []
            first = {var for var in local.true_variables() if var <= self.model.variables}
            free = [var for var in own if not local.reads(var)]  # no clause reads it: either value will do
            if free:
                return [first, first ^ {free[0]}]
            local.solver.add_clause(local._inside([-var if var in first else var for var in own]))
            if not local.solve([]):
                return [first]
            return [first, {var for var in local.true_variables() if var <= self.model.variables}]
        finally:
            if timer is not None:
                timer.cancel()
            local.close()

    def all_units(self) -> list[int]:
        return [self.selector[unit.label] for unit in self.units]

    def holds(self, unit: Unit, true: set[int]) -> bool:
        """Whether ``unit``'s constraints hold under an assignment of the model's variables."""

        def value(literal: int) -> bool:
            return (abs(literal) in true) == (literal > 0)

        return all(semantics.holds(self.model.constraints[i], value) for i in unit.constraints)

    def graph_of(self, unit: Unit) -> list[Connected | SingleCycle]:
        """The graph constraints (one loop, a connected set) among ``unit``'s constraints."""
        found = (self.model.constraints[i] for i in unit.constraints)
        return [c for c in found if isinstance(c, (Connected, SingleCycle))]

    def near(self, unit: Unit) -> dict[int, set[int]]:
        """For a unit with graph constraints: each variable they read -> the variables next to it (edges meeting
        at a point of a loop's grid, vertices joined by an edge of a connected set's graph)."""
        near: dict[int, set[int]] = {}
        for constraint in self.graph_of(unit):
            if isinstance(constraint, SingleCycle):
                at: dict[int, list[int]] = {}
                for a, b, lit in constraint.edges:
                    at.setdefault(a, []).append(abs(lit))
                    at.setdefault(b, []).append(abs(lit))
                for variables in at.values():
                    for var in variables:
                        near.setdefault(var, set()).update(v for v in variables if v != var)
            else:
                for i, j in constraint.edges:
                    a, b = abs(constraint.vertices[i]), abs(constraint.vertices[j])
                    near.setdefault(a, set()).add(b)
                    near.setdefault(b, set()).add(a)
        return near

    # ------------------------------------------------------------------ a few units alone

    def _split_clauses(self) -> None:
        """Each unit's clauses (without its selector), and the unguarded clauses that define auxiliaries, by
        the auxiliary they define (a unit's clauses need those of the auxiliaries they read)."""
        self._clauses_of, self._defining = _split(self.cnf, self.model.variables)
        self._lazy: tuple[SelectedCnf, dict[int, list[list[int]]], dict[int, list[list[int]]]] | None = None
        self._cuts: dict[int, dict[tuple[int, ...], None]] = {}
        self._partners: dict[str, tuple[LazyLocal, dict[str, int]]] = {}

    def clauses_of(self, selectors: Iterable[int], switchable: bool = False) -> list[list[int]]:
        """The clauses stating these units, with every definition of an auxiliary they read (``switchable``:
        each unit's clauses keep its selector, to be assumed)."""
        return _with_definitions(selectors, self._clauses_of, self._defining, self.model.variables, switchable)

    def local(self, selectors: Sequence[int], keep: bool = True) -> Local | Switched:
        """A ``Local`` solver for these units (kept for later questions when ``keep``; else the caller
        closes it); a ``LazyLocal`` when one of them has a graph constraint; for several units with a
        graph constraint among them, the kept solver of the first such unit and its partners
        (``_graph_partners``) with these switched on."""
        key = tuple(sorted(selectors))
        units = [self.unit_of_selector[s] for s in key]
        graph = [unit for unit in units if self.graph_of(unit)]
        if len(units) > 1 and graph:
            shared, selector = self._graph_partners(graph[0])
            return Switched(shared, [selector[unit.label] for unit in units if unit is not graph[0]])
        found = self._locals.get(key)
        if found is None:
            found = self._local(key)
            if keep:
                self._locals[key] = found
        return found

    def _local(self, key: tuple[int, ...]) -> Local:
        """A new small solver for these units: with a graph constraint among them, over the lazy CNF."""
        units = [self.unit_of_selector[s] for s in key]
        if not any(self.graph_of(unit) for unit in units):
            return Local(self.clauses_of(key), self.deadline)
        return self._lazy_solver(units, set(), self._cuts)[0]

    def _graph_partners(self, unit: Unit) -> tuple[LazyLocal, dict[str, int]]:
        """One kept lazy solver per unit with a graph constraint: that unit always on, and each unit that reads
        a variable it reads switchable (its selector in this solver's numbering, by label).  Every pair
        with that unit is asked here: a solver of its own per pair (a Nurikabe's sea pairs with every cell)
        was built hundreds of times, each given the cuts found so far, and learnt its own again."""
        found = self._partners.get(unit.label)
        if found is None:
            partners = [other for other in self.units if other is not unit and other.reads & unit.reads]
            local, selector = self._lazy_solver([unit, *partners], {other.label for other in partners}, self._cuts)
            local.set_phases([-selector[other.label] for other in partners])
            found = self._partners[unit.label] = (local, {other.label: selector[other.label] for other in partners})
        return found

    #: shared variables up to which every assignment of them is tried (``adds_nothing``)
    ENUMERATED = 4

    def adds_nothing(self, graph: Unit, partner: Unit) -> bool:
        """Whether ``partner`` lets every assignment of the variables it shares with ``graph`` (a unit with a
        graph constraint) be, and reads no own variable ``graph`` does not: then the pair forces a fact with some
        known facts only when ``graph`` alone does with the same ones (a solution of ``graph`` and the facts
        without the fact extends to ``partner``'s variables), so it is not worth a question.  Shown by one
        assignment of ``partner``'s other variables that satisfies all its clauses whatever the shared ones are,
        or, for a few shared variables, by trying each assignment of them.  A Nurikabe's sea pairs with every
        cell's "shaded or in one island" and every "unshaded neighbours are in it": asking those pairs again
        after every step was most of the time a 24x14 took."""
        if not partner.scope <= graph.reads:
            return False
        lazy, clauses_of, defining = self._lazy_cnf()
        top = self.model.variables
        mine = _with_definitions([lazy.selectors[partner.label]], clauses_of, defining, top)
        theirs = _with_definitions([lazy.selectors[graph.label]], clauses_of, defining, top)
        read = {abs(lit) for clause in mine for lit in clause}
        shared = read & ({abs(lit) for clause in theirs for lit in clause} | graph.reads)
        reduced = [[lit for lit in clause if abs(lit) not in shared] for clause in mine]
        if all(reduced):
            alone = Local(reduced, self.deadline)
            try:
                if alone.solve([]):
                    return True
            finally:
                alone.close()
        if len(shared) > self.ENUMERATED:
            return False
        whole = Local(mine, self.deadline)
        try:
            order = sorted(shared)
            for bits in range(1 << len(order)):
                if not whole.solve([var if bits >> i & 1 else -var for i, var in enumerate(order)]):
                    return False
            return True
        finally:
            whole.close()

    def switchable(self, units: Sequence[Unit]) -> tuple[Local, dict[int, Unit]]:
        """A new small solver over these units with each one's selector kept (assume it to switch the unit on),
        and each unit by its selector in that solver's numbering: over the lazy CNF when one of them has a
        graph constraint (the caller closes it).  The reachability levels made each question about a
        Nurikabe's sea eight times slower."""
        if not any(self.graph_of(unit) for unit in units):
            by_selector = {self.selector[unit.label]: unit for unit in units}
            return Local(self.clauses_of(by_selector, switchable=True), self.deadline), by_selector
        # its own cuts only: the shared ones (tens of thousands on a Nurikabe's sea) took longer to add to each
        # of these short-lived solvers than it takes them to find the few they need
        local, selector = self._lazy_solver(units, {unit.label for unit in units}, None)
        return local, {selector[unit.label]: unit for unit in units}

    def _lazy_solver(
        self, units: Sequence[Unit], switched: set[str], pool: dict[int, dict[tuple[int, ...], None]] | None
    ) -> tuple[LazyLocal, dict[str, int]]:
        """A new ``LazyLocal`` over these units on the lazy CNF, and each unit's selector there by label: the
        units labelled in ``switched`` keep their selector (on only when it is assumed; their graph
        constraints' cuts guarded by it), the others are always on.  ``pool``: the shared cuts it starts
        with and adds to."""
        lazy, clauses_of, defining = self._lazy_cnf()
        assert lazy.cuts is not None
        selector = {unit.label: lazy.selectors[unit.label] for unit in units}
        kept = {selector[label] for label in switched}
        clauses = _with_definitions(selector.values(), clauses_of, defining, self.model.variables, switchable=kept)
        graph = [
            (selector[unit.label] if unit.label in switched else None, constraint)
            for unit in units
            for constraint in self.graph_of(unit)
        ]
        constraints, guards = [c for _, c in graph], [g for g, _ in graph]
        if pool is not None and all(isinstance(c, SingleCycle) for c in constraints):
            local: LazyLocal = CycleLocal(
                clauses, constraints, lazy.cuts, self.deadline, pool, guards, lazy.cut_variables
            )
        else:
            local = LazyLocal(clauses, constraints, lazy.cuts, self.deadline, pool, guards)
        return local, selector

    def _lazy_cnf(self) -> tuple[SelectedCnf, dict[int, list[list[int]]], dict[int, list[list[int]]]]:
        """The model compiled with its graph constraints stated lazily (built on first use), split by unit."""
        if self._lazy is None:
            with building(self.deadline):
                lazy = compile_selected(self.model, lambda constraint: constraint.label, connectivity="lazy")
            self._lazy = (lazy, *_split(lazy, self.model.variables))
        return self._lazy


def _interrupter(solver: Solver, deadline: float | None) -> threading.Timer | None:
    """A started timer that interrupts ``solver`` at the deadline (its questions asked with ``solve_limited``)."""
    if deadline is None:
        return None
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), solver.interrupt)
    timer.daemon = True
    timer.start()
    return timer


def _literals(constraint: Connected | SingleCycle) -> list[int]:
    """A graph constraint's literals in the order its cuts read them: a connected set's vertices, a loop's edges."""
    return list(constraint.vertices) if isinstance(constraint, Connected) else [lit for _, _, lit in constraint.edges]


def _split(cnf: SelectedCnf, top: int) -> tuple[dict[int, list[list[int]]], dict[int, list[list[int]]]]:
    """Per selector, the clauses it guards (without it); per auxiliary (a variable above ``top``), the unguarded
    clauses that read it."""
    selectors = set(cnf.selectors.values())
    clauses_of: dict[int, list[list[int]]] = {s: [] for s in selectors}
    defining: dict[int, list[list[int]]] = {}
    for clause in cnf.clauses:
        if clause and -clause[0] in selectors:
            clauses_of[-clause[0]].append(clause[1:])
            continue
        for lit in clause:
            if abs(lit) > top:
                defining.setdefault(abs(lit), []).append(clause)
    return clauses_of, defining


def _with_definitions(
    selectors: Iterable[int],
    clauses_of: Mapping[int, list[list[int]]],
    defining: Mapping[int, list[list[int]]],
    top: int,
    switchable: bool | Container[int] = False,
) -> list[list[int]]:
    """The clauses these selectors guard (keeping the selector when ``switchable``, or when it is one of
    ``switchable``'s), with every definition of an auxiliary they read."""
    kept = (lambda s: switchable) if isinstance(switchable, bool) else switchable.__contains__
    chosen = [[-s, *clause] if kept(s) else clause for s in selectors for clause in clauses_of[s]]
    todo = [abs(lit) for clause in chosen for lit in clause if abs(lit) > top]
    seen: set[int] = set()
    added: dict[int, list[int]] = {}
    while todo:
        aux = todo.pop()
        if aux in seen:
            continue
        seen.add(aux)
        for clause in defining.get(aux, ()):
            if id(clause) not in added:
                added[id(clause)] = clause
                todo += [abs(lit) for lit in clause if abs(lit) > top and abs(lit) not in seen]
    return chosen + list(added.values())


def _getter(indices: Sequence[int]) -> Callable[[Sequence[bool]], Sequence[bool]]:
    """What picks these entries of a table, in order, as a sequence (``operator.itemgetter`` gives a lone value
    for one index)."""
    if len(indices) == 1:
        return lambda table: (table[indices[0]],)
    return operator.itemgetter(*indices) if indices else lambda table: ()


def _table_of_model(model: Sequence[int], count: int) -> list[bool]:
    """Whether each literal of variables 1..count holds in a solver's model (its literals of variables 1, 2, ...
    in order; a variable past its end is false): entry ``v`` for ``v``, entry ``-v`` (from the end) for ``-v``."""
    values = [*map((0).__lt__, model), *[False] * (count - len(model))]
    return [False, *values, *map(operator.not_, reversed(values))]


def _table_of_true(true: set[int], count: int) -> list[bool]:
    """``_table_of_model`` from the set of true variables."""
    table = [False] * (count + 1) + [True] * count
    for var in true:
        table[var] = True
        table[-var] = False
    return table
