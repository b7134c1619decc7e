"""The ganak backend and the DIMACS export's projection line, checked against expected.json.

An exported file is counted by Ganak through a small reader written here
(the ``p`` line, the clauses and the ``c p show`` line only), never through
the backend's code; the backend's own counts are compared with the same
expected counts.  The contract (tests/test_contract.py) covers the small
instances, first solutions and limits on every variant.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from support import LIMIT_SLACK, ROOT, expected, level_path, run_cli, run_trisolve

import trisolve
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.models import FAMILIES

pytestmark = pytest.mark.skipif(registry.available("ganak") is not None, reason="pyganak not installed")

#: the instances the issue names, where Ganak finishes in seconds: (family, stem, slow)
COUNTED = [
    ("hexiom", "level10", False),
    ("hexiom", "level20", False),
    ("sigils", "pentominoes-5x5", True),
    ("sigils", "corners-6x6", True),
    *(
        ("logic", os.path.splitext(name)[0], False)
        for name in sorted(os.listdir(os.path.join(os.path.dirname(level_path("logic", "zebra")))))
        if name.endswith(".toml")
    ),
]
CASES = [
    pytest.param(family, stem, id=f"{family}-{stem}", marks=[pytest.mark.slow] if slow else [])
    for family, stem, slow in COUNTED
]


def read_projected_dimacs(text: str) -> tuple[int, list[list[int]], list[int] | None]:
    """(variables, clauses, projection) of a DIMACS file; projection None when it has no ``c p show`` line."""
    variables, clauses, projection, clause = 0, [], None, []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "p":
            variables = int(words[2])
        elif words[:3] == ["c", "p", "show"]:
            assert words[-1] == "0", "a 'c p show' line ends with 0"
            projection = (projection or []) + [int(w) for w in words[3:-1]]
        elif words[0] != "c":
            for literal in map(int, words):
                if literal == 0:
                    clauses.append(clause)
                    clause = []
                else:
                    clause.append(literal)
    return variables, clauses, projection


def ganak_count(variables: int, clauses: list[list[int]], projection: list[int] | None) -> int:
    import pyganak

    counter = pyganak.Counter(seed=0)
    counter.new_vars(variables)
    counter.add_clauses(clauses)
    if projection is not None:
        counter.set_sampling_set(projection)
    return counter.count()


def export_dimacs(family: str, stem: str, tmp_path) -> str:
    out = tmp_path / f"{stem}.cnf"
    assert run_cli(["export", level_path(family, stem), "--format", "dimacs", "-o", str(out)]) == 0
    return out.read_text()


@pytest.mark.parametrize("family, stem", CASES)
def test_an_exported_file_counted_by_ganak_gives_the_expected_count(family: str, stem: str, tmp_path) -> None:
    variables, clauses, projection = read_projected_dimacs(export_dimacs(family, stem, tmp_path))
    assert projection is not None, "the export has no 'c p show' line"
    assert ganak_count(variables, clauses, projection) == expected(family)[stem]["count"]


def test_without_the_projection_line_level_10_counts_models_not_solutions(tmp_path) -> None:
    # why the line exists: the totalizer auxiliaries are not fixed by the tiles
    variables, clauses, projection = read_projected_dimacs(export_dimacs("hexiom", "level10", tmp_path))
    assert ganak_count(variables, clauses, projection) == 8
    assert ganak_count(variables, clauses, None) > 10**15


@pytest.mark.parametrize("family, stem", CASES)
def test_the_backend_counts_exactly_and_states_ganaks_error_bound(family: str, stem: str) -> None:
    fam = FAMILIES[family]
    level = fam.parse(level_path(family, stem))
    result = registry.get("ganak", family).run(level, Limits(time=300), Options(enumerate=True))
    assert (result.count, result.complete, result.solutions) == (expected(family)[stem]["count"], True, ())
    assert "2^128" in result.stats["error_bound"]
    bound = result.stats["error_probability_at_most"]
    assert bound is not None and 0 <= bound < 1e-20


def test_a_count_past_its_time_limit_is_unknown_and_its_process_is_gone() -> None:
    # level 30: Ganak does not finish in minutes (docs/bench/ganak.md)
    import psutil

    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level30"))
    before = {child.pid for child in psutil.Process().children(recursive=True)}
    began = time.monotonic()
    result = registry.get("ganak", "hexiom").run(level, Limits(time=1.0), Options(enumerate=True))
    assert time.monotonic() - began < 1.0 + LIMIT_SLACK
    assert (result.status, result.count, result.complete, result.count_text) == (Status.UNKNOWN, 0, False, "0+")
    assert result.stopped_by == "time limit" and result.stats["ganak_calls"] == 1
    # the counting child was killed and reaped (children of earlier tests may still be about: compare)
    assert {child.pid for child in psutil.Process().children(recursive=True)} - before == set()


@pytest.mark.slow
def test_a_count_short_of_memory_is_an_error_not_a_number() -> None:
    """A cap Ganak can start under but outgrows: an error naming the memory limit, never a number.  Run from a
    fresh process: the cap is on address space, and a child forked from this test process would inherit its
    freed heap and count on in it."""
    program = f"""
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.ganak import engine
from trisolve.models import FAMILIES

