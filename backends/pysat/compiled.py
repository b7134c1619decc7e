"""Constraint models as CNF: pysat for every family that states its rules as a ``trisolve.constraints.Model``.

The model's variables are the CNF's variables 1..n under the same numbers
(DIMACS's convention is the model's), its own variables the projection, and
its decoder reads solutions back.  Each kind of constraint is one block below:

* clauses and units as they are;
* linear constraints, first normalised to positive weights over distinct
  variables (a negated literal ``w * -x`` is ``w - w * x``; weights divided by
  their greatest common divisor).  A cardinality constraint (all weights 1)
  uses PySAT's encodings (``CARDINALITY``; at most one of a few literals
  pairwise); an enforced one reads a two-way totalizer shared by every
  enforced constraint over the same literals (a cell's neighbour count, read
  by each number it may hold), each of its clauses guarded by the enforcement
  literals.  A weighted sum is a decision diagram over its literals (PySAT's
  own pseudo-Boolean encodings need a package that is not installed);
* all-different as at most one variable per value, exactly one when there
  are as many values as variables;
* connected: reachability levels from the least chosen vertex, every
  auxiliary defined both ways (so each solution has one extension); as many
  levels as the graph's largest component has vertices, less one (fewer
  when an "at most k" over the vertices allows fewer);
* single cycle: every vertex has 0 or 2 chosen edges, some edge is chosen,
  and the used vertices reach each other along chosen edges (levels as above,
  at most half the component's size).

Connectivity has three variants.  ``compiled`` states it in the CNF (the
only one an outside counter or solver can use: Ganak and the dimacs
backend take this CNF).  ``compiled-lazy`` leaves the reachability out and
checks each candidate (``CnfEncoding.cuts``): a candidate whose chosen
vertices fall apart in components K, L, ... is cut by, for each pair, "not
u, or not w, or some vertex next to K is chosen" (u in K, w in L; for a
cycle, "u or w unused, or some edge leaving K is chosen"), which every
solution satisfies, and the solver runs again: a cut candidate is never
counted.  ``compiled-propagator`` runs the same check inside CaDiCaL 1.9.5's
search (``propagator.py``).

A first-solution run of a model that states symmetries searches its
lex-leaders only (every lex-leader is a solution); counts never do.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...constraints import (
    AllDifferent,
    Clause,
    Connected,
    Constraint,
    Linear,
    Model,
    ModelError,
    SingleCycle,
    UnsupportedConstraint,
    graphs,
    kind_of,
)
from ...constraints.compiling import constant_true_count
from ...models.errors import TrisolveError, UsageError, shorten
from ..base import Options, check_time
from ..catalog import Catalog
from .engine import CnfEncoding, count_up_to, lex_leq
from .signals import keeps_python_sigint

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "the family's constraint model compiled to CNF, connectivity by reachability levels; CaDiCaL 1.9.5",
        "compiled-lazy": "the same CNF without reachability: connectivity checked on each candidate, cuts added "
        "and solved again; CaDiCaL 1.9.5",
        "compiled-propagator": "the same CNF without reachability: connectivity checked inside the search by an "
        "external propagator (IPASIR-UP); CaDiCaL 1.9.5 only",
    },
    symmetry_breaking=False,
    generic="constraints",
    supports="every kind",
)

#: How each variant states connectivity: in the CNF, or cut lazily between solves or inside the search.
CONNECTIVITY: dict[str, str] = {"compiled": "eager", "compiled-lazy": "lazy", "compiled-propagator": "propagator"}
#: PySAT's encoding of an unenforced cardinality constraint over more than ``PAIRWISE_UP_TO`` literals.
CARDINALITY: int = EncType.seqcounter
#: Enforced cardinality constraints read a two-way totalizer shared per literal set (else each is its own
#: PySAT encoding, every clause guarded).
SHARED_COUNTERS = True
#: At most one of this many literals or fewer is written pairwise (no auxiliaries), as the hand translators
#: state a sigils cell covered once (counting gate-8x5: 0.6x the CPU of the sequential counter past 6).
PAIRWISE_UP_TO = 64
#: The most literals a compiled CNF may hold: a model past it is refused before it fills the memory.
MAX_LITERALS = 20_000_000


@functools.cache
def for_family(family: str) -> CompiledTranslator:
    """The translator of ``family``'s constraint model (one per family and process)."""
    return CompiledTranslator(family)


