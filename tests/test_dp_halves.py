"""dp's compiled counters, row by row (``hexiom_runs``) and by halves (``hexiom_halves``).

The brute force of ``test_dp_hexiom`` checks the backend (which counts small
levels row by row); here: the identity the tally rests on, the halves
against the rows on levels the middle mirror keeps (locks and blocks
included), the left-right mirror of the middle row, lower bounds from
stopped runs, and the cubes of levels 38 and 40 against a SAT solver (CaDiCaL).
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import expected, level_path, script
from test_dp_hexiom import brute_force, generated_levels, occupancy_histograms

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.dp.hexiom import halves as hexiom_halves
from trisolve.backends.dp.hexiom.halves import HalvesCounter, count_by_halves, halves_for
from trisolve.backends.dp.hexiom.plan import Budget, fold, make_plan
from trisolve.backends.dp.hexiom.runs import SHRINK_FROM, Buffers, RunCounter, RunPlan, count_runs
from trisolve.models.hexiom import model as hexiom

ENUMERATE = Options(enumerate=True)
EXPECTED = expected("hexiom")


def rows(level: hexiom.Level) -> int:
    """The plain reference: row by row, one thread, no mirror merge."""
    outcome = count_runs(RunPlan(level, make_plan(fold(level))), Budget(threads=1), mirror=False)
    assert outcome.complete
    return outcome.count


def middle_mirror(board: hexiom.Board) -> tuple[int, ...]:
    row_of = {c: r for r, cells in enumerate(board.rows) for c in cells}
    m = board.side - 1
    return next(
        p
        for p in board.symmetries
        if all(row_of[p[c]] == 2 * m - row_of[c] for c in range(board.size)) and all(p[c] == c for c in board.rows[m])
    )


@st.composite
def mirrored_levels(draw, side: int) -> hexiom.Level:
    """A level the mirror across the middle row keeps: a mirrored board, mirrored locks and blocks."""
    board = hexiom.Board(side)
    mu = middle_mirror(board)
    upper = [c for r in board.rows[:side] for c in r]  # rows 0..m
    occupied = {c for c in upper if draw(st.integers(0, 4)) > 0}
    occupied |= {mu[c] for c in occupied}
    numbers = {c: sum(1 for n in board.neighbours[c] if n in occupied) for c in occupied}
    blocked = {c for c in upper if c not in occupied and draw(st.integers(0, 3)) == 0}
    blocked |= {mu[c] for c in blocked}
    locked_cells = {c for c in upper if c in occupied and draw(st.integers(0, 5)) == 0}
    locked_cells |= {mu[c] for c in locked_cells}
    counts = [0] * (hexiom.MAX_TILE + 1)
    for number in numbers.values():
        counts[number] += 1
    if draw(st.booleans()):  # one tile renumbered: often no solution, still mirrored
        source = draw(st.sampled_from([d for d in range(len(counts)) if counts[d]] or [0]))
        if counts[source]:
            counts[source] -= 1
            counts[draw(st.integers(0, hexiom.MAX_TILE))] += 1
    locked = tuple(sorted((c, numbers[c]) for c in locked_cells))
    return hexiom.Level(board, tuple(counts), locked, frozenset(blocked), name=f"mirrored side {side}")


# ------------------------------------------------------------ the identity


def tally(level: hexiom.Level, solution: hexiom.Solution) -> tuple[int, int]:
    """(empty cells, defect) of a board: usable empty cells, each 6 - its usable degree, plus edges between them."""
    board = level.board
    usable = {c for c in range(board.size) if c not in level.blocked_cells}
    empty = {c for c in usable if solution.cells[c] is None}
    degree = {c: sum(1 for n in board.neighbours[c] if n in usable) for c in usable}
    edges = sum(1 for c in empty for n in board.neighbours[c] if n in empty and n > c)
    return len(empty), sum(6 - degree[c] for c in empty) + edges


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(generated_levels(2), generated_levels(3)))
def test_every_solution_has_the_empty_cells_and_defect_the_level_fixes(level):
    run_plan = RunPlan(level, make_plan(fold(level)))
    solutions = brute_force(level)
    for solution in solutions:
        assert tally(level, solution) == (run_plan.empties, run_plan.defect)
    assert rows(level) == len(solutions)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(generated_levels(2), generated_levels(3)), st.integers(0, 11))
def test_the_numpy_steps_count_every_fold_like_the_kernels(level, k):
    """What a fresh install counts small levels with (no compilation) against the compiled kernels, state for
    state, on the plain board and on folds by the level's symmetries."""
    symmetry = level.symmetries[k % len(level.symmetries)]
    run_plan = RunPlan(level, make_plan(fold(level, symmetry)))
    compiled, plain = RunCounter(run_plan, compiled=True), RunCounter(run_plan, compiled=False)
    layer, other = compiled.run(), plain.run()
    assert compiled.finished(layer) == plain.finished(other)
    assert np.array_equal(layer.frontiers, other.frontiers) and np.array_equal(layer.tallies, other.tallies)
    assert compiled.peak_states == plain.peak_states


