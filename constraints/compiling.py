"""What every compiler of constraint models needs besides its own paradigm: the model of a level, its kinds
checked against what the compiler takes, and the integer variables its all-different constraints name.

The compilers live in their backends' folders (``backends/<name>/compiled.py``); this module imports no
solver and knows no backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..models.errors import shorten
from . import graphs
from .model import (
    AllDifferent,
    Connected,
    Constraint,
    IntVar,
    Linear,
    Model,
    ModelError,
    UnsupportedConstraint,
    kind_of,
)


def model_of(
    family: str,
    level: Any,
    supports: Iterable[str],
    compiler: str,
    prepare: Callable[[Model], Model] = lambda model: model,
) -> Model:
    """The family's constraint model of ``level``, checked (``Model.freeze``), then ``prepare``d (a compiler
    passes ``mutation.apply_to_model``, so that ``trisolve mutate`` breaks the rules stated once), and refused
    with a clear error when it uses a kind of constraint ``compiler`` does not take (the registry should have
    left it out; a mutated bound may make one)."""
    from ..models import FAMILIES

    record = FAMILIES.get(family)
    if record is None or record.constraints is None:
        raise ModelError(f"{family} has no constraint model for {compiler} to compile")
    model = record.constraints(level)
    if not isinstance(model, Model):
        raise ModelError(f"{family}: its constraints(level) gave a {type(model).__name__}, not a constraint Model")
    model = prepare(model.freeze())
    taken = set(supports)
    for constraint in model.constraints:
        kind = kind_of(constraint)
        if kind not in taken:
            raise UnsupportedConstraint(
                f"{compiler} cannot compile {kind} constraints ({model.name}: {shorten(constraint.label, 120)!r}); "
                f"it takes {', '.join(sorted(taken))}"
            )
    return model


def integers(model: Model) -> list[IntVar]:
    """The model's integer variables, and any others its all-different constraints name, each once, in order."""
    found: dict[IntVar, None] = dict.fromkeys(model.ints)
    for constraint in model.constraints:
        if isinstance(constraint, AllDifferent):
            found.update(dict.fromkeys(constraint.variables))
    return list(found)


def stated_once(model: Model) -> list[IntVar]:
    """The integers whose "takes one value" the model states as an exactly-one over their literals (as
    ``Model.integer`` does): for those, a compiler may derive one value's literal from the others (it holds
    when none of them does) instead of choosing it."""
    stated = {
        frozenset(lit for _, lit in c.terms)
        for c in model.constraints
        if isinstance(c, Linear) and kind_of(c) == "exactly_one"
    }
    return [
        variable
        for variable in integers(model)
        if len(set(variable.literals)) == len(variable.literals) > 1 and frozenset(variable.literals) in stated
    ]


def constant_true_count(model: Model) -> bool:
    """Whether every solution makes equally many own variables true, because the model's plain counts
    ("exactly k of these", not enforced, positive literals) split the own variables into disjoint parts
    (Hexiom's cells, each taking one value; sigils' pieces, each placed so many times).  Then no solution's
    true own variables are a strict part of another's, and one is excluded by negating them alone: a
    blocking clause as long as a solution's true variables, not as the projection.  False when no such split
    is found (the long clause is always exact)."""
    own = set(model.own)
    covered: set[int] = set()
    for constraint in model.constraints:
        if isinstance(constraint, Linear) and kind_of(constraint) in ("exactly_one", "exactly_k"):
            literals = {lit for _, lit in constraint.terms}
            if len(literals) == len(constraint.terms) and literals <= own and not literals & covered:
                covered |= literals
    return covered == own


def exclusive_groups(model: Model) -> list[tuple[int, ...]]:
    """The literal sets of which at most one is true, as the model states them (its at-most-one and
    exactly-one constraints, not enforced), each once, in order."""
    found: dict[tuple[int, ...], None] = {}
    for constraint in model.constraints:
        if isinstance(constraint, Linear) and kind_of(constraint) in ("at_most_one", "exactly_one"):
            literals = tuple(lit for _, lit in constraint.terms)
            if len(literals) > 1 and len(set(literals)) == len(literals):
                found.setdefault(literals, None)
    return list(found)


