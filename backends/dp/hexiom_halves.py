"""Hexiom counts by halves: meet in the middle over the middle rows, one table used twice through a mirror.

Why: the row-by-row program (``hexiom_runs``) must carry every partial board
of the upper half past the middle, where level 40's layers pass 400 million
states.  But a level that the mirror across its middle row (call it mu, row
r <-> row 2m - r) leaves unchanged has a lower half that *is* its upper half
upside down, so one table of the upper half answers for both.

Split a board at rows m-1, m, m+1 (m the middle row):

* ``T[occ(m-1), occ(m)]``: rows 0..m decided, rows 0..m-1 final; its tally
  (empty cells, defect, shown tiles) per exact occupancy of rows m-1 and m.
  Row m-1's occupancy is kept in *ghost bits* of the frontier so that states
  differing there never merge.
* ``A[occ(m), occ(m+1)]``: rows 0..m+1 decided, rows 0..m final: the same
  program one row further, for one occupancy of row m at a time.

Read through mu, ``T[mu(occ(m+1)), occ(m)]`` is the lower half: rows m..2m
decided, rows m+1..2m final.  Every cell is final in exactly one half, and
the halves overlap in rows m and m+1, whose empty cells and defect both
tallies count.  So

    boards = sum over occ(m), occ(m+1) of sum over tallies t of
             A[occ(m), occ(m+1)][t] * T[mu(occ(m+1)), occ(m)][target + overlap - t]

where "target" is the full tally (E* empty cells, defect D*, every tracked
number shown in full; the two derived numbers then follow).  Each term of
the sum counts distinct boards, so uint64 holds every product.

The work is organised by row m's occupancy: the middle row's first cells
are decided depth first (each prefix a task for a worker thread), the rest
of the row breadth first; each full occupancy of row m is then one leaf:
its T entries, and its A table by three more layers' worth of work.  A leaf
and its left-right mirror image (when the level has that mirror too) count
the same, so only one of each pair is computed, counted twice (or both are,
and compared, with ``check_mirror``).  Memory stays at the upper half's
middle layer plus a few leaves, and two threads share it.

A run stopped by a limit still returns the boards of the leaves it finished:
a true lower bound, reported as ``N+``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ...models.hexiom import Level
from ..base import report_partial_count
from .hexiom_plan import Outcome, ProgressSink, Stopped, fold, make_plan
from .hexiom_runs import EMPTY, FRONTIER_BITS, Layer, RunCounter, RunPlan

#: cells of the middle row decided depth first before a task is handed to a worker
TASK_DEPTH = 5


@dataclass(frozen=True)
class Halves:
    """Where the middle rows are in the plan, and the mirrors that relate their cells."""

    plan: RunPlan
    ends: tuple[int, ...]  # ends[r]: steps done when row r is decided
    middle: int  # m
    upper: tuple[int, ...]  # the usable cells of rows m-1, m, m+1, in reading order
    row: tuple[int, ...]
    lower: tuple[int, ...]
    #: per usable cell of row m+1 (frontier position at the end of row m+1): the ghost bit of its mu image in row m-1
    ghost_of_lower: tuple[int, ...]
    #: per usable cell of row m: the position of its left-right mirror image (None: no such symmetry)
    row_mirror: tuple[int, ...] | None


def halves_for(level: Level, run_plan: RunPlan | None = None) -> Halves | None:
    """The split for this level, or None when the mirror across the middle row does not keep the level."""
    board = level.board
    if level.side < 3:
        return None
    run_plan = run_plan or RunPlan(level, make_plan(fold(level)))
    if not run_plan.fits_kernels:
        return None
    rows = [tuple(c for c in r if c not in level.blocked_cells) for r in board.rows]
    m = level.side - 1
    row_of = {c: (r, j) for r, cells in enumerate(board.rows) for j, c in enumerate(cells)}
    mu = next(
        (
            p
            for p in level.symmetries
            if all(row_of[p[c]][0] == 2 * m - row_of[c][0] for c in range(board.size))
            and all(p[c] == c for c in board.rows[m])
        ),
        None,
    )
    if mu is None:
        return None
    ends, done = [], 0
    for cells in rows:
        done += len(cells)
        ends.append(done)
    upper, row, lower = rows[m - 1], rows[m], rows[m + 1]
    steps = run_plan.steps
    # the joins read rows m and m+1 off the frontier: every one of their cells must still be in it
    if not row or steps[ends[m] - 1].cells != row or steps[ends[m + 1] - 1].cells != lower:
        return None
    if len(upper) > 62 - FRONTIER_BITS:
        return None
    ghost = ghost_bits(upper)
    if any(mu[c] not in ghost for c in lower):
        return None
    sigma = next(
        (
            p
            for p in level.symmetries
            if all(row_of[p[c]][0] == row_of[c][0] for c in range(board.size)) and p[row[0]] != row[0]
        ),
        None,
    )
    position = {c: j for j, c in enumerate(row)}
    row_mirror = tuple(position[sigma[c]] for c in row) if sigma is not None else None
    return Halves(run_plan, tuple(ends), m, upper, row, lower, tuple(ghost[mu[c]] for c in lower), row_mirror)


def ghost_bits(upper: tuple[int, ...]) -> dict[int, int]:
    """Per usable cell of row m-1: the frontier bit that records its occupancy."""
    return {c: FRONTIER_BITS + j for j, c in enumerate(upper)}


# ------------------------------------------------------------------ the join


@njit(cache=True, nogil=True)
def _join(
    a_frontiers,
    a_starts,
    a_tallies,
    a_counts,
    lower_defect,
    lower_cross,
    lower_adjacent,
    ghost_of_lower,
    t_ghosts,
    t_starts,
    t_tallies,
    t_counts,
    row_empty,
    row_defect,
    shifts,
    bits,
    offsets,
    maxima,
    empties,
    defect,
    per_frontier,
):
    """Sum over A's states of A's count times the count of T's complementary state (see the module's formula).

    ``per_frontier``, when as long as A's frontiers, receives each frontier's (each occupancy of row m+1's) share.
    """
    total = np.uint64(0)
    n_fields = shifts.shape[0]
    comp = np.empty(n_fields, np.int64)
    width = lower_defect.shape[0]
    for k in range(a_frontiers.shape[0]):
        f = a_frontiers[k]
        # row m+1's occupancy: the overlap's empty cells and defect, and the ghost key of the lower half
        ghost = np.int64(0)
        e_overlap = row_empty
        d_overlap = row_defect
        previous_empty = False
        for j in range(width):
            empty = ((f >> (3 * j)) & 7) == EMPTY
            if empty:
                e_overlap += 1
                d_overlap += lower_defect[j] + lower_cross[j]
                if previous_empty and lower_adjacent[j]:
                    d_overlap += 1
            else:
                ghost |= np.int64(1) << (ghost_of_lower[j] - FRONTIER_BITS)
            previous_empty = empty
        lo = np.searchsorted(t_ghosts, ghost)
        if lo >= t_ghosts.shape[0] or t_ghosts[lo] != ghost:
            continue
        before = total
        first, last = t_starts[lo], t_starts[lo + 1]
        for q in range(a_starts[k], a_starts[k + 1]):
            code = a_tallies[q]
            ok = True
            for j in range(n_fields):
                value = ((code >> shifts[j]) & ((np.int64(1) << bits[j]) - 1)) - offsets[j]
                if j == 0:
                    want = empties + e_overlap - value
                elif j == 1:
                    want = defect + d_overlap - value
                else:
                    want = maxima[j] - value
                if want < 0 or want > maxima[j]:
                    ok = False
                    break
                comp[j] = want
            if not ok:
                continue
            target = np.int64(0)
            for j in range(n_fields):
                target |= (comp[j] + offsets[j]) << shifts[j]
            at = first + np.searchsorted(t_tallies[first:last], target)
            if at < last and t_tallies[at] == target:
                total += a_counts[q] * t_counts[at]
        if per_frontier.shape[0] > k:
            per_frontier[k] = total - before
    return total


# ------------------------------------------------------------------ the run


@dataclass
class _Shared:
    """What the worker threads report to each other and to the progress sink."""

    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    boards: int = 0
    leaves: int = 0
    mirrored: int = 0
    peak_states: int = 0
    mismatches: list = field(default_factory=list)
    #: CPU seconds per part of the work, over all threads
    seconds: dict = field(default_factory=lambda: {"middle row": 0.0, "lower row": 0.0, "join": 0.0})

    def spent(self, part: str, since: float) -> float:
        now = time.thread_time()
        with self.lock:
            self.seconds[part] += now - since
        return now


class HalvesCounter:
    """One level's count by halves: the upper half to row m-1, then tasks over row m."""

    def __init__(
        self,
        halves: Halves,
        *,
        deadline: float | None = None,
        memory: int | None = None,
        progress: ProgressSink | None = None,
        threads: int = 2,
        check_mirror: bool = False,
        on_leaf: Callable[[tuple[bool, ...], int, list[tuple[tuple[bool, ...], int]]], None] | None = None,
        leaves: Collection[tuple[bool, ...]] | None = None,
    ) -> None:
        """``leaves`` restricts the count to those occupancies of row m (a cube of the count, for checks)."""
        self.halves = halves
        #: called per computed leaf: (row m's occupancy, its weight, [(row m+1's occupancy, boards)])
        self.on_leaf = on_leaf
        self.deadline = deadline
        self.memory = memory
        self.progress = progress
        self.threads = max(1, threads)
        self.check_mirror = check_mirror or halves.row_mirror is None
        self.shared = _Shared()
        self.started = time.monotonic()
        self.budget: int | None = None
        #: with check_mirror: boards of leaves whose mirror image has not come yet
        self._mirror_seen: dict[tuple[bool, ...], int] = {}
        #: viable[k][prefix]: some occupancy of row m starting with these k+1 cells is its mirror class's leaf
        self._viable = _viable_prefixes(len(halves.row), None if self.check_mirror else halves.row_mirror, leaves)
        self.walk_started = self.started
        self.walk_done = False
        # what the joins need of rows m and m+1 whatever row m's occupancy: 6 - degree, adjacency, ghost bits
        neighbours = halves.plan.level.board.neighbours
        self._defect_of = {step.cell: step.defect for step in halves.plan.steps}
        self._lower_defect = np.array([self._defect_of[c] for c in halves.lower], np.int64)
        self._lower_adjacent = np.array(
            [j > 0 and halves.lower[j - 1] in neighbours[c] for j, c in enumerate(halves.lower)], np.bool_
        )
        self._ghost_of_lower = np.array(halves.ghost_of_lower, np.int64)

    def _counter(self) -> RunCounter:
        """A counter for one thread that also stops when another thread has stopped (or hit a limit)."""
        counter = RunCounter(self.halves.plan)
        stop = self.shared.stop

        def check() -> None:
            if stop.is_set():
                raise Stopped("stopped")
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise Stopped("time limit")

        counter.check_clock = check  # type: ignore[method-assign]
        return counter

    def count(self) -> Outcome:
        h = self.halves
        plan = h.plan
        main = self._counter()
        main.memory = self.memory
        first_upper = h.ends[h.middle - 2] if h.middle >= 2 else 0
        ghost = ghost_bits(h.upper)
        try:
            layer = main.run(0, first_upper)
            for i in range(first_upper, h.ends[h.middle - 1]):  # row m-1, recording its occupancy
                layer = main.advance(layer, i, ghost_bit=ghost.get(plan.steps[i].cell, -1))
        except Stopped as stop:
            return Outcome(0, False, str(stop), self._stats(main))
        self._report("upper half to row m-1", layer)
        if self.memory is not None:
            self.budget = max(0, self.memory - layer.nbytes) // (self.threads + 1)
        main.memory = self.budget
        stopped: str | None = None
        pending: set[Future] = set()
        weights: list[int] = []
        done_weight = [0]
        with ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="dp-halves") as pool:

            def submit(root: Layer, at: int) -> None:
                weight = root.states
                weights.append(weight)
                future = pool.submit(self._task, root, at)
                future.weight = weight  # type: ignore[attr-defined]
                pending.add(future)

            def settle(block: bool) -> None:
                nonlocal stopped
                while pending and (block or len(pending) > self.threads):
                    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        pending.discard(future)
                        error = future.exception()
                        if isinstance(error, Stopped):
                            stopped = stopped or str(error)
                            self.shared.stop.set()
                        elif error is not None:
                            self.shared.stop.set()
                            raise error
                        done_weight[0] += future.weight  # type: ignore[attr-defined]
                        self._report_task(done_weight[0], sum(weights), len(weights) - len(pending), len(weights))
                    block = block and bool(pending)

            depth = min(TASK_DEPTH, len(h.row))
            start_step = h.ends[h.middle - 1]

            def walk(node: Layer, at: int) -> None:
                if at == start_step + depth or self.shared.stop.is_set():
                    if not self.shared.stop.is_set():
                        settle(False)
                        submit(node, at)
                    return
                for choice in (1, 0):  # the fullest prefixes are the heaviest: start them first
                    prefix = path[: at - start_step] + [choice]
                    if self._viable is not None and not self._viable[len(prefix) - 1][_bits(prefix)]:
                        continue  # every leaf below is counted through its mirror image
                    path[at - start_step :] = [choice]
                    child = main.advance(node, at, forced=choice)
                    if child.states:
                        walk(child, at + 1)
                    del child
                del path[at - start_step :]

            path: list[int] = []
            self.walk_started = time.monotonic()
            try:
                walk(layer, start_step)
            except Stopped as stop:
                stopped = stopped or str(stop)
                self.shared.stop.set()
            self.walk_done = True
            del layer
            settle(True)
        if self.shared.mismatches:
            raise RuntimeError(f"dp halves: leaves and their mirror images disagree: {self.shared.mismatches[:3]}")
        stats = self._stats(main)
        if stopped is not None:
            return Outcome(self.shared.boards, False, stopped, stats)
        return Outcome(self.shared.boards, True, None, stats)

    # ------------------------------------------------------------- a task

    def _task(self, root: Layer, at: int) -> None:
        """Finish row m from a prefix of it, then every leaf (full occupancy of row m) it holds."""
        h = self.halves
        counter = self._counter()
        clock = time.thread_time()
        layer = root
        for i in range(at, h.ends[h.middle]):
            layer = self._prune(counter.advance(layer, i, budget=self.budget), i)
        del root
        self.shared.spent("middle row", clock)
        row_width = len(h.row)
        low = (np.int64(1) << FRONTIER_BITS) - 1
        codes = layer.frontiers & low
        occupancy = np.zeros(len(codes), np.int64)
        for j in range(row_width):
            occupancy |= (((codes >> (3 * j)) & 7) != EMPTY).astype(np.int64) << j
        ghosts = layer.frontiers >> FRONTIER_BITS
        order = np.lexsort((ghosts, occupancy))
        occupancy = occupancy[order]
        bounds = np.flatnonzero(np.diff(occupancy)) + 1
        for first, group in zip(np.concatenate([[0], bounds]), np.split(order, bounds)):
            if len(group):
                self._leaf(counter, layer, group, int(occupancy[first]))
        with self.shared.lock:
            self.shared.peak_states = max(self.shared.peak_states, counter.peak_states)

    def _prune(self, layer: Layer, i: int) -> Layer:
        """Drop the frontiers of a layer inside row m whose every completion of the row is counted by its mirror."""
        h = self.halves
        if self._viable is None:
            return layer
        k = i - h.ends[h.middle - 1]
        where = {c: q for q, c in enumerate(h.plan.steps[i].cells)}
        prefix = np.zeros(len(layer.frontiers), np.int64)
        for j in range(k + 1):
            prefix |= (((layer.frontiers >> (3 * where[h.row[j]])) & 7) != EMPTY).astype(np.int64) << j
        keep = self._viable[k][prefix]
        return layer if keep.all() else select(layer, keep)

    def _leaf(self, counter: RunCounter, layer: Layer, group: np.ndarray, pattern: int) -> None:
        """One occupancy of row m: its T entries, its A table, and their join."""
        h = self.halves
        plan = h.plan
        occupied = [bool(pattern >> j & 1) for j in range(len(h.row))]
        weight = 1
        if not self.check_mirror:
            image = [occupied[h.row_mirror[j]] for j in range(len(h.row))]
            if image < occupied:
                return  # its mirror image counts it
            weight = 1 if image == occupied else 2
        # T: one run per ghost (row m-1's occupancy); the frontier is fixed by it and row m
        t_ghosts = layer.frontiers[group] >> FRONTIER_BITS
        runs = [(layer.starts[k], layer.starts[k + 1]) for k in group]
        t_starts = np.zeros(len(group) + 1, np.int64)
        t_starts[1:] = np.cumsum([b - a for a, b in runs])
        t_tallies = np.concatenate([layer.tallies[a:b] for a, b in runs])
        t_counts = np.concatenate([layer.counts[a:b] for a, b in runs])
        # A: drop the ghosts (states that differ only in row m-1 merge), then decide row m+1
        clock = time.thread_time()
        low = (np.int64(1) << FRONTIER_BITS) - 1
        a_layer = regroup(counter, layer, group, layer.frontiers[group] & low, h.ends[h.middle] - 1)
        for k, i in enumerate(range(h.ends[h.middle], h.ends[h.middle + 1])):
            a_layer = counter.advance(a_layer, i, budget=self.budget, slot=k % 2)
        clock = self.shared.spent("lower row", clock)
        row_empty, row_defect, cross = self._overlap(occupied)
        shares = np.zeros(len(a_layer.frontiers) if self.on_leaf is not None else 0, np.uint64)
        boards = int(
            _join(
                a_layer.frontiers,
                a_layer.starts,
                a_layer.tallies,
                a_layer.counts,
                self._lower_defect,
                cross,
                self._lower_adjacent,
                self._ghost_of_lower,
                t_ghosts,
                t_starts,
                t_tallies,
                t_counts,
                row_empty,
                row_defect,
                plan.shifts,
                plan.bits,
                plan.offsets,
                plan.maxima,
                plan.empties,
                plan.defect,
                shares,
            )
        )
        self.shared.spent("join", clock)
        if self.on_leaf is not None:
            lower = [tuple(((f >> (3 * j)) & 7) != EMPTY for j in range(len(h.lower))) for f in a_layer.frontiers]
            with self.shared.lock:
                self.on_leaf(tuple(occupied), weight, [(o, int(n)) for o, n in zip(lower, shares)])
        with self.shared.lock:
            self.shared.leaves += 1
            if self.check_mirror and h.row_mirror is not None:
                key = tuple(occupied)
                image = tuple(occupied[h.row_mirror[j]] for j in range(len(h.row)))
                other = self._mirror_seen.pop(image, None)
                if other is not None:
                    self.shared.mirrored += 1
                    if other != boards:
                        self.shared.mismatches.append((key, boards, other))
                elif image != key:
                    self._mirror_seen[key] = boards
            self.shared.boards += weight * boards

    def _overlap(self, occupied: list[bool]) -> tuple[int, int, np.ndarray]:
        """Row m's part of the overlap tally (empty cells, defect), and per row m+1 cell its edges to row m's
        empty cells (what its emptiness adds beyond its own defect)."""
        h = self.halves
        neighbours = h.plan.level.board.neighbours
        empty_row = {c for c, o in zip(h.row, occupied) if not o}
        row_defect = sum(self._defect_of[c] for c in empty_row) + sum(
            1 for c in empty_row for n in neighbours[c] if n in empty_row and n > c
        )
        cross = np.array([sum(1 for n in neighbours[c] if n in empty_row) for c in h.lower], np.int64)
        return len(empty_row), row_defect, cross

    # ------------------------------------------------------------- reports

    def _stats(self, main: RunCounter) -> dict[str, Any]:
        stats = main.stats()
        stats.update(
            {
                "method": "halves",
                "leaves": self.shared.leaves,
                "cpu_seconds": {k: round(v, 2) for k, v in self.shared.seconds.items()},
                "peak_states": max(stats["peak_states"], self.shared.peak_states),
            }
        )
        if self.check_mirror and self.halves.row_mirror is not None:
            stats["mirror_checks"] = self.shared.mirrored
        return stats

    def _report(self, what: str, layer: Layer) -> None:
        if self.progress is not None:
            self.progress(
                {
                    "phase": what,
                    "states": layer.states,
                    "bytes": layer.nbytes,
                    "elapsed": time.monotonic() - self.started,
                }
            )

    def _report_task(self, done: int, total: int, tasks_done: int, tasks: int) -> None:
        with self.shared.lock:
            leaves, boards = self.shared.leaves, self.shared.boards
        report_partial_count(boards)  # a killed run keeps them: N+
        if self.progress is None:
            return
        self.progress(
            {
                "phase": "middle row",
                "done_weight": done,
                "known_weight": total,
                "tasks_done": tasks_done,
                "tasks": tasks,
                "walk_done": self.walk_done,
                "leaves": leaves,
                "boards_so_far": boards,
                "elapsed": time.monotonic() - self.walk_started,
            }
        )


