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
hitting-set loop written by hand with CPMpy, whose hitting-set solver (a
CPMpy model on OR-Tools) keeps every set to hit from step to step, with one
incremental PySAT solver on the SAT side.  It is the same definition: each
step is still an optimal constrained unsatisfiable subset over the same soft
elements and weights, and the fact it negates becomes known.  Keeping the
sets is sound because a set to hit is the complement of a satisfiable subset
S of the soft elements: when f becomes known, the element "f" joins every
old set (the complement grows) and "not f" leaves the universe (a set may
lose an element that can no longer be picked); whether S is satisfiable does
not depend on what is known.  Where several facts share the optimal cost,
either greedy takes whichever its solvers return first, so the two (and
runs on another machine) may walk different sequences with different totals.

    python scripts/bench_explain.py levels/logic/einstein.toml [--cpmpy] [--cpmpy-incremental] [--timeout S]
    python scripts/bench_explain.py --mus
    python scripts/bench_explain.py levels/sudoku/sudoku*.txt levels/logic/*.toml --timeout 300

Prints one row per level and side: steps, total cost, wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import time

import trisolve
from trisolve.constraints import AllDifferent, Clause, Connected, Linear, Model, SingleCycle
from trisolve.explaining.explain import explain
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


def cpmpy_greedy_incremental(
    model: Model, solution: frozenset[int], deadline: float, trace: list | None = None
) -> tuple[int, int, bool]:
    """(steps, total cost, complete) of the greedy of ``cpmpy_greedy``, each step an OCUS found by an
    implicit hitting-set loop written with CPMpy whose sets to hit are kept from step to step.

    The soft elements are fixed once: every unit, and for every fact f of the solution both "f"
    (weight 1, usable once f is known) and "not f" (weight 0, usable while f is unknown).  A set to
    hit is the complement of a satisfiable set of these elements, so it stays valid at every later
    step: only which elements may be picked changes, which the hitting-set solver (OR-Tools, one
    worker) is told by assumptions on one "known" Boolean per fact.  "not f" once f is known is
    fixed off for good and left out of later sets.  The SAT side is one PySAT solver with an
    indicator Boolean per element, its phases set to satisfy every usable element; a satisfiable
    subset is grown to every element its solution satisfies.  Optimisation is postponed as in
    Gamba et al.: after each optimal hitting set that has a solution, cheap hitting sets (the last
    one plus an element of the newest set to hit) are tried until one has no solution, each adding
    its own set to hit; and within a step the price of the last optimal hitting set is passed on as
    a lower bound (it can only grow while sets are added).  Only an optimal hitting set without
    solution ends a step, so each step is an optimal constrained unsatisfiable subset.  ``trace``,
    if given, receives (fact, cost) for each step."""
    import cpmpy as cp
    from cpmpy.solvers.solver_interface import ExitStatus

    _, lit, units, hard = cpmpy_units(model)
    facts = sorted(solution, key=lambda f: (f < 0, abs(f)))
    soft = [*units, *[lit(f) for f in facts], *[~lit(f) for f in facts]]
    told = len(units)  # soft[told + n] is fact n, weight 1
    priced = told + len(facts)  # soft[priced + n] is its negation, weight 0

    on = cp.boolvar(shape=len(soft), name="on")
    sat = cp.SolverLookup.get("pysat")
    sat += hard
    sat += [switch.implies(element) for switch, element in zip(on, soft)]

    pick = cp.boolvar(shape=len(soft), name="pick")
    known = cp.boolvar(shape=len(facts), name="known")
    price = cp.sum(pick[:priced])
    hitting = cp.SolverLookup.get("ortools")
    hitting += [pick[told + n].implies(known[n]) for n in range(len(facts))]
    hitting += [pick[priced + n].implies(~known[n]) for n in range(len(facts))]
    hitting += cp.sum(pick[priced:]) == 1
    hitting.minimize(price)
    floors: dict[int, object] = {}  # k: a Boolean that, assumed, says the price is at least k

    def floor(k: int):
        if k not in floors:
            floors[k] = cp.boolvar(name=f"floor{k}")
            hitting.add(floors[k].implies(price >= k))
        return floors[k]

    learned = [False] * len(facts)

    def usable(n: int) -> bool:
        if n < told:
            return True
        return learned[n - told] if n < priced else not learned[n - priced]

    def correction(chosen) -> list[int] | None:
        """None if the chosen elements have no solution; else the elements, but those no longer ever
        usable, outside all that a solution of them satisfies, now a set to hit."""
        if not sat.solve(assumptions=[on[n] for n in chosen]):
            return None
        missed = [
            n for n, element in enumerate(soft) if not element.value() and not (n >= priced and learned[n - priced])
        ]
        hitting.add(cp.any(pick[missed]))
        return missed

    total = steps = 0
    while steps < len(facts):
        assumptions = [known[n] if learned[n] else ~known[n] for n in range(len(facts))]
        sat.solution_hint(on, [usable(n) for n in range(len(soft))])
        bound = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return steps, total, False
            hitting.solve(time_limit=left, assumptions=assumptions + ([floor(bound)] if bound else []), num_workers=1)
            if hitting.status().exitstatus != ExitStatus.OPTIMAL:
                return steps, total, False
            chosen = [n for n in range(len(soft)) if pick[n].value()]
            bound = hitting.objective_value()
            missed = correction(chosen)
            if missed is None:
                break
            candidate = set(chosen)  # postponed optimisation: cheap hitting sets first
            while missed is not None and time.monotonic() < deadline:
                priced_missed = [n for n in missed if n < priced and usable(n)]
                negated_missed = [n for n in missed if n >= priced and usable(n)]
                if priced_missed:
                    candidate.add(priced_missed[0])
                elif negated_missed:
                    candidate = {n for n in candidate if n < priced} | {negated_missed[0]}
                else:
                    break
                missed = correction(sorted(candidate))
        fact = next(n for n in chosen if n >= priced) - priced
        cost = sum(1 for n in chosen if n < priced)
        total += cost
        if trace is not None:
            trace.append((facts[fact], cost))
        learned[fact] = True
        hitting += ~pick[priced + fact]
        steps += 1
    return steps, total, True


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("levels", nargs="*")
    parser.add_argument("--mus", action="store_true", help="MUS sizes on two puzzles with a wrong given")
    parser.add_argument("--cpmpy", action="store_true", help="also run the CPMpy greedy")
    parser.add_argument(
        "--cpmpy-incremental", action="store_true", help="also run the CPMpy greedy with an incremental OCUS loop"
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
            total = sum(step.cost for step in found.steps)
            agreed = sum(c.verdict == c.expected for c in found.checks)
            checks = f"{agreed}/{len(found.checks)} confirmed" if check else ""
            print(
                f"{level.name:24} {side:22} {len(found.steps):5} {total:6} {wall:8.2f} {cpu:8.2f}  "
                f"{found.kind}, {'partial' if found.partial else 'complete'} {checks} findings {len(found.findings)}",
                flush=True,
            )
        if args.cpmpy:
            wall, cpu = time.monotonic(), time.process_time()
            steps, total, done = cpmpy_greedy(found.model, found.solution, time.monotonic() + args.timeout)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            print(f"{level.name:24} {'CPMpy 1.1.1 ocus greedy':22} {steps:5} {total:6} {wall:8.2f} {cpu:8.2f}  {done}")
        if args.cpmpy_incremental:
            wall, cpu = time.monotonic(), time.process_time()
            deadline = time.monotonic() + args.timeout
            steps, total, done = cpmpy_greedy_incremental(found.model, found.solution, deadline)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            side = "CPMpy 1.1.1 incremental OCUS greedy"
            print(f"{level.name:24} {side:22} {steps:5} {total:6} {wall:8.2f} {cpu:8.2f}  {done}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end, {time.strftime('%H:%M UTC', time.gmtime())}")


if __name__ == "__main__":
    main()
