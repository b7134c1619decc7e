"""Paths and helpers shared by the tests (importable because pytest puts tests/ on the path)."""

from __future__ import annotations

import glob
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Seconds a time limit may be overrun in a test before it counts as not held: generous, because
#: a limit that holds is never near it and one that does not is far past it, while a loaded CI
#: machine can stretch any run by seconds.  (How fast a limit reacts is measured by benchmarks.)
LIMIT_SLACK = 20.0
LEVELS = os.path.join(ROOT, "levels")
HEXIOM_LEVELS = sorted(glob.glob(os.path.join(LEVELS, "hexiom", "level*.txt")))


def level_path(family: str, stem_name: str) -> str:
    folder = os.path.join(LEVELS, family)
    for name in os.listdir(folder):
        if os.path.splitext(name)[0] == stem_name:
            return os.path.join(folder, name)
    raise FileNotFoundError(f"{family}/{stem_name}")


def stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def run_trisolve(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess[str]:
    """``python -m trisolve ARGS`` from the repository root, output captured as text."""
    import sys

    return subprocess.run(
        [sys.executable, "-m", "trisolve", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, **kwargs
    )


# ------------------------------------------------------------ the contract's helpers


def run_cli(argv: list[str]) -> int:
    """Run a trisolve command in this process (output to capsys), as a test or a program calling in would:
    its exit code.  Its ``--timeout`` counts from this call (``trisolve.cli.common.process_started``)."""
    from trisolve.cli.common import run_cli as run
    from trisolve.cli.main import cli

    return run(cli, argv)


def shipped_families() -> list[str]:
    """The families with shipped levels and their counts (``levels/<family>/expected.json``), from the registry's
    families: a family a test registers has none, a new shipped one is found without being named."""
    from trisolve.models import FAMILIES

    return [name for name in FAMILIES if os.path.isfile(os.path.join(LEVELS, name, "expected.json"))]


def expected(family: str) -> dict:
    """``levels/<family>/expected.json``: established counts (and orbit counts) by file stem."""
    import json

    with open(os.path.join(LEVELS, family, "expected.json"), encoding="utf-8") as handle:
        return json.load(handle)


def small_instances(family: str, most: int = 3, max_count: int = 60) -> list[str]:
    """Stems of a family's smallest shipped instances with a known count of 2..max_count, plus one with none.

    Chosen from expected.json, so a new family's levels are picked up without naming them.
    """
    known = {stem: entry for stem, entry in expected(family).items() if entry.get("complete")}
    by_size = sorted(known, key=lambda stem: (os.path.getsize(level_path(family, stem)), stem))
    chosen = [stem for stem in by_size if 2 <= known[stem]["count"] <= max_count][:most]
    chosen += [stem for stem in by_size if known[stem]["count"] == 0][:1]
    return chosen


def assert_valid(family, level, solutions) -> None:
    """Every solution passes the family's own validator (never a backend's word)."""
    for solution in solutions:
        violations = family.validate(level, solution)
        assert not violations, f"{getattr(level, 'name', level)}: {violations[0].message}"


def assert_listed_once(family, level, result) -> None:
    """A complete listing holds ``count`` different valid solutions; a count-only run lists none."""
    from trisolve.backends import registry

    assert_valid(family, level, result.solutions)
    assert result.duplicates == 0
    from trisolve.backends.spec import Spec

    backend = Spec.parse(result.backend).backend
    if registry.catalog(backend, family.name).count_only:
        assert result.solutions == ()
    else:
        assert len({family.canonical(level, s) for s in result.solutions}) == result.count


def script(name: str):
    """A measurement script of ``scripts/`` (outside the installed package) loaded as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"scripts_{name}", os.path.join(ROOT, "scripts", f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------ backends from outside, for the tests


def plugin_backend(make, variants: dict[str, str], family: str = "hexiom", **catalog) -> object:
    """A backend module as ``registry.register`` takes it: ``make(family, variant, translator)``, always
    available, and one translator for ``family`` that declares ``variants`` (the first is the default) and
    nothing else."""
    import types

    from trisolve.backends.catalog import Catalog

    declared = Catalog(default=next(iter(variants)), variants=dict(variants), **catalog)
    return types.SimpleNamespace(
        available=lambda: None, make=make, TRANSLATORS={family: types.SimpleNamespace(CATALOG=declared)}
    )


def clingo_words(command: list[str]) -> list[str]:
    """A printed clingo command as ``["clingo", *arguments]``, whichever way it runs clingo here: the binary, or
    ``python -m clingo`` where pip installed the module without one (the export prints what runs)."""
    if command[:1] == ["clingo"]:
        return command
    assert command[1:3] == ["-m", "clingo"], command
    return ["clingo", *command[3:]]