level = FAMILIES["hexiom"].parse({level_path("hexiom", "level30")!r})
backend = registry.get("ganak", "hexiom")
engine.pyganak()
backend.translator.encode(level, backend.variant, Options(enumerate=True))
memory = engine.address_space() + engine.HEADROOM + (4 << 20)  # room to start, not to count level 30
try:
    result = backend.run(level, Limits(time=120), Options(enumerate=True, memory=memory))
    print("answered", result.count, result.complete, result.stopped_by)
except engine.GanakError as problem:
    print("error:", problem)
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("error: Ganak stopped:") and "out of the memory allowed (--memory)" in done.stdout


@pytest.mark.parametrize("memory", ["1K", "1M", "63M"])
def test_a_memory_cap_ganak_cannot_run_in_is_refused(memory) -> None:
    done = run_trisolve(
        "solve", level_path("hexiom", "level01"), "--backend", "ganak", "--count", "--memory", memory, "--json"
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "ganak cannot run in less than 64M" in done.stderr


def test_a_cap_below_what_its_process_starts_with_stops_before_counting() -> None:
    """The counting process starts as a copy of the run's: a cap that leaves it no room stops the run at once
    (exit 3, ``memory budget``), as dp's budget does; the stats say why."""
    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level01"))
    result = registry.get("ganak", "hexiom").run(level, Limits(time=60), Options(enumerate=True, memory=64 << 20))
    from trisolve.backends.ganak import engine

    if engine.address_space() + engine.HEADROOM <= 64 << 20:
        pytest.skip("this process is small enough for Ganak to start under 64M")
    assert (result.status, result.complete, result.stopped_by) == (Status.UNKNOWN, False, "memory budget")
    assert "leaves Ganak no room" in result.stats["refused"] and result.stats["memory_limit_mb"] == 64.0


def test_a_first_solution_is_rebuilt_from_counts_and_is_valid() -> None:
    fam = FAMILIES["sigils"]
    level = fam.parse(level_path("sigils", "gate-6x4"))
    result = registry.get("ganak", "sigils").run(level, Limits(time=120), Options())
    assert result.status is Status.SAT and result.count == 1 and not result.complete
    assert fam.validate(level, result.solutions[0]) == []
    assert result.stats["ganak_calls"] > 2 and "rebuilt from Ganak counts" in result.stats["first_solution"]


def test_symmetry_breaking_counts_the_classes() -> None:
    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level10"))
    result = registry.get("ganak", "hexiom").run(
        level, Limits(time=60), Options(enumerate=True, symmetry_breaking=True)
    )
    assert (result.count, result.complete) == (expected("hexiom")["level10"]["orbits"], True)


def test_the_count_phase_cpu_is_ganaks_own():
    """Ganak counts in a process of its own: the phase's CPU seconds are its, not the waiting parent's 0."""
    pytest.importorskip("pyganak")
    result = trisolve.solve(level_path("hexiom", "level10"), backend="ganak", count=True)
    assert result.complete and result.stats["ganak_cpu"] > 0
    assert result.times["count_cpu"] >= result.stats["ganak_cpu"]
