"""Hexiom boards of every side, 1 to 16, and generated side-9 and side-10 levels: every backend that answers gives
the truth, and dp answers right or refuses.

The boards are chosen so that the truth needs no solver: with no tiles the only board is the empty one; a lone 0
tile sees no neighbour wherever it stands, so it may stand on any cell; two 1 tiles must see each other, so there
are as many boards as the board has edges.  Their symmetry classes are the orbits of the empty board, of the cells
and of the edges under the level's symmetries.  A brute force (every placement, the model's validator) checks the
three rules on the small sides.  Generated levels have no count known in advance: there the backends that finish
must agree with each other and with every solution any of them listed, and the generator's own solution exists,
so a count of 0 is wrong.

Side 9 is where a frontier of the board passes 16 cells: dp's array program packed 4 bits a cell into one 64-bit
integer there and answered 0 for every such board.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest
from support import assert_listed_once, level_path, run_cli

import trisolve
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.dp.hexiom import layers as hexiom_layers
from trisolve.backends.spec import Spec
from trisolve.crosscheck.compare import load_expected
from trisolve.models import FAMILIES
from trisolve.models.hexiom import model as hexiom
from trisolve.selection import choose

SIDES = tuple(range(1, hexiom.MAX_SIDE + 1))
#: tiles per board kind, by number (0..6)
KINDS = {"empty": (0,) * 7, "one 0 tile": (1,) + (0,) * 6, "two 1 tiles": (0, 2) + (0,) * 5}
COUNT = Options(enumerate=True)
CLASSES = Options(enumerate=True, symmetry_breaking=True)
LIMIT = Limits(time=120)


def level_of(side: int, kind: str) -> hexiom.Level:
    return hexiom.Level(hexiom.Board(side), KINDS[kind], (), frozenset(), name=f"side {side}, {kind}")


def placements(level: hexiom.Level) -> list[tuple[int, ...]]:
    """What the rules allow, read off the board: the occupied cells of every solution."""
    board = level.board
    if level.tile_total == 0:
        return [()]
    if level.tile_counts[0] == 1:
        return [(c,) for c in range(board.size)]
    return [(a, b) for a in range(board.size) for b in board.neighbours[a] if a < b]


def truth(level: hexiom.Level) -> int:
    return len(placements(level))


def classes(level: hexiom.Level) -> int:
    """The placements' orbits under the level's symmetries."""
    return len({min(tuple(sorted(p[c] for c in cells)) for p in level.symmetries) for cells in placements(level)})


def brute_force(level: hexiom.Level) -> int:
    """Every way to put the level's tiles on its cells, numbers read off, kept when the validator agrees."""
    board = level.board
    found = 0
    for chosen in itertools.combinations(range(board.size), level.tile_total):
        occupied = set(chosen)
        cells = tuple(
            sum(1 for n in board.neighbours[c] if n in occupied) if c in occupied else None for c in range(board.size)
        )
        found += not hexiom.validate(level, hexiom.Solution(cells))
    return found


def counting_backends() -> list[str]:
    """Every backend that counts hexiom here (the default variant of each; dimacs needs a solver binary)."""
    return [
        name
        for name in registry.names()
        if name not in ("dp", "dimacs") and registry.catalog(name, "hexiom") and not registry.available(name)
    ]


def slow_from(side: int, *params):
    """A parameter set, marked slow on the wide sides (CI runs them all the same)."""
    return pytest.param(side, *params, marks=pytest.mark.slow) if side >= 11 else pytest.param(side, *params)


# ------------------------------------------------------------ the truth


@pytest.mark.parametrize("side", [1, 2, 3, 4])
@pytest.mark.parametrize("kind", KINDS)
def test_the_rules_read_off_the_board_match_a_brute_force(side, kind):
    level = level_of(side, kind)
    assert truth(level) == brute_force(level)


def test_the_truths_of_side_9_are_those_the_solvers_give():
    """The figures a user met: 1, 217 and 600 on side 9 (pysat, clingo and ganak gave them, dp gave 0)."""
    assert [truth(level_of(9, kind)) for kind in KINDS] == [1, 217, 600]


