"""A constraint model made only of exactly-one and at-most-one constraints over Booleans, as exact cover.

An option is "this variable is true"; a cover is the set of true variables.
Items, one block per kind of constraint:

* exactly one of several literals: a primary item their options cover;
* at most one: a secondary item;
* exactly k (k > 1): k primary items, one per copy, each option offered to
  every copy; copies are kept in the order of their literals (secondary
  items ``c<i>o<t>x<a>``: copy t at the a-th literal takes those with
  x <= a, copy t + 1 at the b-th those with x >= b; they clash unless
  a < b), so that each choice of k literals is one cover, not k! of them;
  exactly 0 drops its literals' options;
* a unit clause: a positive literal is a primary item only its options
  cover (it must be chosen); a negative one drops the variable's options;
* all-different: an item per value, taken by the literal of each integer
  that has the value; primary when there are as many values as integers
  (each value is then taken exactly once), else secondary.  Each integer
  takes exactly one value: the model's own exactly-one says so (restated
  as an item when it is missing).

Algorithm C chooses options only to cover primary items.  A variable no
primary item names would be false in every cover: an own one gets a
primary item of its own with a second option, "it is false" (so each such
variable doubles the count, as it should); any other is left false, which
breaks no at-most-one.  Other kinds of constraint (clauses, sums, graphs)
are not exact cover: the registry leaves this compiler out of any family
whose model uses them, and ``trisolve backends`` says why.

When the model has variables beyond its own, two covers may give the same
solution; ``solutions_of`` keeps the first and drops the others (a count
projects on the own variables).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from ...constraints import AllDifferent, Clause, Linear, Model, UnsupportedConstraint, kind_of
from ..base import Options
from ..catalog import Catalog, ModelCompiler
from .engine import Cover, ExactCover

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "the family's constraint model as exact cover: an option per true variable; exactly-one a primary "
        "item, at-most-one a secondary one, exactly-k ordered copies, all-different an item per value; Algorithm C",
    },
    symmetry_breaking=False,
    generic="constraints",
    supports=("unit", "exactly_one", "at_most_one", "exactly_k", "all_different"),
)


class _Compiler:
    """Items per variable, gathered constraint by constraint; options made from them at the end."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.primary: list[str] = []
        self.secondary: list[str] = []
        #: variable -> the items its option covers (whatever copy it takes)
        self.items: dict[int, list[str]] = {v: [] for v in range(1, model.variables + 1)}
        #: variable -> per exactly-k constraint it is in, the item lists of its copies (one is taken)
        self.copies: dict[int, list[list[list[str]]]] = {v: [] for v in self.items}
        #: variables that cannot be true
        self.false: set[int] = set()
        #: the primary items already made, by the literals that cover them (an integer's exactly-one once)
        self.made: dict[tuple[int, ...], str] = {}
        self.notes: list[str] = []
        #: variable -> the index of the first exactly-one constraint of the model that names it
        self.first_exactly_one: dict[int, int] = {}
        for c, constraint in enumerate(model.constraints):
            if isinstance(constraint, Linear) and kind_of(constraint) == "exactly_one":
                for _, v in constraint.terms:
                    self.first_exactly_one.setdefault(v, c)

    def positive(self, literals: Sequence[int], constraint: Any) -> list[int]:
        if any(lit < 0 for lit in literals):
            raise UnsupportedConstraint(
                f"exactcover:compiled takes positive literals only ({self.model.name}: constraint {constraint!r})"
            )
        return list(literals)

    def item(self, name: str, literals: Sequence[int], primary: bool) -> None:
        """An item covered by the options of ``literals`` (a variable named twice cannot be true: it would
        cover the item twice)."""
        (self.primary if primary else self.secondary).append(name)
        if primary:
            self.made.setdefault(tuple(sorted(literals)), name)
        for v in set(literals):
            if literals.count(v) > 1:
                self.false.add(v)
            self.items[v].append(name)

    # ------------------------------------------------------------------ the kinds

    def unit(self, c: int, constraint: Clause) -> None:
        # --- a positive literal must be chosen; a negative one never is
        (literal,) = constraint.literals
        if literal < 0:
            self.false.add(-literal)
        else:
            self.item(f"c{c}", [literal], primary=True)

    def linear(self, c: int, constraint: Linear) -> None:
        kind = kind_of(constraint)
        literals = self.positive([lit for _, lit in constraint.terms], c)
        # --- exactly one: a primary item; at most one: a secondary item
        if kind in ("exactly_one", "at_most_one"):
            self.item(f"c{c}", literals, primary=kind == "exactly_one")
            return
        # --- exactly k: none of them, or k copies in the order of their literals
        if constraint.bound <= 0:
            self.false.update(literals)
            if constraint.bound < 0:
                self.item(f"c{c}", [], primary=True)  # no cover at all
            return
        if len(set(literals)) != len(literals):
            raise UnsupportedConstraint(
                f"exactcover:compiled: {self.model.name}: constraint {c} names a variable twice in an exactly-k"
            )
        k = constraint.bound
        if k > len(literals):
            self.item(f"c{c}", [], primary=True)  # fewer literals than copies: no cover at all
            return
        # copies in order of each literal's anchor: its first exactly-one in the model (a placement's first
        # cell), so that the search, which covers those items first, meets the copies in order too; two
        # literals with one anchor exclude each other already, so their clash costs nothing
        rank = {key: x for x, key in enumerate(sorted({self.anchor(v) for v in literals}))}
        m = len(rank)
        self.primary.extend(f"c{c}k{t}" for t in range(k))
        self.secondary.extend(f"c{c}o{t}x{x}" for t in range(k - 1) for x in range(m))
        for v in literals:
            a = rank[self.anchor(v)]
            ways = []
            for t in range(k):
                taken = [f"c{c}k{t}"]
                if t > 0:  # after copy t - 1: the order items x >= a
                    taken += [f"c{c}o{t - 1}x{x}" for x in range(a, m)]
                if t < k - 1:  # before copy t + 1: the order items x <= a
                    taken += [f"c{c}o{t}x{x}" for x in range(a + 1)]
                ways.append(taken)
            self.copies[v].append(ways)
        self.notes.append(f"c{c}k0..c{c}k{k - 1}: constraint {c} chooses exactly {k}, copies in order of anchors")

    def anchor(self, variable: int) -> tuple[int, int]:
        """Where a variable's copies are ordered: the first exactly-one of the model that names it (two
        variables with one anchor are never both true), else after all of them, by the variable's number."""
        first = self.first_exactly_one.get(variable)
        return (first, 0) if first is not None else (len(self.model.constraints), variable)

    def all_different(self, c: int, constraint: AllDifferent) -> None:
        # --- each integer takes one value: its exactly-one item (made once, if the model has none over the same)
        for i, variable in enumerate(constraint.variables):
            literals = self.positive(list(variable.literals), c)
            if tuple(sorted(literals)) not in self.made:
                self.item(f"c{c}i{i}", literals, primary=True)
        # --- no value twice: an item per value, primary when every value must be taken
        values = sorted({value for variable in constraint.variables for value in variable.values})
        every = len(values) == len(constraint.variables)
        for j, value in enumerate(values):
            holders = [
                lit
                for variable in constraint.variables
                for v, lit in zip(variable.values, variable.literals)
                if v == value
            ]
            self.item(f"c{c}v{j}", holders, primary=every)

    # ------------------------------------------------------------------ options

    def problem(self) -> ExactCover:
        model = self.model
        own = set(model.own)
        in_primary = set(self.primary)
        options: list[tuple[str, ...]] = []
        meaning: list[int | None] = []  # the variable an option makes true (None: an own variable left false)
        for v in range(1, model.variables + 1):
            if v in self.false:
                continue
            choices = list(self.copies[v])
            reaches = any(item in in_primary for item in self.items[v]) or bool(choices)
            if not reaches:
                if v not in own:
                    continue  # only at-most-one items name it: false is always allowed, and it is not counted
                # --- an own variable no primary item names: a choice of its own, true or false
                self.primary.append(f"f{v}")
                self.items[v].append(f"f{v}")
                options.append((f"f{v}",))
                meaning.append(None)
            for picked in product(*choices):
                options.append(tuple(self.items[v]) + tuple(item for way in picked for item in way))
                meaning.append(v)
        if not self.primary:
            # --- nothing to cover: the one cover is the empty one (Algorithm C needs an item to start)
            self.primary.append("nothing")
            options.append(("nothing",))
            meaning.append(None)
        exact = len(own) == model.variables
        seen: set[frozenset[int]] = set()

        def solutions_of(cover: Cover) -> Sequence[Any]:
            true = frozenset(v for i in cover if (v := meaning[i]) is not None and v in own)
            if not exact:
                if true in seen:
                    return ()  # another cover of the same solution: its other variables differ
                seen.add(true)
            return (model.decode(true),)

        notes = (
            "items c<i>: constraint i (in the model's order); f<v>: own variable v, free; "
            "an option makes one variable true",
            *self.notes,
        )
        return ExactCover(tuple(self.primary), tuple(self.secondary), tuple(options), solutions_of, notes)


def encode(model: Model) -> ExactCover:
    """The constraint model as exact cover (see the module docstring)."""
    compiler = _Compiler(model)
    for c, constraint in enumerate(model.constraints):
        if isinstance(constraint, Clause):
            compiler.unit(c, constraint)
        elif isinstance(constraint, Linear):
            compiler.linear(c, constraint)
        elif isinstance(constraint, AllDifferent):
            compiler.all_different(c, constraint)
    return compiler.problem()


class Compiled(ModelCompiler):
    """The compiler as one family's translator: an exact cover problem."""

    BACKEND = "exactcover"
    CATALOG = CATALOG

    def compile(self, model: Model, variant: str, options: Options) -> ExactCover:
        return encode(model)


def for_family(family: str) -> Compiled:
    return Compiled(family)
