"""Every run starts through one call, ``trisolve.runs.run``: a test walks the call sites of the package.

A backend's ``run`` is called where runs happen (``runs/child.py``) and by
backends that wrap a backend (``/orbits``, ``mutated:``); the run home's two
ways of running (a forked child, this process) only by ``runs.run``; child
processes are forked only by the run home and by engines for their own helpers.
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_layering import _modules

#: where a backend's ``run`` may be called: the run's child, and backends wrapping backends
RUNS_A_BACKEND = ("trisolve.runs.child", "trisolve.backends")
#: the run home's ways of running, each called by ``runs.run`` alone
WAYS = {"run_isolated": "trisolve.runs.entry", "run_here": "trisolve.runs.entry", "in_child": "trisolve.runs.isolated"}
#: where a process may be forked: the run home, and engines for their own helpers (Ganak's counting process)
FORKS = ("trisolve.runs", "trisolve.backends")


def _imported_names(tree: ast.AST) -> set[str]:
    """Names a module binds by importing: ``portfolio.run(...)`` on such a name is a module's function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return found


def _within(module: str, places: tuple[str, ...] | str) -> bool:
    places = (places,) if isinstance(places, str) else places
    return any(module == place or module.startswith(place + ".") for place in places)


def call_sites(modules: dict[str, Path]) -> list[str]:
    """``module:line: what`` for every run started anywhere but through ``runs.run``."""
    found = []
    for module, path in sorted(modules.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = _imported_names(tree)
        for node in ast.walk(tree):
            where = f"{module}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                receiver = node.func.value
                runs = node.func.attr == "run" and not (isinstance(receiver, ast.Name) and receiver.id in imported)
                if runs and not _within(module, RUNS_A_BACKEND):
                    found.append(f"{where}: {ast.unparse(node.func)}(...)")
                if node.func.attr == "Process" and not _within(module, FORKS):
                    found.append(f"{where}: {ast.unparse(node.func)}(...)")
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in WAYS and not _within(module, WAYS[name]) and not module.startswith("trisolve.runs." + name):
                found.append(f"{where}: {name}")
    return found


def test_every_run_starts_through_one_call():
    assert call_sites(_modules()) == []


def test_a_run_started_around_the_run_home_would_be_found(tmp_path):
    shortcut = tmp_path / "shortcut.py"
    shortcut.write_text(
        "from trisolve.backends import registry\n"
        "from trisolve.runs.isolated import run_isolated\n\n"
        "def count(job, level, limits, options):\n"
        "    registry.get(job.backend, job.family).run(level, limits, options)\n"
        "    return run_isolated(job, level, job.deadline())\n"
    )
    found = call_sites({"trisolve.crosscheck.shortcut": shortcut})
    assert sorted(line.split(": ", 1)[1] for line in found) == [
        "registry.get(job.backend, job.family).run(...)",
        "run_isolated",
    ]