def test_a_chain_of_growing_steps_writes_into_pages_it_wrote_before():
    """The upper half is a chain of steps each about 1.35 times the last, each writing its output while its
    input lives, then freeing it.  The pool keeps the freed buffer (giving back only the pages beyond its
    limit), and a buffer's address space is HEADROOM times what it was first asked for, so a step writes
    into a buffer two steps old: at most 3/4 of what the chain writes is fresh pages (all of it was, when the
    pool dropped the whole buffer and a buffer had room for only twice its first step)."""
    pool = Buffers()
    states, written = SHRINK_FROM, 0
    layer = pool.take(states)
    pool.fit(layer, states)
    for _ in range(10):
        incoming, following = int(1.5 * states), int(1.35 * states)
        out = pool.take(incoming)
        pool.fit(out, following, incoming)
        written += incoming
        pool.give(layer)
        layer, states = out, following
    assert pool.fresh <= 0.75 * 16 * written
    assert pool.peak <= 16 * 3 * states  # what it holds stays within three layers' worth of the last


def derived_tiles(run_plan: RunPlan, codes: np.ndarray, shown_base: int, sum_base: int) -> tuple[np.ndarray, ...]:
    """The derived numbers' shown tiles of each code, field by field (what the gather kernel did before its
    lanes): the higher number's, then the lower's (one derived number: its tiles)."""
    digits = run_plan.digits(codes)
    shown = shown_base - digits[0] - sum(digits[2:], np.zeros(len(codes), np.int64))
    number_sum = sum_base + 2 * (digits[1] - 6 * digits[0])
    number_sum -= sum((t * n for t, n in zip(run_plan.tracked, digits[2:])), np.zeros(len(codes), np.int64))
    if len(run_plan.derived) == 2:
        high = number_sum - run_plan.derived_low * shown
        return high, shown - high
    return (shown,)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(generated_levels(2), generated_levels(3), generated_levels(4)), st.integers(-40, 40), st.integers(-80, 80)
)
def test_the_derived_lanes_give_each_codes_derived_tiles(level, shown_base, sum_base):
    """``RunPlan._derived_lanes``: four table loads a state give the derived numbers' tiles that extracting
    every field gives, for any codes of live states (each field within its bounds) and any frontier."""
    run_plan = RunPlan(level, make_plan(fold(level)))
    if not run_plan.derived:
        return
    generator = np.random.default_rng((shown_base + 40) * 1000 + sum_base + 80)
    digits = [generator.integers(0, int(most) + 1, 200) for most in run_plan.maxima]
    codes = run_plan.encode(digits)
    assert [list(d) for d in run_plan.digits(codes)] == [list(d) for d in digits]
    mask = (1 << run_plan.lane_bits) - 1
    packed = sum(run_plan.lanes[c, (codes >> (c * run_plan.lane_bits)) & mask] for c in range(len(run_plan.lanes)))
    terms = run_plan.lane_terms
    x = (packed & 0xFFFFFFFF) + terms[0] * shown_base + terms[1] * sum_base + terms[2]
    y = (packed >> 32) + terms[3] * shown_base + terms[4] * sum_base + terms[5]
    expected_tiles = derived_tiles(run_plan, codes, shown_base, sum_base)
    assert list(x) == list(expected_tiles[0])
    if len(expected_tiles) == 2:
        assert list(y) == list(expected_tiles[1])
    else:
        assert not y.any()


