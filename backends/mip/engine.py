"""MIP mechanics shared by every family: solver adapters, enumeration by no-good cuts, limits, LP export.

A family's translator (``backends/mip/<family>.py``) writes the level as a
``MipEncoding``: a solver-neutral 0-1 linear model (``LinearModel``), the
columns that are the puzzle's own variables (``projection``) and a decoder.
The engine loads it into the solver the variant names:

* ``highs``: HiGHS through ``highspy``;
* ``scip``:  SCIP through OR-Tools' ``pywraplp`` (bundled with OR-Tools);
* ``compiled`` and its kin (``compiled-lazy``): a family's constraint model
  compiled (``compiled.py``), solved by HiGHS.

Both have a zero objective, so the first feasible point is optimal and the
solver stops there.  Counting adds a no-good cut over the projection after
each solution and solves again until the model is infeasible (complete) or a
limit stops it (``N+``): honest, one MIP solve per solution, so only for
levels with few solutions.  Time limits go through the solvers' own options
(HiGHS ``time_limit``, SCIP's ``limits/time`` via ``SetTimeLimit``); the
runner's process kill stands behind them.  Figures that chose the default:
docs/bench/mip.md.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...models.comments import comment_text
from ...models.errors import TrisolveError
from .. import base
from ..base import Limits, Options, Result, SolutionSink, Stopwatch, finish, luck_stats, shuffle_seed, shuffler
from ..catalog import Catalog

INF = math.inf
#: Solvers a variant names; the default is the measured faster (docs/bench/mip.md).
SOLVERS: tuple[str, ...] = ("highs", "scip")
#: The solver of the variants of the constraint-model compiler (``compiled``, ``compiled-...``).
COMPILED_SOLVER = "highs"


def solver_of(variant: str) -> str:
    """The solver a variant runs: the one it names, or the compiler's for a ``compiled`` variant."""
    if variant in SOLVERS:
        return variant
    if variant == "compiled" or variant.startswith("compiled-"):
        return COMPILED_SOLVER
    raise ValueError(f"mip variant {variant!r} names no solver; known: {', '.join(SOLVERS)}")


Terms = Iterable[tuple[int, float]]


class MipSolverError(TrisolveError):
    """The MIP solver ended without an answer trisolve can read (an error status, no SCIP in the build):
    the run has no answer."""


# ------------------------------------------------------------------ the model


@dataclass(frozen=True)
class Row:
    """``lower <= sum(coefficient * column) <= upper``, from the translator's constraint group ``group``."""

    terms: tuple[tuple[int, float], ...]
    lower: float
    upper: float
    group: str


@dataclass
class LinearModel:
    """A solver-neutral linear model with integer (0-1) and continuous columns and a zero objective.

    Column names are made of the puzzle's words and integers only (``tile_3_4``):
    nothing a user typed reaches a model file.  A row without terms whose
    bounds exclude 0 makes the model infeasible by itself (``contradiction``).
    """

    names: list[str] = field(default_factory=list)
    lower: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    contradiction: str | None = None

    def binary(self, name: str) -> int:
        return self._column(name, 0.0, 1.0, True)

    def continuous(self, name: str, lower: float, upper: float) -> int:
        return self._column(name, lower, upper, False)

    def _column(self, name: str, lower: float, upper: float, integer: bool) -> int:
        self.names.append(name)
        self.lower.append(lower)
        self.upper.append(upper)
        self.integer.append(integer)
        return len(self.names) - 1

    def add(self, terms: Terms, lower: float = -INF, upper: float = INF, group: str = "") -> None:
        """The row ``lower <= terms <= upper`` (coefficients of a repeated column are summed)."""
        merged: dict[int, float] = {}
        for column, coefficient in terms:
            merged[column] = merged.get(column, 0.0) + coefficient
        kept = tuple((c, a) for c, a in merged.items() if a != 0)
        if not kept:
            if not lower <= 0 <= upper and self.contradiction is None:
                self.contradiction = group or "an empty row that 0 does not satisfy"
            return
        self.rows.append(Row(kept, lower, upper, group))

    def equal(self, terms: Terms, value: float, group: str = "") -> None:
        self.add(terms, value, value, group)

    def at_most(self, terms: Terms, value: float, group: str = "") -> None:
        self.add(terms, -INF, value, group)

    def at_least(self, terms: Terms, value: float, group: str = "") -> None:
        self.add(terms, value, INF, group)


