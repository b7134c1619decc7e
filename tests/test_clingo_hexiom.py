"""The clingo backend on Hexiom: valid solutions, exact projected counts, limits,
symmetry breaking, and exported facts that run under clingo on their own."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time

import pytest

clingo = pytest.importorskip("clingo")

from trisolve.backends import clingo as clingo_backend  # noqa: E402
from trisolve.backends import registry  # noqa: E402
from trisolve.backends.base import Limits, Options, Status, UnsupportedFamily  # noqa: E402
from trisolve.backends.clingo import engine  # noqa: E402
from trisolve.models import hexiom  # noqa: E402

LEVELS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "levels", "hexiom")
VARIANTS = list(clingo_backend.VARIANTS["hexiom"])
DEFAULT = clingo_backend.DEFAULT_VARIANT["hexiom"]
OTHERS = [v for v in VARIANTS if v != DEFAULT]


def level(number: int) -> hexiom.Level:
    return hexiom.parse(os.path.join(LEVELS_DIR, f"level{number:02d}.txt"))


def backend(variant: str):
    return registry.get(f"clingo:{variant}", "hexiom")


def assert_valid(lvl: hexiom.Level, solutions) -> None:
    for solution in solutions:
        assert hexiom.validate(lvl, solution) == [], hexiom.render(lvl, solution)


SMALL_LEVELS = [n for n in range(41) if level(n).side <= 4]


def cases(variants, levels):
    return [pytest.param(v, n, id=f"hexiom-level{n:02d}-clingo:{v}") for v in variants for n in levels]


# ------------------------------------------------------------ registry face


def test_registry_face():
    assert clingo_backend.available() is None
    assert DEFAULT in VARIANTS and len(VARIANTS) >= 2
    b = backend(DEFAULT)
    assert b.name == f"clingo:{DEFAULT}" and b.family == "hexiom"
    with pytest.raises(ValueError):
        clingo_backend.make("hexiom", "no-such-variant")
    with pytest.raises(UnsupportedFamily):
        clingo_backend.make("no-such-family", "count")


def test_package_face_matches_the_translator():
    """__init__ repeats the variants without importing clingo; they must not drift apart."""
    from trisolve.backends.clingo import hexiom as translator

    assert clingo_backend.VARIANTS["hexiom"] == translator.VARIANTS
    assert DEFAULT == translator.DEFAULT


def test_rule_files_are_shipped():
    for variant in VARIANTS:
        for sb in (False, True):
            paths = engine.rule_paths("hexiom", variant, Options(symmetry_breaking=sb))
            assert all(os.path.isfile(p) and p.endswith(".lp") for p in paths)
            assert any(p.endswith("hexiom_symmetry.lp") for p in paths) == sb


# ---------------------------------------------------------- first solutions


@pytest.mark.parametrize("variant,number", cases([DEFAULT], SMALL_LEVELS))
def test_default_variant_solves_small_levels(variant, number):
    lvl = level(number)
    result = backend(variant).run(lvl, Limits(time=30), Options())
    assert result.status is Status.SAT
    assert result.count == 1 and not result.complete  # a first solution is not a count
    assert_valid(lvl, result.solutions)


@pytest.mark.parametrize("variant,number", cases(OTHERS, [1, 6, 10, 20, 27, 33]))
def test_other_variants_solve(variant, number):
    lvl = level(number)
    result = backend(variant).run(lvl, Limits(time=30), Options())
    assert result.status is Status.SAT
    assert_valid(lvl, result.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("variant,number", cases(VARIANTS, [38, 39, 40]))
def test_hard_levels(variant, number):
    lvl = level(number)
    result = backend(variant).run(lvl, Limits(time=120), Options())
    assert result.status is Status.SAT, result
    assert_valid(lvl, result.solutions)


# ------------------------------------------------------------------ counts


@pytest.mark.parametrize("variant", VARIANTS)
def test_level01_has_12_solutions(variant):
    lvl = level(1)
    seen = []
    result = backend(variant).run(lvl, Limits(), Options(enumerate=True), on_solution=seen.append)
    assert (result.count, result.complete) == (12, True)
    assert result.duplicates == 0 and result.stopped_by is None
    assert seen == list(result.solutions)
    assert len({hexiom.canonical(lvl, s) for s in result.solutions}) == 12
    assert_valid(lvl, result.solutions)


@pytest.mark.parametrize("variant", VARIANTS)
def test_variants_agree_on_counts(variant):
    lvl = level(11)
    result = backend(variant).run(lvl, Limits(time=30), Options(enumerate=True))
    assert (result.count, result.complete) == (49, True)
    assert_valid(lvl, result.solutions)


def test_unsat_level_is_a_complete_zero():
    # one tile numbered 6 can never see six occupied neighbours
    lvl = hexiom.parse_text("2\n 6 .\n. . .\n . .\n")
    result = backend(DEFAULT).run(lvl, Limits(time=10), Options(enumerate=True))
    assert result.status is Status.UNSAT and result.complete and result.count == 0


# ------------------------------------------------------------------ limits


@pytest.mark.parametrize("variant", VARIANTS)
def test_solution_limit_gives_an_incomplete_count(variant):
    lvl = level(12)  # 258 solutions
    result = backend(variant).run(lvl, Limits(solutions=3), Options(enumerate=True))
    assert result.count == 3 and not result.complete
    assert result.count_text == "3+" and result.stopped_by == "solution limit"
    assert_valid(lvl, result.solutions)


def test_time_limit_holds_on_level40_enumeration():
    lvl = level(40)
    started = time.monotonic()
    result = backend(DEFAULT).run(lvl, Limits(time=1), Options(enumerate=True))
    assert time.monotonic() - started < 3
    assert not result.complete and result.stopped_by == "time limit"
    assert_valid(lvl, result.solutions)


def test_zero_time_returns_unknown_at_once():
    started = time.monotonic()
    result = backend(DEFAULT).run(level(38), Limits(time=0), Options())
    assert time.monotonic() - started < 1
    assert result.status is Status.UNKNOWN and not result.complete


# ------------------------------------------------------- symmetry breaking


@pytest.mark.parametrize("variant,number", cases(VARIANTS, [1, 3, 5, 10, 11, 14]))
def test_symmetry_breaking_keeps_one_per_orbit(variant, number):
    lvl = level(number)
    b = backend(variant)
    full = b.run(lvl, Limits(time=30), Options(enumerate=True))
    broken = b.run(lvl, Limits(time=30), Options(enumerate=True, symmetry_breaking=True))
    assert full.complete and broken.complete
    assert_valid(lvl, full.solutions + broken.solutions)
    orbits = {hexiom.orbit_representative(lvl, s) for s in full.solutions}
    assert broken.count == len(orbits)
    assert all(hexiom.is_lex_leader(lvl, s) for s in broken.solutions)
    assert {hexiom.symmetry_key(s) for s in broken.solutions} == orbits


# ------------------------------------------------------------------ export


def _command(exported: str) -> list[str]:
    """The clingo command line written in the exported file's header."""
    for line in exported.splitlines():
        text = line.lstrip("% ").strip()
        if text.startswith("clingo "):
            return shlex.split(text)
    raise AssertionError("no clingo command line in the exported header")


