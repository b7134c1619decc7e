"""Every compiler of constraint models, every variant, on the small cases of ``model_cases``: the same count
as the brute force, every solution one the brute force finds, a first solution exactly when one exists.

The parameters come from the registry (each shipped backend's generic ``constraints`` translators and the
kinds each declares it compiles), so a new compiler or variant is tested here with no change to this file."""

from __future__ import annotations

import pytest
from model_cases import cases, family_of, register, unregister

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Status
from trisolve.constraints import semantics


def _compiled_specs() -> list[tuple[str, frozenset[str]]]:
    found = []
    for name in registry.shipped():
        if registry.available(name) is not None or registry.role(name, "OPTIONAL"):
            continue
        for _, offered in registry._generic(name):
            if offered.generic == "constraints":
                found.extend((f"{name}:{variant}", frozenset(offered.supports)) for variant in offered.variants)
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
