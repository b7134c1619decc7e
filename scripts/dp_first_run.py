"""dp's first run on a fresh install: wall and CPU seconds of ``solve LEVEL --count --backend dp``.

``python scripts/dp_first_run.py [--source DIR ...] [--level PATH] [--repeat 3] [--venv-root DIR]``

For each source checkout (default: this one) it makes a fresh venv (``python -m venv``, ``pip install
SOURCE``), then runs the command ``--repeat`` times as a first run (each with an empty numba cache:
a fresh ``NUMBA_CACHE_DIR``, and no ``*.nbi``/``*.nbc`` under the installed package) and as many times
as a second run (the cache the first run left).  Several ``--source`` checkouts (say, one before a
change and one after) are measured round by round, so that load on a shared machine hits them alike.
It prints per source and kind the median and worst wall seconds, the median and worst CPU seconds
(user + system of the command and its children), whether the run said it compiled, and the cached
kernels it left, with ``date`` and ``uptime`` first.  Every run must print the level's count.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    compiled: bool
    cached_kernels: int


def fresh_venv(source: str, folder: str) -> str:
    """A new venv in ``folder`` with ``source`` installed (not editable: as a user installs it)."""
    subprocess.run([sys.executable, "-m", "venv", folder], check=True)
    subprocess.run([os.path.join(folder, "bin", "pip"), "install", "-q", source], check=True)
    return os.path.join(folder, "bin", "trisolve")


def clear_package_caches(venv: str) -> None:
    """numba's default cache sits beside the installed sources: empty it (the runs use NUMBA_CACHE_DIR)."""
    for folder, _, files in os.walk(venv):
        for name in files:
            if name.endswith((".nbi", ".nbc")):
                os.remove(os.path.join(folder, name))


def timed(command: list[str], cache: str, cwd: str, expect: str) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=cwd, env=dict(os.environ, NUMBA_CACHE_DIR=cache), capture_output=True, text=True, check=False
    )
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or expect not in done.stdout:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    kernels = sum(1 for _, _, files in os.walk(cache) for name in files if name.endswith(".nbi"))
    return Run(wall, cpu, "compiling" in done.stderr, kernels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", action="append", help="a checkout to install (repeatable; default: this one)")
    parser.add_argument("--level", default=os.path.join("levels", "hexiom", "level38.txt"))
    parser.add_argument("--expect", default="79 solutions", help="what the count line must say")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--venv-root", help="where the fresh venvs go (default: a temporary folder, removed)")
    args = parser.parse_args()
    sources = [os.path.abspath(s) for s in args.source or [ROOT]]
    print("date:", subprocess.run(["date", "-u"], capture_output=True, text=True).stdout.strip())
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    root = args.venv_root or tempfile.mkdtemp(prefix="dp-first-run-")
    try:
        venvs = {}
        for k, source in enumerate(sources):
            started = time.monotonic()
            venvs[source] = fresh_venv(source, os.path.join(root, f"venv{k}"))
            print(f"installed {source} in a fresh venv: {time.monotonic() - started:.0f} s wall", flush=True)
        runs: dict[tuple[str, str], list[Run]] = {}
        for _ in range(args.repeat):
            for source, trisolve in venvs.items():
                clear_package_caches(os.path.dirname(os.path.dirname(trisolve)))
                cache = tempfile.mkdtemp(prefix="numba-cache-", dir=root)
                command = [trisolve, "solve", os.path.join(source, args.level), "--count", "--backend", "dp"]
                runs.setdefault((source, "first"), []).append(timed(command, cache, source, args.expect))
                runs.setdefault((source, "second"), []).append(timed(command, cache, source, args.expect))
                shutil.rmtree(cache)
        print(f"command: trisolve solve {args.level} --count --backend dp  ({args.repeat} runs each)")
        print(f"{'source':<40} {'run':<7} {'wall med':>9} {'worst':>7} {'CPU med':>8} {'worst':>7}  compiled  kernels")
        for (source, kind), measured in runs.items():
            walls, cpus = [r.wall for r in measured], [r.cpu for r in measured]
            print(
                f"{os.path.basename(source):<40} {kind:<7} {statistics.median(walls):>9.2f} {max(walls):>7.2f} "
                f"{statistics.median(cpus):>8.2f} {max(cpus):>7.2f}  "
                f"{sum(r.compiled for r in measured)}/{len(measured):<7} {max(r.cached_kernels for r in measured)}"
            )
    finally:
        if not args.venv_root:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
