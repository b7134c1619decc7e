"""PySAT mechanics shared by every family: solving, projected enumeration, limits, DIMACS.

A family's translator (``backends/pysat/<family>.py``) turns a level into a
``CnfEncoding``; everything after that — choosing the SAT solver, blocking
found solutions, keeping to the time limit, statistics, export — lives here,
so adding a family means adding a translator module and nothing else.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pysat.formula import IDPool
from pysat.solvers import Solver

from trisolve.runs.processes import interrupts_held

from ...models.comments import comment_text
from ...models.errors import TrisolveError, UsageError, shorten
from .. import base
from ..base import (
    Limits,
    Options,
    OutOfTime,
    Result,
    SolutionSink,
    Stopwatch,
    building,
    finish,
    luck_stats,
    shuffle_seed,
    shuffler,
)
from ..catalog import UnknownVariant
from ..spec import Spec
from .signals import python_sigint

#: SAT solvers a variant may name after ``@``.  All of them add clauses between
#: solves (enumeration needs it) and can stop early (time limits need it);
#: Kissat (not incremental) and Lingeling (no limited solve) are left out.
SOLVERS: tuple[str, ...] = (
    "cadical195",
    "cadical153",
    "cadical300",
    "glucose4",
    "glucose42",
    "glucose3",
    "minisat22",
    "maplesat",
    "mergesat3",
)
#: Chosen by measurement: with symmetry breaking CaDiCaL is far faster than Glucose
#: (figures: docs/bench/timing-notes.md, "pysat").
DEFAULT_SOLVER = "cadical195"
#: Solvers whose ``interrupt()`` is not implemented in PySAT: their time limit is
#: kept with conflict budgets instead.
NOT_INTERRUPTIBLE: tuple[str, ...] = ("cadical195", "cadical153", "cadical300")

#: Solvers that take an external propagator (IPASIR-UP, ``pysat.engines``): cuts checked inside the search.
PROPAGATOR_SOLVERS: tuple[str, ...] = ("cadical195",)

#: First conflict budget of a sliced solve, and the wall time one slice aims at.
FIRST_BUDGET = 1_000
SLICE_SECONDS = 0.1


@dataclass(frozen=True)
class CnfEncoding:
    """A family's level as CNF, with the way back to a solution.

    ``projection`` holds the ids of the puzzle's own variables; ``decode`` gets
    the set of those that are true.  When ``block_true_only`` every solution
    sets the same number of projection variables true, so a found solution is
    excluded by negating its true variables alone (a shorter blocking clause).
    """

    pool: IDPool
    clauses: list[list[int]]
    projection: list[int]
    decode: Callable[[frozenset[int]], Any]
    block_true_only: bool = False
    #: after a shuffle, each variable's number before it (``pool`` names those)
    renumbered_from: Mapping[int, int] | None = None
    #: constraints left out of ``clauses``, checked on each candidate instead (lazy connectivity): given the
    #: candidate's values (``value(literal) -> bool``), the clauses that cut it off, none when it is a solution.
    #: Every cut must hold in every solution (it may only remove candidates that break a left-out constraint),
    #: so that a cut candidate is solved again, never counted.  Only the pysat engine can run such a CNF.
    cuts: Callable[[Callable[[int], bool]], list[list[int]]] | None = None
    #: the variables ``cuts`` reads and writes (an external propagator observes exactly these)
    cut_variables: tuple[int, ...] = ()
    #: check candidates inside the solver's search, through an external propagator (``PROPAGATOR_SOLVERS``),
    #: rather than between solver calls
    cuts_in_search: bool = False

    def key_of(self, var: int) -> Any:
        """The pool key a variable stands for (``("tile", 3, 4)``), shuffled or not."""
        return self.pool.obj(var if self.renumbered_from is None else self.renumbered_from[var])

    @property
    def variables(self) -> int:
        top = self.pool.top
        for clause in self.clauses:
            for literal in clause:
                if abs(literal) > top:
                    top = abs(literal)
        return top


def split_variant(variant: str) -> tuple[str, str]:
    """``"totalizer@glucose4"`` -> ``("totalizer", "glucose4")``; no ``@`` means the default solver."""
    named = Spec("pysat").with_variant(variant)
    return named.variant, named.solver or DEFAULT_SOLVER


def encodings(translator: ModuleType) -> Collection[str]:
    """The CNF encodings a translator accepts: its ``ENCODINGS`` when it has more than it registers."""
    return getattr(translator, "ENCODINGS", None) or translator.CATALOG.variants


class PysatBackend:
    """One (family, CNF encoding, SAT solver) configuration, e.g. ``pysat:totalizer@glucose4``."""

    def __init__(self, family: str, variant: str, translator: Any, backend: str = "pysat") -> None:
        """``translator`` (anything with ``CATALOG`` and ``encode``, and ``ENCODINGS`` when it takes more
        variants than its catalog lists) is the shipped ``backends/pysat/<family>.py`` the registry hands in, or
        a plugin's own CNF, which gets these mechanics under its own ``backend`` name (``backends.pysat.backend``)."""
        self.family = family
        self.backend = backend
        self.name = f"{backend}:{variant}"
        self.encoding, self.solver = split_variant(variant)
        self.translator = translator
        if self.encoding not in encodings(self.translator):
            known = ", ".join(encodings(self.translator))
            raise UnknownVariant(f"{backend} has no {family} encoding {shorten(self.encoding)!r}; known: {known}")
        if self.solver not in SOLVERS:
            raise UnknownVariant(f"pysat solver {shorten(self.solver)!r} is not supported; known: {', '.join(SOLVERS)}")

    # ------------------------------------------------------------------ run

    def run(self, level: Any, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """First solution, or enumeration with blocking clauses over the projection only."""
        started = time.monotonic()
        deadline = limits.deadline(started)
        watch = Stopwatch()

        refused = base.without_symmetry_breaking(self.name, self.family, options, self.translator.CATALOG)
        if refused is not None:
            return refused
        lex_leaders_only = first_solution_lex_leader(self.translator, options)
        if lex_leaders_only:
            options = dataclasses.replace(options, symmetry_breaking=True)
        translation = translate(self.translator, level, self.encoding, options, deadline, watch)
        if translation is None:
            stats = {"solver": self.solver, **luck_stats(options, None, shuffle_text(options))}
            late_stop = "time limit"
            return finish(
                self.name, self.family, [], exhausted=False, stats=stats, times=watch.times, stopped_by=late_stop
            )
        cnf, seed = translation
        # a translation that ran past the deadline: stop before loading the solver with it
        late = deadline is not None and time.monotonic() >= deadline

        wanted = limits.solutions
        if not options.enumerate:
            wanted = 1 if wanted is None else min(wanted, 1)
        stats: dict[str, Any] = {
            "solver": self.solver,
            "variables": cnf.variables,
            "clauses": len(cnf.clauses),
            "projection": len(cnf.projection),
            **luck_stats(options, seed, shuffle_text(options)),
            **({"first_solution": "lex-leaders only"} if lex_leaders_only else {}),
        }

        if late:
            return finish(
                self.name, self.family, [], exhausted=False, stats=stats, times=watch.times, stopped_by="time limit"
            )
        if cnf.cuts is not None:
            stats.update(cut_candidates=0, cuts=0)
        propagator = cut_propagator(self.solver, cnf)
        with solver_of(self.solver, cnf.clauses, propagator) as solver:
            # a solution found is decoded, handed on, then excluded by a blocking clause
            found = base.list_by_exclusion(
                lambda: solve_checked(solver, self.solver, deadline, cnf, stats),
                lambda: projected(cnf, solver.get_model()),
                cnf.decode,
                lambda true: solver.add_clause(blocking_clause(cnf, true)),
                wanted=wanted,
                listing=options.enumerate,
                deadline=None,
                on_solution=on_solution,
                watch=watch,
            )
            stats.update(solver_stats(solver))
        if propagator is not None:
            stats.update(propagator_checks=propagator.checked, propagator_cuts=propagator.cut)
        return found.result(self.name, self.family, stats, watch.times, "blocking_clauses")

    # --------------------------------------------------------------- export

    def export(self, level: Any, options: Options) -> str:
        refuse_symmetry_breaking(self.name, self.translator.CATALOG, options)
        with python_sigint():
            cnf = self.translator.encode(level, self.encoding, options)
        name = getattr(level, "name", "") or "level"
        return to_dimacs(cnf, [f"trisolve {self.family} {name} {self.backend}:{self.encoding}"])


# ------------------------------------------------------------------ solving


def solve_checked(solver: Solver, name: str, deadline: float | None, cnf: CnfEncoding, stats: dict) -> bool | None:
    """``solve_until``, and for a CNF with ``cuts``: each candidate is checked, and one that breaks a left-out
    constraint is cut off and the solver runs again, so only solutions come out (never counted, never shown).

    With ``cuts_in_search`` the propagator has checked the candidate already; it is checked again here, which
    costs one pass over the graph and makes the answer's exactness independent of the propagator."""
    while True:
        outcome = solve_until(solver, name, deadline)
        if outcome is not True or cnf.cuts is None:
            return outcome
        model = solver.get_model()
        cuts = cnf.cuts(functools.partial(_model_value, model))
        if not cuts:
            return True
        stats["cut_candidates"] += 1
        stats["cuts"] += len(cuts)
        for clause in cuts:
            solver.add_clause(clause)


def _model_value(model: list[int], literal: int) -> bool:
    var = abs(literal)
    return (var <= len(model) and model[var - 1] > 0) == (literal > 0)


def projected(cnf: CnfEncoding, model: list[int]) -> frozenset[int]:
    """The projection variables a model sets true (the puzzle's own: auxiliaries never count)."""
    return frozenset(v for v in cnf.projection if v <= len(model) and model[v - 1] > 0)


def solve_until(solver: Solver, name: str, deadline: float | None) -> bool | None:
    """Solve once; True/False as the solver says, None when the deadline came first.

    Glucose and the Minisat family are interrupted from a timer thread.  CaDiCaL
    cannot be interrupted through PySAT, but it honours a conflict budget, so it
    solves in slices of about ``SLICE_SECONDS`` and checks the clock between
    them (learnt clauses carry over from slice to slice); it slices without a
    deadline too, so that a Ctrl-C (``signals.python_sigint``: PySAT's own
    handler is never installed) is raised at the end of the slice.
    """
    with python_sigint():
        if name in NOT_INTERRUPTIBLE:
            return _solve_in_slices(solver, math.inf if deadline is None else deadline)
        if deadline is None:
            return solver.solve()  # Ctrl-C comes when it returns: give in-process runs a time limit
        return _solve_with_timer(solver, deadline)


def _solve_with_timer(solver: Solver, deadline: float) -> bool | None:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    timer = threading.Timer(remaining, solver.interrupt)
    timer.start()
    try:
        outcome = solver.solve_limited(expect_interrupt=True)
    finally:
        with interrupts_held():  # the timer must be gone before the solver may be deleted
            timer.cancel()
            timer.join()
            solver.clear_interrupt()
    return outcome


def _solve_in_slices(solver: Solver, deadline: float) -> bool | None:
    budget = FIRST_BUDGET
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        solver.conf_budget(budget)
        began = time.monotonic()
        outcome = solver.solve_limited()
        if outcome is not None:
            return outcome
        # size the next slice from the observed conflict rate, never past the deadline
        elapsed = max(time.monotonic() - began, 1e-4)
        target = min(SLICE_SECONDS, max(deadline - time.monotonic(), 0.0))
        budget = max(100, min(int(budget / elapsed * target), 4 * budget, 1_000_000))


def cut_propagator(name: str, cnf: CnfEncoding) -> Any:
    """The external propagator that checks ``cnf``'s cuts inside solver ``name``'s search (``propagator.py``),
    or None when ``cnf`` does not ask for one; a solver that takes none is refused."""
    if cnf.cuts is None or not cnf.cuts_in_search:
        return None
    if name not in PROPAGATOR_SOLVERS:
        raise UsageError(
            f"solver {name} takes no external propagator: checking cuts inside the search needs "
            f"{' or '.join(PROPAGATOR_SOLVERS)}"
        )
    from .propagator import CutPropagator

    return CutPropagator(cnf)


@contextlib.contextmanager
def solver_of(name: str, clauses: Iterable[list[int]], propagator: Any = None) -> Iterator[Solver]:
    """A PySAT solver loaded with ``clauses`` (and connected to ``propagator``), deleted in one piece
    (``runs.processes.interrupts_held``).

    Why: a Ctrl-C between freeing the solver and PySAT forgetting its pointer makes the solver's
    ``__del__`` free it again, and the process dies by SIGSEGV (docs/bench/timing-notes.md, "pysat").
    """
    with python_sigint():
        solver = Solver(name=name, bootstrap_with=clauses)
        if propagator is not None:
            propagator.connect(solver)
    try:
        yield solver
    finally:
        with interrupts_held(), python_sigint():
            if propagator is not None:
                solver.disconnect_propagator()
            solver.delete()


def lex_leq(pool: IDPool, pairs: list[tuple[int, int]], symmetry: int) -> list[list[int]]:
    """Clauses for "the 0/1 vector x is <=lex y", given as the pairs (x_i, y_i) in order.

    A chain of ``("lex_equal_so_far", symmetry, i)`` variables says that every
    position before i is equal; while it holds, x_i may not be 1 where y_i is 0.
    Symmetry breaking in every family states its lex-leader rule through this.
    """
    clauses: list[list[int]] = []
    equal_so_far: int | None = None  # None: true (nothing compared yet)
    for index, (x, y) in enumerate(pairs):
        so_far = [] if equal_so_far is None else [-equal_so_far]
        clauses.append([*so_far, -x, y])
        if index == len(pairs) - 1:
            break
        # lex_equal_so_far <=> (equal before) and (x <=> y)
        nxt = pool.id(("lex_equal_so_far", symmetry, index + 1))
        if equal_so_far is not None:
            clauses.append([-nxt, equal_so_far])
        clauses.append([-nxt, x, -y])
        clauses.append([-nxt, -x, y])
        clauses.append([*so_far, x, y, nxt])
        clauses.append([*so_far, -x, -y, nxt])
        equal_so_far = nxt
    return clauses


def first_solution_lex_leader(translator: ModuleType, options: Options) -> bool:
    """Whether a first-solution run searches lex-leaders only, as the family's translator measured best.

    Every lex-leader is a solution, so the answer is as valid as any; with
    Hexiom's order-encoded lex chain CaDiCaL finds one on level 38 in a few
    conflicts, where the plain CNF takes thousands (``FIRST_SOLUTION_LEX_LEADER``).
    Counts never change: enumeration runs as asked.
    """
    return (
        not options.enumerate
        and not options.symmetry_breaking
        and getattr(translator, "FIRST_SOLUTION_LEX_LEADER", False)
    )


def translate(
    translator: Any,
    level: Any,
    variant: str,
    options: Options,
    deadline: float | None,
    watch: Stopwatch,
    *,
    seeded_solver: bool = False,
    renumber: bool | None = None,
) -> tuple[CnfEncoding, int | None] | None:
    """The level's CNF under ``variant`` and the seed it was shuffled with, timed as "translate" on ``watch``:
    what pysat, dimacs and ganak do before their solvers.  None when ``deadline`` came first.  ``--seed`` and
    ``--shuffle`` reach the solver as a shuffle of the CNF (``shuffle_seed``: ``seeded_solver`` says whether it
    takes ``--seed`` itself); ``renumber``, None for ``options.shuffle``, whether the variables are renumbered
    too.  A translator calls pysat's CardEnc, so it runs under ``python_sigint``."""
    watch.start("translate")
    try:
        with python_sigint(), building(deadline):
            cnf = translator.encode(level, variant, options)
    except OutOfTime:
        watch.stop("translate")
        return None
    seed = shuffle_seed(options, seeded_solver=seeded_solver)
    if seed is not None:
        cnf = shuffled(cnf, seed, renumber=options.shuffle if renumber is None else renumber)
    watch.stop("translate")
    return cnf, seed


def shuffled(cnf: CnfEncoding, seed: int, renumber: bool = True) -> CnfEncoding:
    """The same CNF with clauses and their literals reordered and, with ``renumber``, variables renumbered.

    CDCL search depends on clause order (watch lists, propagation order) and
    on variable numbers (CaDiCaL's initial decision order), not on meaning:
    this is how a SAT solver without a seed of its own meets luck.  The
    solution set is unchanged; ``decode`` maps new numbers back first.
    """
    rng = shuffler(seed)
    top = cnf.variables
    order = list(range(1, top + 1))
    if renumber:
        rng.shuffle(order)
    new = dict(zip(range(1, top + 1), order))
    old_of = {n: o for o, n in new.items()}
    clauses = []
    for clause in cnf.clauses:
        moved = [new[abs(lit)] if lit > 0 else -new[abs(lit)] for lit in clause]
        rng.shuffle(moved)
        clauses.append(moved)
    rng.shuffle(clauses)
    decode = cnf.decode

    def decode_renumbered(true: frozenset[int]) -> Any:
        return decode(frozenset(old_of[v] for v in true))

    earlier = cnf.renumbered_from or {}
    return CnfEncoding(
        pool=cnf.pool,
        clauses=clauses,
        projection=sorted(new[v] for v in cnf.projection),
        decode=decode_renumbered if renumber else decode,
        block_true_only=cnf.block_true_only,
        renumbered_from={n: earlier.get(o, o) for n, o in old_of.items()} if renumber else cnf.renumbered_from,
        cuts=None if cnf.cuts is None else _renumbered_cuts(cnf.cuts, new, old_of),
        cut_variables=tuple(new[v] for v in cnf.cut_variables),
        cuts_in_search=cnf.cuts_in_search,
    )


def _renumbered_cuts(
    cuts: Callable[[Callable[[int], bool]], list[list[int]]], new: Mapping[int, int], old_of: Mapping[int, int]
) -> Callable[[Callable[[int], bool]], list[list[int]]]:
    """A cuts hook over renumbered variables: it reads the candidate and writes its cuts in the new numbers."""

    def renumbered(value: Callable[[int], bool]) -> list[list[int]]:
        def old_value(literal: int) -> bool:
            return value(new[literal] if literal > 0 else -new[-literal])

        return [[new[lit] if lit > 0 else -new[-lit] for lit in clause] for clause in cuts(old_value)]

    return renumbered


def count_up_to(pool: IDPool, lits: list[int], cap: int, clauses: list[list[int]]) -> list[int]:
    """Outputs ``o`` with ``o[k-1]`` true exactly when at least k of ``lits`` are (k = 1..min(len, cap)).

    A totalizer with clauses in both directions (Bailleux and Boufkhad), its
    counts cut off at ``cap``: k true inputs force output k, and k false
    inputs force the output for len-k+1 off.  PySAT's totalizers push counts
    up only, so an exact count with them takes a second one over the negated
    inputs.  The clauses depend only on (len, cap): they are built once as a
    template and renumbered per use (auxiliaries numbered past ``pool.top``).
    """
    template, auxiliaries, outputs = _counter_template(len(lits), min(cap, len(lits)))
    first = pool.top + 1
    pool.top += auxiliaries
    number = [0, *lits, *range(first, first + auxiliaries)]  # template variable -> literal
    clauses.extend([number[v] if v > 0 else -number[-v] for v in clause] for clause in template)
    return [number[v] for v in outputs]


@functools.lru_cache(maxsize=256)
def _counter_template(n: int, cap: int) -> tuple[tuple[tuple[int, ...], ...], int, tuple[int, ...]]:
    """count_up_to's clauses over inputs 1..n and auxiliaries n+1..: (clauses, auxiliaries, outputs)."""
    clauses: list[tuple[int, ...]] = []
    top = n
    layer: list[list[int]] = [[v] for v in range(1, n + 1)]
    while len(layer) > 1:
        merged = []
        for a, b in zip(layer[::2], layer[1::2]):
            size = min(len(a) + len(b), cap)
            r = list(range(top + 1, top + 1 + size))
            top += size
            for i in range(len(a) + 1):
                for j in range(len(b) + 1):
                    # up: a >= i and b >= j  =>  sum >= i + j (up to the cut-off: by unit propagation
                    # a node with c true inputs below it sets all its outputs up to c)
                    if 0 < i + j <= size:
                        clauses.append((r[i + j - 1], *([-a[i - 1]] if i else []), *([-b[j - 1]] if j else [])))
                    # down: a <= i and b <= j  =>  sum <= i + j (a cut-off count is never <= anything)
                    if i + j < size:
                        clauses.append((-r[i + j], *([a[i]] if i < len(a) else []), *([b[j]] if j < len(b) else [])))
            merged.append(r)
        if len(layer) % 2:
            merged.append(layer[-1])
        layer = merged
    return tuple(clauses), top - n, tuple(layer[0] if layer else ())


def shuffle_text(options: Options) -> str:
    """What a CNF shuffle changed: ``--seed`` alone reorders; ``--shuffle`` also renumbers."""
    return "clauses and literals reordered" + (", variables renumbered" if options.shuffle else "")


def blocking_clause(cnf: CnfEncoding, true: frozenset[int]) -> list[int]:
    """The clause that excludes one solution, over projection variables only."""
    if cnf.block_true_only:
        return [-v for v in sorted(true)]
    return [-v if v in true else v for v in cnf.projection]


def solver_stats(solver: Solver) -> dict[str, int]:
    try:
        accum = solver.accum_stats() or {}
    except (NotImplementedError, AttributeError):
        return {}
    keys = ("conflicts", "decisions", "propagations", "restarts")
    return {key: int(accum[key]) for key in keys if key in accum}


# ------------------------------------------------------------------- DIMACS


def refuse_symmetry_breaking(name: str, catalog: Any, options: Options) -> None:
    """An export that asks for symmetry breaking from a catalog that offers none is refused (a run answers
    unknown instead)."""
    if options.symmetry_breaking and not catalog.symmetry_breaking:
        raise UsageError(f"{name} cannot break symmetries: export it without --symmetry-breaking")


def require_every_constraint(cnf: CnfEncoding) -> None:
    """Refuse a CNF that leaves constraints to ``cuts``, for a use that sees its clauses alone (a file, a
    counter): they would have other solutions."""
    if cnf.cuts is not None:
        raise UsageError(
            "this encoding checks some constraints on each candidate instead of stating them as clauses, "
            "so its CNF alone has other solutions: export or count an encoding that states every constraint"
        )


def to_dimacs(cnf: CnfEncoding, comments: Iterable[str] = ()) -> str:
    """DIMACS CNF text in the model counting competition's format for projected counts.

    ``c 17 tile 3 4`` says variable 17 is the key ``("tile", 3, 4)``; these
    lines come before the ``p`` line, where every DIMACS reader accepts them.
    ``c t pmc`` (first line) and ``c p show v1 v2 ... 0`` (right after the
    ``p`` line) give the projection: the puzzle's own variables, so that a
    model counter (Ganak, d4, sharpSAT-TD) counts solutions rather than
    models, which differ by the auxiliaries of cardinality encodings (Hexiom
    level 10: 8 solutions, 2,357,103,969,959,936 models).  SAT solvers read
    both lines as comments.

    ``comments`` are texts for comment lines after the type line; they and the
    keys (a logic grid's keys hold its names) pass through ``comment_text``:
    nothing in a name can end its line and start a header or a clause.

    A CNF that leaves constraints out (``cuts``: they are checked on each candidate) is refused: on its own it
    has other solutions.
    """
    require_every_constraint(cnf)
    lines = ["c t pmc", *(f"c {comment_text(text)}" for text in comments)]
    for var in cnf.projection:
        key = cnf.key_of(var)
        words = key if isinstance(key, tuple) else (key,)
        lines.append("c " + comment_text(" ".join(str(w) for w in (var, *words)), width=None))
    lines.append(f"p cnf {cnf.variables} {len(cnf.clauses)}")
    lines.append(" ".join(["c p show", *map(str, sorted(cnf.projection)), "0"]))
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in cnf.clauses)
    return "\n".join(lines) + "\n"


