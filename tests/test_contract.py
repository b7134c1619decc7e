"""The contract every backend variant keeps on every family it translates.

Family- and backend-level template: the cases come from the registry
(``registry.variants(family, declaring("IN_PYTHON"))``: every shipped backend
that needs nothing outside Python, also those a cross-check runs only when
named) and from each family's ``expected.json``,
so a new family or backend is tested here without a line of its own (see
docs/adding-a-family.md and docs/adding-a-backend.md).  Every solution is
checked by the family's own validator.  Checks that only make sense for
one backend (export formats, solver options) live in that backend's file.
"""

from __future__ import annotations

import time

import pytest
from support import (
    LIMIT_SLACK,
    assert_listed_once,
    assert_valid,
    expected,
    level_path,
    shipped_families,
    small_instances,
)

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.backends.spec import Spec
from trisolve.models import FAMILIES
from trisolve.models.hexiom import model as hexiom
from trisolve.runs import Job, grace_for
from trisolve.runs import run as run_isolated
from trisolve.selection import declaring

#: the families with shipped levels and counts (levels/<family>/expected.json): a new one is tested here
SHIPPED = shipped_families()
ENUMERATE = Options(enumerate=True)


def usable(spec: str) -> bool:
    return registry.available(Spec.parse(spec).backend) is None


def cases(family: str, stems: list[str] | None = None, where=lambda catalog: True) -> list:
    """(spec, stem) for every usable variant of a family whose catalog passes ``where``."""
    found = []
    for spec in registry.variants(family, declaring("IN_PYTHON")):
        if not usable(spec) or not where(registry.catalog(Spec.parse(spec).backend, family)):
            continue
        for stem in stems if stems is not None else [None]:
            found.append(pytest.param(family, spec, stem, id=f"{family}-{stem}-{spec}" if stem else f"{family}-{spec}"))
    return found


def load(family: str, stem: str):
    fam = FAMILIES[family]
    return fam, fam.parse(level_path(family, stem))


def run(spec: str, family: str, level, limits: Limits = Limits(time=120), options: Options = Options(), seen=None):
    return registry.get(spec, family).run(level, limits, options, on_solution=seen.append if seen is not None else None)


ALL_SMALL = [case for family in SHIPPED for case in cases(family, small_instances(family))]
ALL_SPECS = [case for family in SHIPPED for case in cases(family)]


# ---------------------------------------------------------------- answers


@pytest.mark.parametrize("family, spec, stem", ALL_SMALL)
def test_first_solution_is_valid_or_a_proved_none(family: str, spec: str, stem: str) -> None:
    fam, level = load(family, stem)
    result = run(spec, family, level)
    if expected(family)[stem]["count"] == 0:
        assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)
    else:
        # a first solution is not a count: 1+, never 1
        assert result.status is Status.SAT and result.count == 1 and not result.complete
        assert_valid(fam, level, result.solutions)


@pytest.mark.parametrize("family, spec, stem", ALL_SMALL)
def test_count_is_exact_and_streamed(family: str, spec: str, stem: str) -> None:
    fam, level = load(family, stem)
    seen: list = []
    result = run(spec, family, level, options=ENUMERATE, seen=seen)
    assert (result.count, result.complete) == (expected(family)[stem]["count"], True)
    assert result.count_text == str(result.count) and result.stopped_by is None
    assert result.status is (Status.SAT if result.count else Status.UNSAT)
    assert seen == list(result.solutions)
    assert_listed_once(fam, level, result)


def _with_symmetries(family: str) -> list[str]:
    return [stem for stem in small_instances(family) if "orbits" in expected(family)[stem]]


SYMMETRY_CASES = [
    case
    for family in SHIPPED
    if FAMILIES[family].symmetries is not None
    for case in cases(family, _with_symmetries(family))
    if registry.breaks_symmetries(case.values[1], family)  # the variant's own catalog (a compiled one's says no)
]


NO_SYMMETRY_CASES = [
    case
    for f in SHIPPED
    for case in cases(f, small_instances(f)[:1])
    if not registry.breaks_symmetries(case.values[1], f)
]


@pytest.mark.parametrize("family, spec, stem", NO_SYMMETRY_CASES)
def test_a_variant_without_symmetry_breaking_says_so_instead_of_counting_classes(family, spec, stem) -> None:
    _, level = load(family, stem)
    result = run(spec, family, level, options=Options(enumerate=True, symmetry_breaking=True))
    assert (result.status, result.complete) == (Status.UNKNOWN, False)
    assert "symmetry breaking is not supported" in (result.stopped_by or "")