# ------------------------------------------------------------ dp on every side


@pytest.mark.parametrize("side", [slow_from(side) for side in SIDES])
@pytest.mark.parametrize("kind", KINDS)
def test_dp_counts_every_side_right(side, kind):
    level = level_of(side, kind)
    assert registry.refusal("dp", "hexiom", level, COUNT) is None
    result = registry.get("dp", "hexiom").run(level, LIMIT, COUNT)
    assert result.complete and result.count == truth(level), (result.count, result.stopped_by)
    assert result.status is (Status.SAT if truth(level) else Status.UNSAT)


@pytest.mark.parametrize("side", [1, 2, 3, 7, 8, 9, pytest.param(10, marks=pytest.mark.slow)])
@pytest.mark.parametrize("kind", KINDS)
def test_dp_counts_the_classes_of_every_width_right(side, kind):
    """Burnside's folds run the array program on their own frontiers: side 9 stopped with "conjugate symmetries
    fix 17 and 2 boards" there."""
    level = level_of(side, kind)
    result = registry.get("dp", "hexiom").run(level, LIMIT, CLASSES)
    assert result.complete and result.count == classes(level), (result.count, result.stopped_by)


@pytest.mark.parametrize(
    "side, kind",
    [(2, "two 1 tiles"), (9, "one 0 tile"), (9, "two 1 tiles"), pytest.param(16, "one 0 tile", marks=pytest.mark.slow)],
)
def test_dp_rebuilds_a_valid_board_on_a_wide_side(side, kind):
    level = level_of(side, kind)
    result = registry.get("dp", "hexiom").run(level, LIMIT, Options())
    assert result.status is Status.SAT and len(result.solutions) == 1
    assert hexiom.validate(level, result.solutions[0]) == []


def test_solve_count_without_a_backend_gives_the_truth_on_side_9(tmp_path):
    """What a user runs: ``--count`` alone takes dp for hexiom."""
    path = tmp_path / "side9.txt"
    path.write_text(hexiom.format_level(level_of(9, "two 1 tiles")))
    result = trisolve.solve(str(path), count=True, timeout=120)
    assert result.backend.startswith("dp:") and result.complete and result.count == 600


# ------------------------------------------------------------ every other backend


@pytest.mark.parametrize("backend", counting_backends())
@pytest.mark.parametrize("side", [1, 2, 3, 5, 9, pytest.param(10, marks=pytest.mark.slow)])
@pytest.mark.parametrize("kind", KINDS)
def test_every_backend_that_answers_gives_the_truth(backend, side, kind):
    """Each answers within ten seconds or not at all (mip and ganak take minutes from side 8 on); what it answers
    is the truth, its solutions valid and distinct, and a count it leaves open never passes the truth."""
    level = level_of(side, kind)
    result = registry.get(backend, "hexiom").run(level, Limits(time=10), COUNT)
    assert_listed_once(FAMILIES["hexiom"], level, result)
    if result.complete:
        assert result.count == truth(level), result.count
    else:
        assert result.count <= truth(level), result.count


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["clingo", "cpsat"])
@pytest.mark.parametrize("kind", KINDS)
def test_two_listing_backends_give_the_truth_on_side_16(backend, kind):
    """The widest board: dp's count is checked above, here two solvers list the same boards (pysat takes over a
    minute for the 2070 of two 1 tiles)."""
    level = level_of(16, kind)
    result = registry.get(backend, "hexiom").run(level, Limits(time=120), COUNT)
    assert_listed_once(FAMILIES["hexiom"], level, result)
    assert result.complete and result.count == truth(level)


# ------------------------------------------------------------ degenerate boards, every backend

ALL_BLOCKED = hexiom.Level(hexiom.Board(3), (0,) * 7, (), frozenset(range(19)))
DEGENERATE = {
    "side 1, its cell blocked": "1\n+.\n",
    "side 3, every cell blocked": hexiom.format_level(ALL_BLOCKED),
    "side 1, empty": "1\n.\n",
    "side 1, one 0 tile": "1\n0\n",
    "side 1, a locked 0": "1\n+0\n",
}


