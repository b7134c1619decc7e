"""What each constraint means, in plain Python: the referee of every compiler.

``holds(constraint, value)`` answers for one constraint under an
assignment (``value(literal) -> bool``); ``violated`` lists the labels a
full assignment breaks.  The compilers' tests check their answers against
these on small graphs by brute force, and the lazy compilers check their
candidates with them, so "connected" means the same thing everywhere.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from . import graphs
from .model import AllDifferent, Clause, Connected, Constraint, Linear, Model, ModelError, SingleCycle

Value = Callable[[int], bool]


def compare(total: int, op: str, bound: int) -> bool:
    if op == "==":
        return total == bound
    if op == "<=":
        return total <= bound
    if op == ">=":
        return total >= bound
    raise ModelError(f"unknown operator {op!r}")


def holds(constraint: Constraint, value: Value) -> bool:
    """Whether ``constraint`` holds when each literal is ``value(literal)``."""
    if isinstance(constraint, Clause):
        return any(value(lit) for lit in constraint.literals)
    if isinstance(constraint, Linear):
        if not all(value(lit) for lit in constraint.enforce):
            return True
        total = sum(weight for weight, lit in constraint.terms if value(lit))
        return compare(total, constraint.op, constraint.bound)
    if isinstance(constraint, AllDifferent):
        taken: list[int] = []
        for variable in constraint.variables:
            values = [v for v, lit in zip(variable.values, variable.literals) if value(lit)]
            if len(values) != 1:
                return False  # not an integer value at all (its own exactly-one is broken)
            taken.append(values[0])
        return len(set(taken)) == len(taken)
    if isinstance(constraint, Connected):
        chosen = [value(lit) for lit in constraint.vertices]
        return graphs.is_connected(chosen, graphs.graph_of(len(chosen), constraint.edges))
    if isinstance(constraint, SingleCycle):
        chosen = [(a, b) for a, b, lit in constraint.edges if value(lit)]
        return graphs.is_single_cycle(constraint.vertex_count, chosen)
    raise ModelError(f"{type(constraint).__name__} is not a constraint of the model")


def violated(model: Model, true: frozenset[int] | set[int]) -> list[Constraint]:
    """The constraints a full assignment (the set of true variables) breaks."""

    def value(literal: int) -> bool:
        return (abs(literal) in true) == (literal > 0)

    return [c for c in model.constraints if not holds(c, value)]


def solutions(model: Model, *, limit: int = 1 << 22) -> Iterator[frozenset[int]]:
    """Every assignment of all the model's variables that breaks nothing, as sets of true variables.

    A brute force for tests on tiny models: an integer variable takes each of its values (its literals
    follow), every other variable both truth values; at most ``limit`` assignments are tried."""
    in_ints = {lit for variable in model.ints for lit in variable.literals}
    loose = [var for var in range(1, model.variables + 1) if var not in in_ints]
    size = 2 ** len(loose)
    for variable in model.ints:
        size *= len(variable.literals)
    if size > limit:
        raise ModelError(f"{model.name}: {size} assignments is too many for a brute force (at most {limit})")
    choices = [tuple(frozenset((lit,)) for lit in variable.literals) for variable in model.ints]
    choices += [(frozenset(), frozenset((var,))) for var in loose]
    for picked in itertools.product(*choices):
        true = frozenset().union(*picked)
        if not violated(model, true):
            yield true


def projected_count(model: Model, *, limit: int = 1 << 22) -> int:
    """The number of distinct own-variable assignments among the brute force's solutions."""
    own = frozenset(model.own)
    return len({true & own for true in solutions(model, limit=limit)})
