"""The cross-checker's checks one by one (``compare.CHECKS``): each finds what it names, only when it should, and
the table applies every check once, in the order a verdict lists the findings."""

from __future__ import annotations

import dataclasses

import pytest

from trisolve.crosscheck import compare
from trisolve.crosscheck.compare import Expected, case_of
from trisolve.models import FAMILIES
from trisolve.models.hexiom import model as hexiom
from trisolve.runs import RunRecord

HEX = FAMILIES["hexiom"]
LEVEL = hexiom.parse_text("2\n. .\n. . .\n1 1\n", name="pair")  # two 1s that touch: 12 boards in 2 classes
BOARDS = [
    {"cells": [1 if c in (a, b) else None for c in range(7)]}
    for a in range(7)
    for b in hexiom.Board(2).neighbours[a]
    if a < b
]
LEADERS = [s for s in BOARDS if hexiom.is_lex_leader(LEVEL, hexiom.solution_from_json(LEVEL, s))]
FOLLOWERS = [s for s in BOARDS if s not in LEADERS]
APART = {"cells": [1, None, None, None, None, None, 1]}  # the 1s do not touch: breaks the rules
BLANK = RunRecord("", "pair.txt", "hexiom", "", "all", False, "unknown", 0, False)


def run(backend: str, solutions=(), *, sb: bool = False, **changes) -> RunRecord:
    """A record of ``backend`` listing ``solutions``: complete unless said, its status and count from them."""
    complete = changes.pop("complete", True)
    status = "sat" if solutions else ("unsat" if complete else "unknown")
    fields = dict(status=status, count=len(solutions), complete=complete, solutions=tuple(solutions))
    fields.update(changes)
    return dataclasses.replace(BLANK, key=f"{backend}{sb}", backend=backend, symmetry_breaking=sb, **fields)


def count_only(count: int, *, sb: bool = False, fixed=None) -> RunRecord:
    """dp's kind of record: a complete count, no solutions (its Burnside run carries the fixed counts)."""
    stats = {"fixed_per_symmetry": fixed} if fixed else {}
    return run("dp:frontier", (), sb=sb, status="sat", count=count, stats=stats)


def found(check, records, expected=None, index=-1):
    """What a run check says about ``records[index]`` (the last one unless said)."""
    case = case_of(HEX, LEVEL, records, expected)
    return check(case, case.runs[index])


# --- each run alone


@pytest.mark.parametrize(
    "check,record,kind,words",
    [
        (compare.invalid_solutions, run("a", [APART, *BOARDS[:1]]), "invalid", "a: 1 of 2 solutions break the rules"),
        (compare.repeated_solutions, run("a", BOARDS + BOARDS[:2]), "duplicate", "reported 2 solutions more than once"),
        (compare.filtered_duplicates, run("a", BOARDS, duplicates=3), "note", "reported 3 duplicates (filtered"),
        (compare.crashed, run("a", complete=False, error="boom"), "error", "a: boom"),
    ],
)
def test_a_run_alone(check, record, kind, words):
    finding = found(check, [record])
    assert finding.kind == kind and words in finding.message and finding.backends == ("a",)
    assert found(check, [run("a", BOARDS)]) is None


def test_a_solution_that_cannot_be_read_makes_a_crashed_run_without_solutions():
    alien = compare.checked(HEX, LEVEL, run("alien", [BOARDS[0], {"placements": [[0, 1, 2]]}]))
    assert alien.record.error.startswith("solution 2 is not a hexiom solution")
    assert alien.keys == alien.record.solutions == () and not alien.record.complete
    plain = compare.checked(HEX, LEVEL, run("a", [APART, BOARDS[0]]))
    assert [bool(v) for v in plain.violations] == [True, False] and len(plain.key_set) == 2


# --- the runs of one mode together


@pytest.mark.parametrize(
    "sat,unsat,truth,suspects",
    [
        ("ab", "c", None, ("c",)),  # the minority
        ("a", "bc", None, ("a",)),
        ("a", "b", None, ("a", "b")),  # as many: both
        ("ab", "c", 0, ("a", "b")),  # the side the expected count contradicts
        ("a", "bc", 12, ("b", "c")),
    ],
)
def test_sat_against_unsat_names_its_suspects(sat, unsat, truth, suspects):
    runs = [run(b, BOARDS[:1], complete=False) for b in sat] + [run(b) for b in unsat]
    expected = Expected(truth, True) if truth is not None else None
    (finding,) = compare.sat_against_unsat(case_of(HEX, LEVEL, runs, expected).plain)
    assert finding.kind == "disagree" and finding.backends == suspects
    assert compare.sat_against_unsat(case_of(HEX, LEVEL, [run("a", BOARDS), run("b", BOARDS)]).plain) == []


