"""The constraint model: a puzzle's rules stated once, in the puzzle's words, for every paradigm to compile.

A family's ``constraints(level)`` builds a ``Model``: Boolean variables (and
small-domain integers made of them), constraints over them, each with a
label that names the clue or rule it comes from, the variables that are the
puzzle's own (the projection: solutions are counted on these only) and a
decoder from their values back to the family's ``Solution``.

Variables are numbered 1, 2, ...; a *literal* is a variable's number, or its
negation.  That is DIMACS's convention, so the CNF compiler adds nothing,
and every other compiler reads the same small set of records:

* ``Clause``: at least one of its literals is true;
* ``Linear``: a weighted sum of literals compared with a bound, optionally
  enforced by literals (it must hold only when all of them are true, as
  CP-SAT's ``only_enforce_if``);
* ``AllDifferent``: integer variables take pairwise different values;
* ``Connected``: the chosen vertices of a graph form one connected set
  (no vertex chosen counts as connected);
* ``SingleCycle``: the chosen edges of a graph form exactly one cycle
  (at least one edge; every vertex on it has two chosen edges, every other
  vertex none).

``semantics.py`` says what each one means in plain Python (the referee of
the compilers' tests and of lazy cuts); nothing here imports a solver.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..models.errors import UsageError, shorten

#: What a constraint is for, as the explanations and error messages name it.
ROLES: tuple[str, ...] = ("rule", "clue", "given")
#: Comparisons a ``Linear`` may make.
OPERATORS: tuple[str, ...] = ("==", "<=", ">=")
#: Every kind of constraint a compiler may be asked for (``kind_of``); a compiler declares the ones it takes.
KINDS: tuple[str, ...] = (
    "unit",  # a clause of one literal: a given, a locked tile
    "clause",  # at least one of several literals
    "exactly_one",  # exactly one of several positive literals, not enforced
    "at_most_one",  # at most one of several positive literals, not enforced
    "exactly_k",  # exactly k (not 1) of several positive literals, not enforced: a piece placed k times
    "cardinality",  # any other linear constraint whose weights are all 1 (enforced or not)
    "linear",  # a weighted sum
    "all_different",
    "connected",
    "single_cycle",
)


class ModelError(UsageError):
    """A constraint model that cannot be compiled as written: the message names the constraint's label."""


class UnsupportedConstraint(UsageError):
    """A compiler was handed a kind of constraint it cannot express (the registry should have left it out)."""


@dataclass(frozen=True)
class IntVar:
    """A small-domain integer: one Boolean per value (``eq(v)``), exactly one of them true.

    The model states that exactly-one as a ``Linear`` labelled with the
    variable's name, so every compiler sees it; a compiler with native
    integers (CP-SAT) may also build the integer from the literals."""

    key: Hashable
    values: tuple[int, ...]
    literals: tuple[int, ...]

    def eq(self, value: int) -> int:
        """The literal 'this variable takes ``value``'."""
        try:
            return self.literals[self.values.index(value)]
        except ValueError:
            raise ModelError(f"{shorten(self.key)} has no value {value} (its domain: {self.values})") from None


@dataclass(frozen=True)
class Preference:
    """A search hint (``Model.prefer``): which literals to decide first, in which order, each tried true first.

    It changes no solution, only the order a solver may search in; a compiler that has no way to say it leaves
    it out."""

    #: the literals, each to be tried true first (a negative one: its variable tried false first)
    literals: tuple[int, ...]
    #: one per literal: higher ranks are decided first, a rank's literals in the order the solver likes; None:
    #: all of rank 0, decided in the order given
    ranks: tuple[int, ...] | None = None
    #: a hint for counting and listing only (a first solution searches as the solver's defaults do)
    counting: bool = False


@dataclass(frozen=True, kw_only=True)
class Constraint:
    """What every constraint carries: the words a person reads, and what it stands for."""

    #: the clue or rule in the puzzle's words: "the 3 at row 2, column 5", "row 7 holds each digit once"
    label: str
    #: "rule" (the puzzle's rules), "clue" (a number or hint of this instance), "given" (a fixed cell or tile)
    role: str = "rule"


@dataclass(frozen=True, kw_only=True)
class Clause(Constraint):
    literals: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Linear(Constraint):
    """``sum(weight * literal) <op> bound``, a literal counting 1 when true; only when every ``enforce``
    literal is true (none: always)."""

    terms: tuple[tuple[int, int], ...]  # (weight, literal)
    op: str
    bound: int
    enforce: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class AllDifferent(Constraint):
    variables: tuple[IntVar, ...]