def every_hexiom_backend() -> list[str]:
    """Every backend and variant that runs hexiom here (dimacs only with a solver binary on PATH)."""
    import shutil

    names = []
    for name in registry.names():
        offered = registry.catalog(name, "hexiom")
        if offered is None or registry.available(name) or (name == "dimacs" and not shutil.which("cadical")):
            continue
        names += [f"{name}:{variant}" for variant in offered.ordered()]
    return names


@pytest.mark.parametrize("backend", every_hexiom_backend())
@pytest.mark.parametrize("board", DEGENERATE)
@pytest.mark.parametrize("symmetry_breaking", [False, True], ids=["plain", "classes"])
def test_degenerate_boards_have_exactly_one_solution_on_every_backend(backend, board, symmetry_breaking):
    """One cell, or no usable cell at all: the one board (empty, or the lone tile) and nothing else; with
    symmetry breaking, one class."""
    level = hexiom.parse_text(DEGENERATE[board], file=board)
    if symmetry_breaking and not registry.breaks_symmetries(backend, "hexiom"):
        pytest.skip(f"{backend} does not break symmetries")
    options = Options(enumerate=True, symmetry_breaking=symmetry_breaking, sat_command="cadical")
    made = registry.get(backend, "hexiom")
    counted = made.run(level, Limits(time=60), options)
    assert counted.complete and counted.count == 1 and counted.status is Status.SAT, counted
    assert_listed_once(FAMILIES["hexiom"], level, counted)
    first = made.run(level, Limits(time=60), Options(symmetry_breaking=symmetry_breaking, sat_command="cadical"))
    assert first.status is Status.SAT and len(first.solutions) == 1
    assert hexiom.validate(level, first.solutions[0]) == []


# ------------------------------------------------------------ generated side-9 and side-10 levels

#: (side, fill, seed): generated levels dp and the listing solvers count within seconds (12 and 42 boards when
#: written; mip and ganak do not finish them)
COUNTABLE = [(9, 0.99, 4), (10, 0.99, 4)]


def generated(tmp_path, side: int, seed: int, fill: float | None = None) -> tuple[str, hexiom.Level, hexiom.Solution]:
    sizes = {"side": side} if fill is None else {"side": side, "fill": fill}
    made = next(iter(trisolve.generate_levels("hexiom", tmp_path, seed=seed, **sizes)))
    level = hexiom.parse(made.path)
    with open(os.path.splitext(made.path)[0] + ".solution.json", encoding="utf-8") as handle:
        intended = hexiom.solution_from_json(level, json.load(handle)["solution"])
    assert hexiom.validate(level, intended) == []
    return made.path, level, intended


@pytest.mark.slow
@pytest.mark.parametrize("side, fill, seed", COUNTABLE)
def test_generated_wide_levels_get_one_count_from_every_backend_that_finishes(tmp_path, side, fill, seed):
    path, level, intended = generated(tmp_path, side, seed, fill)
    results = {
        name: registry.get(name, "hexiom").run(level, Limits(time=15), COUNT) for name in ["dp", *counting_backends()]
    }
    listed = set()
    for result in results.values():
        assert_listed_once(FAMILIES["hexiom"], level, result)
        listed |= {hexiom.canonical(level, s) for s in result.solutions}
    complete = {name: r.count for name, r in results.items() if r.complete}
    assert results["dp"].complete and len(set(complete.values())) == 1 and len(complete) >= 2, complete
    count = complete["dp"]
    assert count >= max(len(listed), 1) and all(r.count <= count for r in results.values())
    listers = [r for r in results.values() if r.complete and r.solutions]
    assert hexiom.canonical(level, intended) in listed or not listers