def _bits(occupied: list[int] | list[bool]) -> int:
    return sum(int(o) << j for j, o in enumerate(occupied))


def _viable_prefixes(
    width: int, row_mirror: tuple[int, ...] | None, leaves: Collection[tuple[bool, ...]] | None
) -> list[np.ndarray] | None:
    """Per prefix length k+1: which prefixes of row m have a completion x that is computed: x <= its mirror
    image (when ``row_mirror`` is given) and x in ``leaves`` (when given)."""
    if row_mirror is None and leaves is None:
        return None
    wanted = None if leaves is None else {_bits(leaf) for leaf in leaves}
    viable = [np.zeros(1 << (k + 1), np.bool_) for k in range(width)]
    for pattern in range(1 << width):
        x = [pattern >> j & 1 for j in range(width)]
        if row_mirror is not None and x > [x[row_mirror[j]] for j in range(width)]:
            continue
        if wanted is not None and pattern not in wanted:
            continue
        for k in range(width):
            viable[k][pattern & ((1 << (k + 1)) - 1)] = True
    return viable


def select(layer: Layer, keep: np.ndarray) -> Layer:
    """The layer's frontiers where ``keep`` holds, with their runs."""
    kept = np.flatnonzero(keep)
    lengths = layer.starts[kept + 1] - layer.starts[kept]
    starts = np.zeros(len(kept) + 1, np.int64)
    np.cumsum(lengths, out=starts[1:])
    index = np.repeat(layer.starts[kept] - starts[:-1], lengths) + np.arange(int(starts[-1]))
    return Layer(layer.frontiers[kept], starts, layer.tallies[index], layer.counts[index])


def regroup(counter: RunCounter, layer: Layer, group: np.ndarray, codes: np.ndarray, step: int) -> Layer:
    """The runs ``group`` of ``layer`` under new frontier codes, equal codes merged (tallies unchanged)."""
    incoming = int((layer.starts[group + 1] - layer.starts[group]).sum())
    return counter.merge(
        layer,
        counter.plan.steps[step],
        codes.astype(np.int64),
        np.zeros(len(group), np.int64),
        group.astype(np.int64),
        incoming,
    )


def count_by_halves(
    level: Level,
    *,
    run_plan: RunPlan | None = None,
    deadline: float | None = None,
    memory: int | None = None,
    progress: ProgressSink | None = None,
    threads: int = 2,
    check_mirror: bool = False,
) -> Outcome | None:
    """The level's plain count by halves, or None when the level does not split (see ``halves_for``)."""
    halves = halves_for(level, run_plan)
    if halves is None:
        return None
    return HalvesCounter(
        halves, deadline=deadline, memory=memory, progress=progress, threads=threads, check_mirror=check_mirror
    ).count()
