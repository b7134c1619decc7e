"""Step-wise explanations side by side: trisolve's against a greedy written with CPMpy's tools, on the same
labelled constraints.

The CPMpy side is the greedy of XCP-explain (construct_greedy), as CPMpy's
users would write it with CPMpy 1.1.1's ``ocus``: at each step, the cheapest
set of units and known facts that, with exactly one unknown fact of the
solution negated, has no solution (each unit and fact weighs 1, a negated
fact 0); that fact becomes known.  XCP-explain itself is not on PyPI, so
this greedy of the same definition stands for it.  Both explain every fact
of the solution (``x = v`` and ``x != v``); the cost of a step is its number
of units plus facts used.

``--cpmpy-incremental`` runs the same greedy faster, as CPMpy's users would
write it after Gamba, Bogaerts & Guns, "Efficiently explaining CSPs with
unsatisfiable subset optimization" (JAIR 2023): one OCUS implicit
hitting-set loop written by hand with CPMpy, which keeps every set to hit
from step to step, with one incremental PySAT solver on the SAT side.  Its
hitting sets come from PySAT's RC2 (``--hitting-solver rc2``, the default,
as in PySAT's OptUx) or from OR-Tools through CPMpy (``ortools``).  It is the same definition: each
step is still an optimal constrained unsatisfiable subset over the same soft
elements and weights, and the fact it negates becomes known.  Keeping the
sets is sound because a set to hit is the complement of a satisfiable subset
S of the soft elements: when f becomes known, the element "f" joins every
old set (the complement grows) and "not f" leaves the universe (a set may
lose an element that can no longer be picked); whether S is satisfiable does
not depend on what is known.  Where several facts share the optimal cost,
either greedy takes whichever its solvers return first, so the two (and
runs on another machine) may walk different sequences with different totals.

``--floors`` bounds the greedy from below where it cannot be run to the end:
a fact's floor is its cheapest explanation when every other fact is known,
and the greedy's step for that fact, taken with fewer facts known, costs at
least as much.  So a greedy cut short costs in the end at least its cost so
far plus the floors of the facts still unknown; ``--decide`` stops it once
that reaches trisolve's total.

``--at-states COST`` looks at trisolve's own sequence: for each of its steps
costing more than COST, the cheapest step from the facts trisolve knew
before it (the step the greedy would take there).  Where that is cheaper,
trisolve's step search missed it.

    python scripts/bench_explain.py levels/logic/einstein.toml [--cpmpy] [--cpmpy-incremental] [--timeout S]
    python scripts/bench_explain.py levels/logic/six-houses.toml --cpmpy-incremental --floors --decide
    python scripts/bench_explain.py levels/logic/market-8.toml --at-states 3
    python scripts/bench_explain.py --mus
    python scripts/bench_explain.py levels/sudoku/sudoku*.txt levels/logic/*.toml --timeout 300

Prints one row per level and side: steps, total cost, wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import trisolve
from trisolve.constraints import AllDifferent, Clause, Connected, Linear, Model, SingleCycle
from trisolve.explaining.explain import Explanation, explain
from trisolve.explaining.steps import Step
from trisolve.explaining.units import units_of
from trisolve.models import FAMILIES


def cpmpy_units(model: Model):
    """The model's units as CPMpy expressions over one Boolean per model variable, and the hard constraints
    they need: a unit with a graph constraint (a single loop, a connected set) is given as its clauses in
    trisolve's CNF (``compile_selected``), whose shared auxiliary definitions are then hard."""
    import cpmpy as cp

    from trisolve.backends.pysat.compiled import compile_selected

    cnf = None
    if any(isinstance(c, (SingleCycle, Connected)) for c in model.constraints):
        cnf = compile_selected(model, lambda constraint: constraint.label)
    booleans = cp.boolvar(shape=(cnf.top if cnf else model.variables) + 1, name="x")

    def lit(literal: int):
        return booleans[literal] if literal > 0 else ~booleans[-literal]

    def expression(constraint):
        if isinstance(constraint, Clause):
            return cp.any([lit(x) for x in constraint.literals])
        if isinstance(constraint, Linear):
            total = cp.sum([w * lit(x) for w, x in constraint.terms])
            said = {"==": total == constraint.bound, "<=": total <= constraint.bound, ">=": total >= constraint.bound}
            body = said[constraint.op]
            return cp.all([lit(x) for x in constraint.enforce]).implies(body) if constraint.enforce else body
        if isinstance(constraint, AllDifferent):
            parts = [cp.sum([lit(x) for x in v.literals]) == 1 for v in constraint.variables]
            values = {value for v in constraint.variables for value in v.values}
            for value in values:
                taking = [lit(v.eq(value)) for v in constraint.variables if value in v.values]
                parts.append(cp.sum(taking) <= 1)
            return cp.all(parts)
        raise NotImplementedError(type(constraint).__name__)

    units = units_of(model)
    if cnf is None:
        return (
            booleans,
            lit,
            [cp.all([expression(model.constraints[i]) for i in unit.constraints]) for unit in units],
            [],
        )
    selectors = {cnf.selectors[unit.label]: n for n, unit in enumerate(units)}
    stated: list[list] = [[] for _ in units]
    hard = []
    for clause in cnf.clauses:
        if clause and -clause[0] in selectors:
            stated[selectors[-clause[0]]].append(cp.any([lit(x) for x in clause[1:]]))
        else:
            hard.append(cp.any([lit(x) for x in clause]))
    return booleans, lit, [cp.all(parts) for parts in stated], hard