class CompiledTranslator:
    """What the pysat engine calls for a family with a constraint model: ``CATALOG`` and ``encode``."""

    CATALOG = CATALOG
    #: a first solution is searched among the lex-leaders of the model's symmetries (``engine`` asks for them
    #: with ``options.symmetry_breaking``; a run or an export that asks for them itself is refused by the catalog)
    FIRST_SOLUTION_LEX_LEADER = True

    def __init__(self, family: str) -> None:
        self.family = family

    @keeps_python_sigint
    def encode(self, level: Any, variant: str, options: Options) -> CnfEncoding:
        """The level's constraint model as CNF under ``variant`` (``CATALOG``)."""
        CATALOG.require(variant, "pysat", self.family)
        model = constraint_model(self.family, level)
        return compile_model(model, connectivity=CONNECTIVITY[variant], lex_leaders=options.symmetry_breaking)


def constraint_model(family: str, level: Any) -> Model:
    """``family``'s constraint model of ``level``, checked (``Model.freeze``)."""
    from ...models import FAMILIES

    record = FAMILIES.get(family)
    if record is None or record.constraints is None:
        raise UsageError(f"{family} has no constraint model to compile")
    model = record.constraints(level)
    if not isinstance(model, Model):
        raise ModelError(f"{family}'s constraints(level) gave a {type(model).__name__}, not a constraints.Model")
    return model.freeze()


def compile_model(
    model: Model,
    *,
    connectivity: str = "eager",
    cardinality: int | None = None,
    supports: Sequence[str] = CATALOG.kinds(),
    lex_leaders: bool = False,
) -> CnfEncoding:
    """A frozen ``model`` as CNF; ``connectivity`` "eager", "lazy" or "propagator" (see the module docstring);
    ``lex_leaders``: only the lex-leaders under the model's symmetries are solutions (for a first solution).

    A kind outside ``supports`` is refused (``UnsupportedConstraint``) before anything is built."""
    cnf, lazy = _build(model, connectivity, cardinality, supports)
    if lex_leaders and model.symmetries:
        with _sized(model, "its symmetries' lex-leader constraints"):
            cnf.lex_leaders(model.symmetries)
    checker = _GraphCuts(lazy, cnf.used) if lazy else None
    return CnfEncoding(
        pool=cnf.pool,
        clauses=cnf.clauses,
        projection=sorted(model.own),
        decode=model.decode,
        # a solution excluded by its true own variables alone where every solution has equally many
        block_true_only=constant_true_count(model),
        cuts=checker,
        cut_variables=checker.variables if checker else (),
        cuts_in_search=connectivity == "propagator",
    )


@dataclass(frozen=True)
class SelectedCnf:
    """A model as CNF in which each group of constraints can be switched off: every clause stating a
    constraint of group ``g`` carries the literal "not ``selectors[g]``", so the group holds exactly when its
    selector is assumed true.  Clauses that only define auxiliaries shared between groups (an enforced count's
    totalizer) carry none: they hold for every assignment of the model's variables.  Variables keep the model's
    numbers; ``top`` is the highest variable used.  Explanations solve it under assumptions (selectors and
    facts), so an unsatisfiable core names groups of constraints."""

    clauses: list[list[int]]
    selectors: Mapping[Hashable, int]
    top: int
    #: with ``connectivity="lazy"``: the graph constraints left out of ``clauses`` (their degree and "some edge"
    #: clauses are in), and ``cuts(constraint, chosen)``, the clauses that exclude an assignment breaking one
    #: (none when it holds), from whether each of its literals (vertices, or edges, in order) is true; whoever
    #: solves adds them, guarded by the constraint's selector
    graph: tuple[Connected | SingleCycle, ...] = ()
    cuts: Callable[[Connected | SingleCycle, Sequence[bool]], list[list[int]]] | None = None
    #: the variables a cut reads or names (the graph constraints' and a cycle's "vertex used")
    cut_variables: tuple[int, ...] = ()