@dataclass(frozen=True, kw_only=True)
class Connected(Constraint):
    """Vertex ``i`` is chosen when ``vertices[i]`` is true; ``edges`` are pairs of vertex indices."""

    vertices: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True)
class SingleCycle(Constraint):
    """``edges`` are (vertex, vertex, literal) over vertices ``0 .. vertex_count - 1``; an edge is chosen when
    its literal is true."""

    vertex_count: int
    edges: tuple[tuple[int, int, int], ...]


def kind_of(constraint: Constraint) -> str:
    """The constraint's kind, as ``KINDS`` lists them (what a compiler declares it can take)."""
    if isinstance(constraint, Clause):
        return "unit" if len(constraint.literals) == 1 else "clause"
    if isinstance(constraint, Linear):
        if any(weight != 1 for weight, _ in constraint.terms):
            return "linear"
        plain = not constraint.enforce and constraint.bound == 1 and all(lit > 0 for _, lit in constraint.terms)
        if plain and constraint.op == "==":
            return "exactly_one"
        if plain and constraint.op == "<=":
            return "at_most_one"
        if not constraint.enforce and constraint.op == "==" and all(lit > 0 for _, lit in constraint.terms):
            return "exactly_k"
        return "cardinality"
    if isinstance(constraint, AllDifferent):
        return "all_different"
    if isinstance(constraint, Connected):
        return "connected"
    if isinstance(constraint, SingleCycle):
        return "single_cycle"
    raise ModelError(f"{type(constraint).__name__} is not a constraint of the model")


class KindCompiler(Protocol):
    """A compiler with a method per kind of constraint (cpsat's, mip's), which ``state`` calls."""

    def clause(self, constraint: Clause) -> None: ...

    def linear(self, constraint: Linear) -> None: ...

    def all_different(self, constraint: AllDifferent) -> None: ...

    def connected(self, constraint: Connected, index: int) -> None: ...

    def single_cycle(self, constraint: SingleCycle, index: int) -> None: ...


def state(compiler: KindCompiler, constraint: Constraint, index: int) -> None:
    """``constraint``, the model's ``index``-th, stated by ``compiler``'s method for its kind; a connected set and
    a single cycle get the index too (to name what they add)."""
    if isinstance(constraint, Clause):
        compiler.clause(constraint)
    elif isinstance(constraint, Linear):
        compiler.linear(constraint)
    elif isinstance(constraint, AllDifferent):
        compiler.all_different(constraint)
    elif isinstance(constraint, Connected):
        compiler.connected(constraint, index)
    elif isinstance(constraint, SingleCycle):
        compiler.single_cycle(constraint, index)


class Assignment:
    """The values of the model's own variables in one solution, as a decoder reads them."""

    def __init__(self, true: frozenset[int], own: frozenset[int]) -> None:
        self.true = true
        self._own = own

    def __getitem__(self, literal: int) -> bool:
        var = abs(literal)
        if var not in self._own:
            raise ModelError(f"variable {var} is not one of the puzzle's own: a decoder reads only those")
        return (var in self.true) == (literal > 0)

    def value(self, variable: IntVar) -> int:
        """The value an integer variable takes."""
        chosen = [v for v, lit in zip(variable.values, variable.literals) if self[lit]]
        if len(chosen) != 1:
            raise ModelError(f"{shorten(variable.key)} takes {len(chosen)} values in a solution, not one")
        return chosen[0]