def grouped(
    terms: Sequence[tuple[int, int]], groups: Sequence[tuple[int, ...]], where: Mapping[int, Sequence[int]]
) -> tuple[list[tuple[int, int]], list[tuple[int, tuple[int, ...]]]]:
    """A weighted sum's terms split into (weight, literal) terms and (weight, literals) terms: two or more
    literals of one exclusive group that appear in the sum with one weight count as one term, that weight
    times "one of these literals holds" (at most one does, so the sum is the same).  ``where`` maps a
    literal to the groups that hold it (``group_index``).  A solver then sees fewer, stronger terms: a
    Hexiom cell's tiles become "the cell is occupied"."""
    weight_of: dict[int, int] = {}
    for weight, literal in terms:
        if literal in weight_of:
            return list(terms), []  # a literal counted twice: leave the sum as written
        weight_of[literal] = weight
    taken: set[int] = set()
    by_group: list[tuple[int, tuple[int, ...]]] = []
    for weight, literal in terms:
        if literal in taken:
            continue
        for g in where.get(literal, ()):
            members = tuple(m for m in groups[g] if weight_of.get(m) == weight and m not in taken)
            if len(members) > 1:
                by_group.append((weight, members))
                taken.update(members)
                break
    return [(w, lit) for w, lit in terms if lit not in taken], by_group


def group_index(groups: Sequence[tuple[int, ...]]) -> dict[int, list[int]]:
    """Literal -> the indices of the groups that hold it (for ``grouped``)."""
    where: dict[int, list[int]] = {}
    for g, members in enumerate(groups):
        for literal in members:
            where.setdefault(literal, []).append(g)
    return where


def forced(model: Model) -> dict[int, bool]:
    """Variables whose value every solution shares, found by propagating the model's unit clauses through
    its plain counts (exactly-one, at-most-one, exactly-k: a count reached leaves the rest false, a count
    that needs every literal left makes them true), to a fixpoint.  A compiler may leave them out of the
    search (ASP: no choice for them).  A contradiction fixes nothing more: the solver proves it."""
    value: dict[int, bool] = {}

    def holds(literal: int) -> bool | None:
        known = value.get(abs(literal))
        return None if known is None else known == (literal > 0)

    def fix(literal: int) -> bool:
        """Make ``literal`` true; False when it is already false (a contradiction)."""
        known = holds(literal)
        if known is None:
            value[abs(literal)] = literal > 0
        return known is not False

    counts = [
        (tuple(lit for _, lit in c.terms), c.bound, c.op)
        for c in model.constraints
        if isinstance(c, Linear) and kind_of(c) in ("exactly_one", "at_most_one", "exactly_k")
    ]
    units = [c.literals[0] for c in model.constraints if kind_of(c) == "unit"]
    if not all(fix(literal) for literal in units):
        return {}
    changed = True
    while changed:
        changed = False
        for literals, bound, op in counts:
            if len(set(literals)) != len(literals):
                continue  # a literal counted twice: left to the solver
            true = sum(1 for lit in literals if holds(lit) is True)
            open_ = [lit for lit in literals if holds(lit) is None]
            if not open_:
                continue
            if true == bound:
                fixed = [-lit for lit in open_]
            elif op == "==" and true + len(open_) == bound:
                fixed = open_
            else:
                continue
            if not all(fix(lit) for lit in fixed):
                return {}
            changed = True
    return value


#: Pockets stated for an anchored connected set: sets of up to this many vertices ...
POCKET_SIZE = 3
#: ... fenced off by at most this many vertices.
POCKET_FENCE = 3


@dataclass(frozen=True)
class Anchor:
    """Where a connected set is rooted when the model forces some of its vertices chosen (``anchored``).

    ``root`` is the forced vertex fewest edges from the farthest vertex it reaches (a flow or a distance from it
    is shortest), ``hops`` each vertex's number of edges from it (None: out of its reach, so never chosen),
    ``pockets`` small vertex sets with a small fence (``graphs.anchored_separations``): a chosen vertex inside
    one means a chosen vertex on its fence, on the way to the root."""

    root: int
    hops: tuple[int | None, ...]
    pockets: tuple[graphs.Pocket, ...]

    @property
    def unreachable(self) -> list[int]:
        return [v for v, h in enumerate(self.hops) if h is None]


def forced_true(fixed: Mapping[int, bool], literals: Sequence[int]) -> list[int]:
    """The indices of ``literals`` that hold in every solution, by ``forced``'s values."""
    return [i for i, lit in enumerate(literals) if fixed.get(abs(lit)) is (lit > 0)]


def anchored(
    fixed: Mapping[int, bool], constraint: Connected, size: int = POCKET_SIZE, fence: int = POCKET_FENCE
) -> Anchor | None:
    """The connected set's anchor when ``fixed`` (``forced(model)``) makes one of its vertices chosen in every
    solution, else None (a compiler then roots it at the least chosen vertex, a choice it must search)."""
    known = forced_true(fixed, constraint.vertices)
    if not known:
        return None
    neighbours = graphs.adjacency(len(constraint.vertices), constraint.edges)
    root = graphs.central(neighbours, known)
    assert root is not None
    pockets = graphs.anchored_separations(neighbours, root, size, fence, known) if size > 0 else []
    return Anchor(root, tuple(graphs.hops(neighbours, root)), tuple(pockets))


