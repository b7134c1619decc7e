"""Small plain counts in plain numpy: the frontier-runs program of ``hexiom_runs`` without its compiled kernels.

Why: the compiled kernels cost numba some 15 CPU seconds to compile on a
machine's first run (docs/bench/dp-first-run.md), while a level such as
level 38 needs only about 2.5 million state transitions, a fraction of a
second in numpy.  So a plain count first runs here, under a budget of state
transitions; only a count that outgrows it goes to the compiled counters
(which then compile once, and say so on stderr).

The program is the one ``hexiom_runs`` describes (same plan, same tally, same
bounds), row by row, with every step vectorised: over the layer's distinct
frontiers for "where to and by how much" (``_transitions``), over its states
for "shift, bound, merge" (``_gather``).  A layer is flat: one (frontier,
tally, count) per state, sorted.  It shares the RunPlan with the compiled
program but no counting code, so the tests hold the two against each other
and against a brute force.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .hexiom_plan import Outcome, ProgressSink, Stopped, program_stats
from .hexiom_runs import EMPTY, Layer, RunCounter, RunPlan, RunStep

#: State transitions a count may make here before it goes to the compiled counters (level 38 makes 2.5
#: million, level 37 3.2 million, under a CPU second; the budget bounds the work a larger count throws away).
TRANSITION_BUDGET = 4_000_000
#: bytes an incoming state costs while a step runs here (frontier, tally, count and the sort's scratch)
BYTES_PER_STATE = 64


class OverBudget(Exception):
    """The count needs more transitions than this program is meant for: the compiled counters take it.

    It carries the layer reached (before step ``step``), so the compiled rows can go on from there
    (``go_on_compiled``) instead of starting over.
    """

    def __init__(self, step: int, frontiers: np.ndarray, tallies: np.ndarray, counts: np.ndarray, stats: dict) -> None:
        super().__init__(f"over the numpy budget at step {step}")
        self.step, self.frontiers, self.tallies, self.counts, self.stats = step, frontiers, tallies, counts, stats

    def layer(self) -> Layer:
        """The layer in the compiled program's form: per distinct frontier (sorted) a sorted run of tallies."""
        heads = np.flatnonzero(np.r_[True, self.frontiers[1:] != self.frontiers[:-1]]) if len(self.frontiers) else []
        starts = np.append(np.asarray(heads, np.int64), len(self.frontiers)).astype(np.int64)
        return Layer(self.frontiers[heads].copy(), starts, self.tallies.copy(), self.counts.copy())


def go_on_compiled(
    plan: RunPlan,
    over: OverBudget,
    *,
    deadline: float | None = None,
    memory: int | None = None,
    progress: ProgressSink | None = None,
) -> Outcome:
    """The rest of a count that outgrew the budget, row by row with the compiled kernels (``hexiom_runs``)."""
    counter = RunCounter(plan, deadline=deadline, memory=memory, progress=progress)

    def stats() -> dict[str, Any]:
        done = counter.stats()
        done["frontier_transitions"] += over.stats["frontier_transitions"]
        done["peak_states"] = max(done["peak_states"], over.stats["peak_states"])
        return done | {"method": "rows", "numpy_steps": over.step}

    try:
        layer = counter.run(over.step, layer=over.layer())
    except Stopped as stop:
        return Outcome(0, False, str(stop), stats())
    return Outcome(counter.finished(layer), True, None, stats())


def _transitions(plan: RunPlan, step: RunStep, frontiers: np.ndarray, occupied: bool) -> tuple[np.ndarray, ...]:
    """Per distinct frontier, deciding the step's cell ``occupied`` or not: next frontier code, tally shift,
    whether it can follow, and what the gather needs of the next frontier (empty cells, their room, the sum
    of the open tiles' counts)."""
    n = len(frontiers)
    width = step.old_width
    values = (frontiers[:, None] >> (3 * np.arange(width + 1, dtype=np.int64))) & 7
    ok = np.ones(n, np.bool_)
    shift = np.zeros(n, np.int64)
    near = values[:, step.neighbours]
    if not occupied:  # --- empty: one more empty cell, its defect and its edges to earlier empty cells
        grown = step.defect + (near == EMPTY).sum(axis=1)
        values[:, width] = EMPTY
        shift += (np.int64(1) << plan.shifts[0]) + (grown << plan.shifts[1])
    else:  # --- occupied: it and its occupied decided neighbours see each other
        seen = near != EMPTY
        values[:, step.neighbours] = near + seen
        values[:, width] = seen.sum(axis=1)
    # --- cells whose last neighbour this is show their final number
    for j, p in enumerate(step.finalised):
        v = values[:, p]
        shown = v != EMPTY
        if step.final_lock[j] >= 0:
            ok &= ~shown | (v == step.final_lock[j])
        else:
            field = plan.field_of[v]
            ok &= ~shown | (field != -2)
            tracked = shown & (field >= 0)
            shift += np.where(tracked, np.int64(1) << plan.shifts[np.maximum(field, 0)], 0)
    # --- every open tile must still be able to reach a number it may show
    code = np.zeros(n, np.int64)
    empty = np.zeros(n, np.int64)
    empty_room = np.zeros(n, np.int64)
    partial = np.zeros(n, np.int64)
    for j, p in enumerate(step.keep):
        v = values[:, p]
        open_tile = v != EMPTY
        room = step.room[j]
        if step.keep_lock[j] >= 0:
            ok &= ~open_tile | ((v <= step.keep_lock[j]) & (step.keep_lock[j] <= v + room))
        else:
            ok &= ~open_tile | plan.fits[v, room]
        code |= v << (3 * j)
        empty += ~open_tile
        empty_room += np.where(open_tile, 0, room)
        partial += np.where(open_tile, v, 0)
    return code, shift, ok, empty, empty_room, partial