@pytest.mark.parametrize(
    "counts,truth,suspects",
    [
        ((12, 12, 11), None, ("c",)),
        ((12, 11), None, ("a", "b")),  # no majority: every run
        ((12, 11), 11, ("a",)),
        ((12, 12), None, None),
    ],
)
def test_complete_counts_differ(counts, truth, suspects):
    runs = [run(b, BOARDS[:n]) for b, n in zip("abc", counts)]
    mode = case_of(HEX, LEVEL, runs, Expected(truth, True) if truth else None).plain
    findings = compare.complete_counts_differ(mode)
    assert [f.backends for f in findings] == ([suspects] if suspects else [])


def test_solution_sets_differ_from_the_reference_run():
    other = [*BOARDS[:-1], APART]  # as many, one of them another
    mode = case_of(HEX, LEVEL, [run("a", BOARDS), run("b", other), run("c", list(reversed(BOARDS)))]).plain
    assert mode.reference.backend == "a"
    (finding,) = compare.solution_sets_differ(mode)
    assert finding.backends == ("b",) and "1 only from a, 1 only from b" in finding.message
    assert compare.solution_sets_differ(case_of(HEX, LEVEL, [run("a", BOARDS), count_only(12)]).plain) == []


# --- runs stopped early, against their mode's complete runs


@pytest.mark.parametrize(
    "check,complete,stopped,words",
    [
        (compare.beyond_complete_count, BOARDS[:2], BOARDS[:3], "found 3 solutions before stopping, more than"),
        (compare.outside_complete_set, BOARDS[:5], BOARDS[5:7], "found 2 solutions missing from a's complete set"),
    ],
)
def test_a_run_stopped_early(check, complete, stopped, words):
    finding = found(check, [run("a", complete), run("b", stopped, complete=False)])
    assert finding.kind == "disagree" and words in finding.message and finding.backends == ("b",)
    assert found(check, [run("a", complete), run("b", complete[:1], complete=False)]) is None
    assert found(check, [run("a", complete), run("b", stopped, complete=False, error="boom")]) is None
    assert found(check, [run("a", complete), run("b", stopped)]) is None  # complete: the counts' business


# --- the count itself


@pytest.mark.parametrize(
    "records,expected,note",
    [
        ([count_only(12)], None, True),
        ([count_only(12), count_only(2, sb=True, fixed=[12, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2])], None, False),
        ([count_only(12), run("a", BOARDS)], None, False),
        ([count_only(12)], Expected(12, True), False),
    ],
)
def test_a_count_resting_on_count_only_runs_is_noted(records, expected, note):
    case = case_of(HEX, LEVEL, records, expected)
    assert bool(compare.unconfirmed_count(case)) is note
    assert case.count == (None if note else 12)


# --- symmetry breaking


def test_not_lex_leader_names_the_first_solution_that_is_not():
    finding = found(compare.not_lex_leader, [run("a", BOARDS), run("a", [LEADERS[0], FOLLOWERS[0]], sb=True)])
    assert finding.kind == "symmetry" and "solution 2 (symmetry breaking on)" in finding.message
    assert found(compare.not_lex_leader, [run("a", BOARDS), run("a", LEADERS, sb=True)]) is None


@pytest.mark.parametrize(
    "check,solutions,complete,expected,words",
    [
        (compare.orbit_count_differs, LEADERS[:1], True, None, "1 solutions with symmetry breaking, but"),
        (compare.orbit_count_differs, LEADERS[:1], True, Expected(12, True, 2), "full solution set has 2"),
        (
            compare.orbits_exceeded,
            [*LEADERS, FOLLOWERS[0]],
            False,
            None,
            "3+ solutions with symmetry breaking exceed 2",
        ),
    ],
)
def test_the_symmetry_classes_are_counted(check, solutions, complete, expected, words):
    plain = [run("a", BOARDS)] if expected is None else []  # else the classes are the recorded ones
    finding = found(check, [*plain, run("a", solutions, sb=True, complete=complete)], expected)
    assert finding.kind == "symmetry" and words in finding.message
    assert found(check, [*plain, run("a", LEADERS, sb=True, complete=complete)], expected) is None
    assert found(check, [run("a", solutions, sb=True, complete=complete)]) is None  # no classes known