def cpmpy_greedy(model: Model, solution: frozenset[int], deadline: float) -> tuple[int, int, bool]:
    """(steps, total cost, complete) of the CPMpy greedy within the deadline."""
    import cpmpy as cp
    from cpmpy.tools.explain import ocus

    _, lit, units, hard = cpmpy_units(model)
    known: list[int] = []
    unknown = sorted(solution, key=lambda f: (f < 0, abs(f)))
    total = 0
    while unknown and time.monotonic() < deadline:
        facts = [lit(f) for f in known]
        negated = [~lit(f) for f in unknown]
        soft = [*units, *facts, *negated]
        weights = [1] * (len(units) + len(facts)) + [0] * len(negated)
        chosen = ocus(soft, hard=hard, weights=weights, meta_constraint=cp.sum(negated) == 1, solver="ortools")
        ids = {id(c) for c in chosen}
        fact = next(f for f, n in zip(unknown, negated) if id(n) in ids)
        total += len(chosen) - 1  # all but the negated fact (a given unit may be the very object of a known fact)
        known.append(fact)
        unknown.remove(fact)
    return len(known), total, not unknown


class _CPMpyHitting:
    """The hitting-set side as one CPMpy model for the whole run (OR-Tools, one worker): one Boolean per
    element says whether it is allowed now, told by assumptions at each call, and within a step the price
    of the last optimal hitting set is passed on as a lower bound (it can only grow while sets are added)."""

    def __init__(self, size: int, priced: int) -> None:
        import cpmpy as cp

        self.pick = cp.boolvar(shape=size, name="pick")
        self.allowed = cp.boolvar(shape=size, name="allowed")
        self.price = cp.sum(self.pick[:priced])
        self.solver = cp.SolverLookup.get("ortools")
        self.solver += [pick.implies(allowed) for pick, allowed in zip(self.pick, self.allowed)]
        self.solver += cp.sum(self.pick[priced:]) == 1
        self.solver.minimize(self.price)
        self.floors: dict[int, object] = {}  # k: a Boolean that, assumed, says the price is at least k
        self.assumptions: list = []
        self.bound = 0

    def start(self, usable: list[bool]) -> None:
        self.assumptions = [a if ok else ~a for a, ok in zip(self.allowed, usable)]
        self.bound = 0

    def add(self, missed: list[int]) -> None:
        import cpmpy as cp

        self.solver += cp.any(self.pick[missed])

    def solve(self, deadline: float) -> list[int] | None:
        import cpmpy as cp
        from cpmpy.solvers.solver_interface import ExitStatus

        told = list(self.assumptions)
        if self.bound:
            if self.bound not in self.floors:
                self.floors[self.bound] = cp.boolvar(name=f"floor{self.bound}")
                self.solver += self.floors[self.bound].implies(self.price >= self.bound)
            told.append(self.floors[self.bound])
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        self.solver.solve(time_limit=left, assumptions=told, num_workers=1)
        if self.solver.status().exitstatus != ExitStatus.OPTIMAL:
            return None
        self.bound = self.solver.objective_value()
        return [n for n, pick in enumerate(self.pick) if pick.value()]