@pytest.mark.parametrize("family, spec, stem", SYMMETRY_CASES)
def test_symmetry_breaking_keeps_one_lex_leader_per_orbit(family: str, spec: str, stem: str) -> None:
    fam, level = load(family, stem)
    result = run(spec, family, level, options=Options(enumerate=True, symmetry_breaking=True))
    assert result.complete and result.count == expected(family)[stem]["orbits"]
    assert_listed_once(fam, level, result)
    assert all(fam.is_lex_leader(level, s) for s in result.solutions)
    assert len({fam.orbit_representative(level, s) for s in result.solutions}) == len(result.solutions)


# ---------------------------------------------------------------- limits


def _most_solutions(family: str) -> str:
    known = expected(family)
    return max(small_instances(family), key=lambda stem: known[stem]["count"])


@pytest.mark.parametrize("family, spec, stem", [c for f in SHIPPED for c in cases(f, [_most_solutions(f)])])
def test_a_solution_limit_gives_an_incomplete_count(family: str, spec: str, stem: str) -> None:
    fam, level = load(family, stem)
    result = run(spec, family, level, Limits(time=120, solutions=2), ENUMERATE)
    if registry.catalog(Spec.parse(spec).backend, family).count_only:
        # a count-only run lists nothing, so its count stays exact whatever the limit
        assert result.complete and result.count == expected(family)[stem]["count"]
    else:
        assert (result.count, result.complete, result.count_text) == (2, False, "2+")
        assert result.stopped_by == "solution limit"
    assert_valid(fam, level, result.solutions)


def _hardest(family: str) -> str:
    """The instance with the most (or an unknown number of) solutions: a count there takes a while."""
    known = expected(family)
    return max(known, key=lambda stem: (not known[stem].get("complete", False), known[stem].get("count", 0)))


@pytest.mark.parametrize("family, spec, stem", [c for f in SHIPPED for c in cases(f, [_hardest(f)])])
def test_a_time_limit_holds_or_the_count_is_exact(family: str, spec: str, stem: str) -> None:
    # as every command runs it: in a child process, killed if it overruns its own limit
    # (a backend may not look at the clock while it translates: pysat spends seconds on the 6x10 rectangle)
    fam, level = load(family, stem)
    began = time.monotonic()
    record = run_isolated(Job(level_path(family, stem), family, spec, Limits(time=0.5), ENUMERATE), level)
    elapsed = time.monotonic() - began
    assert elapsed < 0.5 + grace_for(0.5) + LIMIT_SLACK, f"a 0.5 s limit took {elapsed:.1f} s"
    known = expected(family)[stem]
    if record.complete:
        assert known.get("complete") and record.count == known["count"]
    else:
        assert record.stopped_by is not None and record.count_text.endswith("+")
    assert_valid(fam, level, [fam.solution_from_json(level, data) for data in record.solutions])


# ---------------------------------------------------------------- Hexiom


@pytest.mark.parametrize("family, spec, stem", cases("hexiom"))
@pytest.mark.parametrize("mode", [Options(), ENUMERATE], ids=["first", "count"])
def test_hexiom_without_a_solution_is_a_complete_zero(family: str, spec: str, stem, mode: Options) -> None:
    # a 6 on a side-2 board: no cell there has six neighbours
    level = hexiom.parse_text("2\n . .\n. 6 .\n . .\n", name="six")
    result = run(spec, family, level, Limits(time=60), mode)
    assert (result.status, result.count, result.complete) == (Status.UNSAT, 0, True)


def _hexiom_level(number: int):
    """Levels of side 4 or less take milliseconds; the side-5 and side-6 ones (38-40) seconds."""
    hard = hexiom.parse(level_path("hexiom", f"level{number:02d}")).side > 4
    return pytest.param(number, marks=[pytest.mark.slow] if hard else [], id=f"level{number:02d}")


@pytest.mark.parametrize("number", [_hexiom_level(n) for n in range(41)])
@pytest.mark.parametrize("backend", declaring("PORTFOLIO"))
def test_hexiom_default_variants_solve_every_public_level(backend: str, number: int) -> None:
    spec = registry.resolve(backend, "hexiom")
    if not usable(spec):
        pytest.skip(f"{backend} is not installed")
    fam, level = load("hexiom", f"level{number:02d}")
    result = run(spec, "hexiom", level, Limits(time=120))
    assert result.status is Status.SAT and result.count == 1 and not result.complete
    assert_valid(fam, level, result.solutions)
    assert {"translate", "solve"} <= set(result.times)
