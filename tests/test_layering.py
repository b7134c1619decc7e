"""The package's layering, read from the source: no import cycles, and every layer imports only downwards.

Imports inside functions count too: a cycle hidden by a deferred import is
still a cycle a reader has to untangle.  So does loading by name
(``importlib.import_module``): a name made of the module's own ``__name__`` or
``__package__`` and of values known only when it runs (a backend's folder, a
family) stands for every module of the package it could name, one module per
unknown part (``f"{__package__}.{backend}.{family}"`` is every module two
levels below).  Imports under ``if TYPE_CHECKING:`` never run and do not count.

The layers, bottom up (``LAYERS``): the models and the constraint models (the
referee); the run home's operating-system plumbing (signals, process groups:
the engines use it); the backends; the run home (``trisolve.runs``: jobs, the
child, the executors); the cross-checker, the benchmark and the generators;
the library (``trisolve.api``); the command line.
"""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _package_dirs() -> dict[str, Path]:
    """Package name -> folder, from pyproject.toml's package-dir table."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {package: ROOT / folder for package, folder in config["tool"]["setuptools"]["package-dir"].items()}


def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package, folder in _package_dirs().items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


#: What a part of a name known only at run time stands for in ``_loaded``.
UNKNOWN = "\0"


def _name_pattern(argument: ast.expr, name: str, package: str) -> list[str] | None:
    """The module name an ``import_module`` argument makes, part by part (``*`` where a part is known only at run
    time); None when it cannot be told (a plain variable: another project's module, say)."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return argument.value.split(".")
    if not isinstance(argument, ast.JoinedStr):
        return None
    text = ""
    for value in argument.values:
        if isinstance(value, ast.Constant):
            text += str(value.value)
            continue
        try:  # the module's own name and package, and what is made of them, are known
            known = eval(  # an expression of the package's own source, given nothing but two names
                compile(ast.Expression(value.value), "<name>", "eval"),
                {"__builtins__": {}},
                {"__package__": package, "__name__": name},
            )
            text += known if isinstance(known, str) else UNKNOWN
        except Exception:  # noqa: BLE001 - a value known only when it runs
            text += UNKNOWN
    return [part.replace(UNKNOWN, "*") for part in text.split(".")]


def _loaded(tree: ast.AST, name: str, package: str, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``importlib.import_module`` calls in ``tree`` may load."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        function = node.func
        called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
        if called != "import_module":
            continue
        pattern = _name_pattern(node.args[0], name, package)
        if pattern is None or pattern[0] != "trisolve":
            continue
        found.update(
            module
            for module in modules
            if len(parts := module.split(".")) == len(pattern)
            and all(fnmatch.fnmatchcase(part, wanted) for part, wanted in zip(parts, pattern))
        )
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and getattr(branch.test, "id", "") == "TYPE_CHECKING"
        for statement in branch.body
        for node in ast.walk(statement)
    }
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join(anchor + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in modules]
            candidates = submodules if len(submodules) == len(node.names) else [target, *submodules]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        found.update(c for c in candidates if c in modules and c != name)
    found.update(m for m in _loaded(tree, name, here, modules) if m != name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


#: The layers, bottom up; a module belongs to the layer of its longest prefix here.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("trisolve.models", "trisolve.constraints"),
    ("trisolve.runs.processes",),
    ("trisolve.backends",),
    ("trisolve.runs", "trisolve.selection"),
    ("trisolve.crosscheck", "trisolve.bench", "trisolve.generate"),
    ("trisolve",),
    ("trisolve.cli", "trisolve.__main__"),
)


def layer(module: str) -> int:
    """The index in ``LAYERS`` of the module's longest matching prefix."""
    found = [
        (len(prefix), index)
        for index, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    return max(found)[1]


def test_the_graph_sees_the_package():
    graph = _graph()
    assert "trisolve.backends.registry" in graph and "trisolve.models.hexiom" in graph
    assert "trisolve.models.hexiom.model" in graph["trisolve.backends.dp.hexiom.plan"]


def test_a_cycle_would_be_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_the_models_never_import_a_solver_side():
    """The validators are the referee: they must not depend on what they judge."""
    graph = _graph()
    solver_side = ("trisolve.backends", "trisolve.crosscheck", "trisolve.bench", "trisolve.generate")
    leaks = {
        name: sorted(d for d in deps if d.startswith(solver_side))
        for name, deps in graph.items()
        if name.startswith("trisolve.models")
    }
    assert {name: deps for name, deps in leaks.items() if deps} == {}


def test_the_layers_below_never_import_the_api_or_the_command_line():
    """The library (``trisolve.api``) and the command (``trisolve.cli``) sit on top: the packages they are
    made of never import them back, not even inside a function."""
    graph = _graph()
    below = ("trisolve.models", "trisolve.backends", "trisolve.crosscheck", "trisolve.bench", "trisolve.generate")
    top = ("trisolve.api", "trisolve.cli")
    leaks = {
        name: sorted(d for d in deps if d.startswith(top) or d == "trisolve")
        for name, deps in graph.items()
        if name.startswith(below)
    }
    assert {name: deps for name, deps in leaks.items() if deps} == {}


def test_every_layer_imports_only_downwards():
    """A module imports its own layer or those below: the engines may use the run home's plumbing, never the run
    home itself, which runs them."""
    graph = _graph()
    assert {layer(name) for name in graph} == set(range(len(LAYERS)))  # every layer has modules
    upward = sorted(f"{name} -> {dep}" for name, deps in graph.items() for dep in deps if layer(dep) > layer(name))
    assert upward == []


def test_the_backends_use_no_more_of_the_run_home_than_its_plumbing():
    graph = _graph()
    leaks = {
        name: sorted(d for d in deps if d.startswith("trisolve.runs") and d != "trisolve.runs.processes")
        for name, deps in graph.items()
        if name.startswith("trisolve.backends")
    }
    assert {name: deps for name, deps in leaks.items() if deps} == {}
    assert "trisolve.runs.processes" in graph["trisolve.backends.pysat.engine"]  # the check sees the edge


def test_loading_by_name_is_an_edge():
    """The registry loads the backends' folders and translators by name, the models their families' folders."""
    graph = _graph()
    assert "trisolve.backends.pysat" in graph["trisolve.backends.registry"]
    assert "trisolve.backends.pysat.hexiom" in graph["trisolve.backends.registry"]
    assert "trisolve.models.hexiom" in graph["trisolve.models"]
    assert "trisolve.api" in graph["trisolve"]


def test_an_upward_import_would_be_found(tmp_path, monkeypatch):
    """The graph reads deferred imports: an import of the API inside a function is an edge."""
    module = tmp_path / "leak.py"
    module.write_text("def f():\n    from trisolve.api import load\n    return load\n")
    modules = {**_modules(), "trisolve.backends.leak": module}
    assert "trisolve.api" in _imports("trisolve.backends.leak", module, modules)