def compile_selected(
    model: Model,
    group_of: Callable[[Constraint], Hashable],
    *,
    supports: Sequence[str] = CATALOG.kinds(),
    connectivity: str = "eager",
) -> SelectedCnf:
    """A frozen ``model`` as a ``SelectedCnf`` whose groups are ``group_of(constraint)`` (a label, say).

    Connectivity is stated eagerly (reachability levels) by default: a constraint cut lazily is in a core only
    through the cuts its solver added.  ``connectivity="lazy"`` leaves it to the solver's cuts (``graph``,
    ``cuts``): far smaller, for questions whose solver checks each candidate."""
    cnf, lazy = _build(model, connectivity, None, supports, group_of)
    checker = _GraphCuts(lazy, cnf.used) if lazy else None
    return SelectedCnf(
        clauses=cnf.clauses,
        selectors=dict(cnf.selectors),
        top=cnf.pool.top,
        graph=tuple(lazy),
        cuts=checker.cuts_of_chosen if checker else None,
        cut_variables=checker.variables if checker else (),
    )


def _build(
    model: Model,
    connectivity: str,
    cardinality: int | None,
    supports: Sequence[str],
    group_of: Callable[[Constraint], Hashable] | None = None,
) -> tuple[_Cnf, list[Connected | SingleCycle]]:
    """The clauses of every constraint (each guarded by its group's selector when ``group_of`` is given), and
    the graph constraints left for a lazy check."""
    refused = sorted(model.kinds() - set(supports))
    if refused:
        raise UnsupportedConstraint(f"{model.name}: the CNF compiler cannot express {', '.join(refused)}")
    cnf = _Cnf(model, CARDINALITY if cardinality is None else cardinality)
    if group_of is not None:
        for constraint in model.constraints:
            group = group_of(constraint)
            if group not in cnf.selectors:
                cnf.selectors[group] = cnf.pool.id(Aux("selector", (group,)))
    lazy: list[Connected | SingleCycle] = []
    for constraint in model.constraints:
        check_time()
        cnf.guard = cnf.selectors[group_of(constraint)] if group_of is not None else None
        with _sized(model, f"constraint {shorten(constraint.label, 120)!r}"):
            if isinstance(constraint, Clause):
                cnf.add(list(constraint.literals))
            elif isinstance(constraint, Linear):
                cnf.linear(constraint)
            elif isinstance(constraint, AllDifferent):
                cnf.all_different(constraint)
            elif isinstance(constraint, Connected):
                if connectivity == "eager":
                    cnf.connected(constraint)
                else:
                    lazy.append(constraint)
            elif isinstance(constraint, SingleCycle):
                cnf.single_cycle(constraint, eager=connectivity == "eager")
                if connectivity != "eager":
                    lazy.append(constraint)
            else:
                raise UnsupportedConstraint(f"{model.name}: no CNF for {kind_of(constraint)}")
    cnf.guard = None
    return cnf, lazy


@dataclass(frozen=True)
class Aux:
    """The pool key of an auxiliary variable (no model's key is one: the type is private to this compiler)."""

    what: str
    where: tuple


class _Fresh:
    """A pool for ``engine.lex_leq`` whose every key names a new auxiliary (never a model's variable)."""

    def __init__(self, cnf: _Cnf) -> None:
        self.cnf = cnf

    def id(self, key: Any) -> int:
        return self.cnf.new("lex", key)


class _TooLarge(TrisolveError):
    """A piece of the CNF would take it past ``MAX_LITERALS`` (``_sized`` turns it into a ModelError)."""

    def __init__(self, literals: int) -> None:
        self.literals = literals


@contextlib.contextmanager
def _sized(model: Model, what: str) -> Iterator[None]:
    """A piece of the CNF that would take it past ``MAX_LITERALS`` is a ModelError naming ``what``."""
    try:
        yield
    except _TooLarge as size:
        raise ModelError(
            f"{model.name}: {what}: the CNF would hold about {size.literals:,} literals (at most {MAX_LITERALS:,})"
        ) from None


#: The constants of a decision diagram's leaves (literals are ints).
_TRUE, _FALSE = "true", "false"


