"""Hexiom counts by halves: meet in the middle over the middle rows, one table used twice through a mirror.

Why: the row-by-row program (``runs``) must carry every partial board
of the upper half past the middle, where level 40's layers pass 400 million
states.  But the mirror across the middle row (call it mu, row r <-> row
2m - r) turns the lower half of a board into the upper half of a board of
the mirrored level, so two tables of upper halves (one, used twice, when mu
keeps the level) answer for the whole board.

Split a board at rows m-1, m, m+1 (m the middle row):

* ``T[occ(m-1), occ(m)]``: rows 0..m decided, rows 0..m-1 final; its tally
  (empty cells, defect, shown tiles) per exact occupancy of rows m-1 and m.
  Row m-1's occupancy is kept in *ghost bits* of the frontier so that states
  differing there never merge.
* ``A[occ(m), occ(m+1)]``: rows 0..m+1 decided, rows 0..m final: the same
  program one row further, for one occupancy of row m at a time.
* ``T'``: the table T of the level mirrored by mu (T itself when mu keeps the level).

Read through mu, ``T'[mu(occ(m+1)), occ(m)]`` is the lower half: rows m..2m
decided, rows m+1..2m final.  Every cell is final in exactly one half, and
the halves overlap in rows m and m+1, whose empty cells and defect both
tallies count.  So

    boards = sum over occ(m), occ(m+1) of sum over tallies t of
             A[occ(m), occ(m+1)][t] * T'[mu(occ(m+1)), occ(m)][target + overlap - t]

where "target" is the full tally (E* empty cells, defect D*, every tracked
number shown in full; the two derived numbers then follow).  Each term of
the sum counts distinct boards, so the sum is exact modulo 2**64, and the
counter refuses levels whose count could reach that (``RunPlan.fits_kernels``).

The work is organised by row m's occupancy, depth first: from the upper
half at the end of row m-1, each cell of row m is decided both ways (the
two children computed, the parent's memory given back), down to one full
occupancy of row m, a *leaf*: its T entries, its A table (one more row,
breadth first) and their join.  A leaf and its left-right mirror image (when
the level has that mirror) count the same, so only one of each pair is
computed, counted twice (or both are, and compared, with ``check_mirror``),
and prefixes whose every leaf is counted through its image are never
started (row m is decided from the outside in, so that this is known
early).  One thread drives the walk and hands leaves to a second one
(``HalvesCounter``); a big step of the walk is split between two threads
(``runs.RunCounter``) while that one has none, and every layer lives
in a reused buffer of one pool that the memory budget holds.

A run stopped by a limit still returns the boards of the leaves it finished:
a true lower bound, reported as ``N+``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numba import njit

from ....models.hexiom.model import Level
from ...base import report_partial_count
from .plan import Budget, Outcome, Stopped, Vertex, fold, make_plan
from .runs import EMPTY, FRONTIER_BITS, PARALLEL_FROM, Buffers, Layer, RunCounter, RunPlan, note_compiling


@dataclass(frozen=True)
class Halves:
    """Where the middle rows are in the plan, and the mirrors that relate their cells."""

    plan: RunPlan
    #: the plan of the level mirrored by mu, whose upper half is this level's lower half (None: mu keeps the level)
    lower_plan: RunPlan | None
    ends: tuple[int, ...]  # ends[r]: steps done when row r is decided
    lower_ends: tuple[int, ...]  # the same in the lower table's plan
    middle: int  # m
    upper: tuple[int, ...]  # the usable cells of rows m-1, m, m+1, in reading order
    row: tuple[int, ...]
    lower: tuple[int, ...]
    #: per usable cell of row m+1 (frontier position at the end of row m+1): the ghost bit of its mu image
    #: in row m-1 of the lower table's level
    ghost_of_lower: tuple[int, ...]
    #: per usable cell of row m: the position of its left-right mirror image (None: no such symmetry)
    row_mirror: tuple[int, ...] | None
    #: row m's positions in the order the walk decides them
    order: tuple[int, ...]


def mirrored_level(level: Level, mu: tuple[int, ...]) -> Level:
    """The level moved by the board symmetry ``mu``: a tile locked on c is locked on mu(c), and so on."""
    return Level(
        level.board,
        level.tile_counts,
        tuple(sorted((mu[c], n) for c, n in level.locked_tiles)),
        frozenset(mu[c] for c in level.blocked_cells),
        level.name,
    )


def halves_for(level: Level, run_plan: RunPlan | None = None) -> Halves | None:
    """The split for this level, or None when the halves cannot count it (see the conditions below).

    When the level has a left-right mirror, row m is decided from the outside in (its first cell, its
    mirror image, the second, ...), so that the walk knows after two cells, not after all, whether a prefix
    can still lead to a leaf that is its mirror class's (``_viable_prefixes``).
    """
    board = level.board
    if level.side < 3:
        return None
    m = level.side - 1
    row_of = {c: (r, j) for r, cells in enumerate(board.rows) for j, c in enumerate(cells)}
    mu = next(
        p
        for p in board.symmetries
        if all(row_of[p[c]][0] == 2 * m - row_of[c][0] for c in range(board.size))
        and all(p[c] == c for c in board.rows[m])
    )
    rows = [tuple(c for c in r if c not in level.blocked_cells) for r in board.rows]
    upper, row, lower = rows[m - 1], rows[m], rows[m + 1]
    if not row:
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
    other = level if mu in level.symmetries else mirrored_level(level, mu)
    for order in ([_outside_in(row_mirror)] if row_mirror is not None else []) + [tuple(range(len(row)))]:
        plans = _plans(level, other, row, order, run_plan if order == tuple(range(len(row))) else None)
        if plans is not None:
            break
    else:
        return None
    run_plan, lower_plan = plans

    def row_ends(blocked: frozenset[int]) -> tuple[int, ...]:
        ends, done = [], 0
        for cells in board.rows:
            done += sum(1 for c in cells if c not in blocked)
            ends.append(done)
        return tuple(ends)

    ends, other_ends = row_ends(level.blocked_cells), row_ends(other.blocked_cells)
    other_upper = tuple(c for c in board.rows[m - 1] if c not in other.blocked_cells)
    # the joins read rows m and m+1 off the frontier: every one of their cells must still be in it
    for plan, at, before in ((run_plan, ends, upper), (lower_plan or run_plan, other_ends, other_upper)):
        if set(plan.steps[at[m] - 1].cells) != set(row) or len(before) > 62 - FRONTIER_BITS:
            return None
        if tuple(position[plan.steps[at[m - 1] + k].cell] for k in range(len(row))) != order:
            return None
    if run_plan.steps[ends[m + 1] - 1].cells != lower:
        return None
    ghost = ghost_bits(other_upper)
    if any(mu[c] not in ghost for c in lower):
        return None
    return Halves(
        run_plan,
        lower_plan,
        ends,
        other_ends,
        m,
        upper,
        row,
        lower,
        tuple(ghost[mu[c]] for c in lower),
        row_mirror,
        order,
    )


def _outside_in(row_mirror: tuple[int, ...]) -> tuple[int, ...]:
    """Row m's positions, each followed by its mirror image: the order that settles "at most its mirror
    image" (lexicographically, from position 0) soonest."""
    order: list[int] = []
    for j in range(len(row_mirror)):
        for q in (j, row_mirror[j]):
            if q not in order:
                order.append(q)
    return tuple(order)


