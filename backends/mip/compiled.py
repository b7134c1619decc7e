"""Any family's constraint model as a 0-1 linear model, one block of rows per kind of constraint.

A 0-1 column per model variable (``x<number>``: the puzzle's words never
reach a model file); a literal is its column, or one minus it.  A clause is
a sum of literals of at least 1; a linear constraint its own row, or, when
enforced, a row relaxed by a big-M as large as the sum can stray (M times
the number of enforcing literals that do not hold); an all-different is
one-hot: at most one of its integers takes each value.

The graph constraints:

* a connected set (variant ``compiled``): a single-commodity flow from the
  root, the most central vertex the model forces chosen (``compiling.anchored``,
  with its pocket rows), else the least chosen vertex (0-1 root columns and a
  running "some vertex before it is chosen" column pick it): flow runs only between chosen
  vertices, and every other chosen vertex keeps at least one unit, so each
  one is reached from the root;
* a single cycle: each vertex has two chosen edges or none (``2 *
  used``), some edge is chosen, and the used vertices are connected by a
  flow along the chosen edges as above, so the edges make one cycle.

Variant ``compiled-lazy`` leaves connectivity out of the rows and checks
each point HiGHS finds (``MipEncoding.cuts``): a point whose chosen
vertices (or cycles) fall apart gets, per part, the row "if a vertex of
this part and one of another are chosen, so is a vertex next to this part"
(for a cycle: "two chosen edges leave this part"), and HiGHS solves again;
such a point is never a solution, so never counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...constraints import AllDifferent, Clause, Connected, Linear, Model, SingleCycle, graphs
from ...constraints.compiling import Anchor, anchored, constant_true_count, forced
from ...constraints.model import state
from ..base import Options
from ..catalog import Catalog, ModelCompiler
from .engine import LinearModel, MipEncoding, empty_model

CATALOG = Catalog(
    default="compiled",
    variants={
        "compiled": "the family's constraint model as 0-1 rows: clauses and sums, big-M enforcement, one-hot "
        "all-different; a single-commodity flow from the least chosen vertex for connected sets and cycles; HiGHS",
        "compiled-lazy": "the same rows without the flows: a point whose chosen vertices or cycles fall apart is cut "
        "off (a separator row per part) and HiGHS solves again; HiGHS",
    },
    symmetry_breaking=False,
    generic="constraints",
    supports="every kind",
)

#: Rows a lazy cut adds per part of an anchored connected set that fell apart: one per vertex, up to this many.
CUT_VERTICES = 8

Terms = list[tuple[int, float]]
Row = tuple[Terms, float, float]
INF = float("inf")


def literal_sum(weighted: Iterable[tuple[float, int]]) -> tuple[Terms, float]:
    """``sum(weight * literal)`` as row terms and a constant (a false literal ``-v`` is ``1 - x_v``)."""
    found: Terms = []
    constant = 0.0
    for weight, literal in weighted:
        if literal > 0:
            found.append((literal - 1, float(weight)))
        else:
            found.append((-literal - 1, -float(weight)))
            constant += weight
    return found, constant


class _Compiler:
    """One model compiled into one LinearModel: a method per kind of constraint."""

    def __init__(self, model: Model, rows: LinearModel, lazy: bool) -> None:
        self.source = model
        self.rows = rows
        self.lazy = lazy
        for v in range(1, model.variables + 1):
            rows.binary(f"x{v}")
        #: what the lazy checks look at: (connected constraint, its vertex literals) and (cycle, its used columns)
        self.regions: list[tuple[Connected, Anchor | None]] = []
        self.cycles: list[tuple[SingleCycle, list[int]]] = []
        self._fixed: dict[int, bool] | None = None

    @property
    def fixed(self) -> dict[int, bool]:
        """The values every solution shares (``compiling.forced``), found once."""
        if self._fixed is None:
            self._fixed = forced(self.source)
        return self._fixed

    def add(self, weighted: Iterable[tuple[float, int]], extra: Terms, lower: float, upper: float, group: str) -> None:
        """``lower <= sum(weight * literal) + extra <= upper``."""
        found, constant = literal_sum(weighted)
        self.rows.add(found + extra, lower - constant, upper - constant, group)

    # ------------------------------------------------------------------ clauses and linear constraints

    def clause(self, constraint: Clause) -> None:
        # --- at least one literal holds (an empty clause: a row 0 >= 1, no solution)
        self.add(((1, lit) for lit in constraint.literals), [], 1.0, INF, "clause")

    def linear(self, constraint: Linear) -> None:
        weighted = [(float(w), lit) for w, lit in constraint.terms]
        bound = float(constraint.bound)
        at_least = constraint.op in ("==", ">=")
        at_most = constraint.op in ("==", "<=")
        # --- not enforced: the row itself
        if not constraint.enforce:
            self.add(weighted, [], bound if at_least else -INF, bound if at_most else INF, "linear")
            return
        # --- enforced: relaxed by M for each enforcing literal that is false, M = how far the sum can stray
        highest = sum(w for w, _ in weighted if w > 0)
        lowest = sum(w for w, _ in weighted if w < 0)
        off = [(1.0, -e) for e in constraint.enforce]  # sum of the enforcing literals that do not hold
        if at_most and highest > bound:
            # sum <= bound + M * off  ->  sum - M * off <= bound
            big = highest - bound
            self.add(weighted + [(-big * w, lit) for w, lit in off], [], -INF, bound, "linear, enforced")
        if at_least and lowest < bound:
            # sum >= bound - M * off  ->  sum + M * off >= bound
            big = bound - lowest
            self.add(weighted + [(big * w, lit) for w, lit in off], [], bound, INF, "linear, enforced")

    # ------------------------------------------------------------------ all-different

    def all_different(self, constraint: AllDifferent) -> None:
        # --- each integer takes one value (its own exactly-one, restated), each value at most one integer
        holders: dict[int, list[int]] = {}
        for variable in constraint.variables:
            self.add(((1, lit) for lit in variable.literals), [], 1.0, 1.0, "all-different")
            for value, lit in zip(variable.values, variable.literals):
                holders.setdefault(value, []).append(lit)
        for literals in holders.values():
            if len(literals) > 1:
                self.add(((1, lit) for lit in literals), [], -INF, 1.0, "all-different")

    # ------------------------------------------------------------------ graphs

    def reached(
        self,
        chosen: Sequence[tuple[Terms, float]],
        ends: Sequence[tuple[int, int, tuple[Terms, float]]],
        name: str,
        root: int | None = None,
    ) -> None:
        """Rows saying every chosen vertex is reached from the root by a flow over ``ends`` (tail, head, the
        expression bounding the arc: flow only where it is 1).  ``chosen[i]`` is vertex i's "chosen" as (terms,
        constant), as ``literal_sum`` gives it.  The root is ``root``, a vertex every solution chooses, else the
        least chosen vertex."""
        rows, n = self.rows, len(chosen)
        if n < 2:
            return
        if root is not None:
            self.flow(chosen, [end for end in ends if end[1] != root], name, [float(i == root) for i in range(n)])
            return
        roots = [rows.binary(f"{name}_root{i}") for i in range(n)]
        # --- the root: chosen, and none before it is ("earlier" may be 1 only when a vertex before it is chosen)
        rows.at_most([(r, 1.0) for r in roots], 1.0, f"{name} root")
        earlier = None
        for i in range(n):
            chosen_terms, chosen_constant = chosen[i]
            # root_i <= chosen_i
            rows.add([(roots[i], 1.0), *((c, -a) for c, a in chosen_terms)], -INF, chosen_constant, f"{name} root")
            # root_i >= chosen_i - earlier_i
            extra = [] if earlier is None else [(earlier, 1.0)]
            rows.add(
                [(roots[i], 1.0), *((c, -a) for c, a in chosen_terms), *extra], chosen_constant, INF, f"{name} root"
            )
            if i + 1 < n:
                nxt = rows.continuous(f"{name}_earlier{i + 1}", 0.0, 1.0)
                # earlier_{i+1} <= earlier_i + chosen_i
                before = [] if earlier is None else [(earlier, -1.0)]
                rows.add(
                    [(nxt, 1.0), *before, *((c, -a) for c, a in chosen_terms)], -INF, chosen_constant, f"{name} root"
                )
                earlier = nxt
        self.flow(chosen, ends, name, [(r, float(n)) for r in roots])

    def flow(
        self,
        chosen: Sequence[tuple[Terms, float]],
        ends: Sequence[tuple[int, int, tuple[Terms, float]]],
        name: str,
        roots: Sequence[tuple[int, float] | float],
    ) -> None:
        """The flow rows of ``reached``; ``roots[i]`` is 1.0 for a known root (0.0 for any other vertex), else
        vertex i's root column with its weight n."""
        rows, n = self.rows, len(chosen)
        # --- flow on arcs whose expression is 1; every chosen vertex but the root keeps a unit
        inflow: list[Terms] = [[] for _ in range(n)]
        outflow: list[Terms] = [[] for _ in range(n)]
        for tail, head, (bound_terms, bound_constant) in ends:
            arc = rows.continuous(f"{name}_flow{tail}_{head}", 0.0, n - 1.0)
            # flow <= (n - 1) * expression
            rows.add(
                [(arc, 1.0), *((c, -(n - 1.0) * a) for c, a in bound_terms)],
                -INF,
                (n - 1.0) * bound_constant,
                f"{name} flow",
            )
            outflow[tail].append((arc, -1.0))
            inflow[head].append((arc, 1.0))
        for i in range(n):
            chosen_terms, chosen_constant = chosen[i]
            root = roots[i]
            if isinstance(root, float):
                if root:
                    continue  # a known root keeps nothing
                extra: Terms = []
            else:
                extra = [root]
            # in - out >= chosen_i - n * root_i
            rows.add(
                [*inflow[i], *outflow[i], *((c, -a) for c, a in chosen_terms), *extra],
                chosen_constant,
                INF,
                f"{name} flow",
            )

    def connected(self, constraint: Connected, index: int) -> None:
        anchor = anchored(self.fixed, constraint) if len(constraint.vertices) > 1 else None
        if anchor is not None:
            self.pockets(constraint, anchor)
        if self.lazy:
            self.regions.append((constraint, anchor))
            return
        # --- a flow from the root into chosen vertices only (so out of chosen ones only): the anchor's root
        # when the model forces a vertex chosen, else the least chosen vertex
        chosen = [literal_sum([(1, lit)]) for lit in constraint.vertices]
        ends = [(tail, head, chosen[head]) for a, b in constraint.edges for tail, head in ((a, b), (b, a))]
        self.reached(chosen, ends, f"g{index}", None if anchor is None else anchor.root)

    def pockets(self, constraint: Connected, anchor: Anchor) -> None:
        # --- rooted at a vertex every solution chooses: a vertex out of its reach is never chosen, and a chosen
        # vertex of a small set with a small fence means a chosen vertex on the fence (``graphs.Pocket``)
        vertices = constraint.vertices
        for vertex in anchor.unreachable:
            self.add([(1, vertices[vertex])], [], -INF, 0.0, "connected, out of reach")
        for pocket in anchor.pockets:
            fence = [(1, vertices[b]) for b in pocket.fence]
            for vertex in pocket.inside:
                # chosen(vertex) <= sum of chosen(b), b on the fence
                self.add([*fence, (-1, vertices[vertex])], [], 0.0, INF, "connected, pocket")

    def single_cycle(self, constraint: SingleCycle, index: int) -> None:
        rows, name = self.rows, f"c{index}"
        # --- some edge is chosen
        self.add(((1, lit) for _, _, lit in constraint.edges), [], 1.0, INF, "single cycle")
        # --- each vertex has two chosen edges (used) or none
        used = [rows.binary(f"{name}_used{v}") for v in range(constraint.vertex_count)]
        around: list[list[int]] = [[] for _ in used]
        for a, b, lit in constraint.edges:
            around[a].append(lit)
            around[b].append(lit)
        for v, literals in enumerate(around):
            self.add(((1, lit) for lit in literals), [(used[v], -2.0)], 0.0, 0.0, "single cycle")
        if self.lazy:
            self.cycles.append((constraint, used))
            return
        # --- the used vertices are connected by a flow along the chosen edges
        chosen = [([(column, 1.0)], 0.0) for column in used]
        ends = []
        for a, b, lit in constraint.edges:
            edge = literal_sum([(1, lit)])
            ends += [(a, b, edge), (b, a, edge)]
        self.reached(chosen, ends, name)

    # ------------------------------------------------------------------ the lazy checks

    def cuts(self, values: Sequence[float]) -> list[Row]:
        """The rows a point breaks: one per part of a connected set or a cycle that fell apart."""

        def holds(literal: int) -> bool:
            return (values[abs(literal) - 1] > 0.5) == (literal > 0)

        found: list[Row] = []
        for constraint, anchor in self.regions:
            chosen = [holds(lit) for lit in constraint.vertices]
            neighbours = graphs.adjacency(len(chosen), constraint.edges)
            parts = graphs.components(chosen, neighbours)
            if anchor is not None and len(parts) > 1:
                found += self.anchored_cuts(constraint, anchor, parts, neighbours)
                continue
            for k, part in enumerate(parts if len(parts) > 1 else ()):
                other = parts[(k + 1) % len(parts)][0]
                # chosen(v) + chosen(w) - 1 <= sum of chosen(b), b next to the part
                v, w = constraint.vertices[part[0]], constraint.vertices[other]
                fence = [(1.0, constraint.vertices[b]) for b in graphs.boundary(part, neighbours)]
                terms, constant = literal_sum([*fence, (-1.0, v), (-1.0, w)])
                found.append((terms, -1.0 - constant, INF))
        for constraint, used in self.cycles:
            chosen = [(a, b) for a, b, lit in constraint.edges if holds(lit)]
            pieces = graphs.edge_components(constraint.vertex_count, chosen)
            parts = [sorted({v for i in piece for v in chosen[i]}) for piece in pieces]
            for k, part in enumerate(parts if len(parts) > 1 else ()):
                inside = set(part)
                other = parts[(k + 1) % len(parts)][0]
                # edges leaving the part >= 2 * (used(v) + used(w) - 1)
                leaving = [(1.0, lit) for a, b, lit in constraint.edges if (a in inside) != (b in inside)]
                terms, constant = literal_sum(leaving)
                terms += [(used[part[0]], -2.0), (used[other], -2.0)]
                found.append((terms, -2.0 - constant, INF))
        return found

    def anchored_cuts(
        self, constraint: Connected, anchor: Anchor, parts: list[list[int]], neighbours: list[list[int]]
    ) -> list[Row]:
        """Cuts for a connected set whose root every solution chooses: each part without the root is fenced off
        from it, so a chosen vertex of the part means a chosen vertex next to the part (up to ``CUT_VERTICES``
        rows per part, one per vertex)."""
        found: list[Row] = []
        for part in parts:
            if anchor.root in part:
                continue
            fence = [(1.0, constraint.vertices[b]) for b in graphs.boundary(part, neighbours)]
            for vertex in part[:CUT_VERTICES]:
                # chosen(vertex) <= sum of chosen(b), b next to the part
                terms, constant = literal_sum([*fence, (-1.0, constraint.vertices[vertex])])
                found.append((terms, -constant, INF))
        return found


