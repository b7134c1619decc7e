"""Each (backend, family) declares its variants once, in its translator's CATALOG.

The registry reads that declaration without importing the translator; these
tests prove the reading equals the object the engine imports, and that
listing every backend imports no solver library.
"""

from __future__ import annotations

import dataclasses
import glob
import importlib
import os
import subprocess
import sys

import pytest

from trisolve.backends import catalog, registry
from trisolve.backends.base import Options
from trisolve.models import FAMILIES

BACKENDS_DIR = os.path.dirname(registry.__file__)


def _translator_files() -> list[tuple[str, str]]:
    """(backend, family) of every translator: a file ``backends/<backend>/<family>.py`` or a package
    ``backends/<backend>/<family>/``."""
    found = set()
    for path in glob.glob(os.path.join(BACKENDS_DIR, "*", "*.py")) + glob.glob(
        os.path.join(BACKENDS_DIR, "*", "*", "")
    ):
        backend, name = os.path.relpath(path, BACKENDS_DIR).split(os.sep)[:2]
        if os.path.splitext(name)[0] in FAMILIES and backend != "TEMPLATE":
            found.add((backend, os.path.splitext(name)[0]))
    return sorted(found)


TRANSLATORS = _translator_files()


#: (backend, family) pairs a generic translator serves (clingo's ``hand`` for each family with rules of its own)
GENERIC = sorted((b, f) for b in registry.shipped() for f in FAMILIES if registry._generic_for(b, f))
#: the families that state their rules once more, as ASP of their own (``Family.asp``)
OWN_RULES = sorted(name for name, record in FAMILIES.items() if record.asp is not None)


def test_the_registry_finds_the_shipped_backends_by_their_folders() -> None:
    folders = {
        os.path.basename(os.path.dirname(path)) for path in glob.glob(os.path.join(BACKENDS_DIR, "*", "__init__.py"))
    }
    assert set(registry.shipped()) == {name for name in folders if name.islower()}
    assert "TEMPLATE" in folders and "TEMPLATE" not in registry.names()  # the template is not a backend
    found = {(b, f) for b in registry.shipped() for f in FAMILIES if registry.catalog(b, f)}
    assert found == set(TRANSLATORS) | set(GENERIC)


@pytest.mark.parametrize("family", OWN_RULES)
def test_a_family_with_rules_of_its_own_gets_clingos_hand_variant(family: str) -> None:
    assert ("clingo", family) in GENERIC
    assert "hand" in registry.catalog("clingo", family).variants
    translator = registry.translator("clingo", family, "hand")
    assert translator.CATALOG.generic == "asp"
    assert translator.rules("hand", Options()) == [FAMILIES[family].asp.rules]
    assert os.path.isfile(FAMILIES[family].asp.rules)


def test_a_family_without_rules_of_its_own_has_no_hand_variant() -> None:
    assert "hand" not in registry.catalog("clingo", "hexiom").variants
    assert "clingo:hand: hexiom has no rules of its own" in registry.left_out("clingo", "hexiom")


def test_the_template_reads_like_a_backend() -> None:
    """backends/TEMPLATE/ is what a new backend copies: its declaration and catalog read as a real one's."""
    template = importlib.import_module("trisolve.backends.TEMPLATE")
    assert callable(template.make) and isinstance(template.available(), str)  # TEMPLATEpy is not installed
    assert set(registry.ROLES) <= set(vars(template))
    assert catalog.read(os.path.join(BACKENDS_DIR, "TEMPLATE", "hexiom.py")).default == "plain"