@pytest.mark.parametrize("name", ["level03", "level12", "level22", "level36", "level39"])
def test_the_kernels_count_every_fold_like_the_array_program(name):
    """Burnside's folds now run on the row kernels, which the halves share: the array program
    (``hexiom_layers``, no code in common) still counts the same boards on every fold (levels whose folds
    fix boards: 8 to 177 of them)."""
    from trisolve.backends.dp.hexiom.layers import count_layers

    level = hexiom.parse(level_path("hexiom", name))
    fixed = []
    for symmetry in level.symmetries[1:]:
        plan = make_plan(fold(level, symmetry))
        by_kernels = count_runs(RunPlan(level, plan), Budget(threads=1))
        by_arrays = count_layers(level, plan)
        assert by_kernels.complete and by_arrays.complete and by_kernels.count == by_arrays.count
        fixed.append(by_kernels.count)
    assert max(fixed) > 1


# ------------------------------------------------------------ halves against rows


def test_rows_and_halves_count_side3_histograms_like_every_occupancy_pattern():
    """Side 3, no locks or blocks: for histograms some of the 2^19 patterns have, the patterns with that
    histogram, counted row by row and by halves (both mirror modes, one and two threads)."""
    board = hexiom.Board(3)
    distinct, patterns = np.unique(occupancy_histograms(board), axis=0, return_counts=True)
    rng = np.random.default_rng(5)
    for k in [*rng.choice(len(distinct), size=10, replace=False), int(np.argmax(patterns))]:
        level = hexiom.Level(board, tuple(int(n) for n in distinct[k]), (), frozenset())
        assert rows(level) == patterns[k], hexiom.format_level(level)
        for threads in (1, 2):
            for check in (False, True):
                outcome = count_by_halves(level, Budget(threads=threads), check_mirror=check)
                assert outcome.complete and outcome.count == patterns[k], (threads, check, hexiom.format_level(level))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mirrored_levels(3), mirrored_levels(4)))
def test_halves_count_mirrored_levels_like_rows(level):
    if halves_for(level) is None:  # a middle-row cell with no usable neighbour below it
        return
    expected = rows(level)
    for check in (False, True):
        outcome = count_by_halves(level, check_mirror=check)
        assert outcome.complete and outcome.count == expected, hexiom.format_level(level)


@pytest.mark.parametrize("name", ["level12", "level22", "level35", "level38"])
def test_the_rows_mirror_merge_keeps_the_count_and_cuts_the_states(name):
    level = hexiom.parse(level_path("hexiom", name))
    run_plan = RunPlan(level, make_plan(fold(level)))
    merged = count_runs(run_plan, Budget(threads=1))
    plain = count_runs(run_plan, Budget(threads=1), mirror=False)
    assert merged.stats["mirror_merges"] > 0 and merged.count == plain.count == EXPECTED[name]["count"]
    assert merged.stats["peak_states"] < plain.stats["peak_states"]


def test_the_mirror_check_compares_leaves_with_their_images():
    level = hexiom.parse(level_path("hexiom", "level22"))
    outcome = count_by_halves(level, check_mirror=True)
    assert outcome.count == 109821 and outcome.stats["mirror_checks"] > 10


def test_a_level_the_middle_mirror_does_not_keep_has_a_lower_table_of_its_own():
    level = hexiom.parse(level_path("hexiom", "level39"))  # locks off the mirror
    halves = halves_for(level)
    assert halves is not None and halves.lower_plan is not None
    outcome = count_by_halves(level)
    assert outcome.complete and outcome.count == 309196 and outcome.stats["lower_table"] == "the mirrored level's"
    assert halves_for(hexiom.parse(level_path("hexiom", "level38"))).lower_plan is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(generated_levels(3), generated_levels(4)))
def test_halves_count_any_level_like_rows(level):
    """Random levels (no mirror keeps them, mostly): the lower half comes from the mirrored level's table."""
    if halves_for(level) is None:  # a middle-row cell with no usable neighbour below it
        return
    expected = rows(level)
    outcome = count_by_halves(level)
    assert outcome.complete and outcome.count == expected, hexiom.format_level(level)


