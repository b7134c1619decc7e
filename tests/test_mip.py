"""The mip backend's own mechanics: the lex-leader rows, the LP export, the solvers' time limits, clean output.

The contract (tests/test_contract.py) runs every mip variant on every family:
valid first solutions, exact counts by no-good cuts, symmetry classes, limits.
"""

from __future__ import annotations

import itertools
import json
import time

import pytest
from support import LIMIT_SLACK, level_path, run_cli, run_trisolve

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.models import FAMILIES

pytestmark = pytest.mark.skipif(registry.available("mip") is not None, reason="highspy not installed")
SOLVERS = ["highs", "scip"]


def _solver(name: str, model):
    from trisolve.backends.mip.engine import HighsSolver, ScipSolver

    return HighsSolver(model, 0) if name == "highs" else ScipSolver(model, 0)


@pytest.mark.parametrize("solver", SOLVERS)
def test_lex_rows_keep_exactly_the_pairs_in_lex_order(solver: str) -> None:
    from trisolve.backends.mip.engine import LinearModel, lex_leq

    for x, y in itertools.product(itertools.product((0, 1), repeat=3), repeat=2):
        model = LinearModel()
        xs = [model.binary(f"x{i}") for i in range(3)]
        ys = [model.binary(f"y{i}") for i in range(3)]
        for column, value in zip(xs + ys, x + y):
            model.equal([(column, 1.0)], float(value))
        lex_leq(model, [([(a, 1.0)], [(b, 1.0)]) for a, b in zip(xs, ys)], 0, "lex")
        outcome, _ = _solver(solver, model).solve(10.0)
        assert outcome == ("sat" if x <= y else "unsat"), (x, y)


EXPORTED = [("hexiom", "level10"), ("sigils", "gate-6x4"), ("logic", "einstein"), ("sigils", "area-mismatch")]


@pytest.mark.parametrize("family, stem", EXPORTED, ids=[f"{f}-{s}" for f, s in EXPORTED])
def test_the_lp_export_solves_in_highs_alone_to_a_valid_solution(family: str, stem: str, tmp_path) -> None:
    import highspy

    path = tmp_path / f"{stem}.lp"
    assert run_cli(["export", level_path(family, stem), "--format", "lp", "-o", str(path)]) == 0
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.readModel(str(path))
    highs.run()
    status = highs.getModelStatus()
    fam = FAMILIES[family]
    level = fam.parse(level_path(family, stem))
    if stem == "area-mismatch":
        assert status == highspy.HighsModelStatus.kInfeasible
        return
    assert status == highspy.HighsModelStatus.kOptimal
    # decode from the column names alone (tile_<cell>_<number>, place_t<type>_<cells>, place_c<c>_v<v>_p<p>)
    values = highs.getSolution().col_value
    chosen = [highs.getColName(i)[1] for i, v in enumerate(values) if v > 0.5]
    solution = _decode(family, level, [name for name in chosen if name.startswith(("tile_", "place_"))])
    assert fam.validate(level, solution) == []


def _decode(family: str, level, names: list[str]):
    from trisolve.models.hexiom import model as hexiom
    from trisolve.models.logic import model as logic
    from trisolve.models.sigils import model as sigils

    if family == "hexiom":
        contents: list[int | None] = [None] * level.board.size
        for name in names:
            _, cell, number = name.split("_")
            contents[int(cell)] = int(number)
        return hexiom.Solution(tuple(contents))
    if family == "sigils":
        return sigils.Solution.of(
            (level.pieces[int(name.split("_")[1][1:])].name, [int(c) for c in name.split("_")[2:]]) for name in names
        )
    rows = [[0] * len(category.values) for category in level.categories]
    for name in names:
        _, c, v, p = name.split("_")
        rows[int(c[1:])][int(v[1:])] = int(p[1:])
    return logic.Solution.of(level, rows)


@pytest.mark.parametrize("variant", SOLVERS)
def test_the_solvers_own_time_limit_holds_in_process(variant: str) -> None:
    # level 38: neither solver finds a first solution in one second
    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level38"))
    began = time.monotonic()
    result = registry.get(f"mip:{variant}", "hexiom").run(level, Limits(time=1.0), Options())
    assert time.monotonic() - began < 1.0 + LIMIT_SLACK
    if result.status is Status.SAT:  # a lucky machine: then the solution must be valid
        assert FAMILIES["hexiom"].validate(level, result.solutions[0]) == []
    else:
        assert (result.status, result.complete, result.stopped_by) == (Status.UNKNOWN, False, "time limit")


def test_json_output_is_not_polluted_by_the_solvers_banners() -> None:
    for variant in SOLVERS:
        done = run_trisolve("solve", level_path("hexiom", "level10"), "--backend", f"mip:{variant}", "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["status"] == "sat"


def test_a_shuffle_keeps_the_solution_set_and_is_recorded() -> None:
    fam = FAMILIES["sigils"]
    level = fam.parse(level_path("sigils", "gate-5x4"))
    backend = registry.get("mip:highs", "sigils")
    plain = backend.run(level, Limits(time=120), Options(enumerate=True))
    moved = backend.run(level, Limits(time=120), Options(enumerate=True, seed=3, shuffle=True))
    assert plain.complete and moved.complete and plain.stats["shuffle"] is None and "seed 3" in moved.stats["shuffle"]
    assert {fam.canonical(level, s) for s in plain.solutions} == {fam.canonical(level, s) for s in moved.solutions}


def test_the_paradigm_table_script_runs_every_backend_per_seed_and_checks_dps_count(capsys):
    """scripts/level38_paradigms.py on a small level: a row per backend, every run solved and validated by the
    runner (the solvers' first solutions), dp's count against expected.json, the runs interleaved by seed."""
    from support import script

    paradigms = script("level38_paradigms")
    runs = paradigms.run(level_path("hexiom", "level10"), ["pysat", "mip:highs", "dp"], seeds=2, timeout=60)
    assert {name: [r.seed for r in done] for name, done in runs.items()} == {
        "pysat": [0, 1],
        "mip:highs": [0, 1],
        "dp": [0, 1],
    }
    assert all(r.solved and r.valid is not False for done in runs.values() for r in done), [
        (r.backend, r.seed, r.status, r.error, r.stopped_by) for done in runs.values() for r in done if not r.solved
    ]
    assert [r.count for r in runs["dp"]] == [8, 8] and all(r.mode == "count" for r in runs["dp"])
    assert all(r.valid for r in runs["mip:highs"] + runs["pysat"])
    rows = paradigms.table(runs, 60)
    assert len(rows) == 2 + 3 and "| `dp:frontier` | dynamic programming | exact count | 2/2 |" in rows[-1]


def test_a_run_forked_after_an_in_process_highs_solve_does_not_hang():
    """HiGHS's worker threads do not survive a fork: a forked run after an in-process solve waited for them until
    the runner killed it at the time limit, unless the engine restarts HiGHS's scheduler in the child."""
    from trisolve.bench.runner import Settings, Trial, run_trial

    family = FAMILIES["hexiom"]
    path = level_path("hexiom", "level10")
    assert registry.get("mip:highs", "hexiom").run(family.parse(path), Limits(time=30), Options()).status == Status.SAT
    forked = run_trial(Trial(path, "hexiom", "mip:highs", 0), family, Settings(timeout=30))
    assert forked.solved and forked.valid, (forked.status, forked.stopped_by, forked.error)