def _in_order(vertices: tuple[Vertex, ...], row: tuple[int, ...], order: tuple[int, ...]) -> tuple[Vertex, ...]:
    """The vertices with row m's (the cells ``row``, consecutive in reading order) decided in ``order``."""
    first = next(k for k, v in enumerate(vertices) if v.cells[0] == row[0])
    sequence = list(range(len(vertices)))
    sequence[first : first + len(row)] = [first + j for j in order]
    new_of = {old: new for new, old in enumerate(sequence)}
    return tuple(
        Vertex(v.cells, v.locked, tuple(sorted((new_of[u], n) for u, n in v.links)))
        for v in (vertices[old] for old in sequence)
    )


def _plans(
    level: Level, other: Level, row: tuple[int, ...], order: tuple[int, ...], given: RunPlan | None
) -> tuple[RunPlan, RunPlan | None] | None:
    """The upper table's plan and the lower one's (None: mu keeps the level), row m decided in ``order``; None
    when they do not fit the kernels."""

    def plan_of(which: Level, widths: list[int] | None = None) -> RunPlan:
        vertices = fold(which)
        if order != tuple(range(len(row))):
            vertices = _in_order(vertices, row, order)
        return RunPlan(which, make_plan(vertices), widths)

    run_plan = given or plan_of(level)
    if not run_plan.fits_kernels:
        return None
    if other is level:
        return run_plan, None
    lower_plan = plan_of(other)
    if not np.array_equal(lower_plan.bits, run_plan.bits):
        # the join reads the lower table's tallies with the upper plan's layout: give both the wider one
        widths = np.maximum(lower_plan.bits, run_plan.bits).tolist()
        run_plan, lower_plan = plan_of(level, widths), plan_of(other, widths)
    if not (run_plan.fits_kernels and lower_plan.fits_kernels):
        return None
    return run_plan, lower_plan


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
    guards,
    first,
    last,
    per_frontier,
):
    """Sum over A's states of A's count times the count of T's complementary state (see the module's formula).

    Only A's frontiers ``first..last-1``; ``per_frontier``, when as long as A's frontiers, receives each
    frontier's (each occupancy of row m+1's) share.

    The complement is a subtraction: a field stored as ``v + offset`` has complement ``F - v`` (F the full
    value plus the overlap's, or the field's maximum), stored ``(F + 2 offset) - (v + offset)``, so the
    complement of a whole code is ``K - code`` with K the sum of the fields' ``F + 2 offset``, as long as no
    field's difference leaves its bits.  A complement below 0 borrows, which sets that field's guard bit (or
    makes the code negative): no state of T has it.  One above its field's maximum can only come from the
    empty cells or the defect (the others' F is their maximum), so A's states with too few of them are
    skipped first.  As A's codes rise in a run, their complements fall: A's run and T's are walked in
    opposite directions, once each, instead of a search per state.
    """
    total = np.uint64(0)
    n_fields = shifts.shape[0]
    width = lower_defect.shape[0]
    e_shift, e_mask, e_offset = shifts[0], (np.int64(1) << bits[0]) - 1, offsets[0]
    d_shift, d_mask, d_offset = shifts[1], (np.int64(1) << bits[1]) - 1, offsets[1]
    for k in range(first, last):
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
        run_first, run_last = t_starts[lo], t_starts[lo + 1]
        whole = np.int64(0)
        for j in range(n_fields):
            if j == 0:
                full = empties + e_overlap
            elif j == 1:
                full = defect + d_overlap
            else:
                full = maxima[j]
            whole += (full + 2 * offsets[j]) << shifts[j]
        e_least = empties + e_overlap - maxima[0]
        d_least = defect + d_overlap - maxima[1]
        at = run_last - 1
        for q in range(a_starts[k], a_starts[k + 1]):
            code = a_tallies[q]
            target = whole - code
            if target & guards:
                continue
            if ((code >> e_shift) & e_mask) - e_offset < e_least or ((code >> d_shift) & d_mask) - d_offset < d_least:
                continue
            while at >= run_first and t_tallies[at] > target:
                at -= 1
            if at < run_first:
                break
            if t_tallies[at] == target:
                total += a_counts[q] * t_counts[at]
        if per_frontier.shape[0] > k:
            per_frontier[k] = total - before
    return total


