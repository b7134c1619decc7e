"""Every compiler of constraint models, every variant, on the small cases of ``model_cases``: the same count
as the brute force, every solution one the brute force finds, a first solution exactly when one exists.  Then
the shipped families' models, compiled by every compiler, against ``expected.json`` on the shipped levels.

The parameters come from the registry (each shipped backend's generic ``constraints`` translators and the
kinds each declares it compiles), so a new compiler or variant is tested here with no change to this file."""

from __future__ import annotations

import json
import os

import pytest
from model_cases import cases, family_of, register, unregister

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.spec import Spec
from trisolve.constraints import semantics


def _compiled_specs() -> list[tuple[str, frozenset[str]]]:
    found = []
    for name in registry.shipped():
        if registry.available(name) is not None or registry.role(name, "OPTIONAL"):
            continue
        for _, offered in registry._generic(name):
            if offered.generic == "constraints":
                found.extend((f"{name}:{variant}", frozenset(offered.kinds())) for variant in offered.variants)
    return found


CASES = cases()
PAIRS = [
    pytest.param(spec, case, id=f"{spec}-{case.name}")
    for spec, supports in _compiled_specs()
    for case in CASES
    if case.build().kinds() <= supports
]


@pytest.fixture(scope="module", autouse=True)
def cases_family():
    register()
    yield
    unregister()


def _truth(case) -> tuple[int, set]:
    model = case.build().freeze()
    own = frozenset(model.own)
    projections = {true & own for true in semantics.solutions(model)}
    return len(projections), {model.decode(p) for p in projections}


@pytest.mark.parametrize(("spec", "case"), PAIRS)
def test_a_compiled_count_equals_the_brute_force(spec, case):
    expected, valid = _truth(case)
    backend = registry.get(spec, family_of(case))
    found = []
    result = backend.run(case, Limits(time=60), Options(enumerate=True), on_solution=found.append)
    assert result.complete, result.stopped_by
    assert result.count == expected
    assert result.duplicates == 0
    if found:  # a backend that lists solutions: each is one the brute force finds, none twice
        assert set(found) <= valid
        assert len(set(found)) == len(found) == expected


@pytest.mark.parametrize(("spec", "case"), PAIRS)
def test_a_compiled_first_solution_exists_exactly_when_the_brute_force_finds_one(spec, case):
    expected, valid = _truth(case)
    result = registry.get(spec, family_of(case)).run(case, Limits(time=60), Options())
    if expected:
        assert result.status is Status.SAT
        assert result.solutions[0] in valid
    else:
        assert result.status is Status.UNSAT


# ------------------------------------------------------------------ the shipped families, against expected.json

#: The most solutions a compiler is asked to list on a shipped level.  1100 takes in every level the hand-written
#: listing defaults count within seconds (hexiom level32's 1052 is the largest; the levels with 10^4-10^5 solutions
#: are those expected.json marks ``slow_for`` them); MIP finds solutions one re-solve at a time (hexiom level15's
#: 459 take it minutes), and exact cover lists every sigils frame in seconds (pentominoes-6x10's 9356 included).
MOST_SOLUTIONS = {"mip": 50, "exactcover": 10_000}
LISTING = 1100
LISTS_LARGE_FRAMES = ("exactcover",)
#: Levels where the backend's own hand-written model finds not even a first solution within 30 s
#: (docs/bench/compiled-vs-hand.md): MIP on the pentomino rectangles.
BEYOND = {
    "mip": ("pentominoes-3x20", "pentominoes-4x15", "pentominoes-5x12", "pentominoes-6x10")
    # the puz.link levels with many solutions mip and cpsat did not count within 30 s (docs/bench/puzzlink.md)
    + ("small-one-unknown", "small-no-clue"),
    "cpsat": ("small-one-unknown",),
}
#: The compilers run on every level within reach (the others on the smallest few): ganak and dimacs take
#: pysat:compiled's CNF, which pysat itself runs on every level.
SWEPT = ("pysat", "clingo", "cpsat", "mip", "exactcover")


def _within_reach(backend: str, stem: str, entry: dict) -> bool:
    """Whether a level is one this backend's compiled variant is asked to count: complete in expected.json,
    not marked slow, few enough solutions to list, and not one where the hand-written listing backends take
    minutes (``slow_for``: Hexiom's large boards and 10^5 solutions, sigils' largest frames), but for exact cover,
    which lists those frames in seconds."""
    return (
        bool(entry.get("complete"))
        and "slow" not in entry
        and stem not in BEYOND.get(backend, ())
        and (not entry.get("slow_for") or backend in LISTS_LARGE_FRAMES)
        and entry["count"] <= MOST_SOLUTIONS.get(backend, LISTING)
    )


def _published(family: str) -> set[str]:
    """The levels of a folder's ``published.jsonl``: tests/test_puzzlink.py solves each of them with every
    compiler and compares the one solution with the published one, so this sweep leaves them out."""
    from support import LEVELS

    listing = os.path.join(LEVELS, family, "published.jsonl")
    if not os.path.exists(listing):
        return set()
    with open(listing, encoding="utf-8") as handle:
        return {json.loads(line)["instance"] for line in handle if line.strip()}


def _shipped_cases() -> list:
    """(family, spec, level path) for every family with a model and shipped levels: each swept compiler's
    ``compiled`` variant on every level within its reach (slow-marked but for the smallest few), and every other
    variant on the smallest few (the shipped models state no graph constraint, so their lazy variants compile
    the same CNF as the eager one)."""
    from support import expected, level_path, shipped_families, small_instances

    from trisolve.models import FAMILIES

    found = []
    for family in shipped_families():
        if FAMILIES[family].constraints is None:
            continue
        known = expected(family)
        small = set(small_instances(family))
        published = _published(family)
        for spec, _ in _compiled_specs():
            backend, variant = Spec.parse(spec).backend, Spec.parse(spec).variant_name
            offered = registry.catalog(backend, family)
            if offered is None or variant not in offered.variants:
                continue
            stems = sorted(s for s, entry in known.items() if _within_reach(backend, s, entry) and s not in published)
            for stem in stems if variant == "compiled" and backend in SWEPT else sorted(small):
                marks = () if stem in small else (pytest.mark.slow,)
                found.append(
                    pytest.param(family, spec, level_path(family, stem), id=f"{spec}-{family}-{stem}", marks=marks)
                )
    return found


@pytest.mark.parametrize(("family", "spec", "path"), _shipped_cases())
def test_a_compiled_family_counts_what_expected_json_says(family, spec, path):
    from support import assert_listed_once, expected, stem

    from trisolve.models import FAMILIES

    record = FAMILIES[family]
    level = record.parse(path)
    result = registry.get(spec, family).run(level, Limits(time=300), Options(enumerate=True))
    assert result.complete, (result.status, result.stopped_by)
    assert result.count == expected(family)[stem(path)]["count"]
    assert_listed_once(record, level, result)  # every solution listed is valid by the family's validator
    first = registry.get(spec, family).run(level, Limits(time=300), Options())
    if result.count and not registry.catalog(Spec.parse(spec).backend, family).count_only:
        assert record.validate(level, first.solutions[0]) == []
    elif not result.count:
        assert first.status == Status.UNSAT
