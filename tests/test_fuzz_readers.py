"""Property-based fuzzing of the readers issue 23's audit reached: journals, expected.json, solutions.

Whatever bytes or JSON come in, each reader either gives back values of the documented types or
raises its one documented error (``FileProblem`` naming the file; for a family's solution reader a
``ValueError``/``KeyError``/``TypeError`` that the commands turn into one line) -- never anything else,
never a value of the wrong type.  Derandomised and bounded, so CI runs the same examples every time.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import level_path

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: JSON values, hostile ones among them: huge and non-finite numbers, booleans where numbers go.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers().map(lambda n: n * 10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["sat", "unsat", "unknown", "hexiom", " 1 ", "1.9", "key"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=6)),
    max_leaves=25,
)


def _dump(value) -> bytes:
    """JSON text as any writer might produce it: NaN and Infinity included (Python's default)."""
    return json.dumps(value).encode()


def _file(data: bytes, name: str = "f.json") -> str:
    folder = tempfile.mkdtemp(prefix="trisolve-fuzz-")
    path = os.path.join(folder, name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


# ------------------------------------------------------------------ journals

GOOD = {
    "key": "k",
    "path": "p.txt",
    "family": "hexiom",
    "backend": "pysat:totalizer",
    "mode": "all",
    "symmetry_breaking": False,
    "status": "sat",
    "count": 1,
    "complete": True,
}
RECORD_LIKE = st.fixed_dictionaries(
    {}, optional={**{k: st.one_of(st.just(v), SCALARS) for k, v in GOOD.items()}, "solutions": JSON, "times": JSON}
)
LINE = st.one_of(
    RECORD_LIKE.map(_dump),
    JSON.map(_dump),
    st.binary(max_size=40),
    st.sampled_from([b"", b'{"key": "torn', b"[" * 3000, b"9" * 5000, b"NaN", b'{"a": 1}\x00']),
)


@SETTINGS
@given(st.lists(LINE, max_size=6), st.booleans())
def test_the_journal_reader_gives_records_or_one_file_problem(lines, final_newline):
    from trisolve.crosscheck.jsonl import STATUSES, read_log
    from trisolve.models.files import FileProblem
    from trisolve.runs import RunRecord

    data = b"\n".join(lines) + (b"\n" if final_newline else b"")
    path = _file(data, "runs.jsonl")
    try:
        records = read_log(path)
    except FileProblem as problem:
        assert problem.file == path and len(str(problem)) < 1000
        return
    for key, record in records.items():
        assert isinstance(record, RunRecord) and record.key == key
        assert type(record.count) is int and record.count >= 0 and type(record.complete) is bool
        assert record.status in STATUSES and all(type(s) is dict for s in record.solutions)


@SETTINGS
@given(st.lists(RECORD_LIKE.map(_dump), max_size=4), st.binary(max_size=30))
def test_an_append_never_changes_a_byte_already_there(lines, tail):
    from trisolve.crosscheck.jsonl import Log
    from trisolve.models.files import FileProblem
    from trisolve.runs import RunRecord

    before = b"\n".join(lines) + tail
    path = _file(before, "runs.jsonl")
    try:
        log = Log(path)
    except FileProblem:  # not a journal: nothing appended
        assert Path(path).read_bytes() == before
        return
    log.write(RunRecord.from_json(GOOD))
    log.close()
    after = Path(path).read_bytes()
    assert after.startswith(before) and after.endswith(b"\n")


# ------------------------------------------------------------------ expected.json

EXPECTED_LIKE = st.dictionaries(
    st.text(max_size=8),
    st.one_of(st.fixed_dictionaries({}, optional={"count": SCALARS, "complete": SCALARS, "orbits": SCALARS}), JSON),
    max_size=4,
)


@SETTINGS
@given(st.one_of(EXPECTED_LIKE.map(_dump), JSON.map(_dump), st.binary(max_size=60)))
def test_the_expected_reader_gives_typed_entries_or_one_file_problem(data):
    from trisolve.crosscheck.compare import Expected, load_expected
    from trisolve.models.files import FileProblem

    path = _file(data, "expected.json")
    try:
        entries = load_expected(path)
    except FileProblem as problem:
        assert problem.file == path and len(str(problem)) < 1000
        return
    for stem, entry in entries.items():
        assert isinstance(entry, Expected) and not stem.startswith("_")
        assert type(entry.count) is int and entry.count >= 0 and type(entry.complete) is bool
        assert entry.orbits is None or (type(entry.orbits) is int and entry.orbits >= 0)


# ------------------------------------------------------------------ solutions, every family

SOLUTION_LEVELS = {"hexiom": "level01", "sigils": "gate-4x3", "logic": "odd-names"}


def _solution_like(family: str, level):
    """JSON shaped like the family's solutions, with any field spoiled."""
    if family == "hexiom":
        cell = st.one_of(st.none(), st.integers(-2, 8), SCALARS)
        return st.one_of(st.fixed_dictionaries({"cells": st.lists(cell, max_size=10)}), JSON)
    if family == "sigils":
        placement = st.fixed_dictionaries(
            {"piece": st.one_of(st.sampled_from(["I", "L", "T"]), SCALARS), "cells": st.lists(SCALARS, max_size=5)}
        )
        return st.one_of(st.fixed_dictionaries({"placements": st.lists(placement, max_size=4)}), JSON)
    names = {c.name: list(c.values) for c in level.categories}
    table = st.fixed_dictionaries(
        {name: st.fixed_dictionaries({v: st.one_of(st.integers(0, 5), SCALARS) for v in values})
         for name, values in names.items()}
    )  # fmt: skip
    return st.one_of(st.fixed_dictionaries({"positions": table}), JSON)


@pytest.mark.parametrize("family", list(SOLUTION_LEVELS))
def test_a_family_solution_reader_gives_an_exact_solution_or_a_value_error(family):
    from trisolve.models import FAMILIES

    kind = FAMILIES[family]
    level = kind.parse(level_path(family, SOLUTION_LEVELS[family]))

    @SETTINGS
    @given(_solution_like(family, level))
    def run(data):
        try:
            solution = kind.solution_from_json(level, data)
        except (ValueError, KeyError, TypeError):
            return
        # what was read is exactly what was written: no 1.9 read as 1, no true read as 1
        again = kind.solution_from_json(level, solution.to_json())
        assert kind.canonical(level, again) == kind.canonical(level, solution)
        kind.validate(level, solution)  # the referee takes whatever the reader gives

    run()


@pytest.mark.parametrize("family", list(SOLUTION_LEVELS))
def test_render_reads_a_solution_file_or_refuses_it_in_one_line(family):
    import trisolve

    level = trisolve.load(level_path(family, SOLUTION_LEVELS[family]))

    @SETTINGS
    @given(st.one_of(_solution_like(family, level.model).map(_dump), st.binary(max_size=60)))
    def run(data):
        path = _file(data, "solution.json")
        try:
            solution = trisolve.read_solution(path, level, 1)
        except trisolve.UsageError as problem:
            assert path in str(problem) and len(str(problem)) < 1000
            return
        assert solution.violations() == []

    run()
