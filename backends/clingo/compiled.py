"""Any family's constraint model as ASP: integer facts for the one generic rules file ``encodings/model.lp``.

The facts restate the model's records (variables, literals, weights, bounds,
graphs) as integers; every rule -- what a clause, a linear constraint, an
all-different, a connected set and a single cycle mean -- is in
``model.lp``, so an exported facts file runs under the plain ``clingo``.
Labels and keys (the puzzle's words, perhaps a user's) never reach the
program text: a constraint is its index, a variable its number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import clingo

from ...constraints import AllDifferent, Clause, Connected, IntVar, Linear, Model, SingleCycle, kind_of
from ...constraints.compiling import (
    exclusive_groups,
    forced,
    group_index,
    grouped,
    implied_total,
    integers,
    stated_once,
)
from ..base import Options
from ..catalog import Catalog, ModelCompiler
from .engine import AspProgram

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "the family's constraint model as integer facts for one generic rules file (model.lp): "
        "#sum aggregates, reachability from the least chosen vertex for connected sets and cycles",
    },
    symmetry_breaking=False,
    generic="constraints",
    supports="every kind",
)
#: The one rules file every family's facts run with.
RULES = "model.lp"
#: clingo options: ``crafty`` brings SAT preprocessing, which is what makes Hexiom's hard levels (36, 38, 40)
#: easy for the hand-written rules too; without it level 38's first solution took over 10 s (0.1 s with it).
ARGUMENTS: tuple[str, ...] = ("--configuration=crafty",)
#: With search hints (``prefer`` facts): clasp's domain heuristic, which reads model.lp's ``#heuristic``
#: statements (without it they are ignored).
HINTED: tuple[str, ...] = ("--heuristic=Domain",)


def _fact(predicate: str, *arguments: int) -> str:
    # every argument is an int: nothing the user wrote can end up here
    return f"{predicate}({','.join(str(int(a)) for a in arguments)})."


def facts(model: Model, counting: bool = False) -> str:
    """The model as facts for model.lp, one line per constraint; the search hints that apply to a count
    (``counting``) or to a first solution as ``prefer`` facts."""
    lines = []
    if model.variables:
        lines.append(f"var(1..{model.variables}).")
    if model.own:
        lines.append(" ".join(_fact("own", v) for v in model.own))
    fixed = forced(model)
    if fixed:
        lines.append(" ".join(_fact("forced", v, int(value)) for v, value in sorted(fixed.items())))
    number = {variable: x for x, variable in enumerate(integers(model))}
    for variable, x in number.items():
        lines.append(" ".join(_fact("int_value", x, k, lit) for k, lit in zip(variable.values, variable.literals)))
    # an integer's first value, when no unit forces it, holds exactly when no other value does: derived, not chosen
    derived = [variable for variable in stated_once(model) if variable.literals[0] not in fixed]
    if derived:
        lines.append(" ".join(_fact("first", number[variable], variable.literals[0]) for variable in derived))
    groups = exclusive_groups(model)
    where = group_index(groups)
    used: dict[tuple[int, ...], int] = {}
    facts_of = _Writer(groups, where, used, number, {variable.literals[0]: variable for variable in derived})
    # the model's constraints, then the equalities its counts imply (which only help the search)
    for c, constraint in enumerate([*model.constraints, *implied_total(model)]):
        lines.append(" ".join(facts_of(c, constraint)))
    for members, g in used.items():
        lines.append(" ".join(_fact("group", g, lit) for lit in members))
    # the search hints: decide these first (the higher level first), true first (sign 1) or false (-1)
    hints = model.hints(counting)
    if hints:
        lines.append(" ".join(_fact("prefer", abs(lit), level, 1 if lit > 0 else -1) for lit, level in hints))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class _Writer:
    """One constraint's facts, its index ``c`` naming it; ``used`` collects the groups the sums count."""

    groups: list[tuple[int, ...]]
    where: dict[int, list[int]]
    used: dict[tuple[int, ...], int]
    number: dict[IntVar, int]
    #: an integer's first literal -> the integer, for the integers whose first value is derived (``first``)
    derived: dict[int, IntVar]

    def __call__(self, c: int, constraint: Any) -> list[str]:
        # --- a clause: its literals
        if isinstance(constraint, Clause):
            return [_fact("clause", c), *(_fact("lit", c, lit) for lit in constraint.literals)]
        if isinstance(constraint, Linear):
            return self.linear(c, constraint)
        # --- an all-different: the integers it names (their values are int_value facts)
        if isinstance(constraint, AllDifferent):
            return [_fact("differ", c, self.number[variable]) for variable in constraint.variables]
        # --- a connected set: its vertices' literals and its edges
        if isinstance(constraint, Connected):
            found = [_fact("vertex", c, i, lit) for i, lit in enumerate(constraint.vertices)]
            return found + [_fact("edge", c, a, b) for a, b in constraint.edges]
        # --- a single cycle: its vertices and its edges' literals
        if isinstance(constraint, SingleCycle):
            found = [_fact("single_cycle", c)]
            found += [_fact("cycle_vertex", c, i) for i in range(constraint.vertex_count)]
            return found + [_fact("cycle_edge", c, a, b, lit) for a, b, lit in constraint.edges]
        raise TypeError(f"{type(constraint).__name__} is not a constraint of the model")

    def linear(self, c: int, constraint: Linear) -> list[str]:
        """A linear constraint: its terms (indexed, so equal terms both count), bounds and enforcing literals.

        Two rewritings keep the ground program small, each exact in every answer set:
        * an integer whose first value is derived states its "takes one value" as "at most one of the other
          values" (the first holds when none does);
        * "not the first value" is "one of the other values" (a Hexiom cell is occupied when it holds a
          tile), and literals of an exclusive group (an at-most-one elsewhere) that appear with one weight
          are one term, "one of them holds": one atom per group, the same in every sum that counts it."""
        terms, op = list(constraint.terms), constraint.op
        first = self.derived.get(terms[0][1]) if terms else None
        own_statement = first is not None and {lit for _, lit in terms} == set(first.literals)
        if own_statement and kind_of(constraint) == "exactly_one":
            terms, op = [(1, lit) for lit in first.literals[1:]], "<="  # the first left out
            if len(terms) < 2:
                return []
        by_group: list[tuple[int, tuple[int, ...]]] = []
        if kind_of(constraint) not in ("at_most_one", "exactly_one"):  # never a group's own statement
            negated = [(w, self.derived[-lit]) for w, lit in terms if -lit in self.derived]
            terms = [(w, lit) for w, lit in terms if -lit not in self.derived]
            for w, variable in negated:
                others = variable.literals[1:]
                if len(others) == 1:
                    terms.append((w, others[0]))
                else:
                    by_group.append((w, others))
            terms, grouped_terms = grouped(terms, self.groups, self.where)
            by_group += grouped_terms
        found = [_fact("term", c, i, w, lit) for i, (w, lit) in enumerate(terms)]
        for i, (w, members) in enumerate(by_group):
            found.append(_fact("group_term", c, len(terms) + i, w, self.used.setdefault(members, len(self.used))))
        if op in ("==", ">="):
            found.append(_fact("at_least", c, constraint.bound))
        if op in ("==", "<="):
            found.append(_fact("at_most", c, constraint.bound))
        return found + [_fact("enforce", c, lit) for lit in constraint.enforce]


def decoder(model: Model) -> Callable[[Sequence[clingo.Symbol]], Any]:
    """The shown ``true(V)`` atoms of an answer set (own variables only) as the family's solution."""

    def decode(symbols: Sequence[clingo.Symbol]) -> Any:
        return model.decode(symbol.arguments[0].number for symbol in symbols)

    return decode


class Compiled(ModelCompiler):
    """The compiler as one family's translator: facts for the generic rules file."""

    BACKEND = "clingo"
    CATALOG = CATALOG

    def rules(self, variant: str, options: Options) -> list[str]:
        """The ``.lp`` files a variant loads, in order."""
        return [RULES]

    def compile(self, model: Model, variant: str, options: Options) -> AspProgram:
        hinted = bool(model.hints(options.enumerate))
        return AspProgram(
            rules=self.rules(variant, options),
            facts=facts(model, options.enumerate),
            decode=decoder(model),
            arguments=ARGUMENTS + (HINTED if hinted else ()),
            # every variable the puzzle's own: an answer set is its shown atoms, so clasp lists them plainly
            projective=set(model.own) != set(range(1, model.variables + 1)),
        )


def for_family(family: str) -> Compiled:
    return Compiled(family)
