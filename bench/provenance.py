"""Where a benchmark's figures come from: trisolve's version and commit, the solvers' versions, the machine.

A figure in a paper needs what a reader would need to make it again: the code (version, commit, and whether
the checkout had changes), the solvers (clingo, OR-Tools with its CP-SAT and SCIP, PySAT with its CaDiCaL,
HiGHS, xcover, Ganak, numba), the CPU model, the memory, and how busy the machine was (load average at the
start and the end).  Nothing here imports a solver: versions come from the installed distributions'
metadata, and what a run reports of its own solver (``stats["solver"]``: ``cadical195``, ``HiGHS 1.16.0``,
``SCIP (...)``) is gathered from the runs.
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Iterable, Mapping
from typing import Any

#: the distributions behind the backends (and the plots), by the name a reader knows them by
DISTRIBUTIONS: Mapping[str, str] = {
    "clingo": "clingo",
    "OR-Tools (CP-SAT, SCIP)": "ortools",
    "PySAT (CaDiCaL, Glucose, ...)": "python-sat",
    "HiGHS": "highspy",
    "xcover (Algorithm C)": "xcover",
    "Ganak": "pyganak",
    "numba (dp, exactcover kernels)": "numba",
    "numpy": "numpy",
    "matplotlib": "matplotlib",
}


def versions() -> dict[str, str | None]:
    """Each distribution's installed version (None when it is not installed)."""
    from importlib import metadata

    found: dict[str, str | None] = {}
    for name, distribution in DISTRIBUTIONS.items():
        try:
            found[name] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def solvers_reported(stats: Iterable[Mapping[str, Any]]) -> list[str]:
    """The solvers the runs said they used (``stats["solver"]``), each once, in the order first seen."""
    return list(dict.fromkeys(str(s["solver"]) for s in stats if s.get("solver")))


def commit() -> dict[str, Any] | None:
    """The git commit trisolve runs from, and whether its checkout has changes (None outside a checkout: an
    installed package's folder is no repository)."""
    folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", folder, *args], capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    if not head:
        return None
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": head, "changed": bool(status)}


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux; else what ``platform`` says)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line[line.index(":") + 1 :].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_bytes() -> int | None:
    """The machine's physical memory."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def load() -> list[float] | None:
    """The load average over 1, 5 and 15 minutes."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def machine() -> dict[str, Any]:
    """The machine a benchmark runs on: cores, CPU model, memory, platform, Python."""
    return {
        "cores": os.cpu_count(),
        "cpu_model": cpu_model(),
        "memory_bytes": memory_bytes(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "processor": platform.machine(),
    }


def version() -> str | None:
    """trisolve's installed version."""
    from importlib import metadata

    try:
        return metadata.version("trisolve")
    except metadata.PackageNotFoundError:
        return None


def provenance() -> dict[str, Any]:
    """trisolve's version and commit, and the solvers' versions, for results.json."""
    return {"trisolve": version(), "git": commit(), "versions": versions()}
