"""A family lives in its own rooms: ``models/<family>/``, ``levels/<family>/`` and, optionally, a translator per
backend, ``backends/<backend>/<family>*``.  Nothing else names it, and adding one touches nothing else.

The toy family proves the second half, by the short path: ``models/TEMPLATE/`` copied as ``models/toy/`` (its
rules stated once, ``constraints.py``) into a copy of the package, with levels and no translator, runs through
the commands on every backend that compiles constraint models, in a fresh interpreter that imports that copy,
and nothing outside its two rooms was written.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest
from support import ROOT
from test_layering import _modules, _package_dirs

from trisolve.models import FAMILIES, Family
from trisolve.models.family import Request

WORD = re.compile(r"[A-Za-z0-9]+")


# ------------------------------------------------------------------ nothing else names a family


def _in_rooms(module: str) -> bool:
    """Whether a module is in a family's rooms: its package, or a backend's translator of it (file or package)."""
    parts = module.split(".")
    if parts[:2] == ["trisolve", "models"] and len(parts) > 2 and (parts[2] in FAMILIES or parts[2] == "TEMPLATE"):
        return True
    return parts[:2] == ["trisolve", "backends"] and len(parts) > 3 and (parts[3] in FAMILIES or parts[2] == "TEMPLATE")


def _docstrings(tree: ast.AST) -> set[int]:
    """The docstrings of a module, its classes and functions: prose, where a family may be an example."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _words(node: ast.AST, docstrings: set[int]) -> list[str]:
    """The names and text a node holds: identifiers, imported modules, string literals (docstrings excepted)."""
    if isinstance(node, ast.Name):
        texts = [node.id]
    elif isinstance(node, ast.Attribute):
        texts = [node.attr]
    elif isinstance(node, ast.alias):
        texts = [node.name, node.asname or ""]
    elif isinstance(node, ast.ImportFrom):
        texts = [node.module or ""]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        texts = [node.name]
    elif isinstance(node, ast.arg):
        texts = [node.arg]
    elif isinstance(node, ast.keyword):
        texts = [node.arg or ""]
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
        texts = [node.value]
    else:
        return []
    return [word.lower() for text in texts for word in WORD.findall(text.replace("_", " "))]


def namings(families: set[str]) -> list[str]:
    """``file:line: family`` for every place outside the families' rooms whose code names one of ``families``."""
    found = []
    for module, path in sorted(_modules().items()):
        if _in_rooms(module):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            for word in set(_words(node, docstrings)) & families:
                found.append(f"{os.path.relpath(path, ROOT)}:{getattr(node, 'lineno', '?')}: {word}")
    return found


def test_no_file_outside_a_familys_rooms_names_it():
    assert namings(set(FAMILIES)) == []


def test_a_family_named_outside_its_rooms_would_be_found(tmp_path, monkeypatch):
    leak = tmp_path / "leak.py"
    leak.write_text('"""Docstrings may name hexiom."""\n\nSIZES = {"hexiom": 5}\n')
    monkeypatch.setitem(namings.__globals__, "_modules", lambda: {"trisolve.bench.leak": leak})
    assert [line.rpartition(": ")[2] for line in namings(set(FAMILIES))] == ["hexiom"]


# ------------------------------------------------------------------ families are found by folder


def test_the_families_are_the_folders_of_models():
    models = os.path.join(ROOT, "models")
    folders = {name for name in os.listdir(models) if os.path.isfile(os.path.join(models, name, "__init__.py"))}
    assert set(FAMILIES) == {name for name in folders if name.islower()}
    assert "TEMPLATE" in folders and "TEMPLATE" not in FAMILIES
    for name, family in FAMILIES.items():
        assert isinstance(family, Family) and family.name == name
        assert os.path.isfile(os.path.join(models, name, "model.py")), name


def test_the_template_is_a_family_to_copy():
    """models/TEMPLATE/ is what a new family copies: its record, parser, validator, picture and generator work."""
    from trisolve.models.errors import LevelSyntaxError
    from trisolve.models.TEMPLATE import FAMILY

    level = FAMILY.parse_text("choose 4 2\ngiven +1 -2\n", "t.TEMPLATE")
    solution = FAMILY.solution_from_json(level, {"chosen": [2, 0]})
    assert FAMILY.validate(level, solution) == [] and FAMILY.render(level, solution) == "#.#.\n"
    assert [v.rule for v in FAMILY.validate(level, FAMILY.solution_from_json(level, {"chosen": [1, 2]}))] == [
        "given",
        "given",
    ]
    with pytest.raises(LevelSyntaxError, match="t.TEMPLATE:2: expected"):
        FAMILY.parse_text("choose 4 2\ngiven +9\n", "t.TEMPLATE")
    assert "<svg" in FAMILY.picture(level, solution)

    def only_one(level, limit, time):  # two solutions found until four cells are given
        return (1, True, ()) if len(level.givens) >= 4 else (2, False, ())

    made = FAMILY.generate(Request(3, only_one, unique=True, name="g"), cells=4)
    assert made.unique and FAMILY.validate(made.level, made.solution) == []
    assert FAMILY.parse_text(made.text, "g").givens == made.level.givens