class _RC2Hitting:
    """The hitting-set side on PySAT's RC2, as PySAT's own OptUx has it: a weighted MaxSAT problem built at
    each step from every set to hit kept so far, over the elements usable at that step (an element not usable
    is left out of every set and never taken), and given each new set within the step as a hard clause.  Where
    one negated fact alone is usable, a hitting set must take it, so the sets that hold it are left out.  RC2
    has no time limit: the deadline is looked at between calls."""

    def __init__(self, size: int, priced: int) -> None:
        self.size, self.priced = size, priced
        self.sets: list[list[int]] = []
        self.usable: list[bool] = []
        self.alone: int | None = None
        self.maxsat = None

    def start(self, usable: list[bool]) -> None:
        from pysat.card import CardEnc, EncType
        from pysat.examples.rc2 import RC2
        from pysat.formula import WCNF

        if self.maxsat is not None:
            self.maxsat.delete()
        self.usable = usable
        negated = [n for n in range(self.priced, self.size) if usable[n]]
        self.alone = negated[0] if len(negated) == 1 else None
        problem = WCNF()
        for missed in self.sets:
            if not self._held_alone(missed):
                problem.append([n + 1 for n in missed if usable[n]])
        lits = [n + 1 for n in negated]
        for clause in CardEnc.equals(lits, bound=1, top_id=self.size, encoding=EncType.seqcounter).clauses:
            problem.append(clause)
        for n in range(self.priced):
            if usable[n]:
                problem.append([-(n + 1)], weight=1)
        self.maxsat = RC2(problem, solver="g4")

    def add(self, missed: list[int]) -> None:
        self.sets.append(missed)
        if self.maxsat is not None and not self._held_alone(missed):
            self.maxsat.add_clause([n + 1 for n in missed if self.usable[n]])

    def _held_alone(self, missed: list[int]) -> bool:
        """Whether the set holds the one usable negated fact (then any hitting set hits it).  Without one, as
        at every greedy step but the last, no set is scanned for it."""
        return self.alone is not None and self.alone in missed

    def solve(self, deadline: float) -> list[int] | None:
        if time.monotonic() >= deadline:
            return None
        model = self.maxsat.compute()
        return [n for n in range(self.size) if self.usable[n] and model[n] > 0]


HITTING_SOLVERS = {"rc2": _RC2Hitting, "ortools": _CPMpyHitting}