@dataclass(frozen=True)
class MipEncoding:
    """A family's level as a 0-1 model, with the way back to a solution.

    ``projection`` holds the columns that are the puzzle's own variables
    (0-1); ``decode`` gets the set of those at 1.  With ``block_true_only``
    every solution sets the same number of them to 1, so a no-good cut needs
    only those (``sum <= k - 1``).

    ``cuts``, when given, checks each point the solver finds against
    constraints the rows leave out (lazy ones: a connected region): it
    returns the rows (terms, lower, upper) the point breaks, none when it is
    a solution.  The engine adds them and solves again; a point that breaks
    one is never a solution, so never counted.
    """

    model: LinearModel
    projection: list[int]
    decode: Callable[[frozenset[int]], Any]
    block_true_only: bool = False
    cuts: Callable[[Sequence[float]], list[tuple[list[tuple[int, float]], float, float]]] | None = None


def terms(columns: Iterable[int], coefficient: float = 1.0) -> list[tuple[int, float]]:
    """``coefficient`` times each column, as row terms."""
    return [(c, coefficient) for c in columns]


def empty_model(catalog: Catalog, variant: str, family: str) -> LinearModel:
    """Where every mip translator starts: an empty model, once the family's ``catalog`` lists ``variant``.

    A variant names the solver only (``SOLVERS``): it is checked here and shapes nothing after, so every
    variant of a family solves the same rows."""
    catalog.require(variant, "mip", family)
    return LinearModel()


def lex_leq(model: LinearModel, pairs: Sequence[tuple[Terms, Terms]], symmetry: int, group: str) -> None:
    """Rows for "the 0/1 vector x is <=lex y", given as pairs of linear expressions (x_k, y_k) that are 0 or 1.

    ``equal_so_far[k]`` (continuous in [0, 1]) must be 1 while every earlier
    position is equal: ``e[k+1] >= e[k] - y_k`` (both 0) and ``e[k+1] >= e[k]
    + x_k - 1`` (both 1); while it is 1, ``x_k <= y_k`` (``x_k - y_k <= 1 -
    e[k]``).  Its least feasible value is exactly 0 or 1, and a larger one only
    adds constraints, so the 0-1 points kept are exactly the lex-leaders.
    """
    equal_so_far: int | None = None  # None: 1 (nothing compared yet)
    for index, (x, y) in enumerate(pairs):
        x, y = list(x), list(y)
        # while equal so far: x_k <= y_k, i.e. x_k - y_k + e[k] <= 1 (e[0] = 1: x_0 - y_0 <= 0)
        e = [] if equal_so_far is None else [(equal_so_far, 1.0)]
        model.at_most([*x, *((c, -a) for c, a in y), *e], 1.0 if e else 0.0, group)
        if index == len(pairs) - 1:
            break
        nxt = model.continuous(f"lex_{symmetry}_equal_so_far_{index + 1}", 0.0, 1.0)
        before = [] if equal_so_far is None else [(equal_so_far, -1.0)]
        constant = 0.0 if equal_so_far is not None else 1.0  # e[0] = 1
        # e[k+1] >= e[k] - y_k   and   e[k+1] >= e[k] + x_k - 1
        model.at_least([(nxt, 1.0), *before, *y], constant, group)
        model.at_least([(nxt, 1.0), *before, *((c, -a) for c, a in x)], constant - 1.0, group)
        equal_so_far = nxt


