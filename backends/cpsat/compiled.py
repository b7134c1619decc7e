"""Any family's constraint model as a CP-SAT model: CP-SAT's own constraints, one block per kind.

A Boolean per model variable (named by number: the puzzle's words never
reach the model).  Clauses are ``add_bool_or``; exactly-one and at-most-one
their own constraints; every other linear constraint a linear constraint
with its enforcing literals (``only_enforce_if``); an all-different builds
an integer per variable, channelled to its literals, under
``add_all_different``.

The graph constraints:

* a single cycle is ``add_circuit`` over both directions of every edge,
  with a self-loop for each vertex off the cycle; the empty circuit is
  forbidden (some edge is chosen), and each cycle's orientation is fixed --
  at its least vertex, the arc leaves towards the smaller of its two
  neighbours -- so that the arcs follow from the edges;
* a connected set (variant ``compiled``) gives each chosen vertex its
  distance from the root -- the most central vertex the model forces chosen
  (``compiling.anchored``, with its pocket clauses), else the least chosen
  vertex: 0 at the root, one more
  than its nearest neighbour's elsewhere; a chosen vertex the root cannot
  reach has no finite distance, so no solution.  Distances are determined
  by the chosen vertices;
* a connected set (variant ``compiled-flow``): a single-commodity flow
  from the root, each other chosen vertex consuming at least one unit and
  flow only between chosen vertices.

CP-SAT's enumeration lists every assignment of all variables, so a count
projects on the own ones only when every other variable follows from them:
the auxiliaries above do (roots, distances, arcs), a flow does not, nor may
a model's own auxiliaries.  Such models are listed by exclusion
(``CpsatModel.determined`` False): the count stays exact, one solve per
solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...constraints import AllDifferent, Clause, Connected, IntVar, Linear, Model, SingleCycle, graphs, kind_of
from ...constraints.compiling import (
    Anchor,
    Channel,
    anchored,
    channelled_equalities,
    exclusive_groups,
    forced,
    gathered,
    group_index,
    grouped,
    implied_total,
    stated_once,
)
from ...constraints.model import state
from ..base import Options, check_time
from ..catalog import Catalog, ModelCompiler
from .engine import CpsatModel, cp_model

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "the family's constraint model with CP-SAT's constraints: bool_or, exactly-one, enforced linear, "
        "all-different; add_circuit for a single cycle; BFS distances from a forced vertex (else the least chosen one) "
        "for connected sets",
        "compiled-flow": "the same, connected sets by a single-commodity flow from the least chosen vertex "
        "(counts by exclusion: a flow is not fixed by the chosen vertices)",
    },
    symmetry_breaking=False,
    generic="constraints",
    supports="every kind",
)


#: First solutions of a model with channels (sums equal to an integer, as Hexiom's): one worker running
#: CP-SAT's LP over the whole model with the model's symmetry used in it, one presolve pass (the hand
#: translator's measured choice for Hexiom's integer model, and the compiled model's best of those tried on
#: levels 30-40: two default workers did not find level 38's first solution in 20 s).  Without channels the
#: engine's defaults: on sigils this LP is a burden (the 6x10 pentominoes: none in 20 s, 0.9 s without).
LP_FIRST_SOLUTION: dict[str, Any] = {
    "num_workers": 1,
    "linearization_level": 2,
    "add_lp_constraints_lazily": False,
    "use_symmetry_in_lp": True,
    "subsolvers": ["max_lp_sym", "default_lp"],
    "max_presolve_iterations": 1,
}


class _Compiler:
    """One model compiled into one CpModel: a method per kind of constraint."""

    def __init__(self, model: Model, variant: str) -> None:
        self.source = model
        self.variant = variant
        self.cp = cp_model()
        self.model = self.cp.CpModel()
        self.variables = [self.model.new_bool_var(f"x{v}") for v in range(1, model.variables + 1)]
        self.integers: dict[IntVar, Any] = {}
        #: literal -> the integer it is a value of (for integers whose "takes one value" the model states)
        self.owner = {lit: variable for variable in stated_once(model) for lit in variable.literals}
        self.groups = exclusive_groups(model)
        self.where = group_index(self.groups)
        #: per set of exclusive literals counted together in a sum, "one of them holds" (their sum)
        self.some: dict[tuple[int, ...], Any] = {}
        #: every auxiliary so far is fixed by the model's variables
        self.determined = True
        self._fixed: dict[int, bool] | None = None

    @property
    def fixed(self) -> dict[int, bool]:
        """The values every solution shares (``compiling.forced``), found once."""
        if self._fixed is None:
            self._fixed = forced(self.source)
        return self._fixed

    def literal(self, literal: int) -> Any:
        variable = self.variables[abs(literal) - 1]
        return variable if literal > 0 else variable.Not()

    def literals(self, literals: Sequence[int]) -> list[Any]:
        return [self.literal(lit) for lit in literals]

    # ------------------------------------------------------------------ clauses and linear constraints

    def clause(self, constraint: Clause) -> None:
        # --- at least one literal (an empty clause is false: no solution)
        self.model.add_bool_or(self.literals(constraint.literals))

    def linear(self, constraint: Linear) -> None:
        kind = kind_of(constraint)
        # --- exactly-one and at-most-one of positive literals: CP-SAT's own constraints
        if kind == "exactly_one":
            self.model.add_exactly_one(self.literals([lit for _, lit in constraint.terms]))
            return
        if kind == "at_most_one":
            self.model.add_at_most_one(self.literals([lit for _, lit in constraint.terms]))
            return
        # --- any other: the weighted sum of the literals, compared with the bound when the enforcing ones hold;
        # the literals of an exclusive group that all appear with one weight count as "some of them holds"
        total = self.sum(constraint.terms)
        bound = constraint.bound
        if constraint.op == "==":
            added = self.model.add(total == bound)
        elif constraint.op == "<=":
            added = self.model.add(total <= bound)
        else:
            added = self.model.add(total >= bound)
        if constraint.enforce:
            added.only_enforce_if(self.literals(constraint.enforce))

    def channelled(self, channel: Channel) -> None:
        # --- implied: where each literal of an exclusive group enforces its own value of one sum, the sum is
        # the value of the literal that holds (``compiling.channelled_equalities``): one constraint, which
        # CP-SAT's propagation and LP use whole; when those values are an integer's own, the sum is that
        # integer (Hexiom: a cell's number is its count of occupied neighbours)
        total = self.sum(channel.terms)
        variable = self.owner.get(channel.members[0])
        if variable is not None and all(
            self.owner.get(m) is variable and channel.values[m] == variable.values[variable.literals.index(m)]
            for m in channel.members
        ):
            value = self.integer(variable)
        else:
            value = sum(channel.values[m] * self.literal(m) for m in channel.members)
        self.model.add(total == value).only_enforce_if(self.some_of(channel.members))

    def sum(self, terms: Sequence[tuple[int, int]]) -> Any:
        """A weighted sum of literals, exclusive ones counted together (``compiling.grouped``)."""
        plain, by_group = grouped(terms, self.groups, self.where)
        return self.cp.LinearExpr.weighted_sum(
            [self.literal(lit) for _, lit in plain] + [self.some_of(g) for _, g in by_group],
            [w for w, _ in plain] + [w for w, _ in by_group],
        )

    def some_of(self, members: tuple[int, ...]) -> Any:
        """The Boolean "one of these exclusive literals holds": their sum (at most one does); when they are all
        of an integer's literals but one, that one's negation (Hexiom: occupied is "not empty")."""
        variable = self.owner.get(members[0])
        if variable is not None and len(members) == len(variable.literals) - 1:
            rest = set(variable.literals) - set(members)
            if len(rest) == 1 and all(self.owner.get(m) is variable for m in members):
                return self.literal(-rest.pop())
        if members not in self.some:
            some = self.model.new_bool_var(f"some{len(self.some)}")
            self.model.add(some == sum(self.literal(lit) for lit in members))
            self.some[members] = some
        return self.some[members]

    # ------------------------------------------------------------------ all-different

    def integer(self, variable: IntVar) -> Any:
        """The integer an IntVar's literals stand for: equal to a value exactly when its literal holds."""
        if variable not in self.integers:
            domain = self.cp.Domain.from_values(sorted(variable.values))
            number = self.model.new_int_var_from_domain(domain, f"int{len(self.integers)}")
            for value, lit in zip(variable.values, variable.literals):
                self.model.add(number == value).only_enforce_if(self.literal(lit))
                self.model.add(number != value).only_enforce_if(self.literal(-lit))
            self.integers[variable] = number
        return self.integers[variable]

    def all_different(self, constraint: AllDifferent) -> None:
        # --- the integers take pairwise different values
        self.model.add_all_different([self.integer(v) for v in constraint.variables])

    # ------------------------------------------------------------------ graphs

    def least(self, chosen: Sequence[Any], name: str) -> list[Any]:
        """Per vertex, "it is the least chosen one" (the root): chosen, and none before it is."""
        model = self.model
        roots = []
        earlier = None  # some vertex before this one is chosen (None: no vertex is before it)
        for i, here in enumerate(chosen):
            root = model.new_bool_var(f"{name}_root{i}")
            model.add_implication(root, here)
            if earlier is None:
                model.add_implication(here, root)
            else:
                model.add_implication(root, earlier.Not())
                model.add_bool_or([here.Not(), earlier, root])
            roots.append(root)
            after = model.new_bool_var(f"{name}_earlier{i + 1}")
            # after = earlier or here
            model.add_bool_or([after.Not(), here] + ([earlier] if earlier is not None else []))
            model.add_implication(here, after)
            if earlier is not None:
                model.add_implication(earlier, after)
            earlier = after
        return roots

    def connected(self, constraint: Connected, index: int) -> None:
        chosen = self.literals(constraint.vertices)
        if len(chosen) < 2:
            return  # no two vertices to part
        name = f"g{index}"
        neighbours = graphs.adjacency(len(chosen), constraint.edges)
        anchor = anchored(self.fixed, constraint)
        if anchor is None:
            # --- no vertex is forced: the root is the least chosen vertex, a choice the search makes
            roots: list[Any] | None = self.least(chosen, name)
        else:
            roots = None
            self.pockets(chosen, anchor)
        if self.variant == "compiled-flow":
            self.flow(chosen, roots, anchor, constraint.edges, name)
        else:
            self.distances(chosen, roots, anchor, neighbours, name)

    def pockets(self, chosen: list[Any], anchor: Anchor) -> None:
        # --- rooted at a vertex every solution chooses: a vertex out of its reach is never chosen, and a chosen
        # vertex of a small set with a small fence means a chosen vertex on the fence (``graphs.Pocket``)
        for vertex in anchor.unreachable:
            self.model.add_bool_or([chosen[vertex].Not()])
        for pocket in anchor.pockets:
            fence = [chosen[b] for b in pocket.fence]
            for vertex in pocket.inside:
                self.model.add_bool_or([chosen[vertex].Not(), *fence])

    def distances(
        self,
        chosen: list[Any],
        roots: list[Any] | None,
        anchor: Anchor | None,
        neighbours: list[list[int]],
        name: str,
    ) -> None:
        # --- each chosen vertex is at a finite distance from the root; an unchosen one is "far" (n); with an
        # anchor the root is known, and no vertex is nearer to it than the graph allows
        model, n = self.model, len(chosen)
        lowest = [0] * n if anchor is None else [n if h is None else h for h in anchor.hops]
        distance = [model.new_int_var(lowest[i], n, f"{name}_distance{i}") for i in range(n)]
        for i, here in enumerate(chosen):
            check_time()
            model.add(distance[i] == n).only_enforce_if(here.Not())
            if anchor is not None and i == anchor.root:
                model.add(distance[i] == 0)
                continue
            model.add(distance[i] <= n - 1).only_enforce_if(here)
            if roots is not None:
                model.add(distance[i] == 0).only_enforce_if(roots[i])
            # one more than the nearest neighbour's, unless it is the root
            nearest = model.new_int_var(0, n, f"{name}_nearest{i}")
            if neighbours[i]:
                model.add_min_equality(nearest, [distance[j] for j in neighbours[i]])
            else:
                model.add(nearest == n)
            model.add(distance[i] == nearest + 1).only_enforce_if([here] if roots is None else [here, roots[i].Not()])

    def flow(
        self,
        chosen: list[Any],
        roots: list[Any] | None,
        anchor: Anchor | None,
        edges: Sequence[tuple[int, int]],
        name: str,
    ) -> None:
        # --- the root sends flow along edges between chosen vertices; every other chosen vertex keeps a unit
        model, n = self.model, len(chosen)
        self.determined = False
        inflow: list[list[Any]] = [[] for _ in chosen]
        outflow: list[list[Any]] = [[] for _ in chosen]
        for a, b in edges:
            for tail, head in ((a, b), (b, a)):
                check_time()
                if anchor is not None and head == anchor.root:
                    continue  # nothing flows back into a known root
                arc = model.new_int_var(0, n - 1, f"{name}_flow{tail}_{head}")
                model.add(arc == 0).only_enforce_if(chosen[tail].Not())
                model.add(arc == 0).only_enforce_if(chosen[head].Not())
                outflow[tail].append(arc)
                inflow[head].append(arc)
        for i, here in enumerate(chosen):
            kept = self.cp.LinearExpr.sum(inflow[i]) - self.cp.LinearExpr.sum(outflow[i])
            if roots is not None:
                model.add(kept >= 1).only_enforce_if([here, roots[i].Not()])
            elif i != anchor.root:  # type: ignore[union-attr]
                model.add(kept >= 1).only_enforce_if(here)

    def single_cycle(self, constraint: SingleCycle, index: int) -> None:
        model, name = self.model, f"c{index}"
        edges = [(a, b, self.literal(lit)) for a, b, lit in constraint.edges]
        # --- some edge is chosen (an empty circuit is no cycle)
        model.add_bool_or([lit for _, _, lit in edges])
        if not edges:
            return
        # --- a circuit: each chosen edge one arc, one way or the other; a self-loop on each vertex off it
        arcs, arc_of = [], {}
        for a, b, lit in edges:
            forward, backward = model.new_bool_var(f"{name}_arc{a}_{b}"), model.new_bool_var(f"{name}_arc{b}_{a}")
            model.add(forward + backward == lit)
            arc_of[a, b], arc_of[b, a] = forward, backward
            arcs += [(a, b, forward), (b, a, backward)]
        loops = [model.new_bool_var(f"{name}_off{v}") for v in range(constraint.vertex_count)]
        arcs += [(v, v, loop) for v, loop in enumerate(loops)]
        model.add_circuit(arcs)
        # --- one orientation per cycle: at its least vertex, the arc leaves towards the smaller neighbour
        roots = self.least([loop.Not() for loop in loops], name)
        neighbours: list[list[tuple[int, Any]]] = [[] for _ in loops]
        for a, b, lit in edges:
            neighbours[a].append((b, lit))
            neighbours[b].append((a, lit))
        for v, around in enumerate(neighbours):
            around.sort(key=lambda pair: pair[0])
            for i, (_, smaller_edge) in enumerate(around):
                for larger, _ in around[i + 1 :]:
                    model.add_bool_or([roots[v].Not(), arc_of[v, larger].Not(), smaller_edge.Not()])


