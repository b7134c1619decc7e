"""Every backend's count against the counts the cross-checker established (levels/*/expected.json).

A regression in any encoding changes a count here and fails CI.
"""

from __future__ import annotations

import json
import os

import pytest

from support import HEXIOM_LEVELS, LEVELS, stem
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import hexiom

with open(os.path.join(LEVELS, "hexiom", "expected.json"), encoding="utf-8") as handle:
    EXPECTED = json.load(handle)

SMALL = [p for p in HEXIOM_LEVELS if hexiom.parse(p).side <= 3]


def test_every_level_has_an_expected_entry_and_levels_0_to_39_are_exact():
    assert set(EXPECTED) == {stem(p) for p in HEXIOM_LEVELS}
    for name, entry in EXPECTED.items():
        assert entry["count"] >= 0
        if name != "level40":
            assert entry["complete"], f"{name}: no exact count recorded"
    assert EXPECTED["level40"]["complete"] is False  # nobody knows level 40's count


@pytest.mark.parametrize("backend", ["pysat", "clingo", "cpsat", "dp"])
@pytest.mark.parametrize("path", SMALL, ids=stem)
def test_default_variant_counts_match_expected(path, backend):
    level = hexiom.parse(path)
    result = registry.get(backend, "hexiom").run(level, Limits(time=60), Options(enumerate=True))
    expected = EXPECTED[stem(path)]
    assert result.complete
    assert result.count == expected["count"]
    for solution in result.solutions:
        assert hexiom.validate(level, solution) == []
