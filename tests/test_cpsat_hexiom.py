"""The CP-SAT backend on Hexiom: valid solutions, exact counts, limits, symmetry breaking, export."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from trisolve.backends import cpsat, registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.models import hexiom

pytestmark = pytest.mark.skipif(cpsat.available() is not None, reason="ortools is not installed")

LEVELS = Path(__file__).resolve().parents[1] / "levels" / "hexiom"
FAMILY = "hexiom"
DEFAULT = cpsat.DEFAULT_VARIANT[FAMILY]
OTHERS = [v for v in cpsat.VARIANTS[FAMILY] if v != DEFAULT]
ALL_VARIANTS = [DEFAULT, *OTHERS]


def level(number: int) -> hexiom.Level:
    return hexiom.parse(str(LEVELS / f"level{number:02d}.txt"))


def small_levels() -> list[int]:
    """Every level of side 4 or less (levels 0-37)."""
    return [n for n in range(41) if (LEVELS / f"level{n:02d}.txt").exists() and level(n).side <= 4]


def backend(variant: str):
    return registry.get(f"cpsat:{variant}", FAMILY)


def assert_valid(lvl: hexiom.Level, solutions) -> None:
    for solution in solutions:
        assert hexiom.validate(lvl, solution) == [], hexiom.render(lvl, solution)


# ------------------------------------------------------------- registry


def test_registry_and_make_do_not_import_ortools():
    # the import costs ~0.5 s; only a run or an export may pay it
    code = (
        "import sys; from trisolve.backends import cpsat, registry; "
        "assert cpsat.available() is None; registry.get('cpsat', 'hexiom'); registry.variants('hexiom', ('cpsat',)); "
        "assert 'ortools' not in sys.modules, 'ortools imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_registered():
    assert cpsat.available() is None
    assert DEFAULT in cpsat.VARIANTS[FAMILY]
    assert len(cpsat.VARIANTS[FAMILY]) >= 2
    assert registry.resolve("cpsat", FAMILY) == f"cpsat:{DEFAULT}"
    assert backend(DEFAULT).name == f"cpsat:{DEFAULT}"


def test_translator_variants_match_package_listing():
    from trisolve.backends.cpsat import hexiom as translator

    assert translator.VARIANTS == cpsat.VARIANTS[FAMILY]
    assert translator.DEFAULT == DEFAULT


def test_unknown_variant_and_family_are_refused():
    with pytest.raises(ValueError):
        cpsat.make(FAMILY, "no-such-variant")
    with pytest.raises(registry.UnsupportedFamily):
        cpsat.make("no-such-family", DEFAULT)


# ------------------------------------------------------- first solutions


@pytest.mark.parametrize("number", small_levels(), ids=lambda n: f"level{n:02d}")
def test_default_variant_solves_every_small_level(number: int):
    lvl = level(number)
    seen = []
    result = backend(DEFAULT).run(lvl, Limits(time=20), Options(), on_solution=seen.append)
    assert result.status is Status.SAT
    assert result.count == 1 and not result.complete
    assert list(result.solutions) == seen
    assert_valid(lvl, result.solutions)
    assert {"translate", "solve", "decode"} <= set(result.times)
    assert result.stats["variables"] > 0 and result.stats["constraints"] > 0


@pytest.mark.parametrize("number", [1, 10, 22, 31, 37], ids=lambda n: f"level{n:02d}")
@pytest.mark.parametrize("variant", OTHERS)
def test_other_variants_solve_some_levels(variant: str, number: int):
    lvl = level(number)
    result = backend(variant).run(lvl, Limits(time=20), Options(seed=number))
    assert result.status is Status.SAT
    assert_valid(lvl, result.solutions)


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant, number",
    [(DEFAULT, 38), (DEFAULT, 39), (DEFAULT, 40)] + [(v, 39) for v in OTHERS],
    ids=lambda x: f"level{x:02d}" if isinstance(x, int) else x,
)
def test_hard_levels(variant: str, number: int):
    # bool and table do not reliably solve levels 38 and 40 within a minute (see the report)
    lvl = level(number)
    result = backend(variant).run(lvl, Limits(time=60), Options())
    assert result.status is Status.SAT
    assert_valid(lvl, result.solutions)


@pytest.mark.slow
def test_two_workers_run_the_measured_portfolio():
    lvl = level(38)
    result = backend(DEFAULT).run(lvl, Limits(time=60), Options(workers=2, seed=3))
    assert result.stats["workers"] == 2
    assert result.status is Status.SAT
    assert_valid(lvl, result.solutions)


# --------------------------------------------------------------- counting


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_level01_has_twelve_solutions(variant: str):
    lvl = level(1)
    seen = []
    result = backend(variant).run(lvl, Limits(time=20), Options(enumerate=True), on_solution=seen.append)
    assert (result.count, result.complete) == (12, True)
    assert result.count_text == "12"
    assert result.duplicates == 0 and result.stopped_by is None
    assert len({hexiom.canonical(lvl, s) for s in result.solutions}) == 12
    assert list(result.solutions) == seen
    assert_valid(lvl, result.solutions)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_solution_limit_gives_an_incomplete_count(variant: str):
    lvl = level(1)
    result = backend(variant).run(lvl, Limits(time=20, solutions=3), Options(enumerate=True))
    assert (result.count, result.complete) == (3, False)
    assert result.count_text == "3+"
    assert result.stopped_by == "solution limit"
    assert_valid(lvl, result.solutions)


def test_time_limit_holds_during_enumeration():
    lvl = level(40)
    began = time.monotonic()
    result = backend(DEFAULT).run(lvl, Limits(time=1), Options(enumerate=True))
    elapsed = time.monotonic() - began
    assert elapsed < 3.5, elapsed
    assert not result.complete
    assert result.stopped_by == "time limit"
    assert_valid(lvl, result.solutions)


def test_time_limit_holds_for_a_first_solution():
    lvl = level(40)
    began = time.monotonic()
    result = backend(DEFAULT).run(lvl, Limits(time=0.05), Options(workers=1, seed=7))
    assert time.monotonic() - began < 2.5
    assert not result.complete
    assert_valid(lvl, result.solutions)


def test_unsatisfiable_level_is_a_complete_zero():
    # one tile numbered 1 on a board where it can have no neighbour
    lvl = hexiom.parse_text("2\n . .\n1 . .\n . .\n")
    for options in (Options(), Options(enumerate=True)):
        result = backend(DEFAULT).run(lvl, Limits(time=20), options)
        assert result.status is Status.UNSAT
        assert (result.count, result.complete) == (0, True)


# ---------------------------------------------------- symmetry breaking


SYMMETRIC_LEVELS = [1, 2, 3, 5]


@pytest.mark.parametrize("number", SYMMETRIC_LEVELS, ids=lambda n: f"level{n:02d}")
@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_symmetry_breaking_keeps_one_lex_leader_per_orbit(variant: str, number: int):
    lvl = level(number)
    everything = backend(variant).run(lvl, Limits(time=30), Options(enumerate=True))
    assert everything.complete
    orbits = {hexiom.orbit_representative(lvl, s) for s in everything.solutions}

    broken = backend(variant).run(lvl, Limits(time=30), Options(enumerate=True, symmetry_breaking=True))
    assert broken.complete and broken.duplicates == 0
    assert broken.count == len(orbits)
    assert_valid(lvl, broken.solutions)
    assert all(hexiom.is_lex_leader(lvl, s) for s in broken.solutions)
    assert {hexiom.orbit_representative(lvl, s) for s in broken.solutions} == orbits


@pytest.mark.parametrize("number", [22, 35], ids=lambda n: f"level{n:02d}")
def test_symmetry_breaking_first_solution_is_a_lex_leader(number: int):
    lvl = level(number)
    assert len(lvl.symmetries) == 12
    result = backend(DEFAULT).run(lvl, Limits(time=30), Options(symmetry_breaking=True))
    assert result.status is Status.SAT
    assert_valid(lvl, result.solutions)
    assert hexiom.is_lex_leader(lvl, result.solutions[0])


# ----------------------------------------------------------------- export


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("symmetry_breaking", [False, True], ids=["plain", "sb"])
def test_export_is_proto_text_that_parses_back(variant: str, symmetry_breaking: bool):
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2

    lvl = level(5)
    text = backend(variant).export(lvl, Options(symmetry_breaking=symmetry_breaking))
    proto = text_format.Parse(text, cp_model_pb2.CpModelProto())
    assert len(proto.variables) > 0 and len(proto.constraints) > 0