@pytest.mark.parametrize("side", [9, 10])
def test_dp_never_answers_wrong_on_a_generated_level_it_cannot_finish(tmp_path, side):
    """The generator's default fill: nobody counts these within seconds.  dp stops (or refuses), or its count is
    at least every board pysat found; never the 0 it used to answer."""
    path, level, intended = generated(tmp_path, side, seed=7)
    dp = registry.get("dp", "hexiom").run(level, Limits(time=10), COUNT)
    found = registry.get("pysat", "hexiom").run(level, Limits(time=10), COUNT)
    assert_listed_once(FAMILIES["hexiom"], level, found)
    assert found.count >= 1
    if dp.complete:
        assert dp.count >= found.count
    else:
        assert dp.status is Status.UNKNOWN and dp.stopped_by


# ------------------------------------------------------------ refusing, and where a refused level goes


def test_dp_refuses_a_board_its_state_keys_cannot_hold(tmp_path):
    """A side-16 board with 375 tiles of six numbers: its stock index takes 36 bits, and with a terabyte of
    budget the frontiers could take 34 more.  Refused before counting, saying what to use instead."""
    path, level, _ = generated(tmp_path, 16, seed=1, fill=0.5)
    huge = Options(enumerate=True, memory=1 << 40)
    why = registry.refusal("dp", "hexiom", level, huge)
    assert why is not None and why.startswith("dp: side 16") and "--backend" in why
    result = registry.get("dp", "hexiom").run(level, Limits(time=60), huge)
    assert result.status is Status.UNKNOWN and not result.complete and result.stopped_by == why
    assert registry.refusal("dp", "hexiom", level, Options(enumerate=True, memory=1 << 30)) is None  # 1 GiB: taken
    assert registry.refusal("dp", "hexiom", level, Options(memory=1 << 40)) is None  # a first solution: taken


def test_the_array_program_stops_rather_than_wrap_its_keys(monkeypatch):
    """Without a budget nothing bounds the frontiers before the count: a step that would pass the ceiling stops."""
    monkeypatch.setattr(hexiom_layers, "KEY_CEILING", 64)
    level = level_of(9, "two 1 tiles")
    from trisolve.backends.dp.hexiom.plan import fold, make_plan

    outcome = hexiom_layers.count_layers(level, make_plan(fold(level)), memory=None)
    assert not outcome.complete and "64-bit state keys" in outcome.stopped_by


@pytest.fixture
def dp_refuses_everything(monkeypatch):
    """dp refuses every level that has tiles (its key ceiling made tiny): what the defaults then do."""
    monkeypatch.setattr(hexiom_layers, "KEY_CEILING", 2)
    return registry.resolve(choose("hexiom", "solve", "count").backends[1], "hexiom")


def test_solve_count_takes_the_next_default_where_dp_refuses(tmp_path, dp_refuses_everything):
    # side 4: a smaller board skips dp anyway (its kernels load slower than pysat counts it)
    level = level_of(4, "two 1 tiles")
    path = tmp_path / "side4.txt"
    path.write_text(hexiom.format_level(level))
    assert choose("hexiom", "solve", "count").first.startswith("dp:")
    routed = trisolve.solve(str(path), count=True, timeout=60)
    assert routed.backend == dp_refuses_everything and routed.complete and routed.count == truth(level)
    assert "dp:frontier" in routed.stats["refused"] and "state keys" in routed.stats["refused"]
    here = trisolve.solve(str(path), count=True, timeout=60, isolate=False)
    assert here.backend == dp_refuses_everything and here.count == truth(level)
    named = trisolve.solve(str(path), "dp", count=True, timeout=60)  # named: it answers unknown, saying why
    assert named.backend.startswith("dp:") and named.status == "unknown" and "state keys" in named.stopped_by


def test_a_refused_level_exits_3_with_the_reason_when_dp_is_named(tmp_path, capsys, dp_refuses_everything):
    path = tmp_path / "side3.txt"
    path.write_text(hexiom.format_level(level_of(3, "two 1 tiles")))
    assert run_cli(["solve", str(path), "--count", "--backend", "dp"]) == 3
    assert "state keys" in capsys.readouterr().out
    assert run_cli(["solve", str(path), "--count"]) == 0
    out = capsys.readouterr().out
    assert "42 solutions" in out and dp_refuses_everything in out


