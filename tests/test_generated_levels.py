"""The shipped generated Hexiom levels of side 6 and 7 (levels/generated/hexiom, scripts/generated_counts.py).

Each file must be what its recorded ``trisolve generate`` command makes, its intended solution valid, its
recorded counts consistent by Burnside's lemma, and its count what dp gives now (the ones that take
more than a few seconds are marked slow: CI still runs them).
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from support import LEVELS

from trisolve.models.hexiom import model as hexiom

FOLDER = os.path.join(LEVELS, "generated", "hexiom")
with open(os.path.join(FOLDER, "expected.json"), encoding="utf-8") as handle:
    EXPECTED: dict = json.load(handle)
#: counts that take dp more than a few seconds (docs/bench/generated-hexiom.md)
SLOW_FROM = 10**8


def cases():
    for name, entry in sorted(EXPECTED.items()):
        marks = [pytest.mark.slow] if entry["count"] >= SLOW_FROM else []
        yield pytest.param(name, entry, id=name, marks=marks)


def test_every_generated_level_has_an_entry_and_sides_6_and_7_are_there():
    names = {os.path.splitext(n)[0] for n in os.listdir(FOLDER) if n.endswith(".txt")}
    assert names == set(EXPECTED)
    assert {hexiom.parse(os.path.join(FOLDER, f"{n}.txt")).side for n in names} == {6, 7}


@pytest.mark.parametrize("name, entry", [pytest.param(n, e, id=n) for n, e in sorted(EXPECTED.items())])
def test_the_file_is_what_its_command_generates_and_its_solution_is_valid(name, entry, tmp_path):
    from trisolve import api

    words = shlex.split(entry["generated_by"])
    assert words[:3] == ["trisolve", "generate", "hexiom"]
    options = dict(zip(words[3::2], words[4::2]))
    made = list(
        api.generate_levels(
            "hexiom", tmp_path, seed=int(options["--seed"]), side=int(options["--side"]), fill=float(options["--fill"])
        )
    )
    shipped = os.path.join(FOLDER, f"{name}.txt")
    assert Path(made[0].path).read_text(encoding="utf-8") == Path(shipped).read_text(encoding="utf-8")
    level = hexiom.parse(shipped)
    with open(os.path.join(FOLDER, f"{name}.solution.json"), encoding="utf-8") as handle:
        solution = hexiom.solution_from_json(level, json.load(handle)["solution"])
    assert hexiom.validate(level, solution) == []


@pytest.mark.parametrize("name, entry", [pytest.param(n, e, id=n) for n, e in sorted(EXPECTED.items())])
def test_the_recorded_counts_agree_by_burnside(name, entry):
    fixed = entry["fixed_per_symmetry"]
    assert entry["complete"] and len(fixed) == 12 and fixed[0] == entry["count"]
    assert sum(fixed) % 12 == 0 and sum(fixed) // 12 == entry["orbits"]


@pytest.mark.parametrize("name, entry", list(cases()))
def test_dp_counts_the_recorded_number(name, entry):
    from trisolve.backends import registry
    from trisolve.backends.base import Limits, Options

    level = hexiom.parse(os.path.join(FOLDER, f"{name}.txt"))
    result = registry.get("dp", "hexiom").run(level, Limits(time=600), Options(enumerate=True))
    assert result.complete and result.count == entry["count"]