def shuffled(encoding: MipEncoding, seed: int) -> MipEncoding:
    """The same model with its columns and rows in another order, and each row's terms reordered.

    A MIP solver's search depends on the order of its input (branching ties,
    the LP's pivoting), not on its meaning: this is how ``--shuffle`` meets
    luck beyond the solver's own seed.  The solution set is unchanged;
    ``decode`` maps the new column numbers back first.
    """
    rng = shuffler(seed)
    model = encoding.model
    order = list(range(len(model.names)))
    rng.shuffle(order)  # order[new] = old
    new_of = {old: new for new, old in enumerate(order)}
    moved = LinearModel(
        names=[model.names[old] for old in order],
        lower=[model.lower[old] for old in order],
        upper=[model.upper[old] for old in order],
        integer=[model.integer[old] for old in order],
        contradiction=model.contradiction,
    )
    rows = list(model.rows)
    rng.shuffle(rows)
    for row in rows:
        row_terms = [(new_of[c], a) for c, a in row.terms]
        rng.shuffle(row_terms)
        moved.rows.append(Row(tuple(row_terms), row.lower, row.upper, row.group))
    decode = encoding.decode
    return MipEncoding(
        moved,
        sorted(new_of[c] for c in encoding.projection),
        lambda true: decode(frozenset(order[c] for c in true)),
        encoding.block_true_only,
        None if encoding.cuts is None else _renumbered_cuts(encoding.cuts, order, new_of),
    )


def _renumbered_cuts(cuts: Callable, order: list[int], new_of: dict[int, int]) -> Callable:
    """A shuffled model's ``cuts``: the point's values in the old column order, the rows in the new one."""

    def renumbered(values: Sequence[float]) -> list[tuple[list[tuple[int, float]], float, float]]:
        old_values = [0.0] * len(values)
        for new, old in enumerate(order):
            old_values[old] = values[new]
        return [([(new_of[c], a) for c, a in row], low, high) for row, low, high in cuts(old_values)]

    return renumbered


# ------------------------------------------------------------------ the solvers


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Send C-level standard output to /dev/null: HiGHS prints its banner when the first Highs() is built."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            try:
                yield
            finally:
                os.dup2(saved, 1)
    finally:
        os.close(saved)


def preload() -> None:
    """Import both solver libraries (and print HiGHS's banner where nobody reads it)."""
    import highspy
    from ortools.linear_solver import pywraplp  # noqa: F401

    with _quiet_stdout():
        highspy.Highs()


#: The process whose HiGHS scheduler (worker threads, started by its first solve) is live, or None.
_HIGHS_PROCESS: int | None = None


def _highs_scheduler_for_this_process(highspy: Any) -> None:
    """Restart HiGHS's global scheduler in a process forked from one that had used HiGHS.

    A forked child inherits the scheduler's state but none of its worker
    threads, and its first solve waits for them forever: the runner's kill at
    the time limit was the only way out (a run of level 10 after an
    in-process HiGHS solve in the same parent).  ``resetGlobalScheduler``
    starts it again for this process.
    """
    global _HIGHS_PROCESS
    if _HIGHS_PROCESS is not None and os.getpid() != _HIGHS_PROCESS:
        highspy.Highs.resetGlobalScheduler(True)
    _HIGHS_PROCESS = os.getpid()