class _Ocus:
    """Optimal constrained unsatisfiable subsets over fixed soft elements: every unit, and for every fact f
    of the solution both "f" (weight 1) and "not f" (weight 0), of which a call says which are usable; a
    subset takes exactly one negated fact.  The SAT side is one PySAT solver with an indicator Boolean per
    element, its phases set to satisfy every usable element; a satisfiable subset is grown to every element
    its solution satisfies, and the rest is a set to hit.  A set to hit is the complement of a satisfiable
    subset, so it stays valid at every later call, whatever is usable then; only elements marked ``dead``
    (never usable again) are left out of it."""

    def __init__(self, model: Model, solution: frozenset[int], hitting_solver: str) -> None:
        import cpmpy as cp

        _, lit, units, hard = cpmpy_units(model)
        self.facts = sorted(solution, key=lambda f: (f < 0, abs(f)))
        self.soft = [*units, *[lit(f) for f in self.facts], *[~lit(f) for f in self.facts]]
        self.told = len(units)  # soft[told + n] is fact n, weight 1
        self.priced = self.told + len(self.facts)  # soft[priced + n] is its negation, weight 0
        self.on = cp.boolvar(shape=len(self.soft), name="on")
        self.sat = cp.SolverLookup.get("pysat")
        self.sat += hard
        self.sat += [switch.implies(element) for switch, element in zip(self.on, self.soft)]
        self.hitting = HITTING_SOLVERS[hitting_solver](len(self.soft), self.priced)
        self.dead = [False] * len(self.soft)
        self.bound = 0

    def _correction(self, chosen: list[int]) -> list[int] | None:
        """None if the chosen elements have no solution; else the elements (but dead ones) outside all that a
        solution of them satisfies, now a set to hit."""
        if not self.sat.solve(assumptions=[self.on[n] for n in chosen]):
            return None
        missed = [n for n, element in enumerate(self.soft) if not element.value() and not self.dead[n]]
        self.hitting.add(missed)
        return missed

    def cheapest(self, usable: list[bool], deadline: float, calls: int | None = None) -> list[int] | None:
        """An optimal constrained unsatisfiable subset of the usable elements, or None past the deadline or
        after ``calls`` optimal hitting sets; ``self.bound`` is then the cost of the last, which no subset
        without solution undercuts.  Optimisation is postponed as in Gamba et al.: after each optimal
        hitting set that has a solution, cheap hitting sets (the last one plus an element of the newest set
        to hit) are tried until one has no solution, each adding its own set to hit.  Only an optimal
        hitting set without solution is returned."""
        self.sat.solution_hint(self.on, usable)
        self.hitting.start(usable)
        self.bound = 0
        while calls is None or calls > 0:
            calls = None if calls is None else calls - 1
            chosen = self.hitting.solve(deadline)
            if chosen is None:
                return None
            self.bound = self.cost(chosen)
            missed = self._correction(chosen)
            if missed is None:
                return chosen
            candidate = set(chosen)
            while missed is not None and time.monotonic() < deadline:
                priced_missed = [n for n in missed if n < self.priced and usable[n]]
                negated_missed = [n for n in missed if n >= self.priced and usable[n]]
                if priced_missed:
                    candidate.add(priced_missed[0])
                elif negated_missed:
                    candidate = {n for n in candidate if n < self.priced} | {negated_missed[0]}
                else:
                    break
                missed = self._correction(sorted(candidate))
        return None

    def cost(self, chosen: list[int]) -> int:
        return sum(1 for n in chosen if n < self.priced)

    def learn(self, fact: int) -> None:
        """Fact number ``fact`` becomes known: "not fact" is dead (never usable again, left out of new sets)."""
        self.dead[self.priced + fact] = True

    def usable_now(self) -> list[bool]:
        """The usable elements as facts become known in a sequence (``learn``): every unit, the known facts,
        and the negations of the unknown ones."""
        known = self.dead[self.priced :]
        return [True] * self.told + known + [not k for k in known]


def greedy_floors(
    model: Model, solution: frozenset[int], hitting_solver: str = "rc2", calls: int | None = None
) -> dict[int, int]:
    """For each fact f of the solution, the cost of its cheapest explanation when every other fact of the
    solution is known.  Whenever the greedy takes f, fewer facts are known, and what explains f then explains
    it with all known too: so the greedy's step for f costs at least this much, and the greedy's total is at
    least the cost of its steps so far plus the floors of the facts still unknown.  With ``calls``, a fact
    whose search takes more optimal hitting sets gets the cost of the last as its floor: no explanation
    costs less, so it is still a floor, only perhaps a lower one."""
    ocus = _Ocus(model, solution, hitting_solver)
    floors = {}
    for n, fact in enumerate(ocus.facts):
        usable = [True] * ocus.priced + [False] * len(ocus.facts)
        usable[ocus.told + n], usable[ocus.priced + n] = False, True
        chosen = ocus.cheapest(usable, float("inf"), calls)
        floors[fact] = ocus.bound if chosen is None else ocus.cost(chosen)
    return floors


