"""The process runner: hard time limits, streamed solutions survive a kill, crashes are reported."""

from __future__ import annotations

import time

import fake_backends

from trisolve.backends.base import Limits, Options
from trisolve.runs import Job, RunRecord, processes, run

LEVEL01_PAIR = [1, 1, None, None, None, None, None]


def _job(path, name, **limits):
    return Job(path, "hexiom", f"{name}:script", Limits(**limits), Options(enumerate=True))


def test_a_backend_that_ignores_its_limit_is_killed_and_keeps_what_it_streamed(hexiom_level):
    from support import LIMIT_SLACK, level_path

    fake_backends.register("hangs", lambda n: fake_backends.ScriptedBackend(n, [LEVEL01_PAIR], then="hang"))
    level = hexiom_level("level01")
    started = time.monotonic()
    record = run(_job(level_path("hexiom", "level01"), "hangs", time=0.5), level, grace=0.5)
    elapsed = time.monotonic() - started
    assert elapsed < 0.5 + 0.5 + LIMIT_SLACK  # it hangs for an hour if the kill fails
    assert record.count == 1 and not record.complete
    assert record.status == "sat"
    assert record.stopped_by == "killed at time limit"
    assert record.solutions == ({"cells": LEVEL01_PAIR},)
    assert processes.unreaped() == []


def test_a_count_only_backend_killed_at_its_limit_keeps_the_lower_bound_it_reported(hexiom_level):
    from support import level_path

    fake_backends.register("proves", lambda n: fake_backends.ScriptedBackend(n, [], then="hang", proves=(3, 40, 12)))
    record = run(_job(level_path("hexiom", "level01"), "proves", time=0.5), hexiom_level("level01"), grace=0.5)
    assert (record.count, record.complete, record.status, record.count_text) == (40, False, "sat", "40+")
    assert record.stopped_by == "killed at time limit"
    assert processes.unreaped() == []


def test_a_backends_progress_reports_reach_the_parent_through_the_pipe(hexiom_level):
    """``base.report_progress`` in the child becomes ``on_progress(done, total, text)`` here (dp's steps shown by
    the command's one progress reporter, silenced by --quiet), and is dropped without a listener."""
    from support import level_path

    from trisolve.backends import base

    class Reporting(fake_backends.ScriptedBackend):
        def run(self, level, limits, options, on_solution=None):
            for step in (1, 2, 3):
                base.report_progress(step, 3, f"step {step}/3")
            return super().run(level, limits, options, on_solution)

    fake_backends.register("reports", lambda n: Reporting(n, [LEVEL01_PAIR]))
    heard = []
    job = _job(level_path("hexiom", "level01"), "reports", time=30)
    record = run(job, hexiom_level("level01"), on_progress=lambda *report: heard.append(report))
    assert heard == [(1, 3, "step 1/3"), (2, 3, "step 2/3"), (3, 3, "step 3/3")] and record.count == 1
    assert run(job, hexiom_level("level01")).count == 1


def test_a_crash_is_an_error_not_an_answer(hexiom_level):
    from support import level_path

    fake_backends.register("crashes", lambda n: fake_backends.ScriptedBackend(n, [], then="crash"))
    record = run(_job(level_path("hexiom", "level01"), "crashes", time=5), hexiom_level("level01"))
    assert record.error and "scripted crash" in record.error
    assert record.status == "unknown" and not record.complete


def test_a_finished_run_round_trips_through_json(hexiom_level):
    from support import level_path

    fake_backends.register("fine", lambda n: fake_backends.ScriptedBackend(n, [LEVEL01_PAIR]))
    record = run(_job(level_path("hexiom", "level01"), "fine", time=5), hexiom_level("level01"))
    assert record.complete and record.count == 1 and record.count_text == "1"
    assert record.peak_rss_mb > 0
    assert RunRecord.from_json(record.to_json()) == record


def test_an_incomplete_count_reads_n_plus():
    record = RunRecord(
        key="k",
        path="p",
        family="hexiom",
        backend="b",
        mode="all",
        symmetry_breaking=False,
        status="sat",
        count=7,
        complete=False,
    )
    assert record.count_text == "7+"


def test_preload_imports_the_solvers_once_so_forked_runs_start_warm():
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from trisolve.backends import registry\n"
        "assert 'ortools.sat.python.cp_model' not in sys.modules\n"
        "registry.preload(['pysat:totalizer', 'clingo', 'cpsat:booleans', 'nonesuch', 'dp'], 'sigils')\n"
        "print(sorted(m for m in ('pysat.solvers', 'clingo', 'ortools.sat.python.cp_model',"
        " 'trisolve.backends.cpsat.sigils', 'trisolve.backends.clingo.sigils', 'trisolve.backends.pysat.sigils')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(
        sorted(
            [
                "clingo",
                "ortools.sat.python.cp_model",
                "pysat.solvers",
                "trisolve.backends.clingo.sigils",
                "trisolve.backends.cpsat.sigils",
                "trisolve.backends.pysat.sigils",
            ]
        )
    )


def test_ctrl_c_inside_a_finalizer_is_kept_for_the_next_check():
    """A signal that lands in a solver's ``__del__`` would be printed and dropped if raised there."""
    import sys

    import pytest

    from trisolve.runs import processes as runner

    class Finalized:
        def __del__(self):
            runner.interrupt(2, sys._getframe())

    try:
        Finalized()  # dropped at once: __del__ runs here, and must not raise
        assert runner.interrupted()
        with pytest.raises(KeyboardInterrupt):
            runner.raise_if_interrupted()
        with pytest.raises(KeyboardInterrupt):
            runner.interrupt(2, sys._getframe())  # outside a finalizer it raises at once
    finally:
        runner.INTERRUPT.clear()


def test_ctrl_c_inside_a_held_stretch_comes_when_it_ends():
    """PySAT frees a solver, then forgets its pointer: a KeyboardInterrupt between the two would free it twice."""
    import sys

    import pytest

    from trisolve.runs import processes as runner

    steps: list[str] = []
    try:
        with pytest.raises(KeyboardInterrupt), runner.interrupts_held():
            runner.interrupt(2, sys._getframe())  # the signal arrives mid-stretch: no raise here
            steps.append("stretch finished")
        assert steps == ["stretch finished"] and runner.interrupted()
        with runner.interrupts_held():
            steps.append("a quiet stretch")  # no signal: nothing raised at its end
    finally:
        runner.INTERRUPT.clear()


def test_a_runs_child_does_not_print_again_what_the_parent_had_not_flushed(tmp_path):
    """Each run is a fork: output still in the parent's buffer (block-buffered JSON lines to a file) would be
    written a second time by the child, at its exit, unless it is flushed before the fork."""
    import os
    import subprocess
    import sys

    from support import ROOT, level_path

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    levels = [level_path("hexiom", "level01"), level_path("hexiom", "level02")]
    out = tmp_path / "out.jsonl"
    with open(out, "w", encoding="utf-8") as handle:
        done = subprocess.run(
            [sys.executable, "-m", "trisolve", "solve", *levels, "--json", "--backend", "pysat"],
            stdout=handle,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [line.count('"instance"') for line in lines] == [1, 1]