class HighsSolver:
    """A LinearModel loaded into HiGHS (``highspy``); rows can be added between solves."""

    def __init__(self, model: LinearModel, seed: int) -> None:
        import highspy
        import numpy as np

        _highs_scheduler_for_this_process(highspy)
        self._highspy = highspy
        with _quiet_stdout():
            self.highs = highspy.Highs()
        h = self.highs
        h.setOptionValue("output_flag", False)
        h.setOptionValue("random_seed", int(seed))
        n = len(model.names)
        inf = h.getInfinity()

        def bound(value: float) -> float:
            return inf if value == INF else -inf if value == -INF else value

        h.addCols(
            n,
            np.zeros(n),
            np.array([bound(v) for v in model.lower], dtype=float),
            np.array([bound(v) for v in model.upper], dtype=float),
            0,
            np.array([], dtype=np.int32),
            np.array([], dtype=np.int32),
            np.array([], dtype=float),
        )
        integer = [i for i, flag in enumerate(model.integer) if flag]
        if integer:
            h.changeColsIntegrality(
                len(integer),
                np.array(integer, dtype=np.int32),
                np.array([highspy.HighsVarType.kInteger] * len(integer), dtype=np.uint8),
            )
        starts, indices, values = [], [], []
        for row in model.rows:
            starts.append(len(indices))
            indices.extend(c for c, _ in row.terms)
            values.extend(a for _, a in row.terms)
        if model.rows:
            h.addRows(
                len(model.rows),
                np.array([bound(r.lower) for r in model.rows], dtype=float),
                np.array([bound(r.upper) for r in model.rows], dtype=float),
                len(indices),
                np.array(starts, dtype=np.int32),
                np.array(indices, dtype=np.int32),
                np.array(values, dtype=float),
            )
        self.columns = n
        self.nodes = 0
        self.added = 0

    def solve(self, seconds: float | None) -> tuple[str, list[float] | None]:
        """``("sat", values)``, ``("unsat", None)`` or ``("unknown", None)`` (a limit came first)."""
        h, status_type = self.highs, self._highspy.HighsModelStatus
        h.setOptionValue("time_limit", float("inf") if seconds is None else max(seconds, 1e-3))
        if self.columns == 0:
            return "sat", []
        h.run()
        status = h.getModelStatus()
        if status == status_type.kSolveError:
            # HiGHS 1.16's presolve can reduce a MIP to empty with a point that breaks a row (it then reports a
            # solve error; seen on a 17x10 Nurikabe once its only solution is cut off): solve it once without presolve
            h.setOptionValue("presolve", "off")
            h.clearSolver()
            h.run()
            status = h.getModelStatus()
            h.setOptionValue("presolve", "choose")
        if status == status_type.kInfeasible and self.added:
            # HiGHS 1.16's presolve can also call a MIP infeasible once rows are added between solves although a
            # point satisfies every row (seen on a 10x10 Nurikabe with lazy cuts): such a verdict is confirmed
            # without presolve
            h.setOptionValue("presolve", "off")
            h.clearSolver()
            h.run()
            status = h.getModelStatus()
            h.setOptionValue("presolve", "choose")
        info = h.getInfo()
        self.nodes += int(getattr(info, "mip_node_count", 0) or 0)
        if status == status_type.kInfeasible:
            return "unsat", None
        if status == status_type.kOptimal or getattr(info, "primal_solution_status", 0) == 2:
            return "sat", list(h.getSolution().col_value)
        if status in (status_type.kTimeLimit, status_type.kInterrupt, status_type.kHighsInterrupt):
            return "unknown", None
        raise MipSolverError(f"HiGHS ended with {h.modelStatusToString(status)}")

    def add_row(self, row_terms: Sequence[tuple[int, float]], lower: float, upper: float) -> None:
        import numpy as np

        inf = self.highs.getInfinity()
        self.added += 1
        self.highs.addRow(
            -inf if lower == -INF else lower,
            inf if upper == INF else upper,
            len(row_terms),
            np.array([c for c, _ in row_terms], dtype=np.int32),
            np.array([a for _, a in row_terms], dtype=float),
        )

    def stats(self) -> dict[str, Any]:
        return {"solver": f"HiGHS {self.highs.version()}", "nodes": self.nodes}