@dataclass(frozen=True)
class GreedyRun:
    """How far the greedy got: its steps and their total cost, whether it explained every fact, and the
    least total its sequence can reach (``total`` if complete; else ``total`` plus the floors of the facts
    still unknown, when floors were given)."""

    steps: int
    total: int
    complete: bool
    at_least: int


def cpmpy_greedy_incremental(
    model: Model,
    solution: frozenset[int],
    deadline: float,
    trace: list | None = None,
    hitting_solver: str = "rc2",
    floors: dict[int, int] | None = None,
    decided_at: int | None = None,
    progress: bool = False,
) -> GreedyRun:
    """The greedy of ``cpmpy_greedy``, each step an OCUS found by an implicit hitting-set loop written with
    CPMpy and PySAT whose sets to hit are kept from step to step (``_Ocus``).  When f becomes known, "f"
    becomes usable and "not f" is dead.  ``trace``, if given, receives (fact, cost) for each step.  With
    ``floors`` (``greedy_floors``) and ``decided_at``, the run stops once the least total its sequence can
    reach is ``decided_at`` or more.  ``progress`` prints the count so far to stderr every 25 steps."""
    ocus = _Ocus(model, solution, hitting_solver)
    total = steps = 0
    rest = sum(floors.values()) if floors else 0

    def run(complete: bool) -> GreedyRun:
        return GreedyRun(steps, total, complete, total + rest)

    while steps < len(ocus.facts):
        if decided_at is not None and total + rest >= decided_at:
            return run(False)
        chosen = ocus.cheapest(ocus.usable_now(), deadline)
        if chosen is None:
            return run(False)
        fact = next(n for n in chosen if n >= ocus.priced) - ocus.priced
        cost = ocus.cost(chosen)
        total += cost
        rest -= floors[ocus.facts[fact]] if floors else 0
        if trace is not None:
            trace.append((ocus.facts[fact], cost))
        ocus.learn(fact)
        steps += 1
        if progress and steps % 25 == 0:
            reach = f", at least {total + rest} in all" if floors else ""
            print(f"  {steps} of {len(ocus.facts)} facts, cost {total} so far{reach}", file=sys.stderr, flush=True)
    return run(True)


@dataclass(frozen=True)
class AtState:
    """One of trisolve's steps and the cheapest step at the same known facts: its number (from 1), its cost,
    and the cheapest's cost (None when not found before the deadline)."""

    number: int
    cost: int
    cheapest: int | None


def cheapest_at_states(
    model: Model,
    solution: frozenset[int],
    steps: Sequence[Step],
    above: int,
    deadline: float,
    hitting_solver: str = "rc2",
) -> Iterator[AtState]:
    """For each of trisolve's steps costing more than ``above``, the cost of the cheapest step (an OCUS over
    every unknown fact, as the greedy takes) from the facts trisolve knew before it.  Where that is cheaper,
    trisolve's step search missed a step the greedy would take; these are where trisolve's sequence pays more
    than it need at each step.  The sets to hit are kept from state to state, as the greedy keeps them.  Each row
    is given as soon as it is found (a Sudoku's take minutes)."""
    ocus = _Ocus(model, solution, hitting_solver)
    number_of = {fact: n for n, fact in enumerate(ocus.facts)}
    for number, step in enumerate(steps, 1):
        if step.cost > above:
            chosen = ocus.cheapest(ocus.usable_now(), deadline)
            yield AtState(number, step.cost, None if chosen is None else ocus.cost(chosen))
            if chosen is None:
                return
        ocus.learn(number_of[step.fact])


def edited(path: str, header: str, row: int, col: int, entry: str) -> str:
    """A shipped grid level's text with the entry at (row, col) of its grid (from 0) replaced."""
    with open(path) as handle:
        lines = handle.read().split("\n")
    top = next(i for i, line in enumerate(lines) if line.startswith(header)) + 1
    cells = lines[top + row].split()
    cells[col] = entry
    lines[top + row] = " ".join(cells)
    return "\n".join(lines)


