"""Counting by orbits (``backend:variant/orbits``): lex-leaders expanded by the symmetries give the plain count.

The expanded solution set must be the plain set itself (not just as large),
for every backend that breaks symmetries and both families that have them;
the cross-checker compares such runs with plain ones directly.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support import ROOT, level_path

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import FAMILIES
from trisolve.selection import declaring

INSTANCES = [
    ("hexiom", "level03"),  # 18 solutions in 5 orbits
    ("hexiom", "level12"),  # 258 in 26
    ("hexiom", "level21"),  # 12 in 1: a single orbit, stabiliser trivial
    ("sigils", "gate-5x4"),  # 14 in 5
    ("sigils", "free-6x4"),  # 16 in 4
]


def _expected(family: str, stem: str) -> dict:
    with open(f"{ROOT}/levels/{family}/expected.json", encoding="utf-8") as handle:
        return json.load(handle)[stem]


def _keys(family: str, level, result) -> set:
    fam = FAMILIES[family]
    for solution in result.solutions:
        assert fam.validate(level, solution) == []
    keys = [fam.canonical(level, s) for s in result.solutions]
    assert len(keys) == len(set(keys))
    return set(keys)


def _listing_lex_leaders(family: str) -> list[str]:
    """The backends that list one lex-leader per symmetry class of ``family`` (what counting by orbits needs)."""
    found = []
    for backend in declaring("BY_DEFAULT"):  # mip (BY_DEFAULT = False): level 12's 258 by no-good cuts is too slow
        offered = registry.catalog(backend, family)
        if offered is not None and offered.symmetry_breaking and not offered.count_only:
            found.append(backend)
    return found


@pytest.mark.parametrize(
    "backend,family,stem",
    [(b, f, s) for f, s in INSTANCES for b in _listing_lex_leaders(f)],
    ids=lambda value: str(value),
)
def test_orbits_expanded_are_the_plain_solution_set(backend, family, stem):
    level = FAMILIES[family].parse(level_path(family, stem))
    plain = registry.get(backend, family).run(level, Limits(time=120), Options(enumerate=True))
    by_orbits = registry.get(f"{backend}/orbits", family).run(level, Limits(time=120), Options(enumerate=True))
    expected = _expected(family, stem)
    assert plain.complete and by_orbits.complete and by_orbits.duplicates == 0
    assert by_orbits.count == plain.count == expected["count"]
    assert _keys(family, level, by_orbits) == _keys(family, level, plain)
    assert by_orbits.stats["orbits"] == expected["orbits"]
    assert by_orbits.stats["count_method"] == "lex-leaders expanded by the level's symmetries"
    assert by_orbits.backend == registry.resolve(backend, family) + "/orbits"


def test_a_limit_cuts_the_expanded_list_and_says_so():
    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level12"))
    result = registry.get("pysat/orbits", "hexiom").run(level, Limits(solutions=5), Options(enumerate=True))
    assert result.count == 5 and not result.complete and result.count_text == "5+"
    assert result.stopped_by == "solution limit"


def test_a_first_solution_is_a_plain_run():
    level = FAMILIES["hexiom"].parse(level_path("hexiom", "level12"))
    result = registry.get("clingo/orbits", "hexiom").run(level, Limits(time=60), Options())
    assert result.count == 1 and not result.complete and "count_method" not in result.stats


def _trisolve(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "trisolve", *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_solve_json_names_the_count_method():
    done = _trisolve("solve", level_path("hexiom", "level03"), "--backend", "pysat/orbits", "--count", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["backend"], data["count"], data["complete"]) == ("pysat:totalizer/orbits", 18, True)
    assert data["count_method"] == "lex-leaders expanded by the level's symmetries" and data["stats"]["orbits"] == 5
    plain = json.loads(
        _trisolve("solve", level_path("hexiom", "level03"), "--backend", "pysat", "--count", "--json").stdout
    )
    assert plain["count_method"] == "plain enumeration"


@pytest.mark.parametrize("spec,family,stem", [("dp/orbits", "hexiom", "level03"), ("pysat/orbits", "logic", "zebra")])
def test_no_orbits_to_expand_is_a_usage_error(spec, family, stem):
    done = _trisolve("solve", level_path(family, stem), "--backend", spec, "--count")
    assert done.returncode == 2 and "orbits" in done.stderr and "Traceback" not in done.stderr


def test_the_cross_checker_compares_orbit_counts_with_plain_ones():
    paths = [level_path("hexiom", n) for n in ("level05", "level10", "level14")]
    done = _trisolve(
        "crosscheck", *paths, "--backends", "pysat:totalizer,pysat:totalizer/orbits,clingo/orbits,dp", "--timeout", "60"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "VERDICT: all backends agree on 3 of 3 instances" in done.stdout
    assert "pysat:totalizer/orbits" in done.stdout
