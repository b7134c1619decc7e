"""dp's numpy counter for small plain counts (``hexiom_small``) and the compile it spares a first run.

The backend counts small levels in numpy and gives larger ones to the compiled counters, so here both
are held against the brute force on the same levels, the budget hand-over is checked, and a fresh
process (an empty numba cache) counts level 38 without compiling anything.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from support import level_path
from test_dp_hexiom import brute_force, generated_levels

from trisolve.backends.dp import hexiom as dp_hexiom
from trisolve.backends.dp.hexiom_plan import fold, make_plan
from trisolve.backends.dp.hexiom_runs import RunPlan, count_runs
from trisolve.backends.dp.hexiom_small import OverBudget, count_small, go_on_compiled
from trisolve.models import hexiom


def run_plan(level: hexiom.Level) -> RunPlan:
    return RunPlan(level, make_plan(fold(level)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated_levels(3))
def test_numpy_and_compiled_rows_count_generated_side3_levels_like_brute_force(level):
    plan = run_plan(level)
    numpy_rows, compiled_rows = count_small(plan), count_runs(plan)
    assert numpy_rows.complete and compiled_rows.complete
    assert numpy_rows.count == compiled_rows.count == len(brute_force(level)), hexiom.format_level(level)
    # the same program: the same states, step by step
    assert numpy_rows.stats["peak_states"] == compiled_rows.stats["peak_states"]
    assert numpy_rows.stats["frontier_transitions"] == compiled_rows.stats["frontier_transitions"]


@pytest.mark.parametrize("name, count", [("level22", 109821), ("level37", 36278), ("level38", 79)])
def test_numpy_rows_count_the_larger_shipped_levels_like_the_compiled_rows(name, count):
    plan = run_plan(hexiom.parse(level_path("hexiom", name)))
    numpy_rows = count_small(plan)
    assert numpy_rows.complete and numpy_rows.count == count == count_runs(plan).count


@pytest.mark.parametrize("budget", [0, 1000, 300_000])
def test_over_budget_the_compiled_rows_go_on_from_the_layer_reached(budget):
    plan = run_plan(hexiom.parse(level_path("hexiom", "level22")))
    with pytest.raises(OverBudget) as over:
        count_small(plan, budget=budget)
    handed = go_on_compiled(plan, over.value)
    whole = count_runs(plan)
    assert handed.complete and handed.count == whole.count == 109821
    assert handed.stats["frontier_transitions"] == whole.stats["frontier_transitions"]
    assert handed.stats["peak_states"] == whole.stats["peak_states"]


def test_over_budget_the_backend_hands_the_count_on(monkeypatch):
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options
    from trisolve.backends.dp import hexiom_small

    level = hexiom.parse(level_path("hexiom", "level22"))
    monkeypatch.setattr(hexiom_small, "TRANSITION_BUDGET", 1000)
    result = registry.get("dp", "hexiom").run(level, Limits(time=120), Options(enumerate=True))
    assert result.complete and result.count == 109821 and result.stats["method"] == "rows"


def test_limits_stop_the_numpy_rows():
    plan = run_plan(hexiom.parse(level_path("hexiom", "level38")))
    late = count_small(plan, deadline=time.monotonic() - 1)
    assert not late.complete and late.stopped_by == "time limit"
    tight = count_small(plan, memory=100_000)
    assert not tight.complete and tight.stopped_by == "memory budget"


def test_a_compile_is_announced_once_on_stderr(monkeypatch, capsys):
    from numba import njit

    monkeypatch.setattr(dp_hexiom, "_compile_told", False)
    with dp_hexiom.compile_notice():
        assert njit(lambda x: x + 1)(1) == 2
        assert njit(lambda x: x + 2)(1) == 3
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dp: compiling the counting kernels once for this machine")


def test_warm_loads_cached_kernels_and_never_compiles_them(monkeypatch):
    loaded = []
    monkeypatch.setattr(dp_hexiom, "_load_kernels", lambda: loaded.append(True))
    monkeypatch.setattr(dp_hexiom, "kernels_cached", lambda: False)
    dp_hexiom.warm()
    assert loaded == []
    monkeypatch.setattr(dp_hexiom, "kernels_cached", lambda: True)
    dp_hexiom.warm()
    assert loaded == [True]


def test_a_first_run_counts_level38_without_compiling(tmp_path):
    """A fresh numba cache, as on a fresh install: the count is right, nothing compiles, nothing is cached."""
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
    assert not [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")]
