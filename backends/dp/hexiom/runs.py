"""Hexiom counts by frontier runs: the plain board's DP, compiled, with the edge identity as a bound.

The program is the one ``plan.py`` describes (cells in reading order,
a frontier of decided cells with their occupied-neighbour counts so far),
but a state's second half is not the tile stock.  It is a small packed
*tally* of the decided part of the board:

* ``e``, the empty cells decided so far, and ``D``, the edge defect of
  those empty cells: each adds ``6 - degree`` for itself and one for every
  edge to an earlier empty cell.  Both only grow, and both have a final
  value the level fixes: every board has ``E* = cells - tiles`` empty cells,
  and since the tile numbers sum to twice the edges between occupied cells,
  ``sum of numbers = 2 (edges - 6 E* + D)`` forces ``D* = sum/2 - edges + 6 E*``.
  A partial board past either is dead: this bound is what makes level 40
  countable (docs/bench/hexiom-level40.md).
* the shown tiles of every number but the two (consecutive) most common
  ones; those two follow from ``e``, ``D`` and the frontier by the same
  identity, so they cost no state, and are still checked against the stock.

A layer keeps its states grouped by frontier: one sorted run of tally codes
(and their board counts) per distinct frontier.  Deciding a cell maps each
frontier to at most two next frontiers and shifts every tally of its run
by the same amount, so a step is "per frontier: where to, and by how much"
(``_transitions``) and then "per next frontier: add up the shifted runs"
(``_gather``, with a dense scratch over the tally box).  Both are numba
kernels that release the GIL, so the halves counter (``halves``) can
run two of them at once.

Tally fields carry a guard bit: a shift that takes a field past its bound
sets it, so every bound is one mask test.  Counts are uint64, exact modulo
2**64 (they are only added and multiplied), so exact when the level's boards
are fewer: at most C(movable tiles' cells, E*), checked first.

``advance`` can force a cell's choice and record chosen cells' occupancy in
"ghost" bits above the frontier (so states that differ there never merge):
the halves counter needs both.  Everything comes from the rules in
``models/hexiom/model.py``; it shares no code with the solver translators.
"""

from __future__ import annotations

import contextlib
import mmap
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
from numba import njit

from ....models.hexiom.model import MAX_TILE, Level
from ...numba_cache import guard
from .plan import Budget, Outcome, Plan, Step, Stopped, program_stats

guard()  # a damaged numba cache entry of this module's kernels (and halves') is compiled again, not raised

#: the frontier code: 3 bits a position, 0..6 the occupied-neighbour count so far, EMPTY an empty cell
EMPTY = 7
#: bits of a frontier code below the ghost bits
FRONTIER_BITS = 40
#: bytes an incoming state costs while a step runs: its tally and count in the step's output buffer
BYTES_PER_STATE = 16
#: chunks of a tally code the derived numbers' check looks up (``RunPlan._derived_lanes``)
LANE_CHUNKS = 4


@dataclass(frozen=True)
class RunStep:
    """Deciding one vertex (a cell, or a cycle of cells on a folded board), as arrays the kernels read (positions
    index the extended frontier).  Counts are per cell of a vertex; sums (empty cells, defect, shown tiles,
    edges) count cells, so a vertex of w cells weighs w."""

    old_width: int
    neighbours: np.ndarray  # positions of the vertex's decided neighbours
    to_them: np.ndarray  # per decided neighbour: what this vertex, occupied, adds to its count
    to_me: np.ndarray  # per decided neighbour: what it, occupied, adds to this vertex's count
    edge_weight: np.ndarray  # per decided neighbour: edges between their cells
    own: int  # this vertex's neighbours among its own cells (per cell)
    weight: int  # cells of this vertex
    finalised: np.ndarray
    final_weight: np.ndarray  # per finalised position: its cells
    keep: np.ndarray
    keep_weight: np.ndarray  # per next-frontier position: its cells
    room: np.ndarray  # per next-frontier position: undecided neighbours left (per cell)
    keep_lock: np.ndarray  # per next-frontier position: locked number, -1 movable
    final_lock: np.ndarray  # per finalised position: locked number, -1 movable
    defect: int  # 6 - degree of each cell (the halves read it: one cell a vertex there)
    empty_defect: int  # what the vertex adds to the defect when empty, before its edges to earlier empty ones
    lock: int  # the vertex's locked number, -1 movable
    finalised_so_far: int  # cells final after this step
    edges_so_far: int  # edges between decided cells
    locks_final: int  # locked cells final after this step, and the sum of their numbers
    lock_sum_final: int
    free_left: int  # movable cells still undecided
    cell: int  # the vertex's first cell
    cells: tuple[int, ...]  # the next frontier's vertices' first cells