@dataclass(frozen=True)
class Channel:
    """An equality channelling implies (``channelled_equalities``): when one of ``members`` (exclusive
    literals) holds, ``sum(weight * literal for weight, literal in terms)`` equals ``values[m]`` for the
    member m that holds."""

    members: tuple[int, ...]
    terms: tuple[tuple[int, int], ...]
    values: Mapping[int, int]

    def equality(self) -> Linear:
        """The channel as one equality over literals: the sum less ``value * member`` for each member is 0."""
        terms = (*self.terms, *((-self.values[m], m) for m in self.members))
        return Linear(terms=terms, op="==", bound=0, label="implied by channelling")


def gathered(channels: Sequence[Channel]) -> Callable[[Constraint], bool]:
    """Whether one of ``channels`` states a constraint (an enforced equality it gathers): a compiler that adds
    the channels may leave such constraints out."""
    keys = {(channel.terms, member) for channel in channels for member in channel.members}

    def states(constraint: Constraint) -> bool:
        if not (isinstance(constraint, Linear) and constraint.op == "==" and len(constraint.enforce) == 1):
            return False
        return (tuple(sorted(constraint.terms)), constraint.enforce[0]) in keys

    return states


def channelled_equalities(model: Model, groups: Sequence[tuple[int, ...]]) -> list[Channel]:
    """Equalities the model implies by channelling: where literals l of one exclusive group each enforce
    alone ``sum(S) == b_l`` over the same terms S, then ``sum(S) == sum(b_l * l)`` whenever one of them
    holds.  A compiler may add them (they change no solution): a Hexiom cell's "a tile d has d occupied
    neighbours", one per d, becomes "its number is its count of occupied neighbours", the rule as a person
    states it, which solvers with a linear relaxation use far better."""
    by_terms: dict[tuple, dict[int, int]] = {}
    for constraint in model.constraints:
        if isinstance(constraint, Linear) and constraint.op == "==" and len(constraint.enforce) == 1:
            key = tuple(sorted(constraint.terms))
            by_terms.setdefault(key, {})[constraint.enforce[0]] = constraint.bound
    where = group_index(groups)
    found = []
    for key, bounds in by_terms.items():
        seen: set[int] = set()
        for literal in bounds:
            for g in where.get(literal, ()):
                members = tuple(m for m in groups[g] if m in bounds and m not in seen)
                if len(members) > 1:
                    seen.update(members)
                    found.append(Channel(members, key, {m: bounds[m] for m in members}))
    return found


def implied_total(model: Model) -> list[Linear]:
    """An equality the model's counts imply, for compilers whose search profits from it (it changes no
    solution): where the model counts values of its integers -- exactly k_i of the literals L_i, over
    pairwise disjoint sets of integer literals, none an integer's own "takes one value" -- as many
    integers take a value in the union of the L_i as the k_i add up to.  Hexiom's tile counts imply "as
    many occupied cells as tiles", which the hand-written encodings state for the same reason.  None when
    the counts overlap, or there are fewer than two."""
    owner: dict[int, IntVar] = {}
    for variable in model.ints:
        owner.update(dict.fromkeys(variable.literals, variable))
    own_statements = {frozenset(variable.literals) for variable in model.ints}
    counts = []
    for c in model.constraints:
        if not (isinstance(c, Linear) and kind_of(c) in ("exactly_one", "exactly_k") and c.terms):
            continue
        literals = [lit for _, lit in c.terms]
        if frozenset(literals) in own_statements or not all(lit in owner for lit in literals):
            continue
        counts.append((literals, c.bound))
    union = [lit for literals, _ in counts for lit in literals]
    if len(counts) < 2 or len(set(union)) != len(union):
        return []
    chosen = set(union)
    terms: list[tuple[int, int]] = []
    total = sum(bound for _, bound in counts)
    for variable in dict.fromkeys(owner[lit] for lit in union):
        inside = [lit for lit in variable.literals if lit in chosen]
        outside = [lit for lit in variable.literals if lit not in chosen]
        if not outside:
            total -= 1  # it always takes a value among them
        elif len(outside) == 1:
            terms.append((1, -outside[0]))  # it takes one of them when it does not take the one left
        else:
            terms.extend((1, lit) for lit in inside)
    found = [Linear(terms=tuple(terms), op="==", bound=total, label="implied by the counts")]
    stated = {
        (frozenset(c.terms), c.bound)
        for c in model.constraints
        if isinstance(c, Linear) and c.op == "==" and not c.enforce
    }
    return [c for c in found if (frozenset(c.terms), c.bound) not in stated]  # what the model states already