# --- the recorded expectation


@pytest.mark.parametrize(
    "check,record,expected,words",
    [
        (compare.not_the_expected_count, run("a", BOARDS[:11]), Expected(12, True), "a: 11 solutions, expected 12"),
        (compare.below_the_known_count, run("a", BOARDS[:11]), Expected(12, False), "but at least 12 are known"),
        (compare.beyond_the_expected_count, run("a", BOARDS, complete=False), Expected(11, True), "expected exactly"),
        (compare.a_solution_where_none_is_expected, run("a", BOARDS), Expected(0, True), "found a solution, expected"),
        (compare.none_where_some_are_expected, run("a"), Expected(3, False), "claims no solution, expected 3"),
    ],
)
def test_the_expected_count(check, record, expected, words):
    finding = found(check, [record], expected)
    assert finding.kind == "disagree" and words in finding.message
    assert found(check, [record]) is None
    assert found(check, [dataclasses.replace(record, error="boom")], expected) is None
    assert found(check, [run("a", BOARDS)], Expected(12, True)) is None


# --- the table and the verdict


def test_the_table_applies_every_check_once():
    """Every check the module defines is in the table: once, or once per mode for the checks within a mode."""
    applied = [check for entry in compare.CHECKS for check in getattr(entry, "checks", (entry,))]
    defined = [
        value
        for value in vars(compare).values()
        if getattr(value, "__module__", None) == compare.__name__
        and getattr(value, "__annotations__", {}).get("return") in ("Finding | None", "list[Finding]")
    ]
    assert len(defined) == 18 and set(applied) == set(defined)
    per_mode = {compare.beyond_complete_count, compare.outside_complete_set, compare.complete_counts_differ}
    per_mode |= {compare.sat_against_unsat, compare.solution_sets_differ}
    assert all(applied.count(check) == 1 + (check in per_mode) for check in defined)


def test_findings_come_in_the_order_of_the_table():
    records = [run("a", BOARDS, duplicates=1), run("b", BOARDS[:11]), run("c", [APART])]
    verdict = compare.judge(HEX, LEVEL, "pair.txt", records, Expected(12, True))
    # each run alone (a, then c), the mode's counts and sets, the expected count (b, then c)
    assert [(f.kind, f.backends) for f in verdict.findings] == [
        ("note", ("a",)),
        ("invalid", ("c",)),
        ("disagree", ("b", "c")),
        ("disagree", ("b",)),
        ("disagree", ("c",)),
        ("disagree", ("b",)),
        ("disagree", ("c",)),
    ]
    assert "complete counts differ" in verdict.findings[2].message
    assert verdict.findings[-1].message == "c: 1 solutions, expected 12"


@pytest.mark.parametrize(
    "kinds,complete,status",
    [
        ({"invalid", "disagree", "error"}, True, "INVALID"),
        ({"symmetry", "error"}, True, "DISAGREE"),
        ({"duplicate"}, True, "DISAGREE"),
        ({"error", "note"}, True, "ERROR"),
        ({"note"}, True, "agree"),
        (set(), False, "incomplete"),
    ],
)
def test_the_worst_finding_names_the_status(kinds, complete, status):
    findings = [compare.Finding(kind, "") for kind in sorted(kinds)]
    assert compare.status_of([run("a", BOARDS, complete=complete)], findings) == status
    assert compare.status_of([], []) == "incomplete"


@pytest.mark.parametrize(
    "records,text",
    [
        ([run("a", BOARDS)], "12"),
        ([run("a")], "unsat"),
        ([run("a", BOARDS[:3], complete=False)], "3+"),
        ([run("a", complete=False)], "?"),
        ([count_only(12)], "12+"),
        ([], "?"),
    ],
)
def test_the_count_as_shown(records, text):
    assert compare.count_text(case_of(HEX, LEVEL, records)) == text
