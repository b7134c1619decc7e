"""The Hexiom counting program with each layer held in numpy arrays.

Same program as ``hexiom.Program`` (same fold, plan, transition and bounds),
but a layer is three flat arrays instead of dictionaries of Python ints:

* the distinct **frontiers** of the layer, one row per frontier (4 bits a
  position when packed: a neighbour count 0..6, or ``EMPTY_CODE``);
* per state, one ``int64`` **key** = frontier id * ``radix`` + stock index,
  where the stock index writes "tiles of number d left" for each number the
  level has movable tiles of in mixed radix (so equal states have equal keys
  and merging is one sort and one ``add.reduceat``);
* per state, its **count** of partial boards, ``uint64`` while no sum can
  overflow (checked every step against the largest count and the most states
  one step can merge into one), Python ints (``object``) after that.

Deciding a vertex is computed once per distinct frontier (a few hundred
thousand rows), then applied to every state of that frontier by indexing.
Why: the dictionary program spends its time and memory on ~100-byte Python
objects per state; here a state costs 16 bytes at rest.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ....models.hexiom.model import MAX_TILE, Level
from .plan import Outcome, Plan, ProgressSink, Stock, Stopped, program_stats

EMPTY_CODE = 15
#: counts stay uint64 while every sum of a step stays below this (then they become Python ints)
COUNT_CEILING = 1 << 64
#: bytes one state needs at the peak of a step (its key and count, both choices' candidates, the sort)
BYTES_PER_STATE = 112


@dataclass(frozen=True)
class Radix:
    """Mixed-radix stock index over the numbers the level has movable tiles of."""

    numbers: tuple[int, ...]  # the numbers, increasing
    start: tuple[int, ...]  # tiles of each at the start
    place: tuple[int, ...]  # the weight of each digit

    @classmethod
    def of(cls, movable: tuple[int, ...]) -> Radix:
        numbers = tuple(d for d in range(MAX_TILE + 1) if movable[d] > 0)
        place, weight = [], 1
        for d in numbers:
            place.append(weight)
            weight *= movable[d] + 1
        return cls(numbers, tuple(movable[d] for d in numbers), tuple(place))

    @property
    def size(self) -> int:
        size = 1
        for s in self.start:
            size *= s + 1
        return size

    def index(self, left: tuple[int, ...]) -> int:
        return sum(n * p for n, p in zip(left, self.place))

    def digits(self, stock: np.ndarray) -> np.ndarray:
        """Tiles left per number, one column per number (uint8)."""
        out = np.empty((len(stock), len(self.numbers)), dtype=np.int16)
        for j, (s, p) in enumerate(zip(self.start, self.place)):
            out[:, j] = (stock // p) % (s + 1)
        return out


class LayerProgram:
    """One fold's program, layer by layer, in arrays."""

    def __init__(
        self,
        level: Level,
        plan: Plan,
        *,
        deadline: float | None = None,
        memory: int | None = None,
        progress: ProgressSink | None = None,
        mirror: bool = True,
    ) -> None:
        self.plan = plan
        #: step -> how the left-right mirror permutes the frontier's positions, where it may merge states
        self.mirror_at = mirror_merges(level, plan) if mirror else {}
        self.deadline = deadline
        self.memory = memory
        self.progress = progress
        movable = level.movable_counts
        self.radix = Radix.of(movable)
        stock = Stock(movable, level.board.size)
        self.fields = stock.fields
        # per field: which digit columns it sums, its starting value
        self.field_columns = [np.array([self.radix.numbers.index(d) for d in sorted(f)]) for f in self.fields]
        top = MAX_TILE + 1
        # fits[v, r]: a movable tile with v occupied and r undecided neighbours can still show a number in stock
        self.fits = np.zeros((16, top), dtype=bool)
        self.fits[EMPTY_CODE, :] = True
        for v in range(top):
            for r in range(top):
                self.fits[v, r] = any(movable[d] > 0 for d in range(v, min(v + r, MAX_TILE) + 1))
        # per field, for an open tile (v, r): can it still take from the field; must it
        self.can = np.zeros((16, top, len(self.fields)), dtype=np.int64)
        self.must = np.zeros((16, top, len(self.fields)), dtype=np.int64)
        for v in range(top):
            for r in range(top):
                self.can[v, r] = stock.can_show(v, min(v + r, MAX_TILE))
                self.must[v, r] = stock.must_show(v, min(v + r, MAX_TILE))
        self.future = [
            np.array([step.future_at_least[min(f)] for f in self.fields], dtype=np.int64) for step in plan.steps
        ]
        # shown number -> its digit column in the stock, -1 when no movable tile has it
        self.place = np.array(self.radix.place, dtype=np.int64)
        self.column_of = np.full(16, -1, dtype=np.int64)
        for j, d in enumerate(self.radix.numbers):
            self.column_of[d] = j
        self.peak_states = 1
        #: states after the last step over states before it (at least 1)
        self.growth = 1.0
        self.peak_bytes = 0
        self.transitions = 0
        possible = all(m >= 0 for m in movable) and not any(c in level.blocked_cells for c in level.locked)
        self.frontiers = np.zeros((1 if possible else 0, 0), dtype=np.int8)
        self.keys = np.array([self.radix.index(self.radix.start)] if possible else [], dtype=np.int64)
        self.counts = np.ones(len(self.keys), dtype=np.uint64)

    # ------------------------------------------------------------ one step

    def _decide(self, i: int, occupied: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per current frontier: can it follow, the extended values, and the stock index taken."""
        step = self.plan.steps[i]
        values = self.frontiers.astype(np.int16)
        count = np.full(len(values), step.own, dtype=np.int16)
        if occupied:
            for p, to_them, to_me in step.earlier:
                open_ = values[:, p] != EMPTY_CODE
                values[open_, p] += to_them
                count += to_me * open_
            new = count
        else:
            new = np.full(len(values), EMPTY_CODE, dtype=np.int16)
        values = np.concatenate([values, new[:, None]], axis=1)
        ok = np.ones(len(values), dtype=bool)
        # a value above the largest number is no tile at all (guards the tables' indexing)
        shown = values != EMPTY_CODE
        ok &= ~(shown & (values > MAX_TILE)).any(axis=1)
        values = np.where(shown & (values > MAX_TILE), MAX_TILE, values)
        taken = np.zeros((len(values), len(self.radix.numbers)), dtype=np.int16)
        rows = np.arange(len(values))
        # --- a vertex whose last neighbour is decided shows its final number
        for p in step.finalised:
            v = values[:, p]
            is_tile = v != EMPTY_CODE
            number = step.locked_at[p]
            if number is None:
                column = self.column_of[v]
                ok &= ~is_tile | (column >= 0)
                shows = is_tile & (column >= 0)
                np.add.at(taken, (rows[shows], column[shows]), step.weight_at[p])
            else:
                ok &= ~is_tile | (v == number)
        # --- every open tile must still be able to reach a number it may show
        for p, room, number in step.touched:
            v = values[:, p]
            if number is None:
                ok &= self.fits[v, room]
            else:
                ok &= (v == EMPTY_CODE) | ((v <= number) & (number <= v + room))
        return ok, values[:, list(step.keep)], taken

    def _bounds(self, i: int, frontiers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per next frontier and field: the most tiles it may have left, and the fewest."""
        step = self.plan.steps[i]
        ceiling = np.broadcast_to(self.future[i], (len(frontiers), len(self.fields))).copy()
        floor = np.zeros_like(ceiling)
        for q, (room, weight) in enumerate(zip(step.after_room, step.after_weight)):
            if weight:
                v = frontiers[:, q]
                ceiling += weight * self.can[v, room]
                floor += weight * self.must[v, room]
        return ceiling, floor

    def _check_overflow(self, i: int) -> None:
        """Counts become Python ints before any sum of this step could pass 2**64."""
        if self.counts.dtype == object or not len(self.counts):
            return
        step = self.plan.steps[i]
        # states merging into one differ only in the values that leave the frontier
        fan_in = 2 * 16 ** len(step.finalised)
        if int(self.counts.max()) >= COUNT_CEILING // fan_in:
            self.counts = self.counts.astype(object)

    def next_layer(self, i: int) -> None:
        """Decide step i's vertex both ways for every state; merge equal states."""
        self._clock()
        self._check_overflow(i)
        # the step's peak scales with the states it makes: expect the last step's growth again
        if self.memory is not None and len(self.keys) * self.growth * BYTES_PER_STATE > self.memory:
            raise Stopped("memory budget")
        before = max(1, len(self.keys))
        step = self.plan.steps[i]
        radix = self.radix.size
        fid = self.keys // radix
        stock = self.keys - fid * radix
        choices = (True,) if step.vertex.locked is not None else (False, True)
        decided = [self._decide(i, occupied) for occupied in choices]
        self._clock()
        # the next layer's distinct frontiers
        width = len(step.keep)
        shifts = (4 * np.arange(width)).astype(np.uint64)
        codes = [
            (kept.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64) if width else np.zeros(len(kept), np.uint64)
            for _, kept, _ in decided
        ]
        valid_codes = np.concatenate([c[ok] for c, (ok, _, _) in zip(codes, decided)])
        table, where = np.unique(valid_codes, return_inverse=True)
        frontiers = ((table[:, None] >> shifts) & 15).astype(np.int8) if width else np.zeros((len(table), 0), np.int8)
        if i in self.mirror_at:  # a frontier and its mirror image have the same completions: keep the smaller code
            mirrored = (frontiers[:, self.mirror_at[i]].astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)
            table, canonical = np.unique(np.minimum(table, mirrored), return_inverse=True)
            where = canonical.reshape(-1)[where]
            frontiers = ((table[:, None] >> shifts) & 15).astype(np.int8)
        ceiling, floor = self._bounds(i, frontiers.astype(np.int64))
        # next frontier id per (current frontier, choice), -1 when it cannot follow
        new_keys, new_counts = [], []
        offset = 0
        for code, (ok, _, taken) in zip(codes, decided):
            next_id = np.full(len(code), -1, dtype=np.int64)
            next_id[ok] = where[offset : offset + int(ok.sum())]
            offset += int(ok.sum())
            target = next_id[fid]
            alive = np.flatnonzero(target >= 0)
            took = taken[fid[alive]]
            left = self.radix.digits(stock[alive]) - took
            good = (left >= 0).all(axis=1)  # else: took a tile that is not in stock
            left_index = stock[alive] - took.astype(np.int64) @ self.place
            t = target[alive]
            for f, columns in enumerate(self.field_columns):
                total = left[:, columns].sum(axis=1)
                good &= (total <= ceiling[t, f]) & (total >= floor[t, f])
            alive = alive[good]
            self.transitions += len(alive)
            new_keys.append(target[alive] * radix + left_index[good])
            new_counts.append(self.counts[alive])
            self._clock()
        del fid, stock
        keys = np.concatenate(new_keys)
        counts = np.concatenate(new_counts)
        del new_keys, new_counts
        if self.memory is not None and len(keys) * BYTES_PER_STATE // 2 > self.memory:
            raise Stopped("memory budget")
        self.peak_bytes = max(
            self.peak_bytes, keys.nbytes * 3 + counts.nbytes * 2 + self.keys.nbytes + self.counts.nbytes
        )
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        counts = counts[order]
        del order
        if len(keys):
            starts = np.concatenate([[0], np.flatnonzero(keys[1:] != keys[:-1]) + 1])
            self.keys = keys[starts]
            self.counts = np.add.reduceat(counts, starts)
        else:
            self.keys, self.counts = keys, counts
        self.frontiers = frontiers
        self.peak_states = max(self.peak_states, len(self.keys))
        self.growth = max(1.0, len(self.keys) / before)

    def _clock(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise Stopped("time limit")

    def run(self) -> int:
        """Every step; the number of boards that showed every tile."""
        started = time.monotonic()
        steps = len(self.plan.steps)
        for i in range(steps):
            began = time.monotonic()
            self.next_layer(i)
            if self.progress is not None:
                self.progress(
                    {
                        "step": i + 1,
                        "steps": steps,
                        "frontiers": len(self.frontiers),
                        "states": len(self.keys),
                        "bytes": int(self.keys.nbytes + self.counts.nbytes),
                        "step_seconds": time.monotonic() - began,
                        "elapsed": time.monotonic() - started,
                    }
                )
        finished = self.keys == 0  # the empty frontier (id 0) with nothing left in stock (index 0)
        return int(sum(int(c) for c in self.counts[finished]))

    def stats(self) -> dict[str, Any]:
        return program_stats(len(self.plan.steps), self.plan.width, self.peak_states, self.transitions, self.peak_bytes)


def mirror_merges(level: Level, plan: Plan) -> dict[int, np.ndarray]:
    """Steps after which the decided cells are closed under the level's left-right mirror, with the
    permutation that mirror makes of the frontier's positions.

    Then the undecided rest of the board is its own mirror image (locks and
    blocks included: the mirror is one of the level's symmetries), so a
    partial board and its mirror image have the same completions and their
    states can be merged.  In reading order that is the end of every row.
    Only on the plain board (one cell a vertex).
    """
    board = level.board
    row_of = {c: r for r, row in enumerate(board.rows) for c in row}
    mirror = next((p for p in level.symmetries[1:] if all(row_of[p[c]] == row_of[c] for c in range(board.size))), None)
    if mirror is None or any(len(step.vertex.cells) != 1 for step in plan.steps):
        return {}
    merges = {}
    decided: set[int] = set()
    for i, (step, frontier) in enumerate(zip(plan.steps, plan.frontiers)):
        decided.add(step.vertex.cells[0])
        cells = [plan.steps[u].vertex.cells[0] for u in frontier]
        position = {c: q for q, c in enumerate(cells)}
        if len(cells) > 1 and {mirror[c] for c in decided} == decided and all(mirror[c] in position for c in cells):
            merges[i] = np.array([position[mirror[c]] for c in cells])
    return merges


def count_layers(
    level: Level,
    plan: Plan,
    *,
    deadline: float | None = None,
    memory: int | None = None,
    progress: ProgressSink | None = None,
    mirror: bool = True,
) -> Outcome:
    """The number of solutions on a fold of the level, by the array program."""
    program = LayerProgram(level, plan, deadline=deadline, memory=memory, progress=progress, mirror=mirror)
    try:
        count = program.run()
    except Stopped as stop:
        return Outcome(0, False, str(stop), program.stats())
    return Outcome(count, True, None, program.stats())
