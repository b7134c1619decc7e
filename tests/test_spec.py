"""One spec type: ``Spec.parse`` reads every backend name a user gives, ``str`` prints it back exactly, and no
other code splits a spec by hand."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT
from test_layering import _modules

from trisolve.backends import registry
from trisolve.backends.spec import BadSpec, Spec

EXAMPLES = {
    "pysat": Spec("pysat"),
    "clingo:count": Spec("clingo", "count"),
    "pysat:seqcounter+binomial@glucose4": Spec("pysat", "seqcounter+binomial", "glucose4"),
    "clingo:count/orbits": Spec("clingo", "count", orbits=True),
    "mutated:pysat:totalizer~drop-group@backends/pysat/hexiom.py:71[locked tiles]": Spec(
        "pysat", "totalizer", mutation="drop-group@backends/pysat/hexiom.py:71[locked tiles]"
    ),
    "mutated:clingo:count~lp:hexiom_count.lp=/tmp/m/x.lp/orbits": Spec(
        "clingo", "count", mutation="lp:hexiom_count.lp=/tmp/m/x.lp", orbits=True
    ),
}


@pytest.mark.parametrize("text", EXAMPLES)
def test_each_form_parses_into_its_parts_and_prints_back(text):
    assert Spec.parse(text) == EXAMPLES[text]
    assert str(EXAMPLES[text]) == text


def test_the_variant_a_catalog_lists_keeps_its_solver():
    spec = Spec.parse("pysat:totalizer@glucose4")
    assert (spec.variant, spec.solver, spec.variant_name) == ("totalizer", "glucose4", "totalizer@glucose4")
    assert Spec("pysat").with_variant("totalizer@glucose4") == spec
    assert Spec.parse("mutated:pysat:totalizer~x/orbits").plain == Spec("pysat", "totalizer")


@pytest.mark.parametrize(
    "text", ["", ":count", "pysat:", "pysat:a b", "py sat", "pysat:count@", "mutated:pysat", "mutated:pysat:x~", "a,b"]
)
def test_what_is_not_a_spec_is_a_usage_error(text):
    with pytest.raises(BadSpec):
        Spec.parse(text)


NAMES = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
PARTS = st.from_regex(r"[a-z0-9][a-z0-9+._-]{0,8}", fullmatch=True)


@given(
    backend=NAMES,
    variant=st.none() | PARTS,
    solver=st.none() | PARTS,
    mutation=st.none() | st.text(min_size=1, max_size=20).filter(lambda t: not t.endswith("/orbits")),
    orbits=st.booleans(),
)
def test_any_spec_prints_and_parses_back_exactly(backend, variant, solver, mutation, orbits):
    spec = Spec(backend, variant, solver if variant else None, mutation if variant else None, orbits)
    assert Spec.parse(str(spec)) == spec
    assert str(Spec.parse(str(spec))) == str(spec)


def test_the_registry_takes_specs_and_text_alike():
    assert registry.resolve(Spec("clingo"), "hexiom") == registry.resolve("clingo", "hexiom") == "clingo:count"
    assert registry.expand(["clingo:count/orbits"], "hexiom") == ["clingo:count/orbits"]
    assert all(str(Spec.parse(v)) == v for v in registry.expand(["pysat"], "hexiom"))


#: Code that splits on ":" or "@" for something that is not a spec: Knuth's exact-cover format writes a
#: secondary item's colour as ITEM:COLOUR; a mutation's own text (the part of a spec after "~", which the spec
#: keeps whole) reads OPERATOR@FILE:LINE[NAME].
NOT_SPECS = {"trisolve.backends.exactcover.engine", "trisolve.backends.mutation"}


def _splits_on_colon(path: str) -> list[int]:
    """Lines that call ``.split(":")``, ``.partition(":")`` or ``.rpartition(":")`` (or the same on "@")."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("split", "partition", "rpartition", "rsplit")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in (":", "@", "~")
    ]


def test_no_code_splits_a_spec_by_hand():
    """The package, the scripts and the tests take a spec's parts from ``Spec``, never by splitting its text."""
    found = []
    for module, path in _modules().items():
        if module not in NOT_SPECS and module != "trisolve.backends.spec":
            found += [f"{module}:{line}" for line in _splits_on_colon(str(path))]
    for folder in ("scripts", "tests"):
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.endswith(".py"):
                found += [f"{folder}/{name}:{line}" for line in _splits_on_colon(os.path.join(ROOT, folder, name))]
    assert found == []
