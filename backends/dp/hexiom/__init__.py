"""Count Hexiom solutions exactly with a dynamic program over occupancy, no solver.

Why this works: a tile's number *is* its count of occupied neighbours, so a
solution is fixed by which cells are occupied.  The program decides the cells
one by one in reading order and keeps, per partial board, only what the rest
of the board can still affect:

* the **frontier**: every decided cell that still has an undecided neighbour,
  with ``EMPTY`` or its occupied-neighbour count so far;
* the **stock**: per number, the movable tiles not shown yet.

A cell's number is final when its last neighbour is decided; it then leaves
the frontier and takes one tile of that number from the stock (a locked cell
must reach its own number instead).  Partial boards with the same frontier
and stock have the same completions, so they are merged and only counted:
``layer[frontier][stock] = number of partial boards``.

The stock is one packed integer with a guard bit above every field, so
"take these tiles", "no more left than cells that could still show them"
and "at least what the open tiles already need" are each one subtraction
and one mask test (a field that goes negative borrows its guard bit).

Symmetry classes (for symmetry-breaking runs) come from Burnside's lemma:
classes = average over the level's symmetries g of the boards g leaves
unchanged.  Such a board is constant on each cycle of g, so the same program
counts them on the *folded* board, one vertex per cycle: a vertex shows its
number on all its cells at once and counts neighbours with multiplicity.
The plain count is the fold by the identity.

Three programs run this plan (``plan.py``: the fold, the order of decisions, the stock):

* plain counts (the identity fold) run compiled, in ``runs.py``: the
  stock becomes a small tally bounded by the edge identity (every board has
  a fixed number of empty cells and a fixed "defect" of them), states grouped
  by frontier; a level the mirror across its middle row keeps is counted by
  halves (``halves.py``): one table of the upper half, used again
  upside down as the lower half, joined over the middle rows.  That is how
  level 40 is counted.
* the other folds (Burnside's fixed boards) use the array program in
  ``layers.py``: a layer is a few numpy arrays, and at the end of each
  row a state merges with its mirror image when the level is symmetric.  It
  shares no counting code with the compiled one, so Burnside's divisibility
  is a check of the plain count by independent code.
* the dictionary program here (``Program``) rebuilds one board, because
  walking back needs its layers as lookups.

The tests check all of them against a brute force, and ``scripts/dp_hexiom.py``
runs them side by side.

Everything here comes from the rules in ``models/hexiom/model.py`` (blocked cells
stay empty, locked tiles stay, the placed numbers are exactly
``tile_counts``, every tile d has d occupied neighbours); it shares no code
with the solver translators.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ....models.hexiom.model import MAX_TILE, Board, Level, Solution, apply_symmetry, symmetry_key
from ... import base
from ...base import Limits, Options, Result, SolutionSink, Status
from ...catalog import Catalog
from ..counter import Counter
from ..memory import DEFAULT_MEMORY, resident
from .plan import EMPTY, Budget, Outcome, Plan, Step, Stock, Stopped, fold, make_plan, program_stats

CATALOG = Catalog(
    default="frontier",
    variants={
        "frontier": "exact count by a DP over occupancy in reading order (frontier neighbour counts + tile stock, "
        "layers in numpy arrays); "
        "enumeration is count-only, a first-solution run rebuilds one board; symmetry classes by Burnside",
    },
    count_only=True,
    refuses=True,
)


#: Plain counts of levels at least this wide are counted by halves (smaller ones are over in a second or two
#: row by row, and the halves' join kernel would cost its compilation on a fresh install for nothing).
HALVES_FROM_SIDE = 6
#: Bytes of one state (frontier, stock) in the dictionary program that rebuilds a board (a first-solution
#: run holds two layers, and a few more while it walks back): the memory budget divided by this is its state limit.
DICT_BYTES_PER_STATE = 500
DEFAULT_MAX_STATES = DEFAULT_MEMORY // DICT_BYTES_PER_STATE
#: Frontiers processed between two looks at the clock inside one step.
CLOCK_EVERY = 64


def refusal(level: Level, options: Options) -> str | None:
    """Why dp will not count this level, or None when it will (``Catalog.refuses``; the defaults ask first).

    A count whose plan the compiled kernels cannot take runs the array program (``layers``), whose
    state keys must fit 64 bits (``key_space_refusal``, for the frontier width of the plan: the narrower a
    frontier, the more of them the memory budget holds).  The folds of a symmetry-breaking count run it too,
    on narrower frontiers, so there it answers for the narrowest.  A first-solution run (the dictionary
    program, Python ints throughout) takes any level.
    """
    if not options.enumerate:
        return None
    from .layers import key_space_refusal

    memory = DEFAULT_MEMORY if options.memory is None else options.memory
    width = 0 if options.symmetry_breaking else make_plan(fold(level)).width
    why = key_space_refusal(level, width, memory)
    return None if why is None else f"{why}; use --backend pysat"


def _fits_table(movable: tuple[int, ...]) -> tuple[tuple[bool, ...], ...]:
    """fits[v][r]: can a movable tile with v occupied neighbours and r undecided ones still show a number in stock?"""
    return tuple(
        tuple(any(movable[d] > 0 for d in range(v, min(v + r, MAX_TILE) + 1)) for r in range(MAX_TILE + 1))
        for v in range(MAX_TILE + 1)
    )


def advance(step: Step, frontier: tuple[int, ...], occupied: bool, fits, take) -> tuple[tuple[int, ...], int] | None:
    """Decide ``step.vertex``: the next frontier and the tiles taken, or None when no board can follow."""
    values = list(frontier)
    if occupied:
        count = step.own
        for p, to_them, to_me in step.earlier:
            v = values[p]
            if v != EMPTY:
                values[p] = v + to_them
                count += to_me
        values.append(count)
    else:
        values.append(EMPTY)
    taken = 0
    # --- a vertex whose last neighbour is decided shows its final number
    locked_at = step.locked_at
    for p in step.finalised:
        v = values[p]
        if v == EMPTY:
            continue
        number = locked_at[p]
        if number is None:
            if take[v] < 0:
                return None  # no movable tile shows that number
            taken += take[v] * step.weight_at[p]
        elif v != number:
            return None  # a locked tile must show its own number
    # --- every open tile must still be able to reach a number it may show
    for p, room, number in step.touched:
        v = values[p]
        if v == EMPTY:
            continue
        if number is None:
            if not fits[v][room]:
                return None
        elif not v <= number <= v + room:
            return None
    return tuple([values[p] for p in step.keep]), taken


class Bounds:
    """What the stock must respect once a frontier is reached, whatever came before.

    Ceiling: a field can hold no more tiles than the open tiles and future
    free vertices could still show.  Floor: open tiles whose every possible
    number lies in a field need that many tiles in it.  Both are sums of
    packed per-vertex contributions; they are skipped when they cannot bind.
    """

    def __init__(self, plan: Plan, stock: Stock) -> None:
        self.stock = stock
        top = MAX_TILE + 1
        self.ceiling_of = [
            [stock.pack(stock.can_show(v, min(v + r, MAX_TILE)), guards=False) for r in range(top)] for v in range(top)
        ]
        self.floor_of = [
            [stock.pack(stock.must_show(v, min(v + r, MAX_TILE)), guards=False) for r in range(top)] for v in range(top)
        ]
        self.starting = stock.pack(stock.start, guards=False)
        # per step: guards + what future free vertices could show; guards + the least each field can hold by then
        self.future = [stock.pack([step.future_at_least[min(f)] for f in stock.fields]) for step in plan.steps]
        self.least = [stock.pack([s - step.gone for s in stock.start]) for step in plan.steps]

    def of(self, i: int, step: Step, frontier: tuple[int, ...]) -> tuple[int, int, bool, bool]:
        """(ceiling with guards, floor, ceiling can bind, floor can bind) after step i."""
        ceiling = self.future[i]
        floor = 0
        room, weight = step.after_room, step.after_weight
        for p, v in enumerate(frontier):
            if v != EMPTY and weight[p]:
                ceiling += weight[p] * self.ceiling_of[v][room[p]]
                floor += weight[p] * self.floor_of[v][room[p]]
        guards = self.stock.guards
        ceiling_binds = (ceiling - self.starting) & guards != guards
        floor_binds = (self.least[i] - floor) & guards != guards
        return ceiling, floor, ceiling_binds, floor_binds


def _merge(
    boards: dict[int, int], target: dict[int, int], taken: int, bound: tuple[int, int, bool, bool], guards: int
) -> None:
    """Add one frontier's boards to the next frontier's, minus the tiles taken, within the bounds."""
    ceiling, floor, ceiling_binds, floor_binds = bound
    get = target.get
    if not (taken or ceiling_binds or floor_binds):
        if target:
            for held, n in boards.items():
                target[held] = get(held, 0) + n
        else:
            target.update(boards)
    elif not (ceiling_binds or floor_binds):
        for held, n in boards.items():
            left = held - taken
            if left & guards == guards:  # else: took a tile that is not in stock
                target[left] = get(left, 0) + n
    else:
        for held, n in boards.items():
            left = held - taken
            if left & guards != guards:
                continue  # took a tile that is not in stock
            if (ceiling - (left ^ guards)) & guards != guards:
                continue  # more tiles left than cells that could show them
            if (left - floor) & guards != guards:
                continue  # open tiles already need more than is left
            target[left] = get(left, 0) + n


# -------------------------------------------------------------- the program


class Program:
    """The dynamic program for one fold of a level: one layer of states at a time.

    A layer maps each frontier to its stocks, and each stock to the number of
    partial boards that reach it.
    """

    def __init__(
        self, level: Level, plan: Plan, *, deadline: float | None = None, max_states: int = DEFAULT_MAX_STATES
    ) -> None:
        self.plan = plan
        self.stock = Stock(level.movable_counts, level.board.size)
        self.bounds = Bounds(plan, self.stock)
        self.fits = _fits_table(level.movable_counts)
        self.deadline = deadline
        self.max_states = max_states
        #: frontier->stocks transitions made, and the most states one layer held
        self.transitions = 0
        self.peak_states = 1
        # a contradictory level (more locked tiles of a number than it has) has no board
        possible = all(m >= 0 for m in level.movable_counts) and not any(c in level.blocked_cells for c in level.locked)
        self.start: dict[tuple[int, ...], dict[int, int]] = {(): {self.stock.initial: 1}} if possible else {}

    def choices(self, i: int) -> tuple[bool, ...]:
        """Occupancies the vertex of step i may take (a locked one is always occupied)."""
        return (True,) if self.plan.steps[i].vertex.locked is not None else (False, True)

    def _clock(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise Stopped("time limit")

    def next_layer(self, i: int, layer: dict[tuple[int, ...], dict[int, int]]) -> dict[tuple[int, ...], dict[int, int]]:
        """Decide step i's vertex both ways for every state of ``layer``; merge equal states."""
        self._clock()
        step = self.plan.steps[i]
        fits, take, guards = self.fits, self.stock.take, self.stock.guards
        choices = self.choices(i)
        nxt: dict[tuple[int, ...], dict[int, int]] = {}
        bound_of: dict[tuple[int, ...], tuple[int, int, bool, bool]] = {}
        states = 0
        for seen, (frontier, boards) in enumerate(layer.items()):
            if seen % CLOCK_EVERY == 0:
                self._clock()
            for occupied in choices:
                moved = advance(step, frontier, occupied, fits, take)
                if moved is None:
                    continue
                after, taken = moved
                bound = bound_of.get(after)
                if bound is None:
                    bound = bound_of[after] = self.bounds.of(i, step, after)
                target = nxt.get(after)
                if target is None:
                    target = nxt[after] = {}
                before = len(target)
                _merge(boards, target, taken, bound, guards)
                if not target:
                    del nxt[after]
                states += len(target) - before
                self.transitions += 1
            if states > self.max_states:
                self.peak_states = max(self.peak_states, states)
                raise Stopped("memory budget")
        self.peak_states = max(self.peak_states, states)
        return nxt

    def run(
        self, first: int, layer: dict, last: int, keep: Callable[[int], bool] = lambda i: False
    ) -> tuple[dict, dict[int, dict]]:
        """Layer ``last`` from layer ``first``; also returns the layers in between that ``keep`` asks for."""
        kept = {}
        for i in range(first, last):
            layer = self.next_layer(i, layer)
            if keep(i + 1):
                kept[i + 1] = layer
        return layer, kept

    def final_count(self, layer: dict) -> int:
        """Boards that decided every vertex and showed every tile (nothing left in stock)."""
        return layer.get((), {}).get(self.stock.guards, 0)

    def stats(self) -> dict[str, Any]:
        return program_stats(len(self.plan.steps), self.plan.width, self.peak_states, self.transitions)

    # ------------------------------------------------ one board, walking back

    def predecessor(
        self, i: int, layer: dict, state: tuple[tuple[int, ...], int]
    ) -> tuple[tuple[tuple[int, ...], int], bool]:
        """A state of ``layer`` (layer i) that step i takes to ``state``, and the occupancy chosen."""
        frontier, held = state
        step = self.plan.steps[i]
        for seen, (previous, boards) in enumerate(layer.items()):
            if seen % CLOCK_EVERY == 0:
                self._clock()
            for occupied in self.choices(i):
                moved = advance(step, previous, occupied, self.fits, self.stock.take)
                if moved is not None and moved[0] == frontier and held + moved[1] in boards:
                    return (previous, held + moved[1]), occupied
        raise RuntimeError(f"dp: no predecessor at step {i}")  # cannot happen: the state came from this layer

    def walk_back(self, first: int, layer: dict, last: int, state: tuple) -> tuple[list[bool], tuple]:
        """Occupancies of steps first..last-1 on a path from ``layer`` (layer first) to ``state`` (in layer last).

        Divide and conquer: recompute the middle layer, walk the right half
        back to it, then the left half.  Memory: a layer per recursion level;
        time: about log2(steps)/2 more passes than the count.
        """
        if last - first == 1:
            previous, occupied = self.predecessor(first, layer, state)
            return [occupied], previous
        middle = (first + last) // 2
        middle_layer, _ = self.run(first, layer, middle)
        right, state = self.walk_back(middle, middle_layer, last, state)
        del middle_layer
        left, state = self.walk_back(first, layer, middle, state)
        return left + right, state