class ScipSolver:
    """A LinearModel loaded into SCIP through OR-Tools' ``pywraplp``; rows can be added between solves."""

    def __init__(self, model: LinearModel, seed: int) -> None:
        from ortools.linear_solver import pywraplp

        self._pywraplp = pywraplp
        solver = pywraplp.Solver.CreateSolver("SCIP")
        if solver is None:
            raise MipSolverError("this OR-Tools build has no SCIP")
        solver.SuppressOutput()
        solver.SetNumThreads(1)
        # SCIP's own Ctrl-C handler would swallow the signal; the seed shifts all of SCIP's random seeds
        solver.SetSolverSpecificParametersAsString(
            f"misc/catchctrlc = FALSE\nrandomization/randomseedshift = {int(seed)}\n"
        )
        self.solver = solver
        inf = solver.infinity()
        self.variables = []
        for name, lower, upper, integer in zip(model.names, model.lower, model.upper, model.integer):
            low = -inf if lower == -INF else lower
            high = inf if upper == INF else upper
            make = solver.IntVar if integer else solver.NumVar
            self.variables.append(make(low, high, name))
        for row in model.rows:
            self.add_row(row.terms, row.lower, row.upper)

    def solve(self, seconds: float | None) -> tuple[str, list[float] | None]:
        solver, status_type = self.solver, self._pywraplp.Solver
        if seconds is not None:
            solver.SetTimeLimit(max(int(seconds * 1000), 1))
        status = solver.Solve()
        if status in (status_type.OPTIMAL, status_type.FEASIBLE):
            return "sat", [v.solution_value() for v in self.variables]
        if status == status_type.INFEASIBLE:
            return "unsat", None
        if status == status_type.NOT_SOLVED:
            return "unknown", None
        raise MipSolverError(f"SCIP ended with status {status}")

    def add_row(self, row_terms: Sequence[tuple[int, float]], lower: float, upper: float) -> None:
        solver = self.solver
        inf = solver.infinity()
        constraint = solver.RowConstraint(-inf if lower == -INF else lower, inf if upper == INF else upper, "")
        for column, coefficient in row_terms:
            constraint.SetCoefficient(self.variables[column], coefficient)

    def stats(self) -> dict[str, Any]:
        return {"solver": f"SCIP ({self.solver.SolverVersion()})", "nodes": int(self.solver.nodes())}


# ------------------------------------------------------------------ the backend


