"""The clingo backend on Hexiom, beyond the contract (tests/test_contract.py): the
non-default variants on the hard levels, rule files, and exported facts that run
under clingo on their own."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time

import pytest
from support import LIMIT_SLACK, clingo_words

clingo = pytest.importorskip("clingo")

from trisolve.backends import clingo as clingo_backend  # noqa: E402
from trisolve.backends import registry  # noqa: E402
from trisolve.backends.base import Limits, Options, Status, UnsupportedFamily  # noqa: E402
from trisolve.backends.clingo import engine  # noqa: E402
from trisolve.backends.clingo import hexiom as hand_rules  # noqa: E402
from trisolve.models.hexiom import model as hexiom  # noqa: E402

LEVELS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "levels", "hexiom")
#: the hand translator's own variants (the compiled one is tested with the other compilers: tests/test_compilers.py)
VARIANTS = hand_rules.CATALOG.ordered()
DEFAULT = hand_rules.CATALOG.default
OTHERS = [v for v in VARIANTS if v != DEFAULT]


def level(number: int) -> hexiom.Level:
    return hexiom.parse(os.path.join(LEVELS_DIR, f"level{number:02d}.txt"))


def backend(variant: str):
    return registry.get(f"clingo:{variant}", "hexiom")


def assert_valid(lvl: hexiom.Level, solutions) -> None:
    for solution in solutions:
        assert hexiom.validate(lvl, solution) == [], hexiom.render(lvl, solution)


def cases(variants, levels):
    return [pytest.param(v, n, id=f"hexiom-level{n:02d}-clingo:{v}") for v in variants for n in levels]


# ------------------------------------------------------------ registry face


def test_registry_face():
    assert clingo_backend.available() is None
    assert DEFAULT in VARIANTS and len(VARIANTS) >= 2
    b = backend(DEFAULT)
    assert b.name == f"clingo:{DEFAULT}" and b.family == "hexiom"
    with pytest.raises(ValueError):
        registry.get("clingo:no-such-variant", "hexiom")
    with pytest.raises(UnsupportedFamily):
        registry.get("clingo:count", "no-such-family")


def test_rule_files_are_shipped():
    for variant in VARIANTS:
        for sb in (False, True):
            paths = registry.get(f"clingo:{variant}", "hexiom").rule_paths(Options(symmetry_breaking=sb))
            assert all(os.path.isfile(p) and p.endswith(".lp") for p in paths)
            assert any(p.endswith("hexiom_symmetry.lp") for p in paths) == sb


# ---------------------------------------------------------- first solutions


@pytest.mark.slow
@pytest.mark.parametrize("variant,number", cases(OTHERS, [38, 39, 40]))  # the default's: test_contract
def test_hard_levels(variant, number):
    lvl = level(number)
    result = backend(variant).run(lvl, Limits(time=120), Options())
    assert result.status is Status.SAT, result
    assert_valid(lvl, result.solutions)


# ------------------------------------------------------------------ counts


# ------------------------------------------------------------------ limits


def test_zero_time_returns_unknown_at_once():
    started = time.monotonic()
    result = backend(DEFAULT).run(level(38), Limits(time=0), Options())
    assert time.monotonic() - started < LIMIT_SLACK
    assert result.status is Status.UNKNOWN and not result.complete


# ------------------------------------------------------- symmetry breaking


# ------------------------------------------------------------------ export


def _command(exported: str) -> list[str]:
    """The clingo command line written in the exported file's header."""
    for line in exported.splitlines():
        text = line.lstrip("% ").strip()
        if text.startswith("clingo ") or " -m clingo " in text:
            return clingo_words(shlex.split(text))
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


@pytest.mark.parametrize(
    "variant,number,sb",
    [
        pytest.param(v, n, sb, id=f"hexiom-level{n:02d}-clingo:{v}{'-sb' if sb else ''}")
        for v in VARIANTS
        for n, sb in ((1, False), (11, False), (13, True))
    ],
)
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
    assert models and models[0].removeprefix("Models").strip(" :") == "49"


def test_facts_use_integers_only():
    facts = registry.get(f"clingo:{DEFAULT}", "hexiom").export(level(39), Options(symmetry_breaking=True))
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
    assert time.monotonic() - started < 1 + LIMIT_SLACK
    assert result.status is Status.UNKNOWN and result.stopped_by == "time limit"