@dataclass
class Model:
    """A puzzle's constraint model, built by its family's ``constraints(level)``.

    Build it with the methods below; ``freeze()`` (the compilers call it)
    checks it once and then refuses changes."""

    name: str = "model"
    #: variable number - 1 -> the key it was made with, in the puzzle's words: ("edge", (0, 1), (0, 2))
    keys: list[Hashable] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    #: the puzzle's own variables (a solution is their values; counts project on them)
    own: list[int] = field(default_factory=list)
    ints: list[IntVar] = field(default_factory=list)
    decoder: Callable[[Assignment], Any] | None = None
    #: permutations of the own variables that map every solution to a solution (a turn of the board), each as
    #: {own variable: its image}; a compiler may search among lex-leaders for a first solution
    symmetries: list[Mapping[int, int]] = field(default_factory=list)
    #: a variable's (or an integer's) name in the puzzle's words, by key: "the cell at row 2, place 1"
    names: dict[Hashable, str] = field(default_factory=dict)
    #: variable -> how its two facts read, true and false: ("the cell at row 1, column 2 is shaded", "... unshaded")
    sayings: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: search hints: which literals a solver should decide first (``prefer``)
    preferences: list[Preference] = field(default_factory=list)
    _index: dict[Hashable, int] = field(default_factory=dict, repr=False)
    _frozen: bool = field(default=False, repr=False)

    # ------------------------------------------------------------------ variables

    def boolean(self, key: Hashable, *, own: bool = False) -> int:
        """A new Boolean variable named ``key`` (unique in the model); ``own``: one of the puzzle's own."""
        self._open()
        if key in self._index:
            raise ModelError(f"{self.name}: two variables are named {shorten(key)}")
        self.keys.append(key)
        var = len(self.keys)
        self._index[key] = var
        if own:
            self.own.append(var)
        return var

    def integer(self, key: Hashable, values: Iterable[int], *, own: bool = False, label: str | None = None) -> IntVar:
        """A new integer variable taking one of ``values``: a Boolean per value, exactly one of them true
        (stated as a rule labelled ``label``, by default "<key> takes one value")."""
        domain = tuple(dict.fromkeys(int(v) for v in values))
        if not domain:
            raise ModelError(f"{self.name}: {shorten(key)} has an empty domain")
        literals = tuple(self.boolean((key, value), own=own) for value in domain)
        variable = IntVar(key, domain, literals)
        self.ints.append(variable)
        self.exactly(1, literals, label=label or f"{shorten(key)} takes one value")
        return variable

    def var(self, key: Hashable) -> int:
        """The variable made with ``key``."""
        try:
            return self._index[key]
        except KeyError:
            raise ModelError(f"{self.name}: no variable is named {shorten(key)}") from None

    @property
    def variables(self) -> int:
        return len(self.keys)

    # ------------------------------------------------------------------ constraints

    def add(self, constraint: Constraint) -> Constraint:
        self._open()
        self.constraints.append(constraint)
        return constraint

    def clause(self, literals: Iterable[int], *, label: str, role: str = "rule") -> Clause:
        """At least one of ``literals`` is true."""
        return self.add(Clause(literals=tuple(literals), label=label, role=role))

    def fix(self, literal: int, *, label: str, role: str = "given") -> Clause:
        """``literal`` is true: a given, a locked tile, a clue that fixes a cell."""
        return self.clause((literal,), label=label, role=role)

    def implies(self, premise: Iterable[int] | int, conclusion: int, *, label: str, role: str = "rule") -> Clause:
        """When every premise literal is true, so is ``conclusion``."""
        premises = (premise,) if isinstance(premise, int) else tuple(premise)
        return self.clause([-p for p in premises] + [conclusion], label=label, role=role)

    def linear(
        self,
        terms: Iterable[tuple[int, int]],
        op: str,
        bound: int,
        *,
        label: str,
        role: str = "rule",
        enforce: Iterable[int] = (),
    ) -> Linear:
        """``sum(weight * literal) <op> bound`` over (weight, literal) pairs, when every ``enforce`` literal holds."""
        return self.add(
            Linear(
                terms=tuple((int(w), lit) for w, lit in terms),
                op=op,
                bound=int(bound),
                enforce=tuple(enforce),
                label=label,
                role=role,
            )
        )

    def exactly(
        self, k: int, literals: Iterable[int], *, label: str, role: str = "rule", enforce: Iterable[int] = ()
    ) -> Linear:
        return self.linear(((1, lit) for lit in literals), "==", k, label=label, role=role, enforce=enforce)

    def at_most(
        self, k: int, literals: Iterable[int], *, label: str, role: str = "rule", enforce: Iterable[int] = ()
    ) -> Linear:
        return self.linear(((1, lit) for lit in literals), "<=", k, label=label, role=role, enforce=enforce)

    def at_least(
        self, k: int, literals: Iterable[int], *, label: str, role: str = "rule", enforce: Iterable[int] = ()
    ) -> Linear:
        return self.linear(((1, lit) for lit in literals), ">=", k, label=label, role=role, enforce=enforce)

    def all_different(self, variables: Iterable[IntVar], *, label: str, role: str = "rule") -> AllDifferent:
        return self.add(AllDifferent(variables=tuple(variables), label=label, role=role))

    def connected(
        self, vertices: Sequence[int], edges: Iterable[tuple[int, int]], *, label: str, role: str = "rule"
    ) -> Connected:
        """The vertices whose literal (``vertices[i]``) is true form one connected set over ``edges``."""
        return self.add(
            Connected(vertices=tuple(vertices), edges=tuple((int(a), int(b)) for a, b in edges), label=label, role=role)
        )

    def single_cycle(
        self, vertex_count: int, edges: Iterable[tuple[int, int, int]], *, label: str, role: str = "rule"
    ) -> SingleCycle:
        """The edges whose literal is true form exactly one cycle over vertices ``0 .. vertex_count - 1``."""
        return self.add(
            SingleCycle(
                vertex_count=int(vertex_count),
                edges=tuple((int(a), int(b), lit) for a, b, lit in edges),
                label=label,
                role=role,
            )
        )

    def symmetry(self, image: Mapping[int, int]) -> None:
        """A symmetry of the puzzle: ``image[v]`` is the own variable that own variable ``v`` becomes, for every
        own variable (a permutation of them that maps each solution to a solution)."""
        self._open()
        self.symmetries.append(dict(image))

    def named(self, key: Hashable, text: str) -> None:
        """Call the variable (or integer) made with ``key`` ``text`` in explanations: "the cell at row 2,
        place 1" (an integer's facts then read "<text> is <value>")."""
        self._open()
        self.names[key] = text

    def say(self, literal: int, true: str, false: str) -> None:
        """How the facts "``literal`` holds" and "it does not" read in explanations, in the puzzle's words: the
        edge "is drawn" or "is not drawn", the cell "is shaded" or "is unshaded"."""
        self._open()
        self.sayings[abs(literal)] = (true, false) if literal > 0 else (false, true)

    def prefer(
        self, literals: Iterable[int], *, rank: Iterable[int] | None = None, counting: bool = False
    ) -> Preference:
        """A search hint, no rule: decide ``literals`` before any other variable, each tried true first (a
        negative literal: its variable tried false first).  ``rank`` gives each literal its rank (higher ranks
        are decided first, a rank's literals in the order the solver likes); without it they are all of rank
        0, decided in the order given.  ``counting``: the hint is for counting and listing only (a first solution
        is left to the solver's own choices).  Hints change no solution and no count; a compiler may leave
        them out."""
        self._open()
        chosen = tuple(literals)
        ranks = tuple(int(r) for r in rank) if rank is not None else None
        if ranks is not None and len(ranks) != len(chosen):
            raise ModelError(f"{self.name}: a search hint has {len(chosen)} literals but {len(ranks)} ranks")
        preference = Preference(chosen, ranks, counting)
        self.preferences.append(preference)
        return preference

    def hints(self, counting: bool) -> list[tuple[int, int]]:
        """The search hints that apply to a run (``counting``: it counts or lists), as (literal, level) pairs
        in decision order, levels from 1 (decided last) up: by rank, and within a hint without ranks by the
        order given; a variable named twice keeps its first hint."""
        keys: dict[int, tuple[int, tuple[int, int]]] = {}  # variable -> (literal, (rank, place in its hint))
        for preference in self.preferences:
            if preference.counting and not counting:
                continue
            for place, literal in enumerate(preference.literals):
                key = (preference.ranks[place], 0) if preference.ranks is not None else (0, -place)
                keys.setdefault(abs(literal), (literal, key))
        levels = {key: level for level, key in enumerate(sorted({k for _, k in keys.values()}), start=1)}
        ordered = sorted(keys.values(), key=lambda pair: levels[pair[1]], reverse=True)
        return [(literal, levels[key]) for literal, key in ordered]

    def decode_with(self, decoder: Callable[[Assignment], Any]) -> None:
        """How a solution is read back from the own variables' values."""
        self._open()
        self.decoder = decoder

    # ------------------------------------------------------------------ reading it back

    def decode(self, true_own: Iterable[int]) -> Any:
        """The family's Solution from the set of own variables that are true."""
        if self.decoder is None:
            raise ModelError(f"{self.name}: the model has no decoder (decode_with)")
        own = frozenset(self.own)
        return self.decoder(Assignment(frozenset(true_own) & own, own))

    def kinds(self) -> frozenset[str]:
        """The kinds of constraint the model uses."""
        return frozenset(kind_of(c) for c in self.constraints)

    def name_of(self, literal: int) -> str:
        """A literal in the puzzle's words, for messages and DIMACS comments."""
        key = self.keys[abs(literal) - 1]
        return f"{'not ' if literal < 0 else ''}{key}"

    # ------------------------------------------------------------------ checking

    def _open(self) -> None:
        if self._frozen:
            raise ModelError(f"{self.name}: the model is frozen (compiled); build a new one to change it")

    def freeze(self) -> Model:
        """Check the model once (clear errors naming the constraint, never a traceback later) and close it."""
        if self._frozen:
            return self
        if self.decoder is None:
            raise ModelError(f"{self.name}: the model has no decoder (decode_with)")
        count = len(self.keys)
        for constraint in self.constraints:
            for problem in _problems(constraint, count):
                raise ModelError(f"{self.name}: constraint {shorten(constraint.label, 120)!r}: {problem}")
        if len(set(self.own)) != len(self.own):
            raise ModelError(f"{self.name}: a variable is named own twice")
        own = set(self.own)
        for number, image in enumerate(self.symmetries, start=1):
            if set(image) != own or set(image.values()) != own:
                raise ModelError(f"{self.name}: symmetry {number} is not a permutation of the own variables")
        self.constraints = tuple(self.constraints)  # type: ignore[assignment]
        self.own = tuple(self.own)  # type: ignore[assignment]
        for preference in self.preferences:
            for problem in _literal_problems(preference.literals, count):
                raise ModelError(f"{self.name}: a search hint: {problem}")
        self.symmetries = tuple(self.symmetries)  # type: ignore[assignment]
        self.preferences = tuple(self.preferences)  # type: ignore[assignment]
        self._frozen = True
        return self


