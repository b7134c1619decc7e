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

    python scripts/bench_explain.py levels/logic/einstein.toml [--cpmpy] [--timeout S]
    python scripts/bench_explain.py --mus

Prints one row per level and side: steps, total cost, wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import time

import trisolve
from trisolve.constraints import AllDifferent, Clause, Linear, Model
from trisolve.explaining.explain import explain
from trisolve.explaining.units import units_of
from trisolve.models import FAMILIES


def cpmpy_units(model: Model):
    """The model's units as CPMpy expressions over one Boolean per model variable."""
    import cpmpy as cp

    booleans = cp.boolvar(shape=model.variables + 1, name="x")

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
    return booleans, lit, [cp.all([expression(model.constraints[i]) for i in unit.constraints]) for unit in units]


def cpmpy_greedy(model: Model, solution: frozenset[int], deadline: float) -> tuple[int, int, bool]:
    """(steps, total cost, complete) of the CPMpy greedy within the deadline."""
    import cpmpy as cp
    from cpmpy.tools.explain import ocus

    _, lit, units = cpmpy_units(model)
    known: list[int] = []
    unknown = sorted(solution, key=lambda f: (f < 0, abs(f)))
    total = 0
    while unknown and time.monotonic() < deadline:
        facts = [lit(f) for f in known]
        negated = [~lit(f) for f in unknown]
        soft = [*units, *facts, *negated]
        weights = [1] * (len(units) + len(facts)) + [0] * len(negated)
        chosen = ocus(soft, weights=weights, meta_constraint=cp.sum(negated) == 1, solver="ortools")
        ids = {id(c) for c in chosen}
        fact = next(f for f, n in zip(unknown, negated) if id(n) in ids)
        total += sum(1 for c in [*units, *facts] if id(c) in ids)
        known.append(fact)
        unknown.remove(fact)
    return len(known), total, not unknown


def mus_cases() -> list[tuple[str, Model]]:
    """Puzzles made unsolvable by one wrong given: Hexiom level 10 with a tile locked where it stands, and
    Einstein's riddle with "the Brit lives in the first house" added."""
    with open(os.path.join("levels", "hexiom", "level10.txt")) as handle:
        lines = handle.read().split("\n")
    lines[2] = lines[2][:3] + "+0" + lines[2][5:]
    hexiom = trisolve.load("\n".join(lines), "hexiom")
    einstein = trisolve.load(os.path.join("levels", "logic", "einstein.toml"))
    wrong = FAMILIES["logic"].constraints(einstein.model)
    brit = next(v for v in wrong.ints if "Brit" in str(v.key))
    wrong.fix(brit.eq(1), label="the Brit lives in the first house", role="given")
    return [("hexiom level10 + lock", FAMILIES["hexiom"].constraints(hexiom.model)), ("einstein + wrong given", wrong)]


def mus_side_by_side() -> None:
    """MUS sizes (in units): trisolve's against CPMpy's ``mus`` on the same units."""
    from cpmpy.tools.explain import mus

    print(f"{'case':24} {'side':22} {'units':>5} {'wall s':>8}")
    for name, model in mus_cases():
        wall = time.monotonic()
        found = explain(model, check="cpsat")
        wall = time.monotonic() - wall
        print(f"{name:24} {'trisolve (checked)':22} {len(found.muses[0]):5} {wall:8.2f}")
        wall = time.monotonic()
        _, _, units = cpmpy_units(found.model)
        core = mus(units)
        wall = time.monotonic() - wall
        print(f"{name:24} {'CPMpy 1.1.1 mus':22} {len(core):5} {wall:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("levels", nargs="*")
    parser.add_argument("--mus", action="store_true", help="MUS sizes on two puzzles with a wrong given")
    parser.add_argument("--cpmpy", action="store_true", help="also run the CPMpy greedy")
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {now}")
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
            print(
                f"{level.name:24} {side:22} {len(found.steps):5} {total:6} {wall:8.2f} {cpu:8.2f}  {not found.partial}"
            )
        if args.cpmpy:
            wall, cpu = time.monotonic(), time.process_time()
            steps, total, done = cpmpy_greedy(found.model, found.solution, time.monotonic() + args.timeout)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            print(f"{level.name:24} {'CPMpy 1.1.1 ocus greedy':22} {steps:5} {total:6} {wall:8.2f} {cpu:8.2f}  {done}")


if __name__ == "__main__":
    main()
