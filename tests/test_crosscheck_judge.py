"""The cross-checker's judgement on hand-made records: each rule fires, and only when it should."""

from __future__ import annotations

import pytest

from trisolve.crosscheck.compare import Expected, judge
from trisolve.models import FAMILIES
from trisolve.models.hexiom import model as hexiom
from trisolve.runs import RunRecord

HEX = FAMILIES["hexiom"]
LEVEL = hexiom.parse_text("2\n. .\n. . .\n1 1\n", name="pair")  # level01: two 1s that touch
# every adjacent pair of cells, as boards
PAIRS = [(a, b) for a in range(7) for b in hexiom.Board(2).neighbours[a] if a < b]
ALL = [{"cells": [1 if c in p else None for c in range(7)]} for p in PAIRS]


def rec(backend, solutions, complete=True, status=None, sb=False, error=None, duplicates=0):
    status = status or ("sat" if solutions else ("unsat" if complete else "unknown"))
    return RunRecord(
        key=backend + str(sb),
        path="pair.txt",
        family="hexiom",
        backend=backend,
        mode="all",
        symmetry_breaking=sb,
        status=status,
        count=len(solutions),
        complete=complete,
        solutions=tuple(solutions),
        error=error,
        duplicates=duplicates,
    )


def kinds(verdict):
    return {f.kind for f in verdict.findings}


def test_level01_has_twelve_solutions():
    assert len(ALL) == 12
    assert all(hexiom.validate(LEVEL, hexiom.solution_from_json(LEVEL, s)) == [] for s in ALL)


def test_agreement_when_all_complete_and_equal():
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("b", list(reversed(ALL)))])
    assert verdict.status == "agree" and verdict.count == 12 and not verdict.failed
    assert verdict.orbits == 2


def test_different_counts_disagree():
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("b", ALL[:-1])])
    assert verdict.status == "DISAGREE" and "disagree" in kinds(verdict)


def test_same_count_different_sets_disagree():
    other = ALL[:-1] + [{"cells": [1, None, None, None, None, None, 1]}]  # not adjacent: also invalid
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("b", other)])
    assert {"disagree", "invalid"} <= kinds(verdict)
    assert verdict.status == "INVALID"


def test_an_invalid_solution_is_caught_even_alone():
    bad = {"cells": [1, 1, 1, None, None, None, None]}
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", [bad], complete=False)])
    assert verdict.status == "INVALID"


def test_incomplete_runs_are_never_agreement_but_are_checked():
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("b", ALL[:3], complete=False)])
    assert verdict.status == "incomplete" and not verdict.failed
    outside = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL[:5]), rec("b", ALL[5:7], complete=False)])
    assert "disagree" in kinds(outside)


def test_a_partial_count_above_a_complete_count_disagrees():
    many = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL[:2]), rec("b", ALL[:3], complete=False)])
    assert "disagree" in kinds(many)


def test_sat_against_unsat():
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL[:1], complete=False), rec("b", [], complete=True)])
    assert "disagree" in kinds(verdict)


def test_streamed_duplicates_are_a_finding_and_filtered_ones_a_note():
    doubled = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL + ALL[:1], complete=False)])
    assert "duplicate" in kinds(doubled) and doubled.failed
    filtered = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL, duplicates=3), rec("b", ALL)])
    assert "note" in kinds(filtered) and not filtered.failed


def test_errors_fail():
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("b", [], complete=False, error="boom")])
    assert verdict.status == "ERROR" and verdict.failed


@pytest.mark.parametrize(
    "expected,fails",
    [
        (Expected(12, True), False),
        (Expected(11, True), True),
        (Expected(13, False), True),  # a complete count below a known lower bound
        (Expected(10, False), False),
    ],
)
def test_expected_counts(expected, fails):
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL)], expected)
    assert verdict.failed is fails


def test_symmetry_breaking_counts_are_checked_against_orbits():
    leaders = [s for s in ALL if hexiom.is_lex_leader(LEVEL, hexiom.solution_from_json(LEVEL, s))]
    assert len(leaders) == 2
    good = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("a", leaders, sb=True)])
    assert not good.failed and good.orbits == 2
    too_many = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("a", leaders + [ALL[-1]], sb=True)])
    assert "symmetry" in kinds(too_many)
    not_leader = [s for s in ALL if s not in leaders][:2]
    wrong = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), rec("a", not_leader, sb=True)])
    assert "symmetry" in kinds(wrong)