def _literal_problems(literals: Iterable[int], count: int) -> Iterable[str]:
    for literal in literals:
        if not isinstance(literal, int) or isinstance(literal, bool) or literal == 0 or abs(literal) > count:
            yield f"literal {shorten(literal)} is not a variable of the model (it has {count})"
            return


def _problems(constraint: Constraint, count: int) -> Iterable[str]:
    """What is wrong with one constraint, if anything (``Model.freeze`` reports the first)."""
    if constraint.role not in ROLES:
        yield f"role {shorten(constraint.role)!r} is not one of {', '.join(ROLES)}"
    if isinstance(constraint, Clause):
        yield from _literal_problems(constraint.literals, count)
    elif isinstance(constraint, Linear):
        if constraint.op not in OPERATORS:
            yield f"operator {shorten(constraint.op)!r} is not one of {' '.join(OPERATORS)}"
        yield from _literal_problems([lit for _, lit in constraint.terms], count)
        yield from _literal_problems(constraint.enforce, count)
    elif isinstance(constraint, AllDifferent):
        for variable in constraint.variables:
            if not isinstance(variable, IntVar):
                yield f"{shorten(variable)} is not an integer variable of the model"
                return
            yield from _literal_problems(variable.literals, count)
    elif isinstance(constraint, Connected):
        yield from _literal_problems(constraint.vertices, count)
        yield from _edge_problems([(a, b) for a, b in constraint.edges], len(constraint.vertices))
    elif isinstance(constraint, SingleCycle):
        if constraint.vertex_count < 0:
            yield f"{constraint.vertex_count} vertices"
        yield from _literal_problems([lit for _, _, lit in constraint.edges], count)
        yield from _edge_problems([(a, b) for a, b, _ in constraint.edges], constraint.vertex_count)
    else:
        yield f"{type(constraint).__name__} is not a constraint of the model"


def _edge_problems(edges: Sequence[tuple[int, int]], vertices: int) -> Iterable[str]:
    seen: set[tuple[int, int]] = set()
    for a, b in edges:
        if not (0 <= a < vertices and 0 <= b < vertices):
            yield f"edge ({a}, {b}) joins a vertex the graph lacks (it has {vertices})"
            return
        if a == b:
            yield f"edge ({a}, {b}) is a loop"
            return
        if (min(a, b), max(a, b)) in seen:
            yield f"edge ({a}, {b}) is given twice"
            return
        seen.add((min(a, b), max(a, b)))


def literal_names(model: Model) -> Mapping[int, str]:
    """Variable number -> its key as text (for DIMACS comments and debugging)."""
    return {i + 1: str(key) for i, key in enumerate(model.keys)}