@pytest.mark.parametrize("backend,family", TRANSLATORS, ids=[f"{b}-{f}" for b, f in TRANSLATORS])
def test_reading_without_import_equals_the_imported_catalog(backend: str, family: str) -> None:
    if registry.available(backend) is not None:
        pytest.skip(f"{backend} is not installed")
    module = importlib.import_module(f"trisolve.backends.{backend}.{family}")
    assert registry._own_file(backend, family) == module.CATALOG
    found = registry.catalog(backend, family)
    # the family's own translator's catalog, plus the variants of the generic translators that take the family
    generic = {v for _, offered in registry._generic(backend) for v in offered.variants}
    assert dataclasses.replace(found, variants=module.CATALOG.variants) == module.CATALOG
    assert {v: found.variants[v] for v in module.CATALOG.variants} == dict(module.CATALOG.variants)
    assert set(found.variants) - set(module.CATALOG.variants) <= generic
    assert registry.translator(backend, family) is module


def test_listing_imports_no_solver() -> None:
    code = (
        "import sys; from trisolve.backends import registry; from trisolve.models import FAMILIES; "
        "[registry.describe_all(f) for f in FAMILIES]; "
        "loaded = [m for m in ('pysat', 'clingo', 'ortools') if m in sys.modules]; "
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_dp_capabilities_are_declared_per_family() -> None:
    # the drift this catalog ended: dp counts Hexiom's symmetry classes (Burnside), not sigils'
    assert registry.breaks_symmetries("dp", "hexiom")
    assert not registry.breaks_symmetries("dp", "sigils")
    assert registry.catalog("dp", "hexiom").count_only and registry.catalog("dp", "sigils").count_only
    assert not registry.catalog("pysat", "hexiom").count_only


def test_a_catalog_must_hold_literals(tmp_path) -> None:
    path = tmp_path / "toy.py"
    path.write_text("NAME = 'a'\nCATALOG = Catalog(default=NAME, variants={NAME: 'x'})\n")
    with pytest.raises(ValueError, match="literals"):
        catalog.read(str(path))


@pytest.mark.parametrize(
    "written,supports",
    [("'every kind'", "every kind"), ("('unit', 'clause')", ("unit", "clause")), ("()", ())],
)
def test_supports_read_without_import_equals_the_object(tmp_path, written: str, supports) -> None:
    """A generic translator may name every kind at once; the file read and the object built agree on what that is."""
    from trisolve.constraints import KINDS

    path = tmp_path / "compiled.py"
    path.write_text(
        f"CATALOG = Catalog(default='c', variants={{'c': 'x'}}, generic='constraints', supports={written})\n"
    )
    made = catalog.Catalog(default="c", variants={"c": "x"}, generic="constraints", supports=supports)
    assert catalog.read(str(path)) == made
    assert made.kinds() == (KINDS if supports == catalog.EVERY_KIND else supports)


def test_supports_names_no_other_set() -> None:
    with pytest.raises(ValueError, match="every kind"):
        catalog.Catalog(default="c", variants={"c": "x"}, supports="every")


def test_default_must_be_listed() -> None:
    with pytest.raises(ValueError, match="not among"):
        catalog.Catalog(default="b", variants={"a": "x"})


def test_unknown_family_is_unsupported() -> None:
    with pytest.raises(registry.UnsupportedFamily):
        registry.get("pysat", "no-such-family")
    with pytest.raises(registry.UnsupportedFamily):
        registry.translator("clingo", "no-such-family")


def test_every_shipped_backend_is_packaged() -> None:
    """A backend folder the registry finds is also installed (setup.py finds the packages by folder), a translator
    package too, rules files and sidecars as package data; the template is not installed."""
    import runpy

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    root = os.path.dirname(BACKENDS_DIR)
    packages = runpy.run_path(os.path.join(root, "setup.py"), run_name="setup")["packages"]()
    assert {f"trisolve.backends.{name}" for name in registry.shipped()} <= set(packages)
    assert "trisolve.backends.dp.hexiom" in packages
    assert not [name for name in packages if "TEMPLATE" in name]
    with open(os.path.join(root, "pyproject.toml"), "rb") as handle:
        setuptools = tomllib.load(handle)["tool"]["setuptools"]
    assert {"encodings/*.lp", "encodings/*.mutants.toml"} <= set(setuptools["package-data"]["trisolve.backends.clingo"])