def mus_cases() -> list[tuple[str, Model]]:
    """Puzzles made unsolvable by one wrong given: Hexiom level 10 with a tile locked where it stands,
    Einstein's riddle with "the Brit lives in the first house" added, sudoku01 with a 2 given at row 1,
    column 2 (its solution has a 5), slither02 with a 0 at row 1, column 1 (above a 3)."""
    with open(os.path.join("levels", "hexiom", "level10.txt")) as handle:
        lines = handle.read().split("\n")
    lines[2] = lines[2][:3] + "+0" + lines[2][5:]
    hexiom = trisolve.load("\n".join(lines), "hexiom")
    einstein = trisolve.load(os.path.join("levels", "logic", "einstein.toml"))
    wrong = FAMILIES["logic"].constraints(einstein.model)
    brit = next(v for v in wrong.ints if "Brit" in str(v.key))
    wrong.fix(brit.eq(1), label="the Brit lives in the first house", role="given")
    sudoku = trisolve.load(edited(os.path.join("levels", "sudoku", "sudoku01.txt"), "sudoku ", 0, 1, "2"), "sudoku")
    slither = trisolve.load(
        edited(os.path.join("levels", "slither", "slither02.txt"), "slither ", 0, 0, "0"), "slither"
    )
    return [
        ("hexiom level10 + lock", FAMILIES["hexiom"].constraints(hexiom.model)),
        ("einstein + wrong given", wrong),
        ("sudoku01 + wrong given", FAMILIES["sudoku"].constraints(sudoku.model)),
        ("slither02 + wrong clue", FAMILIES["slither"].constraints(slither.model)),
    ]


def mus_side_by_side() -> None:
    """MUS sizes (in units): trisolve's (checked minimal by CP-SAT) against CPMpy's ``mus`` on the same units."""
    from cpmpy.tools.explain import mus

    print(f"{'case':24} {'side':22} {'units':>5} {'wall s':>8} {'cpu s':>8}  checks")
    for name, model in mus_cases():
        wall, cpu = time.monotonic(), time.process_time()
        found = explain(model, check="cpsat")
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
        agreed = f"{sum(c.verdict == c.expected for c in found.checks)}/{len(found.checks)} confirmed"
        print(f"{name:24} {'trisolve (checked)':22} {len(found.muses[0]):5} {wall:8.2f} {cpu:8.2f}  {agreed}")
        wall, cpu = time.monotonic(), time.process_time()
        _, _, units, hard = cpmpy_units(found.model)
        core = mus(units, hard=hard)
        wall, cpu = time.monotonic() - wall, time.process_time() - cpu
        print(f"{name:24} {'CPMpy 1.1.1 mus':22} {len(core):5} {wall:8.2f} {cpu:8.2f}")


