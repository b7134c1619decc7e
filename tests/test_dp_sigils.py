"""The dp backend on sigils keeps its memory budget (``--memory``).

The counts themselves are checked with every other backend's in ``test_sigils.py``; here: a run on a
frame too big for its budget stops as incomplete ("memory budget") having allocated no more than the
budget (traced by tracemalloc, so the accounting is held, not timed), and the CLI says so with exit 3.
"""

from __future__ import annotations

import json
import tracemalloc

import pytest
from support import level_path, run_trisolve

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.models.sigils import model as sigils

#: a 40x40 frame of 400 tetrominoes: the scan line is 121 cells wide and the layers grow without end
BIG = "40x40\n" + " ".join(["I", "O", "T", "T", "L", "J", "S", "Z"] * 50) + "\n"


def dp():
    return registry.get("dp", "sigils")


@pytest.mark.parametrize("options", [Options(enumerate=True), Options()], ids=["count", "first"])
def test_a_big_frame_stops_within_its_memory_budget(options):
    level = sigils.parse_text(BIG, name="big")
    budget = 12_000_000
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        result = dp().run(level, Limits(time=600), Options(**{**options.__dict__, "memory": budget}))
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert result.status is Status.UNKNOWN and not result.complete and result.count == 0
    assert result.stopped_by == "memory budget"
    assert result.stats["widest_layer"] > 1000  # it did count until the budget, not refuse at once
    assert peak <= budget, f"held {peak} bytes with a budget of {budget}"


def test_a_placement_table_bigger_than_the_budget_is_never_built():
    level = sigils.parse_text(BIG, name="big")
    tracemalloc.start()
    try:
        result = dp().run(level, Limits(time=60), Options(enumerate=True, memory=1_000_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.stopped_by == "memory budget" and not result.complete
    assert peak < 1_000_000


def test_a_roomy_budget_changes_no_count():
    level = sigils.parse(level_path("sigils", "gate-8x5"))
    result = dp().run(level, Limits(time=120), Options(enumerate=True, memory=50_000_000))
    assert result.complete and result.count == 2282


def test_solve_stops_a_big_frame_at_its_budget_with_exit_3(tmp_path):
    frame = tmp_path / "big.txt"
    frame.write_text(BIG)
    done = run_trisolve("solve", str(frame), "--count", "--backend", "dp", "--memory", "20M", "--json", timeout=300)
    assert done.returncode == 3, done.stderr
    record = json.loads(done.stdout)
    assert record["complete"] is False and record["stopped_by"] == "memory budget"