class RunPlan:
    """A fold's plan with what the tally needs: its fields, bounds and per-step constants.

    The plain board is the identity fold (one cell a vertex); a fold by a symmetry counts the boards it fixes,
    whose empty cells and defect are those of any board of the level, so the same tally and bounds hold.
    """

    def __init__(self, level: Level, plan: Plan, widths: Sequence[int] | None = None) -> None:
        """``widths``: per tally field, at least this many bits (two plans whose tallies must be read alike, as
        the halves' upper and lower tables, are given the wider of their layouts)."""
        self.level = level
        self.folded = any(len(step.vertex.cells) != 1 for step in plan.steps)
        movable = level.movable_counts
        self.movable = movable
        cells = sum(step.vertex.weight for step in plan.steps)
        self.empties = cells - level.tile_total
        edges = sum(step.vertex.weight * step.vertex.degree for step in plan.steps) // 2
        number_sum = sum(d * level.tile_counts[d] for d in range(MAX_TILE + 1))
        self.defect = number_sum // 2 - edges + 6 * self.empties
        self.possible = (
            self.empties >= 0
            and self.defect >= 0
            and number_sum % 2 == 0
            and all(m >= 0 for m in movable)
            and not any(c in level.blocked_cells for c in level.locked)
        )
        present = [d for d in range(MAX_TILE + 1) if movable[d] > 0]
        pairs = [(movable[d] * movable[d + 1], d) for d in present if d + 1 in present]
        if pairs:
            low = max(pairs)[1]
            self.derived: tuple[int, ...] = (low, low + 1)
        elif present:
            self.derived = (max(present, key=lambda d: movable[d]),)
        else:
            self.derived = ()
        self.tracked = tuple(d for d in present if d not in self.derived)
        maxima = [max(self.empties, 0), max(self.defect, 0)] + [movable[d] for d in self.tracked]
        # the most one step adds to a field: a field must be wide enough that a live value plus that sets its
        # guard bit and never carries past it into the next field
        weight = max((step.vertex.weight for step in plan.steps), default=1)
        grown = max(
            (
                _empty_defect(step) + sum(step.vertex.weight * dict(step.vertex.links)[u] for u in _earlier(plan, i))
                for i, step in enumerate(plan.steps)
            ),
            default=1,
        )
        finalised = max((sum(step.weight_at[p] for p in step.finalised) for step in plan.steps), default=1)
        adds = [weight, grown] + [finalised] * len(self.tracked)
        shifts, bits, offsets, shift = [], [], [], 0
        for j, (most, add) in enumerate(zip(maxima, adds)):
            width = max(1, int(most).bit_length(), int(add - 1).bit_length(), widths[j] if widths else 0)
            shifts.append(shift)
            bits.append(width)
            offsets.append((1 << width) - 1 - most)
            shift += width + 1
        self.tally_bits = shift
        self.maxima = np.array(maxima, np.int64)
        self.shifts = np.array(shifts, np.int64)
        self.bits = np.array(bits, np.int64)
        self.offsets = np.array(offsets, np.int64)
        self.guards = int(sum(1 << (s + b) for s, b in zip(shifts, bits)))
        self.start_code = int(sum(o << s for o, s in zip(offsets, shifts)))
        self.full_code = int(sum(((1 << b) - 1) << s for s, b in zip(shifts, bits)))
        # number -> tally field (2.. for tracked), -1 derived, -2 no movable tile shows it
        self.field_of = np.full(8, -2, np.int64)
        for j, d in enumerate(self.tracked):
            self.field_of[d] = 2 + j
        for d in self.derived:
            self.field_of[d] = -1
        derived = list(self.derived) + [0, 0]
        self.derived_low, self.derived_high = derived[0], derived[1]
        self.derived_low_max = movable[derived[0]] if self.derived else 0
        self.derived_high_max = movable[derived[1]] if len(self.derived) > 1 else 0
        # fits[v, r]: a movable tile with v occupied neighbours and r undecided can still show a number in stock
        self.fits = np.zeros((8, 8), np.bool_)
        for v in range(MAX_TILE + 1):
            for r in range(8):
                self.fits[v, r] = any(movable[d] > 0 for d in range(v, min(v + r, MAX_TILE) + 1))
        self.width = plan.width
        self.steps = self._steps(plan)
        #: at most this many boards (E* empty cells among the movable tiles' cells): counts are sums and products,
        #: exact modulo 2**64, so below 2**64 the count is exact whatever its parts did on the way
        free = sum(step.vertex.weight for step in plan.steps if step.vertex.locked is None)
        self.board_bound = comb(free, max(self.empties, 0)) if self.empties <= free else 0
        self.fits_kernels = 3 * self.width <= FRONTIER_BITS and self.tally_bits <= 62 and self.board_bound < 1 << 64
        #: the derived numbers' check for the gather kernel (no limits: no check, as for plans it does not run)
        self.lanes, self.lane_bits, self.lane_terms, self.lane_limits = (
            self._derived_lanes()
            if self.fits_kernels and self.derived
            else (np.zeros((LANE_CHUNKS, 1), np.int64), 0, np.zeros(6, np.int64), np.zeros(0, np.uint64))
        )

    def _derived_lanes(self) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
        """The derived numbers' check as table lookups: (lanes, chunk bits, per-frontier terms, limits).

        Given the next frontier, the derived numbers' shown tiles are linear in the tally's fields: with
        ``shown = shown_base - e - sum n_j`` and ``number_sum = sum_base + 2 (D - 6 e) - sum t_j n_j`` (``_gather``),
        the higher number shows ``x = number_sum - low * shown`` tiles and the lower ``y = shown - x`` (one
        derived number: ``x = shown``, no ``y``).  Linear in the fields is linear in the code's bits, so x and y
        are sums over ``LANE_CHUNKS`` chunks of the code of a table entry, packed two lanes of 32 bits (each
        biased to stay >= 0, so the lanes never borrow from each other), plus ``terms`` . (shown_base,
        sum_base, 1) per lane.  The kernel's check is then four loads and two compares a state; extracting
        each field was the largest part of its time per state (docs/bench/hexiom-level40.md).
        """
        fields = len(self.shifts)
        coefficient_shown = np.array([-1, 0] + [-1] * (fields - 2), np.int64)
        coefficient_sum = np.array([-12, 2] + [-t for t in self.tracked], np.int64)
        low = self.derived_low
        if len(self.derived) == 2:
            x = coefficient_sum - low * coefficient_shown
            y = coefficient_shown - x
            terms_x, terms_y = (-low, 1), (1 + low, -1)
        else:
            x, y = coefficient_shown, np.zeros(fields, np.int64)
            terms_x, terms_y = (1, 0), (0, 0)
        chunk = max(1, -(-self.tally_bits // LANE_CHUNKS))
        bit_x = np.zeros(chunk * LANE_CHUNKS, np.int64)
        bit_y = np.zeros(chunk * LANE_CHUNKS, np.int64)
        for j in range(fields):  # a guard bit weighs nothing (a live state has none set)
            for k in range(int(self.bits[j])):
                bit_x[self.shifts[j] + k] = int(x[j]) << k
                bit_y[self.shifts[j] + k] = int(y[j]) << k
        values = np.arange(1 << chunk, dtype=np.int64)
        lanes = np.zeros((LANE_CHUNKS, 1 << chunk), np.int64)
        bias_x = bias_y = top_x = top_y = 0
        for c in range(LANE_CHUNKS):
            raw_x = sum(((values >> k) & 1) * bit_x[c * chunk + k] for k in range(chunk))
            raw_y = sum(((values >> k) & 1) * bit_y[c * chunk + k] for k in range(chunk))
            bias_x, bias_y = bias_x - int(raw_x.min()), bias_y - int(raw_y.min())
            lane_x, lane_y = raw_x - raw_x.min(), raw_y - raw_y.min()
            top_x, top_y = top_x + int(lane_x.max()), top_y + int(lane_y.max())
            lanes[c] = lane_x | (lane_y << 32)
        assert top_x < 1 << 31 and top_y < 1 << 31, "derived lanes overflow"  # fields of at most 62 bits cannot
        offsets_x = -int(np.dot(x, self.offsets)) - bias_x
        offsets_y = -int(np.dot(y, self.offsets)) - bias_y
        terms = np.array([terms_x[0], terms_x[1], offsets_x, terms_y[0], terms_y[1], offsets_y], np.int64)
        if len(self.derived) == 2:
            limits = np.array([self.derived_high_max, self.derived_low_max], np.uint64)
        else:
            limits = np.array([self.derived_low_max, 0], np.uint64)
        return lanes, chunk, terms, limits

    def _steps(self, plan: Plan) -> tuple[RunStep, ...]:
        steps = []
        final = edges = locks = lock_sum = 0
        vertices = [step.vertex for step in plan.steps]
        for i, step in enumerate(plan.steps):
            vertex = step.vertex
            extended = (plan.frontiers[i - 1] if i else ()) + (i,)
            final += sum(step.weight_at[p] for p in step.finalised)
            # edges between this vertex's cells and earlier ones (each cell has m neighbours in a linked vertex)
            link = dict(vertex.links)
            edge_weight = [vertex.weight * link[extended[p]] for p, _, _ in step.earlier]
            edges += sum(edge_weight) + vertex.weight * step.own // 2
            for p in step.finalised:
                number = vertices[extended[p]].locked
                if number is not None:
                    locks += step.weight_at[p]
                    lock_sum += step.weight_at[p] * number
            lock_at = [-1 if n is None else n for n in step.locked_at]
            steps.append(
                RunStep(
                    old_width=len(extended) - 1,
                    neighbours=np.array([p for p, _, _ in step.earlier], np.int64),
                    to_them=np.array([t for _, t, _ in step.earlier], np.int64),
                    to_me=np.array([m for _, _, m in step.earlier], np.int64),
                    edge_weight=np.array(edge_weight, np.int64),
                    own=step.own,
                    weight=vertex.weight,
                    finalised=np.array(step.finalised, np.int64),
                    final_weight=np.array([step.weight_at[p] for p in step.finalised], np.int64),
                    keep=np.array(step.keep, np.int64),
                    keep_weight=np.array([step.weight_at[p] for p in step.keep], np.int64),
                    room=np.array(step.after_room, np.int64),
                    keep_lock=np.array([lock_at[p] for p in step.keep], np.int64),
                    final_lock=np.array([lock_at[p] for p in step.finalised], np.int64),
                    defect=6 - vertex.degree,
                    empty_defect=_empty_defect(step),
                    lock=-1 if vertex.locked is None else vertex.locked,
                    finalised_so_far=final,
                    edges_so_far=edges,
                    locks_final=locks,
                    lock_sum_final=lock_sum,
                    free_left=step.future_at_least[0],  # every movable vertex after this one
                    cell=vertex.cells[0],
                    cells=tuple(plan.steps[u].vertex.cells[0] for u in plan.frontiers[i]),
                )
            )
        return tuple(steps)

    def digits(self, codes: np.ndarray) -> list[np.ndarray]:
        """Per tally field: its value in each code (e, D, then the tracked numbers' shown tiles)."""
        return [((codes >> s) & ((1 << b) - 1)) - o for s, b, o in zip(self.shifts, self.bits, self.offsets)]

    def encode(self, digits: Sequence[np.ndarray]) -> np.ndarray:
        code = np.zeros(len(digits[0]), np.int64)
        for value, s, o in zip(digits, self.shifts, self.offsets):
            code |= (value + o) << s
        return code


def _earlier(plan: Plan, i: int) -> list[int]:
    """The vertices decided before step i that are linked to its vertex."""
    return [u for u, _ in plan.steps[i].vertex.links if u < i]


def _empty_defect(step: Step) -> int:
    """What a step's vertex adds to the defect when empty, before its edges to earlier empty vertices: 6 -
    degree per cell, and the edges among its own cells (each cell has ``own`` neighbours there)."""
    return step.vertex.weight * (6 - step.vertex.degree) + step.vertex.weight * step.own // 2


@dataclass
class Layer:
    """The states after some step: per distinct frontier (sorted codes) a sorted run of tallies and counts."""

    frontiers: np.ndarray  # int64 codes (ghost bits above FRONTIER_BITS)
    starts: np.ndarray  # run k is [starts[k], starts[k+1])
    tallies: np.ndarray  # int64
    counts: np.ndarray  # uint64
    #: the pooled buffer (``Buffers``) the tallies and counts live in, None for arrays of their own
    buffer: Buffer | None = None

    @property
    def states(self) -> int:
        return len(self.tallies)

    @property
    def nbytes(self) -> int:
        return self.frontiers.nbytes + self.starts.nbytes + self.tallies.nbytes + self.counts.nbytes


# ------------------------------------------------------------------ kernels


# fmt: off
@njit(cache=True, nogil=True)
def _transitions(  # noqa: C901 - a numba kernel: its loop nest compiles whole, a call per step would cost each cell
    frontiers, old_width,  # the layer's frontier codes and their width before the step
    neighbours, to_them, to_me, edge_weight, own, weight, finalised, final_weight,  # the step (``RunStep``)
    keep, room, keep_lock, final_lock, empty_defect, lock,
    fits, field_of, shifts,  # the plan's tables
    forced, ghost_bit,  # the cell's forced choice (or -1) and its bit in the frontier code (or -1)
    out_code, out_shift, out_ok,  # written: per frontier and choice
):
    # fmt: on
    """Per frontier and choice (empty, occupied): the next frontier, the tally shift, and whether it can follow."""
    values = np.empty(64, np.int64)
    low = (np.int64(1) << FRONTIER_BITS) - 1
    for i in range(frontiers.shape[0]):
        f = frontiers[i]
        for c in range(2):
            t = 2 * i + c
            out_ok[t] = False
            if (c == 0 and lock >= 0) or (forced >= 0 and c != forced):
                continue
            for p in range(old_width):
                values[p] = (f >> (3 * p)) & 7
            shift = 0
            if c == 0:  # --- empty: more empty cells, their defect and their edges to earlier empty cells
                grown = empty_defect
                for j in range(neighbours.shape[0]):
                    if values[neighbours[j]] == EMPTY:
                        grown += edge_weight[j]
                values[old_width] = EMPTY
                shift += (np.int64(weight) << shifts[0]) + (np.int64(grown) << shifts[1])
            else:  # --- occupied: it and its occupied decided neighbours see each other
                seen = own
                for j in range(neighbours.shape[0]):
                    q = neighbours[j]
                    if values[q] != EMPTY:
                        values[q] += to_them[j]
                        seen += to_me[j]
                values[old_width] = seen
            ok = True
            # --- cells whose last neighbour this is show their final number
            for j in range(finalised.shape[0]):
                v = values[finalised[j]]
                if v == EMPTY:
                    continue
                if final_lock[j] >= 0:
                    if v != final_lock[j]:
                        ok = False
                        break
                elif field_of[v] == -2:
                    ok = False
                    break
                elif field_of[v] >= 0:
                    shift += np.int64(final_weight[j]) << shifts[field_of[v]]
            if not ok:
                continue
            # --- every open tile must still be able to reach a number it may show
            code = 0
            for j in range(keep.shape[0]):
                v = values[keep[j]]
                if v != EMPTY:
                    if keep_lock[j] >= 0:
                        if not (v <= keep_lock[j] <= v + room[j]):
                            ok = False
                            break
                    elif not fits[v, room[j]]:
                        ok = False
                        break
                code |= v << (3 * j)
            if not ok:
                continue
            code |= f & ~low
            if c == 1 and ghost_bit >= 0:
                code |= np.int64(1) << ghost_bit
            out_code[t] = code
            out_shift[t] = shift
            out_ok[t] = True


@njit(cache=True, nogil=True)
def _merge_two(a_codes, a_counts, a_first, a_last, b_first, b_last, out_codes, out_counts, at):
    """Merge two sorted runs of ``a`` (equal codes added up) into ``out`` from ``at``; returns the end."""
    i, j = a_first, b_first
    while i < a_last and j < b_last:
        x, y = a_codes[i], a_codes[j]
        if x < y:
            out_codes[at] = x
            out_counts[at] = a_counts[i]
            i += 1
        elif y < x:
            out_codes[at] = y
            out_counts[at] = a_counts[j]
            j += 1
        else:
            out_codes[at] = x
            out_counts[at] = a_counts[i] + a_counts[j]
            i += 1
            j += 1
        at += 1
    while i < a_last:
        out_codes[at] = a_codes[i]
        out_counts[at] = a_counts[i]
        i += 1
        at += 1
    while j < b_last:
        out_codes[at] = a_codes[j]
        out_counts[at] = a_counts[j]
        j += 1
        at += 1
    return at


# fmt: off
@njit(cache=True, nogil=True)
def _gather(  # noqa: C901 - a numba kernel: its loop nest compiles whole, a call per step would cost each cell
    order, codes, shifts_by, sources,  # the transitions, sorted by next frontier, and the state runs they shift
    starts, tallies, counts,  # the layer's states
    first, last,  # which transitions: order[first:last]
    width, room, keep_weight, guards, shifts, bits, offsets,  # the step's and the plan's constants
    lanes, lane_bits, lane_terms, lane_limits, empties,
    finalised_so_far, edges_so_far, locks_final, lock_sum_final, free_left, bound_rows, bounds,
    out_frontiers, out_starts, out_tallies, out_counts, base,  # written, the states from ``base`` on
):
    # fmt: on
    """Add up the shifted runs that reach each next frontier: transitions ``order[first:last]`` (sorted by
    next frontier, whole groups); returns (frontiers, states) written.

    A run shifted by a constant stays sorted (a field that would pass its bound sets its guard bit and is
    dropped; it never carries into the next field), so the runs of one next frontier are merged, not sorted:
    each run is filtered (states that can no longer reach the full tally dropped) into a buffer, the runs
    are merged pairwise, equal tallies added up, and the last merge writes into ``out`` from state ``base``
    (``out_starts`` holds absolute state indices).  (A one-pass merge over the runs' heads was slower.)

    ``bound_rows`` (empty, or one per transition): a row of ``bounds`` for the transition's next frontier, -1
    for none; a state whose code plus ``bounds[row, e * (D* + 1) + D]`` (its empty cells e, its defect D)
    sets a guard bit is dropped too (see ``PartnerBounds``).  ``lanes``, ``lane_terms``, ``lane_limits`` (empty:
    no derived numbers): the derived numbers' check (``RunPlan._derived_lanes``).
    """
    n_frontiers = 0
    n_states = 0
    out_starts[0] = base
    buffer_codes = np.empty(1024, np.int64)
    buffer_counts = np.empty(1024, np.uint64)
    other_codes = np.empty(1024, np.int64)
    other_counts = np.empty(1024, np.uint64)
    runs = np.empty(64, np.int64)
    merged = np.empty(64, np.int64)
    e_least = empties - free_left
    e_shift, e_mask, e_offset = shifts[0], (np.int64(1) << bits[0]) - 1, offsets[0]
    d_shift, d_mask, d_offset = shifts[1], (np.int64(1) << bits[1]) - 1, offsets[1]
    bounded = bound_rows.shape[0] > 0
    derived = lane_limits.shape[0] > 0
    lane_mask = (np.int64(1) << lane_bits) - 1
    lane_1, lane_2, lane_3 = lane_bits, 2 * lane_bits, 3 * lane_bits
    x_max, y_max = (lane_limits[0], lane_limits[1]) if derived else (np.uint64(0), np.uint64(0))
    d_keys = bounds.shape[1] // (empties + 1) if bounded else 1
    g = first
    while g < last:
        target = codes[order[g]]
        row = bound_rows[order[g]] if bounded else -1
        h = g
        while h < last and codes[order[h]] == target:
            h += 1
        k = h - g
        if k + 1 > runs.shape[0]:
            runs = np.empty(2 * (k + 1), np.int64)
            merged = np.empty(2 * (k + 1), np.int64)
        # what the next frontier says for the identity: its empty cells, their undecided edges, its counts so far
        frontier_empty = 0
        empty_room = 0
        partial_sum = 0
        for j in range(width):
            v = (target >> (3 * j)) & 7
            if v == EMPTY:
                frontier_empty += keep_weight[j]
                empty_room += keep_weight[j] * room[j]
            else:
                partial_sum += keep_weight[j] * v
        shown_base = finalised_so_far + frontier_empty - locks_final
        sum_base = 2 * (edges_so_far + empty_room) - partial_sum - lock_sum_final
        x_base = y_base = 0
        if derived:
            x_base = lane_terms[0] * shown_base + lane_terms[1] * sum_base + lane_terms[2]
            y_base = lane_terms[3] * shown_base + lane_terms[4] * sum_base + lane_terms[5]
        incoming = 0
        for r in range(g, h):
            s = sources[order[r]]
            incoming += starts[s + 1] - starts[s]
        if k > 1 and incoming > buffer_codes.shape[0]:
            size = buffer_codes.shape[0]
            while size < incoming:
                size *= 2
            buffer_codes = np.empty(size, np.int64)
            buffer_counts = np.empty(size, np.uint64)
            other_codes = np.empty(size, np.int64)
            other_counts = np.empty(size, np.uint64)
        # --- each run, shifted and filtered (one run goes straight to the output)
        into_codes = out_tallies if k == 1 else buffer_codes
        into_counts = out_counts if k == 1 else buffer_counts
        m = base + n_states if k == 1 else 0
        runs[0] = m
        for r in range(g, h):
            t = order[r]
            s = sources[t]
            by = shifts_by[t]
            for q in range(starts[s], starts[s + 1]):
                code = tallies[q] + by
                if code & guards:
                    continue  # a field past its bound
                e = ((code >> e_shift) & e_mask) - e_offset
                if e < e_least:
                    continue  # too few cells left to be empty
                if row >= 0 and (code + bounds[row, e * d_keys + ((code >> d_shift) & d_mask) - d_offset]) & guards:
                    continue  # no partner in the other half can complete it
                if derived:
                    # the derived numbers' shown tiles, from the identity on the decided part (lanes of a table)
                    packed = (
                        lanes[0, code & lane_mask]
                        + lanes[1, (code >> lane_1) & lane_mask]
                        + lanes[2, (code >> lane_2) & lane_mask]
                        + lanes[3, (code >> lane_3) & lane_mask]
                    )
                    if np.uint64((packed & 0xFFFFFFFF) + x_base) > x_max or np.uint64((packed >> 32) + y_base) > y_max:
                        continue
                into_codes[m] = code
                into_counts[m] = counts[q]
                m += 1
            runs[r - g + 1] = m
        if k > 1:
            # --- merge the runs pairwise until two are left, then merge those into the output
            n_runs = k
            while n_runs > 2:
                merged[0] = 0
                n_merged = 0
                for r in range(0, n_runs, 2):
                    if r + 1 < n_runs:
                        end = _merge_two(
                            buffer_codes,
                            buffer_counts,
                            runs[r],
                            runs[r + 1],
                            runs[r + 1],
                            runs[r + 2],
                            other_codes,
                            other_counts,
                            merged[n_merged],
                        )
                    else:
                        end = merged[n_merged]
                        for q in range(runs[r], runs[r + 1]):
                            other_codes[end] = buffer_codes[q]
                            other_counts[end] = buffer_counts[q]
                            end += 1
                    n_merged += 1
                    merged[n_merged] = end
                buffer_codes, other_codes = other_codes, buffer_codes
                buffer_counts, other_counts = other_counts, buffer_counts
                runs, merged = merged, runs
                n_runs = n_merged
            m = _merge_two(
                buffer_codes,
                buffer_counts,
                runs[0],
                runs[1],
                runs[1],
                runs[2],
                out_tallies,
                out_counts,
                base + n_states,
            )
        n_new = m - (base + n_states)
        g = h
        if n_new == 0:
            continue
        n_states += n_new
        out_frontiers[n_frontiers] = target
        n_frontiers += 1
        out_starts[n_frontiers] = base + n_states
    return n_frontiers, n_states


@njit(cache=True, nogil=True)
def _move_down(tallies, counts, source, target, n):
    """Move ``n`` states from ``source`` down to ``target`` (<= source) within the same buffers."""
    for q in range(n):
        tallies[target + q] = tallies[source + q]
        counts[target + q] = counts[source + q]


def kernel_cached(kernel: Any) -> bool:
    """Whether this process has the kernel, or numba's on-disk cache holds it (True when it cannot tell)."""
    try:
        return bool(kernel.signatures) or bool(kernel._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba's cache internals moved: say nothing rather than something wrong
        return True


#: set once a count of this process has chosen the kernels: every counter takes them from its next step on.  Why:
#: a counter made before that (the halves make their walk's counters at the start) would otherwise run numpy
#: for its own ``NUMPY_WORK`` states, with numpy's temporaries: level 40's first run on a fresh install peaked at
#: 5.5 GB that way, 3.9 GB with this (3.3 GB with the kernels cached).
kernels_chosen = threading.Event()
_noted = threading.Event()


#: seconds a first compilation of the kernels takes on a quiet 2-core machine, about (docs/bench/dp-first-run.md)
COMPILE_SECONDS = 60.0


def compiling_note(deadline: float | None, now: float) -> str:
    """What to say before the kernels compile: numba writes its cache only when a compilation finishes, so a
    run whose time limit comes first compiles them again next time, and says so."""
    text = f"dp: compiling kernels (about {COMPILE_SECONDS:.0f} s; cached for later runs once it finishes)"
    if deadline is not None and deadline - now < 2 * COMPILE_SECONDS:
        text += (
            f"; this run's time limit ({max(0.0, deadline - now):.0f} s left) may stop it first, and then the next"
            " run compiles again: a count without --timeout (levels/hexiom/level38.txt) caches them"
        )
    return text + " ..."


def note_compiling(*kernels: Any, deadline: float | None = None) -> None:
    """Say on stderr, once per process, that the kernels are being compiled (``compiling_note``)."""
    if not _noted.is_set() and not all(kernel_cached(k) for k in kernels):
        _noted.set()
        print(compiling_note(deadline, time.monotonic()), file=sys.stderr, flush=True)


def kernels_ready() -> bool:
    """Whether the row counter's kernels load without compiling (this process has them, or numba's cache)."""
    return kernel_cached(_transitions) and kernel_cached(_gather)


# ------------------------------------------------------------------ the same step in numpy


def transitions_numpy(
    frontiers: np.ndarray, step: RunStep, plan: RunPlan, forced: int, ghost_bit: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_transitions`` in numpy: per frontier and choice (index 2 i + c), the next frontier, the tally shift
    and whether it can follow.  No compilation: what a fresh install counts small levels with."""
    n = len(frontiers)
    codes = np.zeros(2 * n, np.int64)
    shifts_by = np.zeros(2 * n, np.int64)
    ok = np.zeros(2 * n, np.bool_)
    shifts = plan.shifts
    old = ((frontiers[:, None] >> (3 * np.arange(step.old_width, dtype=np.int64))) & 7).astype(np.int64)
    ghosts = frontiers & ~((np.int64(1) << FRONTIER_BITS) - 1)
    for c in (0, 1):
        if (c == 0 and step.lock >= 0) or (forced >= 0 and c != forced):
            continue
        values = np.empty((n, step.old_width + 1), np.int64)
        values[:, : step.old_width] = old
        shift = np.zeros(n, np.int64)
        if c == 0:  # --- empty: more empty cells, their defect and their edges to earlier empty cells
            grown = np.full(n, step.empty_defect, np.int64)
            for q, edges in zip(step.neighbours, step.edge_weight):
                grown += edges * (old[:, q] == EMPTY)
            values[:, step.old_width] = EMPTY
            shift += (np.int64(step.weight) << shifts[0]) + (grown << shifts[1])
        else:  # --- occupied: it and its occupied decided neighbours see each other
            seen = np.full(n, step.own, np.int64)
            for q, them, me in zip(step.neighbours, step.to_them, step.to_me):
                tile = old[:, q] != EMPTY
                values[:, q] += them * tile
                seen += me * tile
            values[:, step.old_width] = seen
        good = np.ones(n, np.bool_)
        # --- cells whose last neighbour this is show their final number
        for q, lock, weight in zip(step.finalised, step.final_lock, step.final_weight):
            v = values[:, q]
            tile = v != EMPTY
            if lock >= 0:
                good &= ~tile | (v == lock)
            else:
                field = plan.field_of[np.minimum(v, 7)]
                good &= ~tile | (field != -2)
                counted = tile & (field >= 0)
                shift += np.where(counted, np.int64(weight) << shifts[np.maximum(field, 0)], 0)
        # --- every open tile must still be able to reach a number it may show
        code = np.zeros(n, np.int64)
        for j, (q, room, lock) in enumerate(zip(step.keep, step.room, step.keep_lock)):
            v = values[:, q]
            tile = v != EMPTY
            if lock >= 0:
                good &= ~tile | ((v <= lock) & (lock <= v + room))
            else:
                good &= ~tile | plan.fits[np.minimum(v, 7), room]
            code |= v << (3 * j)
        code |= ghosts
        if c == 1 and ghost_bit >= 0:
            code |= np.int64(1) << ghost_bit
        codes[c::2] = code
        shifts_by[c::2] = shift
        ok[c::2] = good
    return codes, shifts_by, ok


def gather_numpy(
    layer: Layer,
    step: RunStep,
    plan: RunPlan,
    codes: np.ndarray,
    shifts_by: np.ndarray,
    sources: np.ndarray,
    buffers: Buffers,
) -> Layer:
    """``_gather`` in numpy: every state of run ``sources[t]`` shifted by ``shifts_by[t]`` under the next
    frontier ``codes[t]``, those that cannot reach the full tally dropped, equal states added up (a sort)."""
    lengths = layer.starts[sources + 1] - layer.starts[sources]
    total = int(lengths.sum())
    if total * NUMPY_BYTES_PER_STATE > buffers.room():
        raise Stopped("memory budget")
    first = np.cumsum(lengths) - lengths
    index = np.repeat(layer.starts[sources] - first, lengths) + np.arange(total, dtype=np.int64)
    of = np.repeat(np.arange(len(codes), dtype=np.int64), lengths)
    tally = layer.tallies[index] + shifts_by[of]
    counts = layer.counts[index]
    del index
    # what each next frontier says for the identity: its empty cells, their undecided edges, its counts so far
    values = (codes[:, None] >> (3 * np.arange(len(step.keep), dtype=np.int64))) & 7
    empty = values == EMPTY
    frontier_empty = (empty * step.keep_weight).sum(axis=1)
    empty_room = (empty * (step.keep_weight * step.room)).sum(axis=1)
    partial_sum = (np.where(empty, 0, values) * step.keep_weight).sum(axis=1)
    shown_base = step.finalised_so_far + frontier_empty - step.locks_final
    sum_base = 2 * (step.edges_so_far + empty_room) - partial_sum - step.lock_sum_final
    digits = [((tally >> s) & ((1 << b) - 1)) - o for s, b, o in zip(plan.shifts, plan.bits, plan.offsets)]
    alive = (tally & plan.guards) == 0
    alive &= digits[0] >= plan.empties - step.free_left
    if plan.derived:
        shown = shown_base[of] - digits[0]
        number_sum = sum_base[of] + 2 * (digits[1] - 6 * digits[0])
        for number, n in zip(plan.tracked, digits[2:]):
            shown -= n
            number_sum -= number * n
        if len(plan.derived) == 2:
            high = number_sum - plan.derived_low * shown
            below = shown - high
            alive &= (below >= 0) & (below <= plan.derived_low_max) & (high >= 0) & (high <= plan.derived_high_max)
        else:
            alive &= (shown >= 0) & (shown <= plan.derived_low_max)
    del digits
    next_frontiers, target = np.unique(codes, return_inverse=True)
    key_target = target[of[alive]]
    tally, counts = tally[alive], counts[alive]
    order = np.lexsort((tally, key_target))
    key_target, tally, counts = key_target[order], tally[order], counts[order]
    if len(tally):
        new = np.ones(len(tally), np.bool_)
        new[1:] = (tally[1:] != tally[:-1]) | (key_target[1:] != key_target[:-1])
        starts = np.flatnonzero(new)
        tally, counts, key_target = tally[starts], np.add.reduceat(counts, starts), key_target[starts]
    runs = np.searchsorted(key_target, np.arange(len(next_frontiers) + 1))
    present = runs[1:] > runs[:-1]
    frontier_starts = np.concatenate([runs[:-1][present], [len(tally)]]).astype(np.int64)
    return Layer(next_frontiers[present], frontier_starts, tally.astype(np.int64), counts.astype(np.uint64))


# ------------------------------------------------------------------ buffers

#: bytes of pages the pool may keep beyond the layers whatever their peak
FREE_FLOOR = 64 << 20
#: states of pages a buffer must hold beyond its layer before they are worth giving back
SHRINK_FROM = 1 << 20
#: a new buffer reserves this many times the states asked for, as address space only (pages come when written)
HEADROOM = 4

_NO_TALLIES = np.zeros(0, np.int64)
_NO_ROWS = np.zeros(0, np.int64)
_NO_BOUNDS = np.zeros((1, 1), np.int64)
_NO_COUNTS = np.zeros(0, np.uint64)


class Buffer:
    """The tallies and counts of one layer: two arrays in one private anonymous mapping.

    ``touched``: states written so far (the pages below it are resident, those above never were, or were
    given back); ``need``: states the layer (or, while a step writes it, the step) may use; 0 when free.
    """

    __slots__ = ("tallies", "counts", "touched", "need", "running", "_map")

    def __init__(self, size: int) -> None:
        self._map = _mapping(2 * 8 * size)
        if self._map is None:
            self.tallies = np.empty(size, np.int64)
            self.counts = np.empty(size, np.uint64)
        else:
            self.tallies = np.frombuffer(self._map, np.int64, size, 0)
            self.counts = np.frombuffer(self._map, np.uint64, size, 8 * size)
        self.touched = 0
        self.need = 0
        self.running = False  # a step is writing it: its pages must stay

    @property
    def size(self) -> int:
        return len(self.tallies)

    @property
    def mapped(self) -> bool:
        """Whether the buffer is a mapping of its own, whose pages ``trim`` can give back."""
        return self._map is not None

    @property
    def held(self) -> int:
        """States' worth of memory the buffer holds, or may hold once its step is done."""
        return max(self.touched, self.need)

    def trim(self, keep: int) -> None:
        """Give the pages above state ``keep`` back to the system (written again, they come back zeroed)."""
        if self._map is None or keep >= self.touched:
            return
        page = mmap.PAGESIZE
        for base in (0, 8 * self.size):
            first = -(-(base + 8 * keep) // page) * page
            last = min(base + 8 * self.touched, base + 8 * self.size) // page * page
            if last > first:
                self._map.madvise(mmap.MADV_DONTNEED, first, last - first)
        self.touched = keep


def _mapping(nbytes: int) -> mmap.mmap | None:
    """Private anonymous memory (huge pages where the system gives them), None where mmap cannot make it."""
    flags = getattr(mmap, "MAP_PRIVATE", None), getattr(mmap, "MAP_ANONYMOUS", None)
    if None in flags or not hasattr(mmap, "MADV_DONTNEED") or nbytes < (1 << 21):
        return None
    memory = mmap.mmap(-1, nbytes, flags=flags[0] | flags[1])
    if hasattr(mmap, "MADV_HUGEPAGE"):
        with contextlib.suppress(OSError):
            memory.madvise(mmap.MADV_HUGEPAGE)
    return memory


class Buffers:
    """The big arrays of a count's layers (tallies and counts), reused from step to step, and the memory budget.

    Why: a layer written into fresh memory costs the kernel a page fault and a zeroed page per page written:
    level 40 writes some hundred GB of layers, and with a fresh buffer per step that was 50 of its 260 CPU
    seconds.  So the pages stay.  A buffer reserves ``HEADROOM`` (four) times the states asked for as address
    space, which costs nothing until written, so a freed buffer serves later steps even when they are larger
    (the upper half's steps grow 1.35 times a step, 1.8 times in the two steps a buffer waits), and only the
    pages it writes beyond its earlier ones are new.

    Two sums: ``live``, the states the layers (and the running steps) need, and ``capacity``, the bytes the
    buffers hold (their pages, and what the running steps may still write).  The budget holds ``live``: a
    step that would take it past stops the count ("memory budget") before it writes anything.  The pages
    beyond what the layers need are a cache: kept while ``capacity`` is at most the largest ``live`` so far
    (and within the budget), else given back: of free buffers first (largest first; of the last one only
    the pages beyond the limit), then the pages of layers far beyond their states.  So the count's peak is
    that of the layers it needs at once.
    Thread-safe.
    """

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget
        self.capacity = 0  # bytes every buffer holds, taken or free
        self.live = 0  # bytes the layers and running steps need
        self.peak = 0  # the largest capacity
        self.fresh = 0  # bytes of pages written for the first time (or again after they were given back)
        self._peak_live = 0
        self._taken: list[Buffer] = []
        self._free: list[Buffer] = []
        self._lock = threading.Lock()

    def take(self, size: int) -> Buffer:
        """A buffer with room for at least ``size`` states, for a step to write: the free one that fits with the
        most pages already written, else a new one."""
        size = max(size, 1)
        with self._lock:
            need = BYTES_PER_STATE * size
            if self.budget is not None and self.live + need > self.budget:
                raise Stopped("memory budget")
            fitting = [b for b in self._free if b.size >= size]
            if fitting:
                buffer = max(fitting, key=lambda b: (min(b.touched, size), -b.size))
                self._free.remove(buffer)
            else:
                buffer = Buffer(HEADROOM * size + (1 << 12))
            self._set(buffer, size)
            buffer.running = True
            self._taken.append(buffer)
            self._peak_live = max(self._peak_live, self.live)
            self._shrink()
        return buffer

    def fit(self, buffer: Buffer, size: int, written: int | None = None) -> Buffer:
        """The step is done: its layer holds ``size`` states, and it wrote states up to ``written`` (default
        ``size``)."""
        with self._lock:
            earlier = buffer.touched
            touched = max(earlier, size if written is None else written)
            self.fresh += BYTES_PER_STATE * (touched - earlier)
            self.capacity += BYTES_PER_STATE * (max(touched, buffer.need) - buffer.held)
            buffer.touched = touched
            buffer.running = False
            self._set(buffer, size + size // 8 + (1 << 12))
            self._shrink()
        return buffer

    def _set(self, buffer: Buffer, need: int) -> None:
        """Change what the buffer's layer needs (the sums follow)."""
        held = buffer.held
        self.live += BYTES_PER_STATE * (need - buffer.need)
        buffer.need = need
        self.capacity += BYTES_PER_STATE * (buffer.held - held)
        self.peak = max(self.peak, self.capacity)

    def _shrink(self) -> None:
        """Give pages back until ``capacity`` is within the largest ``live`` so far and the budget."""
        limit = max(FREE_FLOOR, self._peak_live)
        if self.budget is not None:
            limit = min(limit, self.budget)
        if self.capacity <= limit:
            return
        self._free.sort(key=lambda b: b.held)
        while self._free and self.capacity > limit:
            largest = self._free[-1]
            excess = -(-(self.capacity - limit) // BYTES_PER_STATE)  # states' worth over the limit, rounded up
            keep = largest.held - excess
            if keep >= SHRINK_FROM and largest.mapped:
                # only the pages beyond the limit go: in a chain of growing steps (the upper half) this is the
                # buffer the step after next takes, and all of it would be written fresh again
                held = largest.held
                largest.trim(keep)
                self.capacity -= BYTES_PER_STATE * (held - largest.held)
                break
            self.capacity -= BYTES_PER_STATE * self._free.pop().held
        if self.capacity <= limit:
            return
        for buffer in sorted(self._taken, key=lambda b: b.need - b.touched):
            excess = buffer.touched - buffer.need
            if self.capacity <= limit or buffer.running or excess < SHRINK_FROM:
                break
            buffer.trim(buffer.need)
            self.capacity -= BYTES_PER_STATE * excess

    def room(self) -> float:
        """Bytes the budget leaves beyond what the layers need (infinite without a budget)."""
        return float("inf") if self.budget is None else self.budget - self.live

    def give(self, buffer: Buffer | None) -> None:
        """A buffer back to the pool (None: nothing to give)."""
        if buffer is None:
            return
        with self._lock:
            if buffer.running:  # a step that stopped: it may have written all it reserved
                buffer.touched = max(buffer.touched, buffer.need)
                buffer.running = False
            self._set(buffer, 0)
            self._taken.remove(buffer)
            self._free.append(buffer)
            self._shrink()

    def release(self, layer: Layer) -> None:
        """The layer is done with: its buffer goes back to the pool, and its arrays are dropped (they must not be
        read again), so that the pages of a buffer the pool gives back go at once."""
        if layer.buffer is not None:
            layer.tallies, layer.counts = _NO_TALLIES, _NO_COUNTS
        self.give(layer.buffer)
        layer.buffer = None

    def clear(self) -> None:
        """Drop the free buffers (the memory goes back to the system)."""
        with self._lock:
            while self._free:
                self.capacity -= BYTES_PER_STATE * self._free.pop().held


# ------------------------------------------------------------------ counter


def shrunk(array: np.ndarray, size: int) -> np.ndarray:
    """The first ``size`` entries of a buffer this module allocated, without copying them (realloc in place)."""
    array.resize(max(size, 0), refcheck=False)
    return array


#: a counter whose kernels would have to be compiled (a fresh install) counts with numpy until it has moved
#: this many states (about ten seconds; level 39 moves 29 million), then compiles them
NUMPY_WORK = 40_000_000
#: bytes one incoming state costs the numpy step (its index, tally, count, key and order, and their copies)
NUMPY_BYTES_PER_STATE = 96
#: a gather with at least this many incoming states is split between two threads
PARALLEL_FROM = 1 << 17


class RunCounter:
    """Layers of one level's plain board, step by step, within a deadline and a memory budget.

    ``threads`` > 1 splits each big step's gather between threads (the next frontiers in two halves of about
    equal work); every layer lives in a buffer of ``buffers`` (shared by the counters of one count).
    """

    def __init__(
        self,
        run_plan: RunPlan,
        budget: Budget | None = None,
        *,
        buffers: Buffers | None = None,
        compiled: bool | None = None,
    ) -> None:
        """``compiled``: run the numba kernels (True), numpy (False), or (None) the kernels when this process or
        numba's cache has them, else numpy until the count has moved ``NUMPY_WORK`` states or another counter chose
        the kernels (``kernels_chosen``; then compile them)."""
        self.plan = run_plan
        self.compiled = kernels_ready() if compiled is None else compiled
        self.chooses = compiled is None  # whether this counter may still switch to the kernels
        budget = budget if budget is not None else Budget(threads=1)
        self.deadline = budget.deadline
        self.progress = budget.progress
        self.buffers = buffers if buffers is not None else Buffers(budget.memory)
        self.threads = max(1, budget.threads)
        self._pool: ThreadPoolExecutor | None = None
        self.peak_states = 1
        self.transitions = 0  # states fed to the gather kernel, over all steps
        #: CPU seconds of the helper thread (the caller's own are its thread's): what a step's CPU is, with both
        self.helper_seconds = 0.0

    @property
    def peak_bytes(self) -> int | None:
        """The layers' peak in the pool's buffers; None (not reported) when no step went through them: the
        small steps' numpy arrays are not counted, and 0 would claim a count that took no memory."""
        return self.buffers.peak or None

    def close(self) -> None:
        """Stop the helper thread (a counter with ``threads`` > 1 starts one on its first big step)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> RunCounter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> Layer:
        if not self.plan.possible:
            return Layer(np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.uint64))
        return Layer(
            np.zeros(1, np.int64),
            np.array([0, 1], np.int64),
            np.array([self.plan.start_code], np.int64),
            np.ones(1, np.uint64),
        )

    def check_clock(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise Stopped("time limit")

    def advance(
        self,
        layer: Layer,
        i: int,
        forced: int = -1,
        ghost_bit: int = -1,
        bounds: Callable[[int, np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> Layer:
        """Decide step i's cell (both ways, or only ``forced``), merging equal states.

        ``ghost_bit`` >= 0 records the cell's occupancy in that bit of the frontier code.  ``bounds(i, codes)``:
        the gather's bounds table and its row per next frontier code (see ``_gather``).
        """
        self.check_clock()
        p = self.plan
        step = p.steps[i]
        if not self.compiled and self.chooses and kernels_chosen.is_set():
            self.compiled = True
        if not self.compiled:
            codes, shifts_by, ok = transitions_numpy(layer.frontiers, step, p, forced, ghost_bit)
        else:
            n = len(layer.frontiers)
            codes = np.empty(2 * n, np.int64)
            shifts_by = np.empty(2 * n, np.int64)
            ok = np.empty(2 * n, np.bool_)
            _transitions(
                layer.frontiers,
                step.old_width,
                step.neighbours,
                step.to_them,
                step.to_me,
                step.edge_weight,
                step.own,
                step.weight,
                step.finalised,
                step.final_weight,
                step.keep,
                step.room,
                step.keep_lock,
                step.final_lock,
                step.empty_defect,
                step.lock,
                p.fits,
                p.field_of,
                p.shifts,
                forced,
                ghost_bit,
                codes,
                shifts_by,
                ok,
            )
        chosen = np.flatnonzero(ok)
        sources = chosen // 2
        incoming = int((layer.starts[sources + 1] - layer.starts[sources]).sum())
        if (
            not self.compiled
            and self.chooses
            and (self.transitions + incoming > NUMPY_WORK or incoming * NUMPY_BYTES_PER_STATE > self.buffers.room())
        ):
            # a count big enough for the kernels to pay for their compilation
            note_compiling(_transitions, _gather, deadline=self.deadline)
            kernels_chosen.set()
            self.compiled = True
        self.check_clock()
        codes = codes[chosen]
        table = bounds(i, codes) if bounds is not None and self.compiled else None
        result = self.merge(layer, step, codes, shifts_by[chosen], sources, incoming, table)
        self.peak_states = max(self.peak_states, result.states)
        return result

    def merge(
        self,
        layer: Layer,
        step: RunStep,
        codes: np.ndarray,
        shifts_by: np.ndarray,
        sources: np.ndarray,
        incoming: int,
        bounds: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> Layer:
        """Run ``sources[t]`` of ``layer``, its tallies shifted by ``shifts_by[t]``, filed under the next frontier
        ``codes[t]``, equal states merged (the gather kernel with step ``step``'s bounds), into a buffer of the
        pool.  ``incoming`` is the number of states the runs hold; ``bounds``: (table, row per transition), more
        states the gather may drop (``_gather``'s ``bound_rows``; the numpy step keeps them)."""
        p = self.plan
        if not self.compiled:
            self.transitions += incoming
            return gather_numpy(layer, step, p, codes, shifts_by, sources, self.buffers)
        order = np.argsort(codes, kind="stable")
        buffer = self.buffers.take(incoming)
        out_tallies, out_counts = buffer.tallies, buffer.counts
        out_frontiers = np.empty(len(codes), np.int64)
        out_starts = np.empty(len(codes) + 1, np.int64)
        constants = (
            len(step.keep),
            step.room,
            step.keep_weight,
            p.guards,
            p.shifts,
            p.bits,
            p.offsets,
            p.lanes,
            p.lane_bits,
            p.lane_terms,
            p.lane_limits,
            p.empties,
            step.finalised_so_far,
            step.edges_so_far,
            step.locks_final,
            step.lock_sum_final,
            step.free_left,
        ) + ((bounds[1], bounds[0]) if bounds is not None else (_NO_ROWS, _NO_BOUNDS))

        def gather(first: int, last: int, frontiers: np.ndarray, starts: np.ndarray, base: int) -> tuple[int, int]:
            return _gather(
                order,
                codes,
                shifts_by,
                sources,
                layer.starts,
                layer.tallies,
                layer.counts,
                first,
                last,
                *constants,
                frontiers,
                starts,
                out_tallies,
                out_counts,
                base,
            )

        split = self._split(order, codes, sources, layer.starts, incoming)
        try:
            if split is None:
                n_frontiers, n_states = gather(0, len(codes), out_frontiers, out_starts, 0)
                written = n_states
            else:
                t, below = split  # transitions order[:t] hold ``below`` incoming states
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=self.threads - 1, thread_name_prefix="dp-gather")
                # the upper half writes its frontiers apart (its first start would be the lower half's last)
                high_frontiers = np.empty(len(codes) - t, np.int64)
                high_starts = np.empty(len(codes) - t + 1, np.int64)
                upper = self._pool.submit(self._helped, gather, t, len(codes), high_frontiers, high_starts, below)
                n_low, s_low = gather(0, t, out_frontiers, out_starts, 0)
                n_high, s_high = upper.result()
                # the upper half's states follow the lower half's
                _move_down(out_tallies, out_counts, below, s_low, s_high)
                out_frontiers[n_low : n_low + n_high] = high_frontiers[:n_high]
                out_starts[n_low + 1 : n_low + n_high + 1] = high_starts[1 : n_high + 1] - (below - s_low)
                n_frontiers, n_states = n_low + n_high, s_low + s_high
                written = below + s_high
        except BaseException:
            self.buffers.give(buffer)
            raise
        self.transitions += incoming
        self.buffers.fit(buffer, n_states, written)
        return Layer(
            shrunk(out_frontiers, n_frontiers),
            shrunk(out_starts, n_frontiers + 1),
            out_tallies[:n_states],
            out_counts[:n_states],
            buffer,
        )

    def _helped(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` on the helper thread, its CPU time added to ``helper_seconds``."""
        clock = time.thread_time()
        try:
            return work(*args)
        finally:
            self.helper_seconds += time.thread_time() - clock

    def _split(
        self, order: np.ndarray, codes: np.ndarray, sources: np.ndarray, starts: np.ndarray, incoming: int
    ) -> tuple[int, int] | None:
        """Where to cut the sorted transitions for two threads: (transitions below, their incoming states), at a
        change of next frontier near half the work; None when one thread does it all."""
        if self.threads < 2 or incoming < PARALLEL_FROM:
            return None
        work = np.cumsum((starts[sources + 1] - starts[sources])[order])
        t = int(np.searchsorted(work, incoming // 2))
        sorted_codes = codes[order]
        while 0 < t < len(order) and sorted_codes[t] == sorted_codes[t - 1]:
            t += 1
        if t <= 0 or t >= len(order):
            return None
        return t, int(work[t - 1])

    def finished(self, layer: Layer) -> int:
        """Boards of a last layer that showed every tile: the full tally on the empty frontier."""
        hits = layer.tallies == self.plan.full_code
        return int(sum(int(c) for c in layer.counts[hits]))

    def run(
        self, first: int = 0, last: int | None = None, layer: Layer | None = None, merges: dict | None = None
    ) -> Layer:
        """Layers first..last (default: all steps), reporting each step to ``progress``; each layer's buffer goes
        back to the pool once the next is made.  ``merges`` (step -> frontier permutation) merges the states
        of a frontier and its mirror image after those steps (see ``mirror_merges``)."""
        steps = len(self.plan.steps)
        last = steps if last is None else last
        layer = self.start() if layer is None else layer
        started = time.monotonic()
        for i in range(first, last):
            began = time.monotonic()
            following = self.advance(layer, i)
            self.buffers.release(layer)
            layer = following
            if merges and i in merges:
                following = self.fold_mirror(layer, i, merges[i])
                self.buffers.release(layer)
                layer = following
            if self.progress is not None:
                self.progress(
                    {
                        "step": i + 1,
                        "steps": steps,
                        "frontiers": len(layer.frontiers),
                        "states": layer.states,
                        "bytes": layer.nbytes,
                        "step_seconds": time.monotonic() - began,
                        "elapsed": time.monotonic() - started,
                    }
                )
        return layer

    def fold_mirror(self, layer: Layer, i: int, positions: np.ndarray) -> Layer:
        """Merge each frontier's states into its mirror image's where that code is smaller (step i's bounds).

        After step i the decided cells are closed under the mirror, so a partial board and its mirror image
        have the same completions: only their sum matters.
        """
        canonical = np.minimum(layer.frontiers, permuted_codes(layer.frontiers, positions))
        group = np.arange(len(layer.frontiers), dtype=np.int64)
        return self.merge(layer, self.plan.steps[i], canonical, np.zeros(len(group), np.int64), group, layer.states)

    def stats(self) -> dict[str, Any]:
        return program_stats(len(self.plan.steps), self.plan.width, self.peak_states, self.transitions, self.peak_bytes)


def permuted_codes(frontiers: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Frontier codes with their positions permuted: position q of the result holds position positions[q]."""
    out = frontiers & ~((np.int64(1) << FRONTIER_BITS) - 1)
    for q, source in enumerate(positions):
        out |= ((frontiers >> (3 * int(source))) & 7) << (3 * q)
    return out


def mirror_merges(level: Level, run_plan: RunPlan) -> dict[int, np.ndarray]:
    """Steps after which the decided cells are closed under the level's left-right mirror (a symmetry of the
    level that keeps every row), with the permutation it makes of the frontier's positions: the ends of rows."""
    board = level.board
    row_of = {c: r for r, row in enumerate(board.rows) for c in row}
    mirror = next((p for p in level.symmetries[1:] if all(row_of[p[c]] == row_of[c] for c in range(board.size))), None)
    if mirror is None:
        return {}
    merges = {}
    decided: set[int] = set()
    for i, step in enumerate(run_plan.steps):
        decided.add(step.cell)
        position = {c: q for q, c in enumerate(step.cells)}
        closed = {mirror[c] for c in decided} == decided
        if len(step.cells) > 1 and closed and all(mirror[c] in position for c in step.cells):
            merges[i] = np.array([position[mirror[c]] for c in step.cells], np.int64)
    return merges


def count_runs(run_plan: RunPlan, budget: Budget | None = None, *, mirror: bool = True) -> Outcome:
    """The plain count row by row: every step breadth first, a state merged with its mirror image's at the
    end of every row when the level has a left-right mirror (``mirror``)."""
    merges = mirror_merges(run_plan.level, run_plan) if mirror and not run_plan.folded else {}
    with RunCounter(run_plan, budget or Budget()) as counter:
        stats = {"method": "rows", "mirror_merges": len(merges)}
        try:
            layer = counter.run(merges=merges)
        except Stopped as stop:
            return Outcome(0, False, str(stop), counter.stats() | stats)
        return Outcome(counter.finished(layer), True, None, counter.stats() | stats)