# ------------------------------------------------------------------ a new family touches only its rooms

#: Runs the command line from a copy of the package: each package-dir folder of the copy stands for its package.
BOOTSTRAP = textwrap.dedent(
    """
    import importlib.machinery, importlib.util, os, sys

    root, folders = sys.argv[1], dict(pair.split("=") for pair in sys.argv[2].split(","))
    del sys.argv[1:3]

    class CopyFinder:
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            if name in folders:
                where = os.path.join(root, folders[name])
                return importlib.util.spec_from_file_location(
                    name, os.path.join(where, "__init__.py"), submodule_search_locations=[where]
                )
            return None

    sys.meta_path.insert(0, CopyFinder)
    from trisolve.cli.main import main

    main()
    """
)


@pytest.fixture(scope="module")
def copy_with_toy(tmp_path_factory):
    """A copy of the package and its setup, plus the toy family in exactly its rooms; (root, added files)."""
    root = tmp_path_factory.mktemp("checkout")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in set(_package_dirs().values()):
        shutil.copytree(folder, root / folder.name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(os.path.join(ROOT, name), root / name)
    before = {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}
    # the family: the template, renamed
    shutil.copytree(root / "models" / "TEMPLATE", root / "models" / "toy", ignore=ignore)
    for path in (root / "models" / "toy").glob("*.py"):
        path.write_text(path.read_text(encoding="utf-8").replace("TEMPLATE", "toy"), encoding="utf-8")
    # its levels, with their established counts
    levels = root / "levels" / "toy"
    levels.mkdir(parents=True)
    (levels / "six.toy").write_text("choose 6 2\n")
    (levels / "given.toy").write_text("# two of five, the first chosen, the second not\nchoose 5 2\ngiven +1 -2\n")
    (levels / "none.toy").write_text("choose 3 2\ngiven -1 -2\n")
    (levels / "expected.json").write_text(
        json.dumps(
            {
                "six": {"count": 15, "complete": True},
                "given": {"count": 3, "complete": True},
                "none": {"count": 0, "complete": True},
            }
        )
    )
    # no translator: every backend that compiles constraint models runs the family from its constraints.py
    added = {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()} - before
    return root, added


def toy_command(root, *argv: str) -> subprocess.CompletedProcess:
    folders = ",".join(f"{package}={folder.name}" for package, folder in _package_dirs().items())
    return subprocess.run(
        [sys.executable, "-c", BOOTSTRAP, str(root), folders, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )


def test_the_toy_family_is_added_in_its_rooms_only(copy_with_toy):
    root, added = copy_with_toy
    rooms = ("models/toy/", "levels/toy/")
    assert added and all(path.replace(os.sep, "/").startswith(rooms) for path in added), sorted(added)
    import runpy

    packages = runpy.run_path(str(root / "setup.py"), run_name="setup")["packages"](str(root))
    assert "trisolve.models.toy" in packages  # installed too, with no list edited


def test_the_toy_family_runs_through_the_commands(copy_with_toy, tmp_path):
    root, _ = copy_with_toy
    listed = toy_command(root, "backends", "--family", "toy")
    assert listed.returncode == 0, listed.stderr
    for spec in ("pysat:compiled", "clingo:compiled", "cpsat:compiled", "mip:compiled", "exactcover:compiled"):
        assert spec in listed.stdout, listed.stdout

    solved = toy_command(root, "solve", "levels/toy/given.toy", "--count", "--json")
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert (answer["family"], answer["count"], answer["complete"]) == ("toy", 3, True)

    checked = toy_command(root, "crosscheck", "levels/toy", "--json", "--jobs", "1", "--timeout", "60")
    assert checked.returncode == 0, checked.stderr
    verdicts = {os.path.basename(i["path"]): (i["status"], i["count"]) for i in json.loads(checked.stdout)["instances"]}
    assert verdicts == {"given.toy": ("agree", 3), "none.toy": ("agree", 0), "six.toy": ("agree", 15)}

    made = toy_command(
        root, "generate", "toy", "--cells", "7", "--unique", "--count", "2", "-o", str(tmp_path), "--json"
    )
    assert made.returncode == 0, made.stderr
    for line in made.stdout.splitlines():
        generated = json.loads(line)
        assert generated["unique"] and generated["file"].endswith(".toy")
        recount = toy_command(root, "solve", generated["file"], "--backend", "cpsat", "--count", "--json")
        assert json.loads(recount.stdout)["count"] == 1, recount.stderr


def test_the_checklist_lists_exactly_the_rooms():
    """docs/adding-a-family.md's checklist names the places the toy family was added in, and no other."""
    with open(os.path.join(ROOT, "docs", "adding-a-family.md"), encoding="utf-8") as handle:
        page = handle.read()
    checklist = page.split("## Checklist", 1)[1].split("\n## ", 1)[0]
    places = re.findall(r"^\d+\. \*\*`([^`]+)`\*\*", checklist, flags=re.M)
    assert places == ["models/<family>/", "levels/<family>/", "backends/<backend>/<family>*"]