class MipBackend(base.Engine):
    """One family's 0-1 model solved by one MIP solver, e.g. ``mip:highs``."""

    BACKEND = "mip"

    def __init__(self, family: str, variant: str, translator: Any) -> None:
        super().__init__(family, variant, translator)
        self.solver = solver_of(variant)

    def solve(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """First solution, or enumeration by no-good cuts over the projection (complete when infeasible)."""
        started = time.monotonic()
        deadline = limits.deadline(started)
        watch = Stopwatch()

        watch.start("translate")
        encoding = self.translator.encode(level, self.variant, options)
        seed = shuffle_seed(options, seeded_solver=True)  # both solvers take --seed; --shuffle reorders too
        if seed is not None:
            encoding = shuffled(encoding, seed)
        watch.stop("translate")
        model = encoding.model
        stats: dict[str, Any] = {
            "columns": len(model.names),
            "integer_columns": sum(model.integer),
            "rows": len(model.rows),
            "projection": len(encoding.projection),
            **luck_stats(options, seed, "columns, rows and terms reordered"),
        }
        wanted = limits.solutions if options.enumerate else 1
        if wanted is not None and not options.enumerate:
            wanted = min(wanted, 1)
        if model.contradiction is not None:
            stats["infeasible_by_construction"] = model.contradiction
            return finish(self.name, self.family, [], exhausted=True, stats=stats, times=watch.times)

        watch.start("load")
        solver = HighsSolver(model, options.seed) if self.solver == "highs" else ScipSolver(model, options.seed)
        watch.stop("load")
        seen: set[frozenset[int]] = set()
        values: list[float] | None = None
        #: a no-good cut over no column (an empty projection) excluded every point: nothing is left
        exhausted = False
        lazy = 0

        def solve() -> bool | None:
            nonlocal values, lazy
            if exhausted:
                return False
            while True:
                outcome, values = solver.solve(None if deadline is None else deadline - time.monotonic())
                if outcome != "sat" or encoding.cuts is None:
                    return None if outcome == "unknown" else outcome == "sat"
                broken = encoding.cuts(values)
                if not broken:
                    return True
                for row in broken:
                    solver.add_row(*row)
                lazy += len(broken)
                if deadline is not None and time.monotonic() >= deadline:
                    return None

        def projected() -> frozenset[int]:
            assert values is not None
            true = frozenset(c for c in encoding.projection if values[c] > 0.5)
            if true in seen:
                raise MipSolverError(f"{self.name}: the solver returned a solution its no-good cut excludes")
            seen.add(true)
            return true

        def exclude(true: frozenset[int]) -> None:
            nonlocal exhausted
            if options.enumerate:
                row, lower, upper = no_good(encoding, true)
                if row:
                    solver.add_row(row, lower, upper)
                else:
                    exhausted = True

        found = base.list_by_exclusion(
            solve,
            projected,
            encoding.decode,
            exclude,
            wanted=wanted,
            listing=options.enumerate,
            deadline=deadline,
            on_solution=on_solution,
            watch=watch,
        )
        stats.update(solver.stats())
        if encoding.cuts is not None:
            stats["lazy_cuts"] = lazy
        return found.result(self.name, self.family, stats, watch.times, "no_good_cuts")

    def export(self, level: Any, options: Options) -> str:
        """The model in CPLEX LP format (HiGHS, SCIP, CBC and GLPK read it).  A translator whose rows leave
        constraints to lazy cuts gives ``export_encoding``: rows that state them all (a file carries no cuts)."""
        exported = getattr(self.translator, "export_encoding", None)
        encoding = (exported or self.translator.encode)(level, self.variant, options)
        name = getattr(level, "name", "") or "level"
        return to_lp(encoding.model, [f"trisolve {self.family} {name} mip (0-1 model, zero objective)"])


def no_good(encoding: MipEncoding, true: frozenset[int]) -> tuple[list[tuple[int, float]], float, float]:
    """The cut that excludes one solution, over projection columns only: (terms, lower, upper).

    Without terms (an empty projection; or, when every solution sets equally many columns, a solution that
    sets none) the cut reads ``0 <= -1`` or ``0 >= 1``: no assignment is left.  Solvers drop or ignore a
    row without columns, so the caller ends the listing there instead of adding it."""
    if encoding.block_true_only:
        return terms(sorted(true)), -INF, len(true) - 1.0
    # at least one projection column differs: sum(x off) + sum(1 - x on) >= 1
    row = [(c, -1.0 if c in true else 1.0) for c in encoding.projection]
    return row, 1.0 - len(true), INF


# ------------------------------------------------------------------ LP export


def to_lp(model: LinearModel, comments: Iterable[str] = ()) -> str:
    """The model as CPLEX LP text; a ranged row becomes two rows, a contradiction one impossible row.

    ``comments`` (the level's name among them) pass through ``comment_text``, without backslashes: a name
    cannot end its comment line and add a row."""
    marker = "\\"  # an LP comment runs from a backslash to the end of its line
    lines = [f"{marker} {comment_text(text, avoid=marker)}" for text in comments]
    lines += ["Minimize", " obj: 0 " + (model.names[0] if model.names else "nothing"), "Subject To"]

    def expression(row_terms: Sequence[tuple[int, float]]) -> str:
        return " ".join(f"{'+' if a >= 0 else '-'} {_number(abs(a))} {model.names[c]}" for c, a in row_terms)

    count = 0
    for row in model.rows:
        text = expression(row.terms)
        if row.lower == row.upper:
            lines.append(f" c{count}: {text} = {_number(row.lower)}")
            count += 1
            continue
        if row.lower != -INF:
            lines.append(f" c{count}: {text} >= {_number(row.lower)}")
            count += 1
        if row.upper != INF:
            lines.append(f" c{count}: {text} <= {_number(row.upper)}")
            count += 1
    if model.contradiction is not None or not model.names:
        lines.append(" impossible: 0 nothing >= 1" if model.contradiction is not None else " empty: 0 nothing >= 0")
    lines.append("Bounds")
    for name, lower, upper, integer in zip(model.names, model.lower, model.upper, model.integer):
        if not integer:
            low = "-inf" if lower == -INF else _number(lower)
            high = "+inf" if upper == INF else _number(upper)
            lines.append(f" {low} <= {name} <= {high}")
    if not model.names:
        lines.append(" nothing = 0")
    binaries = [n for n, integer in zip(model.names, model.integer) if integer]
    if binaries:
        lines.append("Binaries")
        lines.extend(" " + " ".join(binaries[i : i + 10]) for i in range(0, len(binaries), 10))
    lines.append("End")
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))