def at_states(name: str, found: Explanation, above: int, deadline: float, hitting_solver: str) -> None:
    """Prints ``cheapest_at_states`` for one explanation: a line per step, then how much trisolve's steps cost
    above the cheapest at their states."""
    wall, cpu = time.monotonic(), time.process_time()
    rows = []
    for row in cheapest_at_states(found.model, found.solution, found.steps, above, deadline, hitting_solver):
        print(f"  step {row.number}: trisolve {row.cost}, cheapest at its state {row.cheapest}", flush=True)
        rows.append(row)
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    dearer = [row for row in rows if row.cheapest is not None and row.cheapest < row.cost]
    extra = sum(row.cost - row.cheapest for row in dearer)
    wanted = sum(step.cost > above for step in found.steps)
    done = "complete" if len(rows) == wanted else f"cut by the time limit after {len(rows)} of {wanted}"
    print(
        f"{name:24} {'steps above ' + str(above):22} {len(rows):5} {extra:6} {wall:8.2f} {cpu:8.2f}  "
        f"{len(dearer)} had a cheaper step at their state, {extra} in all; {done}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("levels", nargs="*")
    parser.add_argument("--mus", action="store_true", help="MUS sizes on two puzzles with a wrong given")
    parser.add_argument("--cpmpy", action="store_true", help="also run the CPMpy greedy")
    parser.add_argument(
        "--cpmpy-incremental", action="store_true", help="also run the CPMpy greedy with an incremental OCUS loop"
    )
    parser.add_argument(
        "--hitting-solver",
        choices=sorted(HITTING_SOLVERS),
        default="rc2",
        help="the hitting-set solver of the incremental greedy, its floors and --at-states (default rc2: PySAT's "
        "RC2, as OptUx; ortools: CPMpy's)",
    )
    parser.add_argument(
        "--floors",
        action="store_true",
        help="with --cpmpy-incremental: each fact's cheapest explanation with every other fact known, a floor "
        "under the greedy's step for it; a greedy cut short then still shows the least total it can reach",
    )
    parser.add_argument(
        "--floor-calls",
        type=int,
        default=None,
        help="with --floors: at most this many optimal hitting sets per fact; past it the last one's cost is "
        "the floor (still a floor, perhaps a lower one)",
    )
    parser.add_argument(
        "--decide",
        action="store_true",
        help="with --floors: stop the greedy once the least total it can reach is trisolve's total or more",
    )
    parser.add_argument(
        "--at-states",
        type=int,
        metavar="COST",
        default=None,
        help="for each of trisolve's steps costing more than COST, the cheapest step from the same known facts "
        "(where trisolve's search missed a cheaper one)",
    )
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {now}", flush=True)
    if args.levels:
        print(f"{'level':24} {'side':22} {'steps':>5} {'cost':>6} {'wall s':>8} {'cpu s':>8}  done")
    if args.mus:
        mus_side_by_side()
    for path in args.levels:
        level = trisolve.load(path)
        model = FAMILIES[level.family].constraints(level.model)
        for check in (None, "cpsat"):
            wall, cpu = time.monotonic(), time.process_time()
            found = explain(model, check=check, timeout=args.timeout)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            side = f"trisolve ({'checked by cpsat' if check else 'unchecked'})"
            ours = sum(step.cost for step in found.steps)
            agreed = sum(c.verdict == c.expected for c in found.checks)
            checks = f"{agreed}/{len(found.checks)} confirmed" if check else ""
            print(
                f"{level.name:24} {side:22} {len(found.steps):5} {ours:6} {wall:8.2f} {cpu:8.2f}  "
                f"{found.kind}, {'partial' if found.partial else 'complete'} {checks} findings {len(found.findings)}",
                flush=True,
            )
        if args.at_states is not None:
            at_states(level.name, found, args.at_states, time.monotonic() + args.timeout, args.hitting_solver)
        if args.cpmpy:
            wall, cpu = time.monotonic(), time.process_time()
            steps, total, done = cpmpy_greedy(found.model, found.solution, time.monotonic() + args.timeout)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            print(f"{level.name:24} {'CPMpy 1.1.1 ocus greedy':22} {steps:5} {total:6} {wall:8.2f} {cpu:8.2f}  {done}")
        if args.cpmpy_incremental:
            side = f"CPMpy 1.1.1 incremental OCUS greedy ({args.hitting_solver})"
            floors = None
            if args.floors:
                wall, cpu = time.monotonic(), time.process_time()
                floors = greedy_floors(found.model, found.solution, args.hitting_solver, args.floor_calls)
                wall, cpu = time.monotonic() - wall, time.process_time() - cpu
                least = sum(floors.values())
                print(f"{level.name:24} {'floors of the greedy':22} {len(floors):5} {least:6} {wall:8.2f} {cpu:8.2f}")
            wall, cpu = time.monotonic(), time.process_time()
            run = cpmpy_greedy_incremental(
                found.model,
                found.solution,
                time.monotonic() + args.timeout,
                hitting_solver=args.hitting_solver,
                floors=floors,
                decided_at=ours if args.decide else None,
                progress=True,
            )
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            reach = f", its total at least {run.at_least}" if floors and not run.complete else ""
            print(
                f"{level.name:24} {side:22} {run.steps:5} {run.total:6} {wall:8.2f} {cpu:8.2f}  {run.complete}{reach}",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.1f} at the end, {time.strftime('%H:%M UTC', time.gmtime())}")


if __name__ == "__main__":
    main()