def test_a_torn_last_log_line_is_dropped_before_appending(tmp_path):
    from trisolve.crosscheck.jsonl import Log, read_log

    good = rec("a", ALL)
    path = tmp_path / "runs.jsonl"
    log = Log(str(path))
    log.write(good)
    log.close()
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"key": "torn", "pa')  # killed mid-write
    log = Log(str(path))
    log.write(rec("b", ALL))
    log.close()
    records = read_log(str(path))
    assert set(records) == {good.key, rec("b", ALL).key}


def count_only(count, sb=False, fixed=None):
    """A dp-style record: a complete count with no solutions listed (Burnside runs carry their fixed counts)."""
    return RunRecord(
        key="dp" + str(sb),
        path="pair.txt",
        family="hexiom",
        backend="dp:frontier",
        mode="all",
        symmetry_breaking=sb,
        status="sat",
        count=count,
        complete=True,
        solutions=(),
        stats={"fixed_per_symmetry": fixed} if fixed else {},
    )


def test_a_count_resting_on_a_count_only_run_needs_its_burnside_check():
    alone = judge(HEX, LEVEL, "pair.txt", [count_only(12)])
    assert alone.count is None and "note" in kinds(alone) and alone.count_text == "12+"
    # level01: 12 boards, 2 classes; the identity fixes 12, each reflection 2 (12 + 6*2 = 24 = 2 * 12)
    fixed = [12, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2]
    confirmed = judge(HEX, LEVEL, "pair.txt", [count_only(12), count_only(2, sb=True, fixed=fixed)])
    assert confirmed.count == 12 and confirmed.status == "agree"
    other = judge(HEX, LEVEL, "pair.txt", [count_only(12), count_only(2, sb=True, fixed=[13, *fixed[1:]])])
    assert other.count is None
    listed = judge(HEX, LEVEL, "pair.txt", [count_only(12), rec("a", ALL)])
    assert listed.count == 12 and "note" not in kinds(listed)
    recorded = judge(HEX, LEVEL, "pair.txt", [count_only(12)], Expected(12, True, 2))
    assert recorded.count == 12


def test_a_solution_of_another_family_is_an_error_of_its_backend_not_a_crash():
    alien = rec("alien", [{"placements": [[0, 1, 2]]}])  # sigils-shaped JSON, on a Hexiom level
    verdict = judge(HEX, LEVEL, "pair.txt", [rec("a", ALL), alien])
    assert verdict.status == "ERROR" and verdict.failed
    (finding,) = [f for f in verdict.findings if f.kind == "error"]
    assert finding.backends == ("alien",) and "not a hexiom solution" in finding.message
    assert verdict.count == len(ALL)  # the well-formed run still gives the count


def test_a_malformed_run_is_journaled_and_a_resume_gives_the_same_verdict(tmp_path):
    import types

    import fake_backends

    import trisolve
    from trisolve.backends import registry

    class Alien(fake_backends.ScriptedBackend):
        def run(self, level, limits, options, on_solution=None):
            from trisolve.backends import base

            thing = types.SimpleNamespace(to_json=lambda: {"placements": [[0, 1, 2]]})
            if on_solution:
                on_solution(thing)
            return base.finish(self.name, "hexiom", [thing], exhausted=True, stats={}, times={})

    fake_backends.register("alien", lambda name: Alien(name, []))
    try:
        level = trisolve.load("2\n. .\n. . .\n1 1\n", family="hexiom")
        log = str(tmp_path / "runs.jsonl")
        first = trisolve.cross_check(level, "pysat:totalizer,alien", log=log, jobs=1, timeout=30, expected=False)
        again = trisolve.cross_check(
            level, "pysat:totalizer,alien", log=log, resume=True, jobs=1, timeout=30, expected=False
        )
    finally:
        registry.unregister("alien")
    assert first.verdicts[0].status == "ERROR" and first.failed
    assert again.reused == again.runs == 2
    assert [f.message for f in again.verdicts[0].findings] == [f.message for f in first.verdicts[0].findings]
