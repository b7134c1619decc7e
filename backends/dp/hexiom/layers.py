"""The Hexiom counting program with each layer held in numpy arrays.

Same program as ``hexiom.Program`` (same fold, plan, transition and bounds),
but a layer is three flat arrays instead of dictionaries of Python ints:

* the distinct **frontiers** of the layer, one row per frontier (4 bits a
  position when packed: a neighbour count 0..6, or ``EMPTY_CODE``; a frontier
  of up to 16 positions packs into one ``uint64``, a wider one into as many
  64-bit words as it needs, ``FrontierCodes``);
* per state, one ``int64`` **key** = frontier id * ``radix`` + stock index,
  where the stock index writes "tiles of number d left" for each number the
  level has movable tiles of in mixed radix (so equal states have equal keys
  and merging is one sort and one ``add.reduceat``).  The keys must stay below
  2**63: ``key_space_refusal`` refuses a level whose stock index leaves too
  little room for the frontiers the memory budget allows, and a step whose
  frontiers would pass it stops the count (never wraps around);
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
#: bits of one frontier position in a packed code, and the positions one 64-bit word holds
POSITION_BITS = 4
PER_WORD = 64 // POSITION_BITS
#: counts stay uint64 while every sum of a step stays below this (then they become Python ints)
COUNT_CEILING = 1 << 64
#: a state's key (frontier id * radix + stock index) is an int64: every key of a step must stay below this
KEY_CEILING = 1 << 63
#: bytes one state needs at the peak of a step (its key and count, both choices' candidates, the sort)
BYTES_PER_STATE = 112


def frontier_bytes(width: int) -> int:
    """Bytes one distinct frontier of a step needs: its row, its code (twice: the table and the candidates),
    its index into the table and its next id per choice."""
    return width + 16 * FrontierCodes(width).words + 24


def key_space_refusal(level: Level, width: int, memory: int | None) -> str | None:
    """Why the array program cannot key this level's states in 64 bits, or None when it can.

    A key is frontier id * radix + stock index, so the frontiers a step may hold times the stock's radix
    must stay below 2**63; the frontiers are bounded by the memory budget (``frontier_bytes`` each, checked
    in every step).  Without a budget nothing bounds them before the count: a step that would pass the
    ceiling stops the count instead.
    """
    radix = Radix.of(level.movable_counts).size
    most = 1 if memory is None else max(1, memory // frontier_bytes(width))
    if radix * most < KEY_CEILING:
        return None
    return (
        f"dp: side {level.side} with these tiles needs {(radix * most - 1).bit_length()}-bit state keys "
        f"(tile stock {radix.bit_length()} bits, frontiers {most.bit_length()} bits), more than its 63"
    )


class FrontierCodes:
    """Frontiers (rows of values 0..15) packed into codes that sort, compare and deduplicate as one value each.

    Up to ``PER_WORD`` (16) positions a code is one ``uint64``; a wider frontier (a side-9 board's has 17)
    takes ``words`` 64-bit words, held as one fixed-size byte string (numpy's void) per frontier, which
    ``np.unique`` sorts and compares whole.  Why not one wider integer: numpy has none, and an object
    array of Python ints would cost the narrow boards, whose codes stay one ``uint64`` as before.
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self.words = max(1, -(-width // PER_WORD))
        positions = np.arange(width)
        self.word_of = positions // PER_WORD
        self.shifts = (POSITION_BITS * (positions % PER_WORD)).astype(np.uint64)

    def pack(self, values: np.ndarray) -> np.ndarray:
        """One code per row of ``values`` (frontiers x width)."""
        if self.width == 0:
            return np.zeros(len(values), np.uint64)
        shifted = values.astype(np.uint64) << self.shifts
        if self.words == 1:
            return shifted.sum(axis=1, dtype=np.uint64)
        words = np.empty((len(values), self.words), np.uint64)
        for w in range(self.words):
            words[:, w] = shifted[:, w * PER_WORD : (w + 1) * PER_WORD].sum(axis=1, dtype=np.uint64)
        return words.view(np.dtype((np.void, 8 * self.words))).reshape(len(values))

    def unpack(self, codes: np.ndarray) -> np.ndarray:
        """The frontiers (rows of int8) the codes stand for."""
        if self.width == 0:
            return np.zeros((len(codes), 0), np.int8)
        words = codes[:, None] if self.words == 1 else codes.view(np.uint64).reshape(len(codes), self.words)
        return ((words[:, self.word_of] >> self.shifts) & 15).astype(np.int8)

    def smaller(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Per frontier, the smaller of two codes in one fixed order (word by word): which of a frontier and its
        mirror image stands for both."""
        if self.words == 1:
            return np.minimum(a, b)
        words_a = a.view(np.uint64).reshape(len(a), self.words)
        words_b = b.view(np.uint64).reshape(len(b), self.words)
        differ = words_a != words_b
        first = differ.argmax(axis=1)  # the first word that differs (0 when none does: then a == b)
        rows = np.arange(len(a))
        take_b = words_b[rows, first] < words_a[rows, first]
        out = a.copy()
        out[take_b] = b[take_b]
        return out


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
        #: seconds the last step took: a step runs whole (its sort cannot look at the clock), so a step the last
        #: one's pace says would end past the deadline is not started
        self.step_seconds = 0.0
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
        # states merging into one differ only in the choice and the values that leave the frontier, and at the
        # end of a row in whether the frontier was mirrored
        fan_in = 2 * 16 ** len(step.finalised) * (2 if i in self.mirror_at else 1)
        if int(self.counts.max()) >= COUNT_CEILING // fan_in:
            self.counts = self.counts.astype(object)

    def _check_keys(self, frontiers: int, packing: FrontierCodes) -> None:
        """Stop before a step whose frontiers would not fit the memory budget or the 64-bit keys: a key that
        wrapped around would merge states that differ, and the count would be wrong."""
        if self.memory is not None and frontiers * frontier_bytes(packing.width) > self.memory:
            raise Stopped("memory budget")
        if frontiers * self.radix.size >= KEY_CEILING:
            raise Stopped("dp: more frontiers than its 64-bit state keys tell apart")

    def next_layer(self, i: int) -> None:
        """Decide step i's vertex both ways for every state; merge equal states."""
        self._clock()
        if self.deadline is not None and time.monotonic() + self.step_seconds * self.growth >= self.deadline:
            raise Stopped("time limit")
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
        packing = FrontierCodes(len(step.keep))
        codes = [packing.pack(kept) for _, kept, _ in decided]
        valid_codes = np.concatenate([c[ok] for c, (ok, _, _) in zip(codes, decided)])
        table, where = np.unique(valid_codes, return_inverse=True)
        frontiers = packing.unpack(table)
        if i in self.mirror_at:  # a frontier and its mirror image have the same completions: keep the smaller code
            mirrored = packing.pack(frontiers[:, self.mirror_at[i]])
            table, canonical = np.unique(packing.smaller(table, mirrored), return_inverse=True)
            where = canonical.reshape(-1)[where]
            frontiers = packing.unpack(table)
        self._check_keys(len(table), packing)
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
        self.keys, self.frontiers = live_frontiers(self.keys, frontiers, radix)
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
            self.step_seconds = time.monotonic() - began
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


def live_frontiers(keys: np.ndarray, frontiers: np.ndarray, radix: int) -> tuple[np.ndarray, np.ndarray]:
    """The sorted keys and the frontiers some state still has, renumbered in order.

    Why: a frontier whose states all died (the stock bounds dropped them) would be decided again at every
    later step, and its descendants with it: on a side-10 board with two tiles that was a million frontiers
    for 150 states.
    """
    fid = keys // radix
    first = np.ones(len(fid), dtype=bool)
    first[1:] = fid[1:] != fid[:-1]
    live = fid[first]
    if len(live) == len(frontiers):
        return keys, frontiers
    renumbered = np.cumsum(first) - 1  # keys are sorted, so their frontier ids are too
    return renumbered * radix + (keys - fid * radix), frontiers[live]


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
