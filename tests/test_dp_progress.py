"""dp's progress says what it promises: where it is (step or task), states, memory in use and time left, from
the first phase on; and the compile note says what it costs and whether a time limit may waste it."""

from __future__ import annotations

import time

import pytest
from support import level_path

from trisolve.backends import base
from trisolve.backends.dp import hexiom as dp
from trisolve.backends.dp.hexiom.halves import count_by_halves, halves_for
from trisolve.backends.dp.hexiom.plan import Budget
from trisolve.backends.dp.hexiom.runs import compiling_note
from trisolve.models.hexiom import model as hexiom


@pytest.fixture
def heard():
    """What a backend reports to the runner (``base.report_progress``): (done, total, text) each."""
    reports: list[tuple[int, int | None, str]] = []
    base.set_progress_sink(lambda done, total, text: reports.append((done, total, text)))
    yield reports
    base.set_progress_sink(None)


def test_the_halves_report_each_step_of_the_upper_half_with_states_memory_and_time_left(heard):
    level = hexiom.parse(level_path("hexiom", "level38"))
    assert halves_for(level) is not None
    sink = dp.progress_to_stderr(started=time.monotonic(), quiet_for=0.0, every=0.0)  # every report, at once
    outcome = count_by_halves(level, Budget(progress=sink, threads=1))
    assert outcome.complete and outcome.count == 79
    upper = [(done, total, text) for done, total, text in heard if "upper half: step" in text]
    assert upper, heard[:3]
    assert [done for done, _, _ in upper] == list(range(1, len(upper) + 1))  # every step, in order
    assert all(total == upper[-1][0] for _, total, _ in upper)
    for _, _, text in upper:
        assert " states, " in text and " GiB in use" in text and " s left)" in text
    walk = [text for _, total, text in heard if total == 1000]
    assert walk and all("% done" in text and "s left" in text for text in walk)


def test_steps_on_stderr_alone_come_once_per_interval(capsys):
    sink = dp.progress_to_stderr(started=0.0, quiet_for=0.0, every=3600.0)
    for step in range(1, 6):
        sink({"step": step, "steps": 5, "frontiers": 1, "states": 10, "step_seconds": 0.1, "elapsed": 0.5})
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dp: step 1/5")


def test_the_compile_note_says_a_time_limit_may_stop_the_compilation_and_how_to_cache_it():
    assert "may stop it first" not in compiling_note(None, 0.0)
    assert "cached for later runs once it finishes" in compiling_note(None, 0.0)
    short = compiling_note(100.0 + 20.0, 100.0)
    assert "this run's time limit (20 s left) may stop it first" in short and "without --timeout" in short
    assert "may stop it first" not in compiling_note(100.0 + 3600.0, 100.0)