def test_a_default_cross_check_runs_the_next_ranked_backend_where_dp_refuses(tmp_path, dp_refuses_everything):
    path = tmp_path / "side3.txt"
    path.write_text(hexiom.format_level(level_of(3, "two 1 tiles")))
    said = []
    report = trisolve.cross_check([str(path)], on_plan=said.extend, jobs=2, timeout=60)
    (verdict,) = report.verdicts
    ran = {r.backend for r in verdict.records}
    assert not any(name.startswith("dp:") for name in ran) and verdict.status == "agree" and verdict.count == 42
    ranking = [registry.resolve(n, "hexiom") for n in choose("hexiom", "solve", "count").backends]
    # the family's cross-check set, less dp (it refuses the level)
    planned = {n for n in choose("hexiom", "crosscheck", "count").backends if not n.startswith("dp:")}
    instead = next(name for name in ranking if not name.startswith("dp:") and name not in planned)
    assert ran == planned | {instead}
    assert any("not dp:frontier on side3" in line for line in said), said


def test_a_campaign_leaves_out_a_backend_that_refuses_an_instance(tmp_path, dp_refuses_everything):
    from trisolve.generate.campaign import run_campaign

    summary, verdicts = run_campaign("hexiom", 1, str(tmp_path / "c.jsonl"), params={"side": 2}, timeout=30)
    (verdict,) = verdicts
    assert verdict.records and not any(r.backend.startswith("dp:") for r in verdict.records)
    assert not summary.failed and verdict.status == "agree"


# ------------------------------------------------------------ --record-expected needs two backends


def _folder_with(tmp_path, *stems: str):
    folder = tmp_path / "levels"
    folder.mkdir()
    for name in stems:
        (folder / f"{name}.txt").write_text(Path(level_path("hexiom", name)).read_text(encoding="utf-8"))
    return folder


@pytest.mark.parametrize("backends", ["dp", "pysat", "clingo:count"])
def test_record_expected_with_one_backend_writes_no_established_count(tmp_path, capsys, backends):
    """One backend (all its variants are one opinion) gives level01's 12: written beside the entry as
    unconfirmed, which no check takes as the truth."""
    folder = _folder_with(tmp_path, "level01")
    target = folder / "expected.json"
    assert run_cli(["crosscheck", str(folder), "--backends", backends, "--record-expected", str(target), "-q"]) == 0
    entry = json.loads(target.read_text())["level01"]
    assert entry["complete"] is False and entry["unconfirmed"]["count"] == 12
    assert entry["unconfirmed"]["backends"] == [Spec.parse(backends).backend]
    assert entry["count"] in (0, 12)  # a lower bound: what the runs listed, each checked by the validator
    assert load_expected(str(target))["level01"].complete is False


def test_record_expected_with_two_backends_writes_the_count(tmp_path, capsys):
    folder = _folder_with(tmp_path, "level01")
    target = folder / "expected.json"
    assert run_cli(["crosscheck", str(folder), "--backends", "dp", "--record-expected", str(target), "-q"]) == 0
    assert run_cli(["crosscheck", str(folder), "--backends", "dp,clingo:count", "--record-expected", str(target)]) == 0
    entry = json.loads(target.read_text())["level01"]
    assert entry == {"count": 12, "complete": True, "orbits": 2}


def test_an_unconfirmed_count_never_replaces_an_established_one(tmp_path, capsys):
    folder = _folder_with(tmp_path, "level01")
    target = folder / "expected.json"
    target.write_text(json.dumps({"level01": {"count": 12, "complete": True, "slow_for": ["mip"]}}))
    assert run_cli(["crosscheck", str(folder), "--backends", "dp", "--record-expected", str(target), "-q"]) == 0
    assert json.loads(target.read_text())["level01"] == {"count": 12, "complete": True, "slow_for": ["mip"]}