# ------------------------------------------------------------------ partner bounds for the A tables


@njit(cache=True, nogil=True)
def _partner_bounds(
    t_frontiers, t_starts, t_tallies, pattern_ghosts, c_e, c_d, shifts, bits, offsets, maxima, least, out
):
    """``out[row, e * (D* + 1) + D]`` for every prefix of row m+1 (row ``2^j - 1 + p``: its first j cells
    decided as the bits of p say): what an A state with e empty cells and defect D adds to its code so that a
    guard bit is set unless some state of T, under the ghost of a completion of the prefix, can still be its
    partner (``PartnerBounds``)."""
    n_fields = shifts.shape[0]
    n_e, n_d = maxima[0] + 1, maxima[1] + 1
    n_shown = n_fields - 2
    stride = n_shown + 1  # per (s_e, s_D): the fewest shown tiles of each tracked number, then 0 if any partner
    keys = n_e * n_d * stride
    n_rows = out.shape[0]
    width = pattern_ghosts.shape[0]
    big = np.int16(32767)
    leaves = width - 1  # the rows of the full occupancies
    least[leaves:, :] = big
    t_ghosts = t_frontiers >> FRONTIER_BITS
    masks = np.empty(n_fields, np.int64)
    for f in range(n_fields):
        masks[f] = (np.int64(1) << bits[f]) - 1
    for pattern in range(width):
        ghost = pattern_ghosts[pattern]
        k = np.searchsorted(t_ghosts, ghost)
        if k >= t_ghosts.shape[0] or t_ghosts[k] != ghost:
            continue
        into = least[leaves + pattern]
        for q in range(t_starts[k], t_starts[k + 1]):
            code = t_tallies[q]
            s_e = ((code >> shifts[0]) & masks[0]) - offsets[0]
            s_d = ((code >> shifts[1]) & masks[1]) - offsets[1]
            at = (s_e * n_d + s_d) * stride
            into[at + n_shown] = 0
            for f in range(n_shown):
                v = ((code >> shifts[2 + f]) & masks[2 + f]) - offsets[2 + f]
                if v < into[at + f]:
                    into[at + f] = v
    # a prefix's partners are those of its two one-cell-longer prefixes
    size = width // 2
    while size >= 1:
        for p in range(size):
            row, low, high = least[size - 1 + p], least[2 * size - 1 + p], least[3 * size - 1 + p]
            for x in range(keys):
                row[x] = min(low[x], high[x])
        size //= 2
    dead = np.int64(1) << (shifts[0] + bits[0])
    for row in range(n_rows):
        here = least[row]
        to = out[row]
        for e in range(n_e):
            s_e = c_e[row] - e
            for d in range(n_d):
                s_d = c_d[row] - d
                add = dead
                if 0 <= s_e < n_e and 0 <= s_d < n_d:
                    at = (s_e * n_d + s_d) * stride
                    if here[at + n_shown] == 0:
                        add = 0
                        for f in range(n_shown):
                            add += np.int64(here[at + f]) << shifts[2 + f]
                to[e * n_d + d] = add
    return out


#: bytes one thread's partner table (``PartnerBounds``) may take; a level whose table would be larger is counted
#: row by row.  Such a level has many empty cells (the table has a row per empty-cell count and defect): side 7
#: with no tiles would need 4.4 GB, and there the rows are over in seconds; level 40's table takes 7 MB.
PARTNER_TABLE_BYTES = 64 << 20


