"""What every compiler of constraint models needs besides its own paradigm: the model of a level, its kinds
checked against what the compiler takes, and the integer variables its all-different constraints name.

The compilers live in their backends' folders (``backends/<name>/compiled.py``); this module imports no
solver and knows no backend.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..models.errors import shorten
from .model import AllDifferent, IntVar, Linear, Model, ModelError, UnsupportedConstraint, kind_of


def model_of(family: str, level: Any, supports: Iterable[str], compiler: str) -> Model:
    """The family's constraint model of ``level``, checked (``Model.freeze``) and refused with a clear error
    when it uses a kind of constraint ``compiler`` does not take (the registry should have left it out)."""
    from ..models import FAMILIES

    record = FAMILIES.get(family)
    if record is None or record.constraints is None:
        raise ModelError(f"{family} has no constraint model for {compiler} to compile")
    model = record.constraints(level)
    if not isinstance(model, Model):
        raise ModelError(f"{family}: its constraints(level) gave a {type(model).__name__}, not a constraint Model")
    model.freeze()
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
    """The integer variables the model's all-different constraints name, each once, in order of first use."""
    found: dict[IntVar, None] = {}
    for constraint in model.constraints:
        if isinstance(constraint, AllDifferent):
            found.update(dict.fromkeys(constraint.variables))
    return list(found)


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


def channelled_equalities(model: Model, groups: Sequence[tuple[int, ...]]) -> list[tuple[tuple[int, ...], Linear]]:
    """Equalities the model implies by channelling: where literals l of one exclusive group each enforce
    alone ``sum(S) == b_l`` over the same terms S, then ``sum(S) == sum(b_l * l)`` whenever one of them
    holds.  Returned as (those literals, that equality with the value terms moved left), for a compiler to
    add (they change no solution): a Hexiom cell's "a tile d has d occupied neighbours", one per d, becomes
    "its number is its count of occupied neighbours", the rule as a person states it, which solvers with a
    linear relaxation use far better."""
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
                    terms = (*key, *((-bounds[m], m) for m in members))
                    found.append((members, Linear(terms=terms, op="==", bound=0, label="implied by channelling")))
    return found