def _count_from_scratch(exported: str, tmp_path) -> int:
    words = _command(exported)
    facts_file = tmp_path / words[-1]
    facts_file.write_text(exported)
    files = [w for w in words[1:] if w.endswith(".lp")]
    arguments = [w for w in words[1:] if not w.endswith(".lp")]
    arguments = ["0" if a == "1" else a for a in arguments]  # enumerate, as the CLI would with 0
    control = clingo.Control(arguments, logger=lambda code, message: None)
    for file in files[:-1]:
        control.load(file)
    control.load(str(facts_file))
    control.ground([("base", [])])
    models = 0
    with control.solve(yield_=True) as handle:
        for _ in handle:
            models += 1
        assert handle.get().exhausted
    return models


@pytest.mark.parametrize("variant,number,sb", [
    pytest.param(v, n, sb, id=f"hexiom-level{n:02d}-clingo:{v}{'-sb' if sb else ''}")
    for v in VARIANTS for n, sb in ((1, False), (11, False), (13, True))
])
def test_exported_facts_run_from_scratch(variant, number, sb, tmp_path):
    lvl = level(number)
    b = backend(variant)
    options = Options(enumerate=True, symmetry_breaking=sb)
    exported = b.export(lvl, options)
    assert exported.startswith("%")
    result = b.run(lvl, Limits(time=30), options)
    assert result.complete
    assert _count_from_scratch(exported, tmp_path) == result.count


def test_exported_command_runs_under_the_clingo_cli(tmp_path):
    lvl = level(11)
    options = Options(enumerate=True)
    exported = backend(DEFAULT).export(lvl, options)
    words = _command(exported)
    (tmp_path / words[-1]).write_text(exported)
    # `python -m clingo` is the CLI the clingo wheel ships
    done = subprocess.run([sys.executable, "-m", *words], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 10, 20, 30), done.stderr  # pyclingo exits 0; the binary 10/20/30
    models = [line for line in done.stdout.splitlines() if line.startswith("Models")]
    assert models and models[0].split(":")[1].strip() == "49"


def test_facts_use_integers_only():
    facts = clingo_backend.make("hexiom", DEFAULT).export(level(39), Options(symmetry_breaking=True))
    body = "\n".join(line for line in facts.splitlines() if not line.startswith("%"))
    assert '"' not in body
    control = clingo.Control()
    control.add("base", [], body)
    control.ground([("base", [])])
    for atom in control.symbolic_atoms:
        assert all(argument.type is clingo.SymbolType.Number for argument in atom.symbol.arguments)


@pytest.mark.parametrize("variant", VARIANTS)
def test_lp_headers_give_the_command_the_backend_runs(variant):
    """The command written at the top of each variant's .lp file uses the variant's measured options."""
    from trisolve.backends.clingo import hexiom as translator

    rule_file = translator.VARIANT_RULES[variant]
    with open(engine.encoding_path(rule_file)) as handle:
        header = [line for line in handle if line.startswith("%   clingo ")]
    assert header, f"{rule_file} has no command line in its header"
    words = shlex.split(header[0].lstrip("% "))
    options = [w for w in words[2:] if not w.endswith(".lp")]
    assert options == ["--project", *translator.VARIANT_ARGUMENTS[variant]]
    assert [w for w in words if w.endswith(".lp")][:2] == translator.rules(variant, Options())


@pytest.mark.slow
def test_time_limit_holds_while_grounding_a_huge_board():
    """Side 16 with symmetry breaking grounds and preprocesses for seconds; the deadline still holds."""
    board = hexiom.Board(hexiom.MAX_SIDE)
    lvl = hexiom.Level(board, (0, 0, 0, 10, 20, 30, 40), (), frozenset(), name="huge")
    started = time.monotonic()
    result = backend(DEFAULT).run(lvl, Limits(time=1), Options(symmetry_breaking=True))
    assert time.monotonic() - started < 2.5
    assert result.status is Status.UNKNOWN and result.stopped_by == "time limit"