class SolverOutputError(TrisolveError, ValueError):
    """A SAT solver's output has no usable verdict (no ``s`` line, or ``s UNKNOWN``): the solver failed, not
    the user (exit code 1)."""


def parse_dimacs_model(text: str) -> set[int] | None:
    """The variables a SAT-competition style output sets true; None when it says UNSATISFIABLE.

    Reads ``s SATISFIABLE`` / ``s UNSATISFIABLE`` and the ``v`` lines, whose
    literals may run over several lines and end with ``0``.  Anything else
    (``c`` lines, blank lines) is ignored.  Raises SolverOutputError when there
    is no verdict, the verdict is UNKNOWN, or a satisfiable answer has no model.
    """
    verdict: str | None = None
    literals: list[int] = []
    ended = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("s "):
            verdict = line[2:].strip().upper()
        elif line == "v" or line.startswith("v "):
            for token in line[1:].split():
                try:
                    literal = int(token)
                except ValueError:
                    raise SolverOutputError(f"line {number}: {token!r} is not a literal") from None
                if literal == 0:
                    ended = True
                    break
                literals.append(literal)
    if verdict == "UNSATISFIABLE":
        return None
    if verdict != "SATISFIABLE":
        found = "no 's' line" if verdict is None else f"'s {verdict}'"
        raise SolverOutputError(f"the solver gave no answer ({found})")
    if not literals and not ended:
        raise SolverOutputError("'s SATISFIABLE' without a 'v' line")
    return {literal for literal in literals if literal > 0}


def decode_model(cnf: CnfEncoding, true_variables: set[int]) -> Any:
    """A solution from an external solver's model (e.g. ``parse_dimacs_model`` output)."""
    return cnf.decode(frozenset(v for v in cnf.projection if v in true_variables))