def encode(model: Model, variant: str, family: str) -> MipEncoding:
    """The constraint model as a MipEncoding (the projection: the own variables' columns)."""
    rows = empty_model(CATALOG, variant, family)
    compiler = _Compiler(model, rows, lazy=variant == "compiled-lazy")
    for index, constraint in enumerate(model.constraints):
        state(compiler, constraint, index)
    lazy = compiler.lazy and (compiler.regions or compiler.cycles)
    return MipEncoding(
        rows,
        [v - 1 for v in model.own],
        lambda true: model.decode(c + 1 for c in true),
        # a solution cut off by its true own columns alone where every solution has equally many
        block_true_only=constant_true_count(model),
        cuts=compiler.cuts if lazy else None,
    )


class Compiled(ModelCompiler):
    """The compiler as one family's translator: 0-1 rows (and cuts, lazily) for HiGHS."""

    BACKEND = "mip"
    CATALOG = CATALOG

    def compile(self, model: Model, variant: str, options: Options) -> MipEncoding:
        return encode(model, variant, self.family)

    def export_encoding(self, level: Any, variant: str, options: Options) -> MipEncoding:
        """What ``export`` writes: the rows of ``compiled`` (flows) for every variant, since a file cannot
        carry ``compiled-lazy``'s cuts."""
        CATALOG.require(variant, "mip", self.family)
        return self.encode(level, "compiled", options)


def for_family(family: str) -> Compiled:
    return Compiled(family)