#: A listing that follows the model's search hints: CP-SAT's fixed search over them (the other variables
#: after them as CP-SAT likes), no LP (the hand translators' measured choice for enumeration).
HINTED_LISTING: dict[str, Any] = {"linearization_level": 0}


def search_order(compiler: _Compiler, hints: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """The model's search hints as decision strategies: the variables in the hints' order, each run of equal
    signs one strategy (true first for a positive literal, false first for a negative one; CP-SAT takes the
    first strategy with a free variable, so they act as one list); the parameters that make CP-SAT follow
    them."""
    cp = compiler.cp
    runs: list[tuple[bool, list[Any]]] = []
    for literal, _ in hints:
        if not runs or runs[-1][0] != (literal > 0):
            runs.append((literal > 0, []))
        runs[-1][1].append(compiler.variables[abs(literal) - 1])
    for positive, variables in runs:
        chosen = cp.SELECT_MAX_VALUE if positive else cp.SELECT_MIN_VALUE
        compiler.model.add_decision_strategy(variables, cp.CHOOSE_FIRST, chosen)
    return {**HINTED_LISTING, "search_branching": cp.FIXED_SEARCH}


def encode(model: Model, variant: str, enumerate_: bool = False) -> CpsatModel:
    """The constraint model as a CpsatModel (the projection: the own variables); ``enumerate_``: for a listing
    (the engine's parameters), else a first solution (``LP_FIRST_SOLUTION`` where the model has channels)."""
    compiler = _Compiler(model, variant)
    # a channel states at once the enforced equalities it gathers: those are left out (the channel implies each)
    channels = channelled_equalities(model, compiler.groups)
    stated = gathered(channels)
    for index, constraint in enumerate(model.constraints):
        check_time()
        if not stated(constraint):
            state(compiler, constraint, index)
    for channel in channels:
        compiler.channelled(channel)
    for implied in implied_total(model):
        compiler.linear(implied)
    own = list(model.own)
    projection = [compiler.variables[v - 1] for v in own]
    auxiliaries = len(own) < model.variables

    def decode(values: Sequence[int]) -> Any:
        return model.decode(v for v, value in zip(own, values) if value)

    parameters = LP_FIRST_SOLUTION if channels and not enumerate_ else {}
    if enumerate_ and model.hints(True):
        parameters = search_order(compiler, model.hints(True))
    determined = compiler.determined and not auxiliaries
    return CpsatModel(compiler.model, projection, decode, parameters=parameters, determined=determined)


class Compiled(ModelCompiler):
    """The compiler as one family's translator: a CP-SAT model."""

    BACKEND = "cpsat"
    CATALOG = CATALOG

    def compile(self, model: Model, variant: str, options: Options) -> CpsatModel:
        return encode(model, variant, options.enumerate)


def for_family(family: str) -> Compiled:
    return Compiled(family)