def test_the_lower_table_packs_its_tallies_like_the_upper_one():
    """Found by hypothesis: the mirrored level's own plan packed a tally field one bit narrower, so the join read
    its tallies wrong (0 boards for 1).  Both tables now share the wider layout."""
    usable = {12, 18, 23, 24, 29, 32}
    board = hexiom.Board(4)
    level = hexiom.Level(
        board, (1, 1, 2, 1, 0, 0, 0), ((18, 1), (23, 2), (24, 3)), frozenset(set(range(board.size)) - usable)
    )
    halves = halves_for(level)
    assert halves.lower_plan is not None and np.array_equal(halves.plan.bits, halves.lower_plan.bits)
    assert count_by_halves(level).count == rows(level) == 1


def test_a_leaf_filter_counts_a_cube_and_the_cubes_add_up():
    level = hexiom.parse(level_path("hexiom", "level22"))
    halves = halves_for(level)
    cubes: dict = {}
    total = HalvesCounter(
        halves, check_mirror=True, on_leaf=lambda row, w, shares: cubes.update({(row, lower): n for lower, n in shares})
    ).count()
    assert sum(cubes.values()) == total.count == 109821
    row = max({r for r, _ in cubes}, key=lambda r: sum(n for (q, _), n in cubes.items() if q == r))
    alone = HalvesCounter(halves, check_mirror=True, leaves={row}).count()
    assert alone.count == sum(n for (q, _), n in cubes.items() if q == row) > 0


# ------------------------------------------------------------ limits


def test_a_stopped_count_by_halves_keeps_its_finished_leaves_as_a_lower_bound(monkeypatch):
    level = hexiom.parse(level_path("hexiom", "level38"))
    original = HalvesCounter._leaf

    def leaf(self, *args):
        original(self, *args)
        if self.tally.boards and self.upper.deadline is None:
            self.upper.deadline = time.monotonic()  # the first leaf with boards: the next step sees the time limit

    monkeypatch.setattr(HalvesCounter, "_leaf", leaf)
    outcome = count_by_halves(level, Budget(threads=1))
    assert not outcome.complete and outcome.stopped_by == "time limit"
    assert 0 < outcome.count < 79


def test_the_halves_report_their_finished_boards_as_they_go(monkeypatch):
    reported = []
    monkeypatch.setattr(hexiom_halves, "report_partial_count", reported.append)
    assert count_by_halves(hexiom.parse(level_path("hexiom", "level38"))).count == 79
    assert len(reported) >= 2 and reported == sorted(reported) and reported[-1] == 79


def test_the_backend_reports_a_stopped_halves_count_as_n_plus(monkeypatch):
    from trisolve.backends.dp import hexiom as dp_hexiom
    from trisolve.backends.dp.hexiom.plan import Outcome

    monkeypatch.setattr(
        dp_hexiom, "count_boards", lambda *a, **k: Outcome(40, False, "time limit", {"method": "halves"})
    )
    result = registry.get("dp", "hexiom").run(hexiom.parse(level_path("hexiom", "level38")), Limits(time=60), ENUMERATE)
    assert result.status is Status.SAT and not result.complete and result.count_text == "40+"


def locked_level(side: int, seed: int, unlocked: float) -> hexiom.Level:
    """A random board's level with most of its tiles locked (so it counts in a moment at any size)."""
    rng = np.random.default_rng(seed)
    board = hexiom.Board(side)
    occupied = {c for c in range(board.size) if rng.random() < 0.75}
    numbers = {c: sum(1 for n in board.neighbours[c] if n in occupied) for c in occupied}
    counts = [0] * (hexiom.MAX_TILE + 1)
    for number in numbers.values():
        counts[number] += 1
    locked = tuple(sorted((c, n) for c, n in numbers.items() if rng.random() > unlocked))
    return hexiom.Level(board, tuple(counts), locked, frozenset(), name=f"locked side {side}")


def test_the_backend_counts_side6_levels_by_halves_and_smaller_ones_by_rows():
    dp = registry.get("dp", "hexiom")
    for name in ("level38", "level39"):
        by_rows = dp.run(hexiom.parse(level_path("hexiom", name)), Limits(time=120), ENUMERATE)
        assert by_rows.complete and by_rows.count == EXPECTED[name]["count"] and by_rows.stats["method"] == "rows"
    level = locked_level(6, 3, 0.3)
    by_halves = dp.run(level, Limits(time=120), ENUMERATE)
    assert by_halves.complete and by_halves.stats["method"] == "halves"
    assert by_halves.count == rows(level) > 0