def _bounded(plan: RunPlan, step: RunStep, tallies: np.ndarray, empty, empty_room, partial) -> np.ndarray:
    """Which shifted tallies stay within every bound (the gather kernel's tests, on arrays)."""
    keep = (tallies & plan.guards) == 0  # a field past its bound borrows its guard bit
    e = ((tallies >> plan.shifts[0]) & ((1 << int(plan.bits[0])) - 1)) - plan.offsets[0]
    keep &= e + step.free_left >= plan.empties  # too few cells left to be empty
    if plan.derived:
        # the derived numbers' shown tiles, from the edge identity on the decided part
        d_value = ((tallies >> plan.shifts[1]) & ((1 << int(plan.bits[1])) - 1)) - plan.offsets[1]
        shown = step.finalised_so_far - e + empty - step.locks_final
        number_sum = 2 * (step.edges_so_far - 6 * e + d_value + empty_room) - partial - step.lock_sum_final
        for j, number in enumerate(plan.tracked_numbers):
            f = 2 + j
            count = ((tallies >> plan.shifts[f]) & ((1 << int(plan.bits[f])) - 1)) - plan.offsets[f]
            shown -= count
            number_sum -= number * count
        if len(plan.derived) == 2:
            high = number_sum - plan.derived_low * shown
            below = shown - high
            keep &= (below >= 0) & (below <= plan.derived_low_max) & (high >= 0) & (high <= plan.derived_high_max)
        else:
            keep &= (shown >= 0) & (shown <= plan.derived_low_max)
    return keep


def count_small(
    plan: RunPlan,
    *,
    deadline: float | None = None,
    memory: int | None = None,
    progress: ProgressSink | None = None,
    budget: int | None = None,
) -> Outcome:
    """The plain count row by row in numpy; raises ``OverBudget`` once it would pass ``budget`` transitions
    (default ``TRANSITION_BUDGET``)."""
    budget = TRANSITION_BUDGET if budget is None else budget
    steps = len(plan.steps)
    frontiers = np.zeros(1 if plan.possible else 0, np.int64)
    tallies = np.full(len(frontiers), plan.start_code, np.int64)
    counts = np.ones(len(frontiers), np.uint64)
    peak_states, peak_bytes, transitions = 1, 0, 0
    started = time.monotonic()

    def stats() -> dict[str, Any]:
        return program_stats(steps, plan.width, peak_states, transitions, peak_bytes) | {"method": "rows (numpy)"}

    try:
        for i, step in enumerate(plan.steps):
            began = time.monotonic()
            if deadline is not None and began >= deadline:
                raise Stopped("time limit")
            distinct, which = np.unique(frontiers, return_inverse=True)
            parts = []
            for occupied in (False, True) if step.lock < 0 else (True,):
                code, shift, ok, empty, empty_room, partial = _transitions(plan, step, distinct, occupied)
                chosen = ok[which]
                source = which[chosen]
                if transitions + len(source) > budget:
                    raise OverBudget(i, frontiers, tallies, counts, stats())
                transitions += len(source)
                if memory is not None and (len(frontiers) + 2 * len(source)) * BYTES_PER_STATE > memory:
                    raise Stopped("memory budget")
                shifted = tallies[chosen] + shift[source]
                within = _bounded(plan, step, shifted, empty[source], empty_room[source], partial[source])
                parts.append((code[source][within], shifted[within], counts[chosen][within]))
            frontiers = np.concatenate([p[0] for p in parts])
            tallies = np.concatenate([p[1] for p in parts])
            merged = np.concatenate([p[2] for p in parts])
            # --- equal states merge: sort by (frontier, tally), add up each run of equals
            order = np.lexsort((tallies, frontiers))
            frontiers, tallies, merged = frontiers[order], tallies[order], merged[order]
            first = np.ones(len(order), np.bool_)
            first[1:] = (frontiers[1:] != frontiers[:-1]) | (tallies[1:] != tallies[:-1])
            heads = np.flatnonzero(first)
            counts = np.add.reduceat(merged, heads) if len(heads) else merged
            frontiers, tallies = frontiers[heads], tallies[heads]
            peak_states = max(peak_states, len(tallies))
            peak_bytes = max(peak_bytes, len(order) * BYTES_PER_STATE)
            if progress is not None:
                progress(
                    {
                        "step": i + 1,
                        "steps": steps,
                        "frontiers": int(np.count_nonzero(frontiers[1:] != frontiers[:-1])) + (len(frontiers) > 0),
                        "states": len(tallies),
                        "bytes": frontiers.nbytes + tallies.nbytes + counts.nbytes,
                        "step_seconds": time.monotonic() - began,
                        "elapsed": time.monotonic() - started,
                    }
                )
    except Stopped as stop:
        return Outcome(0, False, str(stop), stats())
    finished = (frontiers == 0) & (tallies == plan.full_code)  # every cell decided, every tile shown
    return Outcome(int(sum(int(c) for c in counts[finished])), True, None, stats())
