"""What an explanation is made of: units (a model's constraints grouped by label) and facts (values of the
puzzle's own variables), each in the puzzle's words.

One label is one unit, of cost 1: "the Brit lives in the red house" is one
clue however many clauses state it, and "row 7 holds each digit once" one
rule.  A fact is a literal over an own variable: for an integer variable
"x is v" or "x is not v", for a Boolean its value.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from ..constraints import AllDifferent, Clause, Connected, Constraint, IntVar, Linear, Model, SingleCycle
from ..models.errors import shorten


@dataclass(frozen=True)
class Unit:
    """The constraints sharing one label: what a step names and what a MUS is made of."""

    label: str
    role: str
    #: indices into ``model.constraints``
    constraints: tuple[int, ...]
    #: the own variables its constraints read (a unit alone can force facts about these only)
    scope: frozenset[int]
    #: every variable of the model its constraints read, own or not (units meet through these: a Nurikabe
    #: island's size and the rule for its neighbours share no own variable, only who owns each cell)
    reads: frozenset[int] = frozenset()


def variables_of(constraint: Constraint) -> set[int]:
    """Every variable a constraint reads."""
    if isinstance(constraint, Clause):
        return {abs(lit) for lit in constraint.literals}
    if isinstance(constraint, Linear):
        return {abs(lit) for _, lit in constraint.terms} | {abs(lit) for lit in constraint.enforce}
    if isinstance(constraint, AllDifferent):
        return {abs(lit) for variable in constraint.variables for lit in variable.literals}
    if isinstance(constraint, Connected):
        return {abs(lit) for lit in constraint.vertices}
    if isinstance(constraint, SingleCycle):
        return {abs(lit) for _, _, lit in constraint.edges}
    raise TypeError(f"{type(constraint).__name__} is not a constraint of the model")


def units_of(model: Model) -> tuple[Unit, ...]:
    """The model's units, in the order their labels first appear."""
    members: dict[str, list[int]] = {}
    roles: dict[str, str] = {}
    for index, constraint in enumerate(model.constraints):
        members.setdefault(constraint.label, []).append(index)
        roles.setdefault(constraint.label, constraint.role)
    own = frozenset(model.own)
    found = []
    for label, indices in members.items():
        scope: set[int] = set()
        for index in indices:
            scope |= variables_of(model.constraints[index])
        found.append(Unit(label, roles[label], tuple(indices), frozenset(scope) & own, frozenset(scope)))
    return tuple(found)


class Words:
    """Facts in the puzzle's words: "position of the Brit is 3", "the cell at row 2, place 1 is not 4"."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.value_of: dict[int, tuple[IntVar, int]] = {}
        for variable in model.ints:
            for value, literal in zip(variable.values, variable.literals):
                self.value_of[literal] = (variable, value)

    def fact(self, literal: int) -> str:
        """The fact as the family says it (``Model.say``), else from the name of its variable (``Model.named``,
        else its key): "<name> is <value>", "<name> holds"."""
        var = abs(literal)
        said = self.model.sayings.get(var)
        if said is not None:
            return said[0] if literal > 0 else said[1]
        if var in self.value_of:
            variable, value = self.value_of[var]
            return f"{self.name(variable.key)} {'is' if literal > 0 else 'is not'} {value}"
        key = self.model.keys[var - 1]
        return f"{self.name(key)} {'holds' if literal > 0 else 'does not hold'}"

    def name(self, key: Hashable) -> str:
        return self.model.names.get(key) or key_text(key)

    def variable(self, literal: int) -> str:
        """The name of the variable a fact is about (an integer's, for one of its values)."""
        var = abs(literal)
        if var in self.value_of:
            return self.name(self.value_of[var][0].key)
        key = self.model.keys[var - 1]
        if key not in self.model.names and var in self.model.sayings:
            return self.model.sayings[var][0]
        return self.name(key)

    def facts(self, literals: Iterable[int]) -> list[str]:
        return [self.fact(lit) for lit in literals]


def key_text(key: Hashable) -> str:
    """A variable's key as words: ("position", "the Brit") -> "position of the Brit"."""
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str):
        return f"{key[0]} of {key_text(key[1])}"
    if isinstance(key, tuple):
        return " ".join(key_text(part) for part in key)
    return shorten(key, 80)


def own_literals(model: Model, true: Iterable[int]) -> frozenset[int]:
    """Every own variable's literal under an assignment given by its true variables."""
    on = set(true)
    return frozenset(v if v in on else -v for v in model.own)


def domain_facts(model: Model) -> Mapping[int, IntVar]:
    """Own literal variable -> the integer it is a value of (for integers made of own variables)."""
    return {lit: variable for variable in model.ints for lit in variable.literals if lit in set(model.own)}