class _Cnf:
    """The clauses being built, the pool naming their variables, and the size so far."""

    def __init__(self, model: Model, cardinality: int) -> None:
        self.model = model
        self.cardinality = cardinality
        self.pool = IDPool()
        for key in model.keys:  # the model's variables keep their numbers
            self.pool.id(key)
        if self.pool.top != model.variables:
            raise ModelError(f"{model.name}: two variables have equal names")
        self.clauses: list[list[int]] = []
        self.literals = 0
        self.serial = 0
        #: literal tuple -> "at least k" outputs of its shared two-way totalizer (enforced cardinalities)
        self.counters: dict[tuple[int, ...], list[int]] = {}
        self.counter_caps = _counter_caps(model)
        #: id(single cycle) -> its "vertex used" literals (the lazy cuts name them)
        self.used: dict[int, list[int | None]] = {}
        #: group -> its selector variable (``compile_selected``), and the selector of the constraint being built
        self.selectors: dict[Hashable, int] = {}
        self.guard: int | None = None

    # ------------------------------------------------------------------ plumbing

    def new(self, what: str, *where: Any) -> int:
        """A fresh auxiliary variable, named for debugging (``where`` need not be unique)."""
        self.serial += 1
        return self.pool.id(Aux(what, (*where, self.serial)))

    def add(self, clause: list[int]) -> None:
        if self.guard is not None:  # the clause states a constraint of a group that may be switched off
            clause = [-self.guard, *clause]
        if not clause:  # "false", as x and not x: Ganak counts an empty clause over no variables as 1
            false = self.new("false")
            self.clauses.append([-false])
            clause = [false]
        self.clauses.append(clause)
        self.literals += len(clause)
        if self.literals > MAX_LITERALS:
            raise _TooLarge(self.literals)

    def extend(self, clauses: Iterable[list[int]], guard: Sequence[int] = ()) -> None:
        for clause in clauses:
            self.add([*guard, *clause])

    def reserve(self, literals: int) -> None:
        """Refuse, before building it, a piece whose size (estimated) would take the CNF past the limit."""
        if self.literals + literals > MAX_LITERALS:
            raise _TooLarge(self.literals + literals)

    # ------------------------------------------------------------------ linear constraints

    def linear(self, constraint: Linear) -> None:
        """``sum <op> bound``, each clause guarded by the enforcement literals (they are then free)."""
        guard = [-e for e in constraint.enforce]
        terms, bound = _normalised(constraint.terms, constraint.bound)
        lits = [x for _, x in terms]
        if constraint.op == "==" and not guard and all(w == 1 for w, _ in terms) and _counts(lits, bound):
            # exactly k of many literals, unenforced: one PySAT encoding of both halves
            self.reserve(6 * len(lits) * (bound + 1))
            self.extend(CardEnc.equals(lits, bound, vpool=self.pool, encoding=self.cardinality).clauses)
            return
        if constraint.op in ("<=", "=="):
            self.at_most(terms, bound, guard)
        if constraint.op in (">=", "=="):
            # sum w x >= b  <=>  sum w (not x) <= W - b
            total = sum(w for w, _ in terms)
            self.at_most([(w, -x) for w, x in terms], total - bound, guard)

    def at_most(self, terms: list[tuple[int, int]], bound: int, guard: list[int]) -> None:
        """``sum(w * x) <= bound`` over positive weights, when every guard literal is false."""
        total = sum(w for w, _ in terms)
        if bound < 0:
            self.add(list(guard))  # impossible: the enforcement literals cannot all hold
            return
        if bound >= total:
            return
        divisor = math.gcd(*(w for w, _ in terms))
        terms, bound = [(w // divisor, x) for w, x in terms], bound // divisor
        lits = [x for _, x in terms]
        if any(w != 1 for w, _ in terms):
            self.weighted_at_most(terms, bound, guard)
        elif bound == 0:
            self.extend([[-x] for x in lits], guard)
        elif bound == len(lits) - 1:
            self.add([*guard, *(-x for x in lits)])
        elif guard and SHARED_COUNTERS:
            self.add([*guard, -self.counter(lits, bound + 1)])
        elif bound == 1 and len(lits) <= PAIRWISE_UP_TO:
            self.extend(([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]), guard)
        else:
            self.reserve(3 * len(lits) * (bound + 1))
            self.extend(CardEnc.atmost(lits, bound, vpool=self.pool, encoding=self.cardinality).clauses, guard)

    def counter(self, lits: list[int], k: int) -> int:
        """The literal "k or more of ``lits`` are true", an output of the two-way totalizer over ``lits`` that
        every enforced cardinality constraint over the same literals shares (up to the highest count they read)."""
        key = tuple(sorted(lits))
        if len(self.counters.get(key, ())) < k:
            cap = max(k, self.counter_caps.get(key, 0))
            self.reserve(2 * len(key) * (cap + 1) * max(1, math.ceil(math.log2(max(len(key), 2)))))
            built: list[list[int]] = []
            self.counters[key] = count_up_to(self.pool, list(key), cap, built)
            guard, self.guard = self.guard, None  # it defines its outputs only, for every group reading them
            self.extend(built)
            self.guard = guard
        return self.counters[key][k - 1]

    def weighted_at_most(self, terms: list[tuple[int, int]], bound: int, guard: list[int]) -> None:
        """A decision diagram: node (i, k) says "the terms from i on sum to at most k".

        Its literal implies the node for x_i true (k - w_i left) when x_i is, and the node for x_i false;
        the root's literal is implied by the guard.  Nodes whose k covers all that is left are true,
        nodes with k < 0 false; the others are shared per (i, k), at most bound + 1 per term."""
        terms = sorted(terms, key=lambda t: -t[0])
        left = [sum(w for w, _ in terms[i:]) for i in range(len(terms) + 1)]
        # the k each depth needs, top down, counted before anything is built
        needed: list[set[int]] = [{bound}]
        nodes_seen = 1
        for i, (w, _) in enumerate(terms):
            below = {k - dk for k in needed[i] for dk in (0, w)}
            needed.append({k for k in below if 0 <= k < left[i + 1]})
            nodes_seen += len(needed[-1])
            self.reserve(5 * nodes_seen)
        nodes: dict[tuple[int, int], int | str] = {}

        def node(i: int, k: int) -> int | str:
            if k < 0:
                return _FALSE
            if k >= left[i]:
                return _TRUE
            return nodes[i, k]

        for i in range(len(terms) - 1, -1, -1):
            w, x = terms[i]
            for k in sorted(needed[i]):
                if k >= left[i]:
                    continue
                taken, skipped = node(i + 1, k - w), node(i + 1, k)
                literal = self.new("sum at most", i, k)
                nodes[i, k] = literal
                if taken is _FALSE:
                    self.add([-literal, -x])
                elif taken is not _TRUE:
                    self.add([-literal, -x, taken])
                if skipped is _FALSE:
                    self.add([-literal])
                elif skipped is not _TRUE:
                    self.add([-literal, skipped])
        root = node(0, bound)
        if root is _FALSE:
            self.add(list(guard))
        elif root is not _TRUE:
            self.add([*guard, root])

    # ------------------------------------------------------------------ symmetries

    def lex_leaders(self, symmetries: Sequence[Mapping[int, int]]) -> None:
        """Only lex-leaders: the own variables, in order, are lex <= their values read through each symmetry.

        Each orbit's least member is a solution that satisfies all of these, so a first solution is found
        among fewer candidates (Hexiom's level 38: thousands of conflicts become tens).  A pair equal for sure
        while the earlier ones are (a fixed variable, a pair compared already) is left out."""
        order = sorted(self.model.own)
        for s, image in enumerate(symmetries):
            compared: set[frozenset[int]] = set()
            pairs = []
            for v in order:
                w = image[v]
                if v == w or frozenset((v, w)) in compared:
                    continue
                compared.add(frozenset((v, w)))
                pairs.append((v, w))
            self.extend(lex_leq(_Fresh(self), pairs, s))

    # ------------------------------------------------------------------ all different

    def all_different(self, constraint: AllDifferent) -> None:
        """At most one variable takes each value; exactly one when the values are as many as the variables."""
        taking: dict[int, list[int]] = {}
        for variable in constraint.variables:
            for value, literal in zip(variable.values, variable.literals):
                taking.setdefault(value, []).append(literal)
        every_value_used = len(taking) == len(constraint.variables)
        if self.selectors:  # switched on alone, it says what it means: each variable takes one value
            for variable in constraint.variables:
                self.linear(Linear(terms=tuple((1, lit) for lit in variable.literals), op="==", bound=1, label=""))
        for lits in taking.values():
            self.at_most([(1, x) for x in lits], 1, [])
            if every_value_used:
                self.add(list(lits))

    # ------------------------------------------------------------------ connected

    def connected(self, constraint: Connected) -> None:
        """Every chosen vertex is reached from the least chosen one, one level per step through chosen vertices."""
        chosen = list(constraint.vertices)
        neighbours = graphs.adjacency(len(chosen), constraint.edges)
        # with groups switched on and off (``compile_selected``) no other constraint bounds the chosen vertices
        most = len(chosen) if self.selectors else _most_chosen(self.model, chosen)
        levels = max(0, min(_largest_component(neighbours), most) - 1)
        into = [[(j, chosen[i]) for j in neighbours[i]] for i in range(len(chosen))]
        reached = self.reach(self.least(chosen), into, levels)
        for x, far in zip(chosen, reached):
            self.add([-x, far])

    def least(self, chosen: list[int]) -> list[int | None]:
        """Root literals: ``root[i]`` exactly when vertex i is chosen and no vertex before it is."""
        roots: list[int | None] = []
        none_before: int | None = None  # None: true (no vertex before)
        for i, x in enumerate(chosen):
            if none_before is None:
                roots.append(x)
                none_before = -x
                continue
            root = self.new("root", i)
            self.add([-root, none_before])
            self.add([-root, x])
            self.add([-none_before, -x, root])
            roots.append(root)
            if i < len(chosen) - 1:
                after = self.new("none chosen before", i + 1)
                self.add([-after, none_before])
                self.add([-after, -x])
                self.add([-none_before, x, after])
                none_before = after
        return roots

    def reach(self, roots: list[int | None], into: list[list[tuple[int, int]]], levels: int) -> list[int | None]:
        """Literals ``reached[i]``: vertex i is within ``levels`` steps of the root, where a step from j to i
        needs its gate literal (``into[i]`` lists (j, gate)).  Level l is defined from level l - 1 both ways:
        reached(i, l) <=> reached(i, l - 1) or some (gate and reached(j, l - 1))."""
        n = len(roots)
        self.reserve(levels * sum(4 + 4 * len(arcs) for arcs in into))
        current = list(roots)
        for level in range(1, levels + 1):
            check_time()
            following: list[int | None] = []
            for i in range(n):
                arcs = [(j, gate) for j, gate in into[i] if current[j] is not None]
                if not arcs:
                    following.append(current[i])
                    continue
                now = self.new("reached", i, level)
                before = current[i]
                if before is not None:
                    self.add([-before, now])
                for j, gate in arcs:
                    self.add([-gate, -current[j], now])
                stay = [before] if before is not None else []
                gates = {gate for _, gate in arcs}
                if len(gates) == 1:  # one gate for every step (connected: vertex i itself is chosen)
                    self.add([-now, *stay, *gates])
                    self.add([-now, *stay, *(current[j] for j, _ in arcs)])
                else:  # a step per arc, each defined: step <=> gate and reached(j, l - 1)
                    steps = []
                    for j, gate in arcs:
                        step = self.new("step", j, i, level)
                        self.add([-step, gate])
                        self.add([-step, current[j]])
                        self.add([-gate, -current[j], step])
                        steps.append(step)
                    self.add([-now, *stay, *steps])
                following.append(now)
            current = following
        return current

    # ------------------------------------------------------------------ single cycle

    def single_cycle(self, constraint: SingleCycle, *, eager: bool) -> None:
        """Degrees 0 or 2, some edge chosen, and (``eager``) the used vertices reach each other along chosen
        edges; the lazy variants check that last part on each candidate."""
        incident: list[list[int]] = [[] for _ in range(constraint.vertex_count)]
        for a, b, lit in constraint.edges:
            incident[a].append(lit)
            incident[b].append(lit)
        # a vertex is used exactly when one of its edges is chosen
        used: list[int | None] = []
        for v, lits in enumerate(incident):
            if not lits:
                used.append(None)
                continue
            u = self.new("used", v)
            self.extend([-e, u] for e in lits)
            self.add([-u, *lits])
            used.append(u)
        self.used[id(constraint)] = used
        # degree 0 or 2: an edge has a partner at each end, and no three edges meet
        for lits in incident:
            for i, e in enumerate(lits):
                self.add([-e, *lits[:i], *lits[i + 1 :]])
            if len(lits) <= 5:
                self.extend([-a, -b, -c] for a, b, c in itertools.combinations(lits, 3))
            else:
                self.at_most([(1, e) for e in lits], 2, [])
        # some edge is chosen
        self.add([lit for _, _, lit in constraint.edges])
        if not eager:
            return
        neighbours = graphs.adjacency(constraint.vertex_count, [(a, b) for a, b, _ in constraint.edges])
        levels = _largest_component(neighbours) // 2
        into: list[list[tuple[int, int]]] = [[] for _ in range(constraint.vertex_count)]
        for a, b, lit in constraint.edges:
            into[a].append((b, lit))
            into[b].append((a, lit))
        present = [v for v, u in enumerate(used) if u is not None]
        roots = self.least([used[v] for v in present])  # type: ignore[misc]
        root_of: list[int | None] = [None] * constraint.vertex_count
        for v, root in zip(present, roots):
            root_of[v] = root
        reached = self.reach(root_of, into, levels)
        for u, far in zip(used, reached):
            if u is not None:
                self.add([-u, far] if far is not None else [-u])


# ------------------------------------------------------------------ helpers


def _normalised(terms: Iterable[tuple[int, int]], bound: int) -> tuple[list[tuple[int, int]], int]:
    """``sum(w * lit) <op> bound`` as positive weights over distinct variables, and the bound it then has."""
    weight: dict[int, int] = {}
    for w, lit in terms:
        if lit < 0:  # w * (not x) = w - w * x
            bound -= w
            w = -w
        weight[abs(lit)] = weight.get(abs(lit), 0) + w
    out = []
    for var, w in weight.items():
        if w > 0:
            out.append((w, var))
        elif w < 0:  # w * x = w + |w| * (not x)
            bound -= w
            out.append((-w, -var))
    return out, bound


def _counts(lits: list[int], bound: int) -> bool:
    """Whether "exactly ``bound`` of ``lits``" needs a counting encoding (else pairwise clauses do)."""
    return 1 <= bound < len(lits) - 1 and not (bound == 1 and len(lits) <= PAIRWISE_UP_TO)


def _counter_caps(model: Model) -> dict[tuple[int, ...], int]:
    """For each literal set that enforced cardinality constraints count, the highest count they read."""
    caps: dict[tuple[int, ...], int] = {}
    for c in model.constraints:
        if not (isinstance(c, Linear) and c.enforce):
            continue
        terms, bound = _normalised(c.terms, c.bound)
        if any(w != 1 for w, _ in terms):
            continue
        lits, n = tuple(sorted(x for _, x in terms)), len(terms)
        reads = {"<=": [bound + 1], ">=": [n - bound + 1], "==": [bound + 1, n - bound + 1]}[c.op]
        flipped = tuple(sorted(-x for x in lits))
        if c.op in ("<=", "=="):
            caps[lits] = max(caps.get(lits, 0), min(n, reads[0]))
        if c.op in (">=", "=="):
            caps[flipped] = max(caps.get(flipped, 0), min(n, reads[-1]))
    return caps


def _largest_component(neighbours: Sequence[Sequence[int]]) -> int:
    parts = graphs.components([bool(n) for n in neighbours], neighbours)
    return max([len(p) for p in parts] + [1 if neighbours else 0])


def _most_chosen(model: Model, chosen: list[int]) -> int:
    """How many of ``chosen`` can be true at once, as far as an unenforced "at most k" over them says."""
    most = len(chosen)
    wanted = set(chosen)
    for c in model.constraints:
        unenforced_bound = isinstance(c, Linear) and not c.enforce and c.op in ("<=", "==")
        if unenforced_bound and all(w == 1 and lit > 0 for w, lit in c.terms) and wanted <= {lit for _, lit in c.terms}:
            most = min(most, c.bound)
    return most


class _GraphCuts:
    """The lazy variants' check: which graph constraints a candidate breaks, and the cuts that exclude it."""

    def __init__(self, constraints: list[Connected | SingleCycle], used: dict[int, list[int | None]]) -> None:
        self.constraints = constraints
        self.used = used
        #: id(single cycle) -> its edges' ends, built once (a check reads them for every candidate)
        self.ends: dict[int, tuple[tuple[int, int], ...]] = {}
        #: id(connected set) -> its neighbour lists
        self.neighbours: dict[int, tuple[tuple[int, ...], ...]] = {}
        names: set[int] = set()
        for c in constraints:
            if isinstance(c, Connected):
                names.update(abs(x) for x in c.vertices)
            else:
                names.update(abs(lit) for _, _, lit in c.edges)
                names.update(u for u in used[id(c)] if u is not None)
        self.variables = tuple(sorted(names))

    def __call__(self, value: Callable[[int], bool]) -> list[list[int]]:
        return [cut for c in self.constraints for cut in self.cuts_of(c, value)]

    def cuts_of(self, c: Connected | SingleCycle, value: Callable[[int], bool]) -> list[list[int]]:
        """The cuts excluding an assignment that breaks ``c``; none when it holds."""
        literals = c.vertices if isinstance(c, Connected) else [lit for _, _, lit in c.edges]
        return self.cuts_of_chosen(c, [value(lit) for lit in literals])

    def cuts_of_chosen(self, c: Connected | SingleCycle, chosen: Sequence[bool]) -> list[list[int]]:
        """``cuts_of`` from whether each of ``c``'s literals (its vertices, or its edges, in order) is true: an
        explanation's solvers read that from their own numbering, for hundreds of thousands of candidates."""
        if isinstance(c, SingleCycle):
            ends = self._ends(c)
            parts = graphs.cycle_parts(c.vertex_count, ends, chosen)
            if graphs.is_one_cycle(c.vertex_count, ends, chosen, len(parts)):
                return []
            found = self.cycle_cuts(c, chosen, parts)  # several pieces: broken, and these cut it
        else:
            neighbours = self._neighbours(c)
            parts = graphs.components(chosen, neighbours)
            if len(parts) <= 1:
                return []
            found = self.connected_cuts(c, chosen, parts)
        if not found:
            raise RuntimeError(f"{c.label!r} is broken but no cut was found: the lazy check is wrong")
        return found

    def _neighbours(self, c: Connected) -> tuple[tuple[int, ...], ...]:
        """A connected set's neighbour lists, built once per constraint (``graphs.graph_of`` hashes the edges
        on every call)."""
        if id(c) not in self.neighbours:
            self.neighbours[id(c)] = graphs.graph_of(len(c.vertices), c.edges)
        return self.neighbours[id(c)]

    def connected_cuts(
        self, c: Connected, chosen: Sequence[bool], parts: Sequence[Sequence[int]] | None = None
    ) -> list[list[int]]:
        """For components K and L of the chosen vertices (``parts``, if already found): u in K and w in L are not
        both chosen, or a vertex next to K is."""
        x = c.vertices
        separations = graphs.vertex_separations(chosen, self._neighbours(c), parts)
        return [[-x[s.u], -x[s.w], *(x[f] for f in s.fence)] for s in separations]

    def _ends(self, c: SingleCycle) -> tuple[tuple[int, int], ...]:
        if id(c) not in self.ends:
            self.ends[id(c)] = tuple((a, b) for a, b, _ in c.edges)
        return self.ends[id(c)]

    def cycle_cuts(self, c: SingleCycle, chosen: Sequence[bool], parts: Sequence[Sequence[int]]) -> list[list[int]]:
        """For cycles K and L (the components ``parts`` of the ``chosen`` edges): a vertex of K and one of L are
        not both used, or an edge leaving K is chosen."""
        used = self.used[id(c)]
        separations = graphs.cycle_separations(c.vertex_count, self._ends(c), chosen, parts)
        return [[-used[s.u], -used[s.w], *(c.edges[f][2] for f in s.fence)] for s in separations]  # type: ignore[operator]