def partner_table_bytes(halves: Halves) -> int:
    """Bytes of the partner table's two arrays for this split (``PartnerBounds.table``)."""
    plan = halves.plan
    rows = (2 << len(halves.lower)) - 1
    keys = int(plan.maxima[0] + 1) * int(plan.maxima[1] + 1)
    return rows * keys * (2 * (len(plan.maxima) - 1) + 8)


class PartnerBounds:
    """Which of a leaf's A states can still meet a partner in the join, as the gather kernel's bounds table.

    Why: at the end of row m+1 only about a fifth of A's states have a complementary state in T, and A's
    steps are most of the count's work.  Rows m and m+1 are counted in both halves; take the A state's tally
    after j cells of row m+1 (prefix p).  Its empty cells e and defect D from rows 0..m and p's cells stay as
    they are to the end of the row, and the join needs a state of T (under the ghost of row m+1's
    occupancy) with exactly ``E* + row m's empties + p's empties - e`` empty cells and ``D* + row m's defect +
    p's defect - D`` defect (p's defect: its empty cells' own and their edges to row m's empty cells and to
    each other).  Its shown tiles only grow, and must end at most the tracked numbers' stock minus T's.  So
    per prefix and (e, D): if no state of T under a completion of p has those empty cells and defect, the
    state is dead; else it is dead when a tracked number's shown tiles pass the stock minus the fewest T has
    there.  Both are one add and one guard test (``_gather``), from a table of (2^(w+1) - 1) x (E*+1)(D*+1)
    entries made per leaf from T in one pass (``_partner_bounds``; its arrays are kept per thread).
    """

    def __init__(self, halves: Halves) -> None:
        h = halves
        plan = h.plan
        first, last = h.ends[h.middle], h.ends[h.middle + 1]
        neighbours = plan.level.board.neighbours
        #: the cells of row m+1 in the order A decides them, and per step the frontier positions of those decided
        self.cells = [plan.steps[i].cell for i in range(first, last)]
        self.first = first
        self.positions = {
            i: np.array([plan.steps[i].cells.index(c) for c in self.cells[: i - first + 1]], np.int64)
            for i in range(first, last)
        }
        lower_position = {c: j for j, c in enumerate(h.lower)}
        width = len(self.cells)
        patterns = np.arange(1 << width, dtype=np.int64)
        occupied = [(patterns >> k) & 1 for k in range(width)]
        self.pattern_ghosts = np.zeros(1 << width, np.int64)
        for k, c in enumerate(self.cells):
            self.pattern_ghosts |= occupied[k] << (h.ghost_of_lower[lower_position[c]] - FRONTIER_BITS)
        defect_of = {step.cell: step.defect for step in plan.steps}
        # per full pattern, after k cells: empties and defect of the decided cells without row m's share
        self.row_m = tuple(h.row)
        self._empty_sum, self._defect_sum, self._cross = [], [], []
        e = np.zeros(1 << width, np.int64)
        d = np.zeros(1 << width, np.int64)
        self._empty = [1 - o for o in occupied]
        for k, c in enumerate(self.cells):
            empty = self._empty[k]
            e = e + empty
            d = d + empty * defect_of[c]
            for k2 in range(k):
                if self.cells[k2] in neighbours[c]:
                    d = d + empty * (1 - occupied[k2])
            self._empty_sum.append(e)
            self._defect_sum.append(d)
            self._cross.append([self.row_m.index(n) for n in neighbours[c] if n in self.row_m])
        self.plan = plan
        self.width = width
        self.n_keys = (plan.maxima[0] + 1) * (plan.maxima[1] + 1)
        self._arrays = threading.local()  # per thread: the kernel's scratch and the table (one leaf at a time)

    def table(self, t_layer: Layer, row_m_occupied: list[bool], row_empty: int, row_defect: int) -> np.ndarray:
        """The leaf's table (row m's occupancy in reading order, its empties and defect), from its T: valid until
        this thread asks for the next leaf's."""
        width = self.width
        c_e = np.empty((2 << width) - 1, np.int64)
        c_d = np.empty((2 << width) - 1, np.int64)
        plan = self.plan
        c_e[0] = plan.empties + row_empty
        c_d[0] = plan.defect + row_defect
        cross = np.zeros(1 << width, np.int64)
        for j in range(1, width + 1):
            size = 1 << j
            edges = sum(1 for q in self._cross[j - 1] if not row_m_occupied[q])
            if edges:
                cross += edges * self._empty[j - 1]
            c_e[size - 1 : 2 * size - 1] = c_e[0] + self._empty_sum[j - 1][:size]
            c_d[size - 1 : 2 * size - 1] = c_d[0] + self._defect_sum[j - 1][:size] + cross[:size]
        arrays = getattr(self._arrays, "them", None)
        if arrays is None:
            stride = len(plan.maxima) - 1
            arrays = self._arrays.them = (
                np.empty(((2 << width) - 1, self.n_keys * stride), np.int16),
                np.empty(((2 << width) - 1, self.n_keys), np.int64),
            )
        least, out = arrays
        return _partner_bounds(
            t_layer.frontiers,
            t_layer.starts,
            t_layer.tallies,
            self.pattern_ghosts,
            c_e,
            c_d,
            plan.shifts,
            plan.bits,
            plan.offsets,
            plan.maxima,
            least,
            out,
        )

    def rows(self, i: int, codes: np.ndarray) -> np.ndarray:
        """Per next frontier code after step i (``self.first - 1``: before row m+1): its row of the table."""
        if i < self.first:
            return np.zeros(len(codes), np.int64)
        positions = self.positions[i]
        prefix = np.zeros(len(codes), np.int64)
        for k, q in enumerate(positions):
            prefix |= (((codes >> (3 * int(q))) & 7) != EMPTY).astype(np.int64) << k
        return prefix + ((1 << len(positions)) - 1)


