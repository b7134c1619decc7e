"""Proof that the cross-checker has teeth: every deliberately broken encoding is caught.

The mutants (tests/mutants.py) run next to the real default PySAT encoding on
the shipped small levels; each must be reported as a disagreement or an
invalid solution on at least one level, and the unbroken control never.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import mutants
import pytest
from support import HEXIOM_LEVELS, ROOT, stem

from trisolve.backends import registry
from trisolve.crosscheck.run import Instance, Plan, Runs, cross_check
from trisolve.models import FAMILIES
from trisolve.models.hexiom import model as hexiom

# side <= 3: every count completes in well under a second per backend
SMALL = [p for p in HEXIOM_LEVELS if hexiom.parse(p).side <= 3]


@pytest.fixture(scope="module")
def verdicts():
    return _family_verdicts("hexiom", SMALL, mutants.MUTATIONS)


def _caught(verdicts, backend: str) -> list[str]:
    return [
        stem(v.path)
        for v in verdicts
        if any(f.kind in ("disagree", "invalid", "duplicate") and backend in f.backends for f in v.findings)
    ]


@pytest.mark.parametrize("mutation", [m for m in mutants.MUTATIONS if m != "correct"])
def test_every_mutant_is_caught(verdicts, mutation):
    assert _caught(verdicts, f"mutant:{mutation}"), f"mutant {mutation} survived on all {len(SMALL)} small levels"


def test_the_unbroken_control_agrees_everywhere(verdicts):
    assert _caught(verdicts, "mutant:correct") == []
    control = [r for v in verdicts for r in v.records if r.backend == "mutant:correct"]
    assert control and all(r.complete for r in control)


def test_minimiser_shrinks_a_disagreement_and_prints_a_command_that_reproduces_it(tmp_path):
    """End to end through the CLI: --minimize writes a smaller level and a repro command."""
    level = os.path.join(ROOT, "levels", "hexiom", "level08.txt")
    plugin = os.path.join(ROOT, "tests", "mutants.py")
    command = [
        sys.executable,
        "-m",
        "trisolve",
        "crosscheck",
        level,
        "--backends",
        "pysat,mutant:neighbours-off-by-one",
        "--plugin",
        plugin,
        "--no-expected",
        "--minimize",
        "--minimize-dir",
        str(tmp_path),
        "--timeout",
        "20",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    written = tmp_path / "level08-min.txt"
    assert written.exists(), done.stdout
    small = hexiom.parse(str(written))
    original = hexiom.parse(level)
    assert (small.board.size, small.tile_total) < (original.board.size, original.tile_total)
    repro = next(line.strip() for line in done.stdout.splitlines() if line.strip().startswith("trisolve crosscheck"))
    again = subprocess.run(
        [sys.executable, "-m", "trisolve", *shlex.split(repro)[1:]],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert again.returncode == 1, again.stdout + again.stderr
    assert "VERDICT: FAILED" in again.stdout


# ------------------------------------------------------------ logic grids

LOGIC_PUZZLES = sorted(
    os.path.join(ROOT, "levels", "logic", n)
    for n in os.listdir(os.path.join(ROOT, "levels", "logic"))
    if n.endswith(".toml")
)


def _family_verdicts(family_name: str, paths: list[str], mutations) -> list:
    """Run the family's default pysat encoding and every mutant of it on the paths, and judge."""
    mutants.register()
    family = FAMILIES[family_name]
    instances = [Instance(p, family, family.parse(p)) for p in paths]
    names = [registry.resolve("pysat", family_name)] + [f"mutant:{m}" for m in mutations]
    # a cap keeps the loosest mutants short; a capped count above the true count is still caught
    with Runs(parallel=2) as runs:
        return list(cross_check(instances, lambda _: names, runs, Plan(timeout=30, limit=2000)).verdicts)


@pytest.fixture(scope="module")
def logic_verdicts():
    return _family_verdicts("logic", LOGIC_PUZZLES, mutants.LOGIC_MUTATIONS)


@pytest.mark.parametrize("mutation", [m for m in mutants.LOGIC_MUTATIONS if m != "correct"])
def test_every_logic_mutant_is_caught(logic_verdicts, mutation):
    assert _caught(logic_verdicts, f"mutant:{mutation}"), f"logic mutant {mutation} survived"


def test_the_logic_control_agrees_everywhere(logic_verdicts):
    assert _caught(logic_verdicts, "mutant:correct") == []


# ------------------------------------------------------------ sigil packing

SIGIL_SMALL = [
    os.path.join(ROOT, "levels", "sigils", f"{n}.txt")
    for n in (
        "gate-4x3",
        "gate-4x4",
        "gate-5x4",
        "gate-6x4",
        "gate-7x4",
        "free-6x4",
        "pentominoes-5x5",
        "trominoes-5x3",
    )
]


@pytest.fixture(scope="module")
def sigil_verdicts():
    return _family_verdicts("sigils", SIGIL_SMALL, mutants.SIGIL_MUTATIONS)


@pytest.mark.parametrize("mutation", [m for m in mutants.SIGIL_MUTATIONS if m != "correct"])
def test_every_sigil_mutant_is_caught(sigil_verdicts, mutation):
    assert _caught(sigil_verdicts, f"mutant:{mutation}"), f"sigil mutant {mutation} survived"


def test_the_sigil_control_agrees_everywhere(sigil_verdicts):
    assert _caught(sigil_verdicts, "mutant:correct") == []


# ------------------------------------------------------------ count-only mutants

FIXTURE_OF = {"hexiom": "verdicts", "logic": "logic_verdicts", "sigils": "sigil_verdicts"}


@pytest.mark.parametrize("family,mutation", [(f, m) for f, names in mutants.COUNT_ONLY.items() for m in names])
def test_count_only_mutants_are_caught_by_counting_alone(request, family, mutation):
    """These lose solutions and never return a wrong one: the validator has nothing to see, the counts do."""
    verdicts = request.getfixturevalue(FIXTURE_OF[family])
    backend = f"mutant:{mutation}"
    assert _caught(verdicts, backend), f"{family} count-only mutant {mutation} survived"
    invalid = [v.path for v in verdicts for f in v.findings if f.kind == "invalid" and backend in f.backends]
    assert invalid == [], f"{mutation} returned invalid solutions on {invalid}: not a count-only mutant"
