"""The shipped families' constraint models, checked without any solver: each declares the kinds of constraint
it uses (the registry decides which compilers take the family from that declaration), and on the levels small
enough for the brute force of ``trisolve.constraints.semantics`` it counts what ``expected.json`` says, every
solution valid by the family's own validator."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from trisolve import models
from trisolve.constraints import ModelError, semantics

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "levels")
WITH_MODELS = sorted(name for name, family in models.FAMILIES.items() if family.constraints is not None)


def _levels():
    for name in WITH_MODELS:
        folder = os.path.join(ROOT, name)
        if not os.path.isdir(folder):
            continue
        expected_path = os.path.join(folder, "expected.json")
        expected = json.loads(Path(expected_path).read_text()) if os.path.isfile(expected_path) else {}
        for file in sorted(os.listdir(folder)):
            if file.startswith(".") or file.endswith((".json", ".jsonl", ".md")):
                continue  # expected.json, a puzz.link family's published.jsonl: no levels
            key = os.path.splitext(file)[0]
            known = expected.get(key) or expected.get(file) or {}
            yield pytest.param(name, os.path.join(folder, file), known, id=f"{name}-{key}")


LEVELS = list(_levels())


def test_every_shipped_family_has_a_constraint_model():
    assert {"hexiom", "logic", "sigils", "slither", "nurikabe", "sudoku"} <= set(WITH_MODELS)


@pytest.mark.parametrize(("family", "path", "known"), LEVELS)
def test_the_model_keeps_to_its_declared_kinds_and_a_small_one_counts_what_expected_json_says(family, path, known):
    record = models.FAMILIES[family]
    level = record.parse(path)
    model = record.constraints(level).freeze()
    assert model.kinds() <= record.constraint_kinds
    assert all(constraint.label for constraint in model.constraints)
    try:
        found = list(semantics.solutions(model, limit=1 << 16))
    except ModelError:
        return  # too large for the brute force: the compilers' tests count it against expected.json
    own = frozenset(model.own)
    solutions = {model.decode(true & own) for true in found}
    assert all(record.validate(level, solution) == [] for solution in solutions)
    if known.get("complete"):
        assert len(solutions) == known["count"]
    projected = {true & own for true in found}
    for image in model.symmetries:  # a symmetry the model states maps its solutions onto its solutions
        assert {frozenset(image[v] for v in true) for true in projected} == projected
