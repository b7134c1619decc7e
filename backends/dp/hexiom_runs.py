"""Hexiom counts by frontier runs: the plain board's DP, compiled, with the edge identity as a bound.

The program is the one ``hexiom_plan.py`` describes (cells in reading order,
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
kernels that release the GIL, so the halves counter (``hexiom_halves``) can
run two of them at once.

Tally fields carry a guard bit: a shift that takes a field past its bound
sets it, so every bound is one mask test.  Counts are uint64 (the level's
number of boards with at most ``E*`` empty cells is checked to fit first).

``advance`` can force a cell's choice and record chosen cells' occupancy in
"ghost" bits above the frontier (so states that differ there never merge):
the halves counter needs both.  Everything comes from the rules in
``models/hexiom.py``; it shares no code with the solver translators.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
from numba import njit

from ...models.hexiom import MAX_TILE, Level
from .hexiom_plan import Outcome, Plan, ProgressSink, Stopped, program_stats

#: the frontier code: 3 bits a position, 0..6 the occupied-neighbour count so far, EMPTY an empty cell
EMPTY = 7
#: bits of a frontier code below the ghost bits
FRONTIER_BITS = 40
#: a tally box up to this many entries is merged through a dense scratch, larger ones by sorting
DENSE_BOX = 1 << 22
#: bytes an incoming state costs while a step runs: its tally and count in the step's output buffer
BYTES_PER_STATE = 16


@dataclass(frozen=True)
class RunStep:
    """Deciding one cell, as arrays the kernels read (positions index the extended frontier)."""

    old_width: int
    neighbours: np.ndarray  # positions of the cell's decided neighbours
    finalised: np.ndarray
    keep: np.ndarray
    room: np.ndarray  # per next-frontier position: undecided neighbours left
    keep_lock: np.ndarray  # per next-frontier position: locked number, -1 movable
    final_lock: np.ndarray  # per finalised position: locked number, -1 movable
    defect: int  # 6 - degree of the cell
    lock: int  # the cell's locked number, -1 movable
    finalised_so_far: int  # cells final after this step
    edges_so_far: int  # edges between decided cells
    locks_final: int  # locked cells final after this step, and the sum of their numbers
    lock_sum_final: int
    free_left: int  # movable cells still undecided
    cell: int  # the cell decided
    cells: tuple[int, ...]  # the next frontier's cells


class RunPlan:
    """The identity fold's plan with what the tally needs: its fields, bounds and per-step constants."""

    def __init__(self, level: Level, plan: Plan) -> None:
        if any(len(step.vertex.cells) != 1 for step in plan.steps):
            raise ValueError("hexiom_runs counts the plain board (one cell a vertex), not a fold")
        self.level = level
        movable = level.movable_counts
        self.movable = movable
        cells = len(plan.steps)
        self.empties = cells - level.tile_total
        edges = sum(step.vertex.degree for step in plan.steps) // 2
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
        shifts, bits, offsets, shift = [], [], [], 0
        for most in maxima:
            width = max(1, int(most).bit_length())
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
        box, weights = 1, []
        for most in maxima:
            weights.append(box)
            box *= most + 1
        self.box = box
        self.weights = np.array(weights, np.int64)
        # number -> tally field (2.. for tracked), -1 derived, -2 no movable tile shows it
        self.field_of = np.full(8, -2, np.int64)
        for j, d in enumerate(self.tracked):
            self.field_of[d] = 2 + j
        for d in self.derived:
            self.field_of[d] = -1
        self.tracked_numbers = np.array(self.tracked, np.int64)
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
        #: boards with at most E* empty cells: counts stay below this, so uint64 holds them
        self.board_bound = sum(comb(cells, j) for j in range(max(self.empties, 0) + 1))
        self.fits_kernels = 3 * self.width <= FRONTIER_BITS and self.tally_bits <= 62 and self.board_bound < 1 << 63

    def _steps(self, plan: Plan) -> tuple[RunStep, ...]:
        steps = []
        final = edges = locks = lock_sum = 0
        locked = [step.vertex.locked for step in plan.steps]
        for i, step in enumerate(plan.steps):
            extended = (plan.frontiers[i - 1] if i else ()) + (i,)
            final += len(step.finalised)
            edges += len(step.earlier)
            for p in step.finalised:
                if locked[extended[p]] is not None:
                    locks += 1
                    lock_sum += locked[extended[p]]
            lock_at = [-1 if n is None else n for n in step.locked_at]
            steps.append(
                RunStep(
                    old_width=len(extended) - 1,
                    neighbours=np.array([p for p, _, _ in step.earlier], np.int64),
                    finalised=np.array(step.finalised, np.int64),
                    keep=np.array(step.keep, np.int64),
                    room=np.array(step.after_room, np.int64),
                    keep_lock=np.array([lock_at[p] for p in step.keep], np.int64),
                    final_lock=np.array([lock_at[p] for p in step.finalised], np.int64),
                    defect=6 - step.vertex.degree,
                    lock=-1 if step.vertex.locked is None else step.vertex.locked,
                    finalised_so_far=final,
                    edges_so_far=edges,
                    locks_final=locks,
                    lock_sum_final=lock_sum,
                    free_left=sum(1 for n in locked[i + 1 :] if n is None),
                    cell=step.vertex.cells[0],
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


@dataclass
class Layer:
    """The states after some step: per distinct frontier (sorted codes) a sorted run of tallies and counts."""

    frontiers: np.ndarray  # int64 codes (ghost bits above FRONTIER_BITS)
    starts: np.ndarray  # run k is [starts[k], starts[k+1])
    tallies: np.ndarray  # int64
    counts: np.ndarray  # uint64

    @property
    def states(self) -> int:
        return len(self.tallies)

    @property
    def nbytes(self) -> int:
        return self.frontiers.nbytes + self.starts.nbytes + self.tallies.nbytes + self.counts.nbytes


# ------------------------------------------------------------------ kernels


@njit(cache=True, nogil=True)
def _transitions(
    frontiers,
    old_width,
    neighbours,
    finalised,
    keep,
    room,
    keep_lock,
    final_lock,
    defect,
    lock,
    fits,
    field_of,
    shifts,
    forced,
    ghost_bit,
    out_code,
    out_shift,
    out_ok,
):
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
            if c == 0:  # --- empty: one more empty cell, its defect and its edges to earlier empty cells
                grown = defect
                for j in range(neighbours.shape[0]):
                    if values[neighbours[j]] == EMPTY:
                        grown += 1
                values[old_width] = EMPTY
                shift += (np.int64(1) << shifts[0]) + (np.int64(grown) << shifts[1])
            else:  # --- occupied: it and its occupied decided neighbours see each other
                seen = 0
                for j in range(neighbours.shape[0]):
                    q = neighbours[j]
                    if values[q] != EMPTY:
                        values[q] += 1
                        seen += 1
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
                    shift += np.int64(1) << shifts[field_of[v]]
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
def _gather(
    order,
    codes,
    shifts_by,
    sources,
    starts,
    tallies,
    counts,
    width,
    room,
    guards,
    shifts,
    bits,
    offsets,
    weights,
    box,
    dense_box,
    tracked_numbers,
    n_derived,
    low,
    low_max,
    high_max,
    empties,
    defect_max,
    finalised_so_far,
    edges_so_far,
    locks_final,
    lock_sum_final,
    free_left,
    scratch,
    code_at,
    out_frontiers,
    out_starts,
    out_tallies,
    out_counts,
):
    """Add up the shifted runs that reach each next frontier (transitions sorted by it); returns (frontiers, states).

    ``scratch`` (zeros, box-sized when the box is dense) is left as it came.
    """
    nt = order.shape[0]
    n_frontiers = 0
    n_states = 0
    out_starts[0] = 0
    dense = box <= dense_box
    touched = np.empty(1024, np.int64)
    buffer_codes = np.empty(1024, np.int64)
    buffer_counts = np.empty(1024, np.uint64)
    e_mask = (np.int64(1) << bits[0]) - 1
    d_mask = (np.int64(1) << bits[1]) - 1
    n_fields = shifts.shape[0]
    g = 0
    while g < nt:
        target = codes[order[g]]
        h = g
        incoming = 0
        while h < nt and codes[order[h]] == target:
            s = sources[order[h]]
            incoming += starts[s + 1] - starts[s]
            h += 1
        if incoming > touched.shape[0]:
            size = touched.shape[0]
            while size < incoming:
                size *= 2
            touched = np.empty(size, np.int64)
            buffer_codes = np.empty(size, np.int64)
            buffer_counts = np.empty(size, np.uint64)
        # what the next frontier says for the identity: its empty cells, their undecided edges, its counts so far
        frontier_empty = 0
        empty_room = 0
        partial_sum = 0
        for j in range(width):
            v = (target >> (3 * j)) & 7
            if v == EMPTY:
                frontier_empty += 1
                empty_room += room[j]
            else:
                partial_sum += v
        m = 0
        for k in range(g, h):
            t = order[k]
            s = sources[t]
            by = shifts_by[t]
            for q in range(starts[s], starts[s + 1]):
                code = tallies[q] + by
                if code & guards:
                    continue  # a field past its bound
                e = ((code >> shifts[0]) & e_mask) - offsets[0]
                if e + free_left < empties:
                    continue  # too few cells left to be empty
                if n_derived > 0:
                    # the derived numbers' shown tiles, from the identity on the decided part
                    d_value = ((code >> shifts[1]) & d_mask) - offsets[1]
                    shown = finalised_so_far - e + frontier_empty - locks_final
                    number_sum = 2 * (edges_so_far - 6 * e + d_value + empty_room) - partial_sum - lock_sum_final
                    for j in range(n_fields - 2):
                        n = ((code >> shifts[2 + j]) & ((np.int64(1) << bits[2 + j]) - 1)) - offsets[2 + j]
                        shown -= n
                        number_sum -= tracked_numbers[j] * n
                    if n_derived == 2:
                        high = number_sum - low * shown
                        below = shown - high
                        if below < 0 or below > low_max or high < 0 or high > high_max:
                            continue
                    elif shown < 0 or shown > low_max:
                        continue
                if dense:
                    index = 0
                    for j in range(n_fields):
                        index += (((code >> shifts[j]) & ((np.int64(1) << bits[j]) - 1)) - offsets[j]) * weights[j]
                    if scratch[index] == 0:
                        touched[m] = index
                        code_at[index] = code
                        m += 1
                    scratch[index] += counts[q]
                else:
                    buffer_codes[m] = code
                    buffer_counts[m] = counts[q]
                    m += 1
        g = h
        if m == 0:
            continue
        if dense:
            chosen = np.sort(touched[:m])
            for k in range(m):
                index = chosen[k]
                out_tallies[n_states] = code_at[index]
                out_counts[n_states] = scratch[index]
                scratch[index] = 0
                n_states += 1
        else:
            idx = np.argsort(buffer_codes[:m])
            previous = np.int64(-1)
            for k in range(m):
                q = idx[k]
                if buffer_codes[q] != previous:
                    out_tallies[n_states] = buffer_codes[q]
                    out_counts[n_states] = buffer_counts[q]
                    n_states += 1
                    previous = buffer_codes[q]
                else:
                    out_counts[n_states - 1] += buffer_counts[q]
        out_frontiers[n_frontiers] = target
        n_frontiers += 1
        out_starts[n_frontiers] = n_states
    return n_frontiers, n_states


# ------------------------------------------------------------------ counter


def shrunk(array: np.ndarray, size: int) -> np.ndarray:
    """The first ``size`` entries of a buffer this module allocated, without copying them (realloc in place)."""
    array.resize(max(size, 0), refcheck=False)
    return array


class RunCounter:
    """Layers of one level's plain board, step by step, within a deadline and a memory budget."""

    def __init__(
        self,
        run_plan: RunPlan,
        *,
        deadline: float | None = None,
        memory: int | None = None,
        progress: ProgressSink | None = None,
    ) -> None:
        self.plan = run_plan
        self.deadline = deadline
        self.memory = memory
        self.progress = progress
        self.peak_states = 1
        self.peak_bytes = 0
        self.transitions = 0  # states fed to the gather kernel, over all steps
        self._scratch: tuple[np.ndarray, np.ndarray] | None = None
        self._slots: list[tuple[np.ndarray, np.ndarray]] = []

    def scratch(self) -> tuple[np.ndarray, np.ndarray]:
        """This counter's dense scratch for the gather kernel (allocated once: fresh pages cost system time)."""
        if self._scratch is None:
            size = self.plan.box if self.plan.box <= DENSE_BOX else 1
            self._scratch = (np.zeros(size, np.uint64), np.zeros(size, np.int64))
        return self._scratch

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
        budget: int | None = None,
        slot: int | None = None,
    ) -> Layer:
        """Decide step i's cell (both ways, or only ``forced``), merging equal states.

        ``ghost_bit`` >= 0 records the cell's occupancy in that bit of the frontier code.  With ``slot``, the
        states are written into that slot of this counter's reused buffers (the input must not be in it).
        """
        self.check_clock()
        p = self.plan
        step = p.steps[i]
        n = len(layer.frontiers)
        codes = np.empty(2 * n, np.int64)
        shifts_by = np.empty(2 * n, np.int64)
        ok = np.empty(2 * n, np.bool_)
        _transitions(
            layer.frontiers,
            step.old_width,
            step.neighbours,
            step.finalised,
            step.keep,
            step.room,
            step.keep_lock,
            step.final_lock,
            step.defect,
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
        limit = self.memory if budget is None else budget
        if limit is not None and layer.nbytes + incoming * BYTES_PER_STATE > limit:
            raise Stopped("memory budget")
        self.check_clock()
        result = self.merge(
            layer,
            step,
            codes[chosen],
            shifts_by[chosen],
            sources,
            incoming,
            None if slot is None else self.buffers(slot, incoming),
        )
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
        reused: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> Layer:
        """Run ``sources[t]`` of ``layer``, its tallies shifted by ``shifts_by[t]``, filed under the next frontier
        ``codes[t]``, equal states merged (the gather kernel with step ``step``'s bounds).

        ``incoming`` is the number of states the runs hold; the states go into fresh buffers, or into ``reused``
        ones (a slot of ``buffers``), which stay whole for the next step.
        """
        p = self.plan
        order = np.argsort(codes, kind="stable")
        out_frontiers = np.empty(len(codes), np.int64)
        out_starts = np.empty(len(codes) + 1, np.int64)
        if reused is None:
            out_tallies = np.empty(max(incoming, 1), np.int64)
            out_counts = np.empty(max(incoming, 1), np.uint64)
        else:
            out_tallies, out_counts = reused
        n_frontiers, n_states = _gather(
            order,
            codes,
            shifts_by,
            sources,
            layer.starts,
            layer.tallies,
            layer.counts,
            len(step.keep),
            step.room,
            p.guards,
            p.shifts,
            p.bits,
            p.offsets,
            p.weights,
            p.box,
            DENSE_BOX,
            p.tracked_numbers,
            len(p.derived),
            p.derived_low,
            p.derived_low_max,
            p.derived_high_max,
            p.empties,
            p.defect,
            step.finalised_so_far,
            step.edges_so_far,
            step.locks_final,
            step.lock_sum_final,
            step.free_left,
            *self.scratch(),
            out_frontiers,
            out_starts,
            out_tallies,
            out_counts,
        )
        self.transitions += incoming
        self.peak_bytes = max(self.peak_bytes, layer.nbytes + out_tallies.nbytes + out_counts.nbytes)
        if reused is None:
            out_tallies, out_counts = shrunk(out_tallies, n_states), shrunk(out_counts, n_states)
        else:
            out_tallies, out_counts = out_tallies[:n_states], out_counts[:n_states]
        return Layer(shrunk(out_frontiers, n_frontiers), shrunk(out_starts, n_frontiers + 1), out_tallies, out_counts)

    def buffers(self, slot: int, size: int) -> tuple[np.ndarray, np.ndarray]:
        """Slot ``slot`` of the reused output buffers, at least ``size`` states long.

        Why: a layer written into fresh memory costs the kernel a page fault and a zeroed page per 4 KB or
        2 MB; the lower rows of the halves counter write some hundred GB, so they reuse two slots instead.
        """
        while len(self._slots) <= slot:
            self._slots.append((np.empty(0, np.int64), np.empty(0, np.uint64)))
        tallies, counts = self._slots[slot]
        if len(tallies) < size:
            grown = max(size, len(tallies) + len(tallies) // 2, 1 << 16)
            self._slots[slot] = (np.empty(0, np.int64), np.empty(0, np.uint64))
            del tallies, counts
            self._slots[slot] = (np.empty(grown, np.int64), np.empty(grown, np.uint64))
        return self._slots[slot]

    def finished(self, layer: Layer) -> int:
        """Boards of a last layer that showed every tile: the full tally on the empty frontier."""
        hits = layer.tallies == self.plan.full_code
        return int(sum(int(c) for c in layer.counts[hits]))

    def run(self, first: int = 0, last: int | None = None, layer: Layer | None = None) -> Layer:
        """Layers first..last (default: all steps), reporting each step to ``progress``."""
        steps = len(self.plan.steps)
        last = steps if last is None else last
        layer = self.start() if layer is None else layer
        started = time.monotonic()
        for i in range(first, last):
            began = time.monotonic()
            layer = self.advance(layer, i)
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

    def stats(self) -> dict[str, Any]:
        return program_stats(len(self.plan.steps), self.plan.width, self.peak_states, self.transitions, self.peak_bytes)


def count_runs(
    run_plan: RunPlan, *, deadline: float | None = None, memory: int | None = None, progress: ProgressSink | None = None
) -> Outcome:
    """The plain count row by row: every step breadth first."""
    counter = RunCounter(run_plan, deadline=deadline, memory=memory, progress=progress)
    try:
        layer = counter.run()
    except Stopped as stop:
        return Outcome(0, False, str(stop), counter.stats() | {"method": "rows"})
    return Outcome(counter.finished(layer), True, None, counter.stats() | {"method": "rows"})