def test_a_memory_budget_stops_the_halves(monkeypatch):
    level = hexiom.parse(level_path("hexiom", "level38"))
    tight = count_by_halves(level, Budget(memory=200_000))
    assert not tight.complete and tight.stopped_by == "memory budget"


def test_progress_reports_the_halves_on_stderr(capsys):
    from trisolve.backends.dp.hexiom import progress_to_stderr

    level = hexiom.parse(level_path("hexiom", "level38"))
    count_by_halves(level, Budget(progress=progress_to_stderr(time.monotonic(), quiet_for=0, every=0)))
    err = capsys.readouterr().err
    assert "upper half" in err and "middle row:" in err and "boards so far" in err and "GiB in use" in err
    assert "% done" in err and "s left" in err


def test_boards_too_many_for_uint64_are_left_to_the_array_program():
    board = hexiom.Board(9)  # 217 cells, 60 tiles: more boards with 157 empty cells than uint64 holds
    level = hexiom.Level(board, (0, 0, 0, 0, 0, 0, 60), (), frozenset())
    assert not RunPlan(level, make_plan(fold(level))).fits_kernels
    assert halves_for(level) is None


# ------------------------------------------------------------ level 40


def test_level38_cubes_counted_by_halves_match_a_sat_solver():
    """Every leaf of level 38 (six locks, all kept by the mirrors), cubes with and without boards."""
    main = script("dp_cubes").main

    assert (
        main(
            [level_path("hexiom", "level38"), "--leaves", "0", "--check-mirror", "--cubes", "10", "--max-boards", "50"]
        )
        == 0
    )


@pytest.mark.slow
def test_level40_cubes_counted_by_halves_match_a_sat_solver():
    """Cubes of level 40 (rows 5 and 6 fixed), some without boards, against a SAT solver's complete enumeration."""
    main = script("dp_cubes").main

    assert (
        main([level_path("hexiom", "level40"), "--leaves", "4", "--cubes", "8", "--max-boards", "300", "--seed", "3"])
        == 0
    )


def test_a_first_run_counts_level38_without_compiling(tmp_path):
    """A fresh numba cache, as on a fresh install: level 38's count is right and comes from numpy, with no
    compile notice (issue 22: the first run under 5 s; docs/bench/dp-first-run.md)."""
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "trisolve", "solve", level_path("hexiom", "level38"), "--count", "--backend", "dp"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "79 solutions" in done.stdout
    assert "compiling" not in done.stderr


def test_once_one_counter_chooses_the_kernels_every_counter_of_the_process_takes_them(tmp_path):
    """A fresh numba cache: the halves make their walk's counters before the upper half decides to compile, and
    those must not go on in numpy for their own ``NUMPY_WORK`` states (level 40's first run peaked at 5.5 GB
    that way).  A counter made before another chose the kernels takes them on its next step, with the same
    layer as numpy gives; one made with ``compiled=False`` stays in numpy."""
    import subprocess
    import sys

    program = f"""
import numpy as np
from trisolve.backends.dp.hexiom import runs as hexiom_runs
from trisolve.backends.dp.hexiom.plan import fold, make_plan
from trisolve.backends.dp.hexiom.runs import RunCounter, RunPlan
from trisolve.models.hexiom import model as hexiom

level = hexiom.parse({level_path("hexiom", "level38")!r})
run_plan = RunPlan(level, make_plan(fold(level)))
waiting, plain, chooser = RunCounter(run_plan), RunCounter(run_plan, compiled=False), RunCounter(run_plan)
assert not waiting.compiled and not hexiom_runs.kernels_chosen.is_set()
hexiom_runs.NUMPY_WORK = 0
chooser.advance(chooser.start(), 0)
assert chooser.compiled and hexiom_runs.kernels_chosen.is_set()
by_kernels, by_numpy = waiting.advance(waiting.start(), 0), plain.advance(plain.start(), 0)
assert waiting.compiled and not plain.compiled
for field in ("frontiers", "starts", "tallies", "counts"):
    assert np.array_equal(getattr(by_kernels, field), getattr(by_numpy, field)), field
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "compiling" in done.stderr