def count_boards(
    level: Level,
    plan: Plan,
    *,
    deadline: float | None = None,
    memory: int | None = DEFAULT_MEMORY,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> Outcome:
    """The number of solutions on a fold of the level (the plain count on the identity fold).

    The identity fold runs compiled (by halves when the level splits, else row by row); the other folds,
    and boards too wide for the compiled codes, run the array program (``layers``).  ``progress``
    gets a dict after each step (or each finished task of the halves).
    """
    from .runs import RunPlan, count_runs

    run_plan = RunPlan(level, plan)
    budget = Budget(deadline, memory, progress)
    if run_plan.fits_kernels:
        if level.side >= HALVES_FROM_SIDE and not run_plan.folded:
            from .halves import count_by_halves

            outcome = count_by_halves(level, budget, run_plan=run_plan)
            if outcome is not None:
                return outcome
        return count_runs(run_plan, budget)
    from .layers import count_layers

    return count_layers(level, plan, deadline=deadline, memory=memory, progress=progress)


def warm() -> None:
    """Load the row counter's compiled kernels in this process when numba's cache has them, so that forked runs
    start warm.  Without them (a fresh install) nothing is compiled here: small counts run in numpy, and a
    count big enough to need the kernels compiles them (once per machine, saying so on stderr)."""
    from .runs import RunPlan, count_runs, kernels_ready

    if kernels_ready():
        tiny = Level(Board(1), (1,) + (0,) * MAX_TILE, (), frozenset())
        count_runs(RunPlan(tiny, make_plan(fold(tiny))))


def find_board(
    level: Level, *, deadline: float | None = None, max_states: int = DEFAULT_MAX_STATES
) -> tuple[Outcome, Solution | None]:
    """Count the solutions, and rebuild one when there is one (None when there is none)."""
    vertices = fold(level)
    plan = make_plan(vertices)
    program = Program(level, plan, deadline=deadline, max_states=max_states)
    steps = len(plan.steps)
    middle = steps // 2
    try:
        # the count, keeping the middle layer: the walk back starts by halving there
        final, kept = program.run(0, program.start, steps, keep=lambda i: i == middle and 0 < i < steps)
        count = program.final_count(final)
        del final
        if count == 0:
            return Outcome(0, True, None, program.stats()), None
        end = ((), program.stock.guards)
        if steps == 0:  # every cell blocked: the empty board
            occupancy = []
        elif middle in kept:
            right, state = program.walk_back(middle, kept.pop(middle), steps, end)
            left, _ = program.walk_back(0, program.start, middle, state)
            occupancy = left + right
        else:  # one step: nothing to halve
            occupancy, _ = program.walk_back(0, program.start, steps, end)
    except Stopped as stop:
        return Outcome(0, False, str(stop), program.stats()), None
    occupied = {c for vertex, full in zip(vertices, occupancy) if full for c in vertex.cells}
    neighbours = level.board.neighbours
    solution = Solution(
        tuple(
            sum(1 for n in neighbours[c] if n in occupied) if c in occupied else None for c in range(level.board.size)
        )
    )
    return Outcome(count, True, None, program.stats()), solution


def count_classes(
    level: Level,
    *,
    deadline: float | None = None,
    memory: int | None = DEFAULT_MEMORY,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[Outcome, list[int | None]]:
    """Symmetry classes of solutions by Burnside: the mean over the level's symmetries of the boards each fixes.

    Returns the outcome (count = classes) and the fixed-board count per
    symmetry (None where a limit stopped it).  The folds by the other
    symmetries are small, so they come first: when only the plain board (the
    identity) is out of reach, their sum still fixes the plain count modulo
    the group's size (stats ``count_modulo``: [modulus, residue]).
    """
    symmetries = level.symmetries
    fixed: list[int | None] = [None] * len(symmetries)
    stats: dict[str, Any] = {"peak_states": 0, "fixed_per_symmetry": fixed}
    for k in [*range(1, len(symmetries)), 0]:
        outcome = count_boards(
            level, make_plan(fold(level, symmetries[k])), deadline=deadline, memory=memory, progress=progress
        )
        stats["peak_states"] = max(stats["peak_states"], outcome.stats["peak_states"])
        if not outcome.complete:
            if k == 0:
                stats["count_modulo"] = [len(symmetries), -sum(fixed[1:]) % len(symmetries)]
            return Outcome(0, False, outcome.stopped_by, stats), fixed
        fixed[k] = outcome.count
        _check_conjugates(symmetries, fixed)
    classes, remainder = divmod(sum(fixed), len(fixed))
    if remainder:  # Burnside's sum is always a multiple of the group's size
        raise RuntimeError(f"dp: fixed-board counts {fixed} do not average to a whole number of classes")
    return Outcome(classes, True, None, stats), fixed


def _check_conjugates(symmetries: Sequence[Sequence[int]], fixed: list[int | None]) -> None:
    """Conjugate symmetries (g and h g h^-1) fix equally many boards: a free check of the fold counts."""
    index = {tuple(p): k for k, p in enumerate(symmetries)}
    for g, count in enumerate(fixed):
        for h in symmetries:
            inverse = [0] * len(h)
            for cell, image in enumerate(h):
                inverse[image] = cell
            other = fixed[index[tuple(h[symmetries[g][inverse[c]]] for c in range(len(h)))]]
            if count is not None and other is not None and count != other:
                raise RuntimeError(f"dp: conjugate symmetries fix {count} and {other} boards")


# ---------------------------------------------------------------- the backend


def progress_to_stderr(started: float, quiet_for: float = 5.0, every: float = 5.0) -> Callable[[dict[str, Any]], None]:
    """A progress sink for long counts: once the run has taken ``quiet_for`` seconds, a line at most every
    ``every`` seconds (and after each phase): where it is, states, memory in use, and the time left at the
    pace so far.  Under trisolve's runner the line goes to the command's progress reporter
    (``base.report_progress``); alone, to stderr."""
    from ... import base

    last = [-every]

    def say(text: str, done: int = 0, total: int | None = None) -> None:
        if base.reports_progress():
            base.report_progress(done, total, text)
        else:
            print(text, file=sys.stderr, flush=True)

    def show(report: dict[str, Any]) -> None:
        elapsed = time.monotonic() - started
        if elapsed < quiet_for or ("phase" in report and "done" in report and elapsed - last[0] < every):
            return
        if not base.reports_progress() and "step" in report and elapsed - last[0] < every:
            return  # on stderr alone, steps come too fast: one line per ``every`` seconds
        last[0] = elapsed
        memory = f"{resident() / 2**30:.1f} GiB in use"
        if "step" in report:
            left = report["steps"] - report["step"]
            where = f"{report['phase']}: " if "phase" in report else ""
            say(
                f"dp: {where}step {report['step']}/{report['steps']}, {report['frontiers']} frontiers, "
                f"{report['states']} states, "
                f"{memory}, {elapsed:.0f} s so far, last step {report['step_seconds']:.1f} s "
                f"(at that pace ~{left * report['step_seconds']:.0f} s left)",
                report["step"],
                report["steps"],
            )
        elif "done" not in report:
            say(f"dp: {report['phase']}: {report['states']} states, {memory}, {elapsed:.0f} s so far")
        else:
            done = report["done"]
            # a node's share of the walk is split between its children by their states: the pace so far holds
            eta = report["elapsed"] * (1 - done) / max(done, 1e-9)
            say(
                f"dp: middle row: {100 * done:.0f}% done, {report['leaves']} leaves, "
                f"{report['boards_so_far']} boards so far, {memory}, {elapsed:.0f} s so far, ~{eta:.0f} s left",
                round(1000 * done),
                1000,
            )

    return show


class DpHexiom(Counter):
    """``dp:frontier`` on hexiom: an exact counter that the solver backends are checked against."""

    family = "hexiom"
    catalog = CATALOG

    def run(self, level: Level, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """Count (enumerate: count-only, classes with symmetry breaking) or rebuild one board."""
        started = time.monotonic()
        deadline = limits.deadline(started)
        watch = base.Stopwatch()
        memory = DEFAULT_MEMORY if options.memory is None else options.memory
        if not options.enumerate and limits.solutions is not None and limits.solutions <= 0:
            return self._unknown({}, watch, "solution limit")
        refused = refusal(level, options)
        if refused is not None:  # never a count it cannot represent
            return self._unknown({}, watch, refused)
        if options.enumerate:
            # Count only: boards are never listed (solutions=()), so the
            # cross-checker compares this run by its count.  The count is
            # exact whatever limits.solutions says: it costs nothing more.
            watch.start("count")
            if options.symmetry_breaking:
                outcome, _ = count_classes(
                    level, deadline=deadline, memory=memory, progress=progress_to_stderr(started)
                )
            else:
                outcome = count_boards(
                    level,
                    make_plan(fold(level)),
                    deadline=deadline,
                    memory=memory,
                    progress=progress_to_stderr(started),
                )
            watch.stop("count")
            outcome.stats["count_method"] = _count_method(outcome.stats, options.symmetry_breaking)
            if not outcome.complete:
                if outcome.count:  # the halves' finished leaves: boards that exist, a lower bound (N+)
                    return Result(
                        self.name,
                        self.family,
                        Status.SAT,
                        (),
                        False,
                        outcome.count,
                        dict(outcome.stats),
                        dict(watch.times),
                        stopped_by=outcome.stopped_by,
                    )
                return self._unknown(outcome.stats, watch, outcome.stopped_by)
            return self._counted(outcome.count, outcome.stats, watch)

        watch.start("count")
        outcome, solution = find_board(level, deadline=deadline, max_states=memory // DICT_BYTES_PER_STATE)
        watch.stop("count")
        stats = dict(outcome.stats)
        if not outcome.complete:
            return self._unknown(stats, watch, outcome.stopped_by)
        stats["count"] = outcome.count
        if solution is None:
            return self._no_solution(stats, watch)
        if options.symmetry_breaking:  # the lex-leader of its class, as symmetry breaking promises
            solution = min((apply_symmetry(p, solution) for p in level.symmetries), key=symmetry_key)
        return self._first_solution(solution, stats, watch, on_solution)

    def export(self, level: Level, options: Options) -> str:
        """The program's plan as text: per cell, the numbers it makes final and the frontier after it."""
        vertices = fold(level)
        plan = make_plan(vertices)
        lines = [
            f"# dp:{self.variant} plan for a side-{level.side} hexiom board: {len(plan.steps)} usable cells, "
            f"widest frontier {plan.width}",
            "# step cell [locked n] | final: cells whose number is fixed here | frontier after (cells)",
        ]
        for i, (step, after) in enumerate(zip(plan.steps, plan.frontiers)):
            extended = (plan.frontiers[i - 1] if i else ()) + (i,)
            final = " ".join(str(vertices[extended[p]].cells[0]) for p in step.finalised)
            lock = f" locked {step.vertex.locked}" if step.vertex.locked is not None else ""
            frontier = " ".join(str(vertices[u].cells[0]) for u in after)
            lines.append(f"{i} {step.vertex.cells[0]}{lock} | final: {final} | frontier: {frontier}")
        return "\n".join(lines) + "\n"


def _count_method(stats: dict[str, Any], symmetry_breaking: bool) -> str:
    """What the JSON's ``count_method`` says of a dp count."""
    if symmetry_breaking:
        return "symmetry classes by Burnside: boards each symmetry fixes, counted on its folded board"
    return {
        "halves": "dynamic programming by halves "
        "(one upper-half table, read again upside down, joined over the middle rows)",
        "rows": "dynamic programming over the cells in reading order (compiled)",
    }.get(stats.get("method"), "dynamic programming over the cells in reading order")


def make(variant: str) -> DpHexiom:
    """The dp backend for this family (what ``backends/dp/__init__.make`` returns)."""
    return DpHexiom(variant)