# ------------------------------------------------------------------ the run


@dataclass
class _Tally:
    """What the walk has counted so far, for the result and the progress reports."""

    boards: int = 0
    leaves: int = 0
    mirrored: int = 0
    done: float = 0.0  # share of the walk's work finished (each node's share split by its children's states)
    mismatches: list = field(default_factory=list)
    #: CPU seconds (the whole process: both threads) per part of the work
    seconds: dict = field(default_factory=lambda: {"upper half": 0.0, "middle row": 0.0, "lower row": 0.0, "join": 0.0})


#: leaves the worker thread may hold (one running, the rest waiting) before the walk does one itself
QUEUED = 2


class HalvesCounter:
    """One level's count by halves: the upper half to row m-1, then a walk over row m's occupancies.

    With two threads, the leaves run beside the walk: the walk (this thread) hands each leaf (its A table
    and join, one thread's work) to a worker thread while that has fewer than ``QUEUED`` leaves, else does
    it itself, and a step of this thread is split between two threads only while the worker has none.  The
    leaves' results are tallied here, in the order they finish.
    """

    def __init__(
        self,
        halves: Halves,
        budget: Budget | None = None,
        *,
        check_mirror: bool = False,
        on_leaf: Callable[[tuple[bool, ...], int, list[tuple[tuple[bool, ...], int]]], None] | None = None,
        leaves: Collection[tuple[bool, ...]] | None = None,
        partner_bounds: bool = True,
    ) -> None:
        """``leaves`` restricts the count to those occupancies of row m (a cube of the count, for checks);
        ``partner_bounds``: drop A's states that no state of T can complete (``PartnerBounds``)."""
        self.halves = halves
        #: called per computed leaf: (row m's occupancy, its weight, [(row m+1's occupancy, boards)])
        self.on_leaf = on_leaf
        budget = budget or Budget()
        self.progress = budget.progress
        self.threads = max(1, budget.threads)
        self.check_mirror = check_mirror or halves.row_mirror is None
        self.buffers = Buffers(budget.memory)
        steps = replace(budget, progress=None)  # the halves report their phases themselves, not each step
        self.upper = RunCounter(halves.plan, steps, buffers=self.buffers)
        self.lower = (
            self.upper if halves.lower_plan is None else RunCounter(halves.lower_plan, steps, buffers=self.buffers)
        )
        #: the A tables' steps: this thread's (steps split while the worker is idle), the worker's (one thread)
        self.rows = RunCounter(halves.plan, steps, buffers=self.buffers)
        self.worker_rows = RunCounter(halves.plan, replace(steps, threads=1), buffers=self.buffers)
        self.tally = _Tally()
        self.started = time.monotonic()
        self.walk_started = self.started
        self._last_report = 0.0
        self._pool: ThreadPoolExecutor | None = None  # the join's second thread
        self._worker: ThreadPoolExecutor | None = None  # the leaves beside the walk
        self._queued: list[Future] = []
        self._seconds_lock = threading.Lock()
        #: with check_mirror: boards of leaves whose mirror image has not come yet
        self._mirror_seen: dict[tuple[bool, ...], int] = {}
        #: viable[k][prefix]: some occupancy of row m starting with these k+1 cells is its mirror class's leaf
        self._viable = _viable_prefixes(halves.order, None if self.check_mirror else halves.row_mirror, leaves)
        # what the joins need of rows m and m+1 whatever row m's occupancy: 6 - degree, adjacency, ghost bits
        neighbours = halves.plan.level.board.neighbours
        self._defect_of = {step.cell: step.defect for step in halves.plan.steps}
        self._lower_defect = np.array([self._defect_of[c] for c in halves.lower], np.int64)
        self._lower_adjacent = np.array(
            [j > 0 and halves.lower[j - 1] in neighbours[c] for j, c in enumerate(halves.lower)], np.bool_
        )
        self._ghost_of_lower = np.array(halves.ghost_of_lower, np.int64)
        self.partner = PartnerBounds(halves) if partner_bounds else None

    def count(self) -> Outcome:
        try:
            return self._count()
        finally:
            if self._worker is not None:
                for future in self._queued:
                    future.cancel()
                self._worker.shutdown()  # waits for the leaf it runs (a limit stops it within a step)
            for counter in {self.upper, self.lower, self.rows, self.worker_rows}:
                counter.close()
            if self._pool is not None:
                self._pool.shutdown()
            self.buffers.clear()

    def _count(self) -> Outcome:
        h = self.halves
        clock = self._clock(self.upper, self.lower)
        try:
            tops = [self._upper_half(self.upper, h.ends)]
            if self.lower is not self.upper:
                tops.append(self._upper_half(self.lower, h.lower_ends))
        except Stopped as stop:
            return Outcome(0, False, str(stop), self._stats())
        self._add_seconds("upper half", clock)
        self._report_phase("upper half to row m-1", tops[0])
        self.walk_started = time.monotonic()
        try:
            self._walk(tops[0], tops[-1], 0, [], 1.0)
            self._collect(wait=True)
        except Stopped as stop:
            self._collect(wait=True, stopped=True)  # the leaves the worker finished count too
            return Outcome(self.tally.boards, False, str(stop), self._stats())
        if self.tally.mismatches:
            raise RuntimeError(f"dp halves: leaves and their mirror images disagree: {self.tally.mismatches[:3]}")
        return Outcome(self.tally.boards, True, None, self._stats())

    def _clock(self, *counters: RunCounter) -> tuple[float, tuple[RunCounter, ...], tuple[float, ...]]:
        """A start for ``_add_seconds``: this thread's CPU time and the counters' helper threads'."""
        return time.thread_time(), counters, tuple(c.helper_seconds for c in counters)

    def _add_seconds(self, part: str, clock: tuple[float, tuple[RunCounter, ...], tuple[float, ...]]) -> None:
        began, counters, helped = clock
        seconds = time.thread_time() - began + sum(c.helper_seconds - h for c, h in zip(set(counters), helped))
        with self._seconds_lock:
            self.tally.seconds[part] += seconds

    def _upper_half(self, counter: RunCounter, ends: tuple[int, ...]) -> Layer:
        """Rows 0..m-1 decided, row m-1's occupancy in the ghost bits."""
        h = self.halves
        plan = counter.plan
        first_upper = ends[h.middle - 2] if h.middle >= 2 else 0
        last = ends[h.middle - 1]
        counter.progress = self._step_reporter("upper half", last)
        try:
            layer = counter.run(0, first_upper)
        finally:
            counter.progress = None
        ghost = ghost_bits(tuple(plan.steps[i].cell for i in range(first_upper, last)))
        for i in range(first_upper, last):
            began = time.monotonic()
            following = counter.advance(layer, i, ghost_bit=ghost.get(plan.steps[i].cell, -1))
            self.buffers.release(layer)
            layer = following
            self._report_step("upper half", i + 1, last, layer, time.monotonic() - began)
        return layer

    def _step_reporter(self, what: str, steps: int) -> Callable[[dict[str, Any]], None] | None:
        """A counter's step reports as steps of ``what`` (``steps`` of them), for the progress sink."""
        if self.progress is None:
            return None
        return lambda report: self.progress({**report, "phase": what, "steps": steps})

    def _report_step(self, what: str, step: int, steps: int, layer: Layer, seconds: float) -> None:
        if self.progress is not None:
            self.progress(
                {
                    "phase": what,
                    "step": step,
                    "steps": steps,
                    "frontiers": len(layer.frontiers),
                    "states": layer.states,
                    "step_seconds": seconds,
                    "elapsed": time.monotonic() - self.started,
                }
            )

    # ------------------------------------------------------------- the walk

    def _helped(self) -> int:
        """Threads this thread's next step may use: two while the worker has no leaf."""
        self._collect()
        return self.threads if not self._queued else 1

    def _walk(self, node: Layer, lower_node: Layer, k: int, path: list[int], share: float) -> None:
        """Decide cell k of row m both ways below ``node`` (and ``lower_node``, the lower table's, when it has
        its own), give the nodes' memory back, then go down the children: the larger first."""
        h = self.halves
        if k == len(h.row):
            self._leaf(node, lower_node, path, share)
            return
        clock = self._clock(self.upper, self.lower)
        children = []
        try:
            for choice in (1, 0):
                prefix = path + [choice]
                if self._viable is not None and not self._viable[k][_bits(prefix)]:
                    continue  # every leaf below is counted through its mirror image (or not asked for)
                self.upper.threads = self.lower.threads = self._helped()
                child = self.upper.advance(node, h.ends[h.middle - 1] + k, forced=choice)
                if self.lower is self.upper:
                    lower_child = child
                else:
                    try:
                        lower_child = self.lower.advance(lower_node, h.lower_ends[h.middle - 1] + k, forced=choice)
                    except BaseException:
                        self.buffers.release(child)
                        raise
                if child.states and lower_child.states:
                    children.append((child, lower_child, choice))
                else:
                    self._release(child, lower_child)
        except BaseException:
            for child, lower_child, _ in children:
                self._release(child, lower_child)
            raise
        finally:
            self._release(node, lower_node)
            self._add_seconds("middle row", clock)
        weight = sum(child.states for child, _, _ in children)
        if not children:
            self.tally.done += share
        children.sort(key=lambda c: -c[0].states)
        for n, (child, lower_child, choice) in enumerate(children):
            try:
                self._walk(child, lower_child, k + 1, path + [choice], share * child.states / weight)
            except BaseException:
                for later, later_lower, _ in children[n + 1 :]:
                    self._release(later, later_lower)
                raise

    def _release(self, node: Layer, lower_node: Layer) -> None:
        self.buffers.release(node)
        if lower_node is not node:
            self.buffers.release(lower_node)

    # ------------------------------------------------------------- a leaf

    def _leaf(self, t_layer: Layer, lower_layer: Layer, occupancy: list[int], share: float) -> None:
        """One occupancy of row m, its nodes given (the leaf gives their memory back): to the worker, or here."""
        self._collect()
        if self.threads >= 2 and len(self._queued) < QUEUED:
            if self._worker is None:
                self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dp-leaves")
            try:
                future = self._worker.submit(self._leaf_work, t_layer, lower_layer, occupancy, share, False)
            except BaseException:
                self._release(t_layer, lower_layer)
                raise
            self._queued.append(future)
            return
        self._record(self._leaf_work(t_layer, lower_layer, occupancy, share, True))

    def _collect(self, wait: bool = False, stopped: bool = False) -> None:
        """Tally the worker's finished leaves (``wait``: all of them, once done; ``stopped``: a limit stopped
        the count, so a leaf the limit stopped too is left out, as are those not begun)."""
        while self._queued and (wait or self._queued[0].done()):
            future = self._queued.pop(0)
            if stopped and future.cancel():
                continue
            try:
                result = future.result()
            except Stopped:
                if stopped:
                    continue
                raise
            self._record(result)

    def _leaf_work(
        self, t_layer: Layer, lower_layer: Layer, occupancy: list[int], share: float, here: bool
    ) -> tuple[list[bool], float, int, np.ndarray, list[tuple[bool, ...]]]:
        """The leaf's T entries (the node), its A table (one more row) and their join: (row m's occupancy, its
        share of the walk, boards, boards per occupancy of row m+1 when ``on_leaf`` wants them, those
        occupancies).  ``here``: on the walk's thread (else the worker's)."""
        h = self.halves
        plan = h.plan
        rows = self.rows if here else self.worker_rows
        occupied = [False] * len(h.row)  # the walk's choices are in its order, the leaf's in the row's
        for j, o in zip(h.order, occupancy):
            occupied[j] = bool(o)
        try:
            # A: drop the ghosts (states that differ only in row m-1 merge), then decide row m+1
            clock = self._clock(rows)
            low = (np.int64(1) << FRONTIER_BITS) - 1
            group = np.arange(len(t_layer.frontiers), dtype=np.int64)
            bounds = None
            if self.partner is not None:
                row_empty, row_defect, _ = self._overlap(occupied)
                table = self.partner.table(lower_layer, occupied, row_empty, row_defect)

                def bounds(i: int, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
                    return table, self.partner.rows(i, codes)

            if here:
                rows.threads = self._helped()
            frontiers = t_layer.frontiers & low
            a_layer = rows.merge(
                t_layer,
                plan.steps[h.ends[h.middle] - 1],
                frontiers,
                np.zeros(len(group), np.int64),
                group,
                t_layer.states,
                None if bounds is None else bounds(h.ends[h.middle] - 1, frontiers),
            )
            for i in range(h.ends[h.middle], h.ends[h.middle + 1]):
                if here:
                    rows.threads = self._helped()
                try:
                    following = rows.advance(a_layer, i, bounds=bounds)
                finally:
                    self.buffers.release(a_layer)
                a_layer = following
            self._add_seconds("lower row", clock)
            clock = self._clock()
            try:
                shares, boards = self._join(a_layer, lower_layer, occupied, here and self._helped() > 1)
            finally:
                self.buffers.release(a_layer)
            self._add_seconds("join", clock)
        finally:
            self._release(t_layer, lower_layer)
        lower = []
        if self.on_leaf is not None:
            lower = [tuple(((f >> (3 * j)) & 7) != EMPTY for j in range(len(h.lower))) for f in a_layer.frontiers]
        return occupied, share, boards, shares, lower

    def _record(self, result: tuple[list[bool], float, int, np.ndarray, list[tuple[bool, ...]]]) -> None:
        """A finished leaf into the tally (on the walk's thread): its weight, the mirror check, the reports."""
        occupied, share, boards, shares, lower = result
        h = self.halves
        weight = 1
        if not self.check_mirror:
            image = [occupied[h.row_mirror[j]] for j in range(len(h.row))]
            weight = 1 if image == occupied else 2  # (the walk never reaches a leaf greater than its image)
        if self.on_leaf is not None:
            self.on_leaf(tuple(occupied), weight, [(o, int(n)) for o, n in zip(lower, shares)])
        self.tally.leaves += 1
        if self.check_mirror and h.row_mirror is not None:
            key = tuple(occupied)
            image = tuple(occupied[h.row_mirror[j]] for j in range(len(h.row)))
            other = self._mirror_seen.pop(image, None)
            if other is not None:
                self.tally.mirrored += 1
                if other != boards:
                    self.tally.mismatches.append((key, boards, other))
            elif image != key:
                self._mirror_seen[key] = boards
        self.tally.boards += weight * boards
        report_partial_count(self.tally.boards)  # a killed run keeps them: N+
        self.tally.done += share
        self._report_walk()

    def _join(self, a_layer: Layer, t_layer: Layer, occupied: list[bool], split: bool) -> tuple[np.ndarray, int]:
        """The leaf's boards, and per frontier of A (occupancy of row m+1) its share when ``on_leaf`` wants it;
        ``split``: between two threads when it is big."""
        plan = self.halves.plan
        row_empty, row_defect, cross = self._overlap(occupied)
        n = len(a_layer.frontiers)
        shares = np.zeros(n if self.on_leaf is not None else 0, np.uint64)
        t_ghosts = t_layer.frontiers >> FRONTIER_BITS

        def join(first: int, last: int) -> int:
            return int(
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
                    t_layer.starts,
                    t_layer.tallies,
                    t_layer.counts,
                    row_empty,
                    row_defect,
                    plan.shifts,
                    plan.bits,
                    plan.offsets,
                    plan.maxima,
                    plan.empties,
                    plan.defect,
                    plan.guards,
                    first,
                    last,
                    shares,
                )
            )

        if not split or a_layer.states < PARALLEL_FROM or n < 2:
            return shares, join(0, n) % (1 << 64)
        middle = int(np.searchsorted(a_layer.starts, a_layer.states // 2))
        middle = min(max(middle, 1), n - 1)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dp-join")

        def helped(first: int, last: int) -> int:
            clock = time.thread_time()
            try:
                return join(first, last)
            finally:
                with self._seconds_lock:
                    self.tally.seconds["join"] += time.thread_time() - clock

        upper = self._pool.submit(helped, middle, n)
        total = join(0, middle) + upper.result()
        return shares, total % (1 << 64)

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

    def _stats(self) -> dict[str, Any]:
        stats = self.upper.stats()
        for counter in (self.lower, self.rows, self.worker_rows):
            if counter is not self.upper:
                stats["peak_states"] = max(stats["peak_states"], counter.peak_states)
                stats["frontier_transitions"] += counter.transitions
        stats.update(
            {
                "method": "halves",
                "leaves": self.tally.leaves,
                "cpu_seconds": {k: round(v, 2) for k, v in self.tally.seconds.items()},
                "fresh_bytes": self.buffers.fresh,  # pages written for the first time: the kernel zeroes each
                "lower_table": "the level's own (mu keeps it)" if self.lower is self.upper else "the mirrored level's",
            }
        )
        if self.check_mirror and self.halves.row_mirror is not None:
            stats["mirror_checks"] = self.tally.mirrored
        return stats

    def _report_phase(self, what: str, layer: Layer) -> None:
        if self.progress is not None:
            self.progress(
                {
                    "phase": what,
                    "states": layer.states,
                    "bytes": self.buffers.capacity,
                    "elapsed": time.monotonic() - self.started,
                }
            )

    def _report_walk(self) -> None:
        if self.progress is None:
            return
        self.progress(
            {
                "phase": "middle row",
                "done": self.tally.done,
                "leaves": self.tally.leaves,
                "boards_so_far": self.tally.boards,
                "elapsed": time.monotonic() - self.walk_started,
            }
        )


def _bits(occupied: list[int] | list[bool]) -> int:
    return sum(int(o) << j for j, o in enumerate(occupied))


def _viable_prefixes(
    order: tuple[int, ...], row_mirror: tuple[int, ...] | None, leaves: Collection[tuple[bool, ...]] | None
) -> list[np.ndarray] | None:
    """Per prefix length k+1: which prefixes of row m (its first k+1 cells in the walk's ``order``) have a
    completion x that is computed: x <= its mirror image (when ``row_mirror`` is given) and x in ``leaves``
    (when given)."""
    if row_mirror is None and leaves is None:
        return None
    width = len(order)
    wanted = None if leaves is None else {_bits(leaf) for leaf in leaves}
    viable = [np.zeros(1 << (k + 1), np.bool_) for k in range(width)]
    for pattern in range(1 << width):
        x = [pattern >> j & 1 for j in range(width)]
        if row_mirror is not None and x > [x[row_mirror[j]] for j in range(width)]:
            continue
        if wanted is not None and pattern not in wanted:
            continue
        walked = _bits([x[j] for j in order])
        for k in range(width):
            viable[k][walked & ((1 << (k + 1)) - 1)] = True
    return viable


def count_by_halves(
    level: Level,
    budget: Budget | None = None,
    *,
    run_plan: RunPlan | None = None,
    check_mirror: bool = False,
) -> Outcome | None:
    """The level's plain count by halves, or None when the level does not split (see ``halves_for``) or its
    partner table would pass ``PARTNER_TABLE_BYTES``."""
    halves = halves_for(level, run_plan)
    if halves is None or partner_table_bytes(halves) > PARTNER_TABLE_BYTES:
        return None
    note_compiling(_join, deadline=budget.deadline if budget is not None else None)
    return HalvesCounter(halves, budget, check_mirror=check_mirror).count()
