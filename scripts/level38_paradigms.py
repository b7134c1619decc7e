"""Five paradigms side by side on one Hexiom level (level 38 by default), with the spread over seeds.

``python scripts/level38_paradigms.py`` runs, for each seed 0..N-1, every
backend once on the level, the backend order rotating from seed to seed
(interleaved: load on a shared machine hits every backend alike), and prints
per backend the runs solved and the median and worst wall and CPU seconds,
then every run.  The paradigms: SAT (``pysat``), ASP (``clingo``), CP
(``cpsat``), MIP (``mip:highs`` and ``mip:scip``), and dynamic programming
(``dp``).

What each run measures: the solvers find a **first solution** (validated by
the family's validator); ``dp`` has no search for one, so its row is the
**exact count** of all solutions (checked against ``expected.json``), which
it computes faster than the others find one solution.  Each run is a child
process forked from this script, which imports no solver first: a run pays
its solver's import, translation and solving (``wall``: what a user waits
for, the parse included; ``cpu``: the child's CPU seconds, every thread,
plus the parse; "of which solving" is the backend's own solve phase,
CPU).  Each run is held to ``--timeout`` wall seconds (the backend's own
limit, the runner's kill behind it); a run past it is unsolved and shown
as ``> limit`` (its CPU so far in brackets), and a median or worst that falls on an unsolved run is ``> limit`` too.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import sys
from collections.abc import Sequence
from typing import Any

from trisolve.backends import registry
from trisolve.bench.runner import BenchRun, Settings, Trial, run_trial
from trisolve.bench.summary import distribution
from trisolve.models import FAMILIES, files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVEL = os.path.join("levels", "hexiom", "level38.txt")
#: backend -> (paradigm, task): the solvers find a first solution, dp counts (it has no search for one)
BACKENDS: dict[str, tuple[str, str]] = {
    "pysat": ("SAT (CaDiCaL)", "first"),
    "clingo": ("ASP", "first"),
    "cpsat": ("CP (OR-Tools CP-SAT)", "first"),
    "mip:highs": ("MIP (HiGHS)", "first"),
    "mip:scip": ("MIP (SCIP)", "first"),
    "dp": ("dynamic programming", "count"),
}


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def expected_count(path: str) -> int | None:
    """The level's count from ``expected.json`` beside it, if recorded."""
    table = os.path.join(os.path.dirname(path), "expected.json")
    stem = os.path.splitext(os.path.basename(path))[0]
    try:
        with open(table, encoding="utf-8") as handle:
            return json.load(handle)[stem]["count"]
    except (OSError, KeyError, ValueError):
        return None


def run(path: str, backends: Sequence[str], seeds: int, timeout: float, log=None) -> dict[str, list[BenchRun]]:
    """Every backend once per seed, the order rotating per seed; the runs per backend."""
    family = FAMILIES["hexiom"]
    expected = expected_count(path)
    runs: dict[str, list[BenchRun]] = {name: [] for name in backends}
    for seed in range(seeds):
        order = list(backends[seed % len(backends) :]) + list(backends[: seed % len(backends)])
        for name in order:
            task = BACKENDS.get(name, ("", "first"))[1]
            settings = Settings(timeout=timeout, mode=task, seed=seed)
            done = run_trial(Trial(path, "hexiom", registry.resolve(name, "hexiom"), 0), family, settings)
            if task == "count" and done.solved and expected is not None and done.count != expected:
                raise SystemExit(f"{name}: counted {done.count}, expected.json says {expected}")
            runs[name].append(done)
            if log is not None:
                log.write(json.dumps(_row(done)) + "\n")  # one whole line, on the disk at once
    return runs


def _row(done: BenchRun) -> dict[str, Any]:
    return {
        "backend": done.backend,
        "seed": done.seed,
        "mode": done.mode,
        "status": done.status,
        "solved": done.solved,
        "count": done.count,
        "complete": done.complete,
        "wall": round(done.time, 3),
        "cpu": round(done.cpu, 3),
        "peak_rss_mb": round(done.peak_rss_mb, 1),
        "error": done.error,
    }


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return "> limit" if value == float("inf") else f"{value:.2f}"


def table(runs: dict[str, list[BenchRun]], timeout: float) -> list[str]:
    """The markdown table: per backend the runs solved, median and worst wall and CPU seconds."""
    lines = [
        "| backend | paradigm | task | solved | wall s median | wall s worst | CPU s median | CPU s worst "
        "| of which solving, median |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, done in runs.items():
        paradigm, task = BACKENDS.get(name, ("", "first"))
        solved = [r for r in done if r.solved]
        unsolved = len(done) - len(solved)
        wall = distribution([r.time for r in solved], unsolved)
        cpu = distribution([r.cpu for r in solved], unsolved)
        solving = distribution([r.solve_cpu for r in solved if r.solve_cpu is not None])["median"]
        worst_cpu = _seconds(cpu["max"])
        if unsolved:  # the CPU an unsolved run had used when it was stopped
            worst_cpu += f" ({max(r.cpu for r in done if not r.solved):.1f} used)"
        lines.append(
            f"| `{done[0].backend if done else name}` | {paradigm} | "
            f"{'exact count' if task == 'count' else 'first solution'} | {len(solved)}/{len(done)} | "
            f"{_seconds(wall['median'])} | {_seconds(wall['max'])} | {_seconds(cpu['median'])} | {worst_cpu} | "
            f"{_seconds(solving)} |"
        )
    return lines


def per_run(runs: dict[str, list[BenchRun]]) -> list[str]:
    lines = ["| backend | seed | status | wall s | CPU s |", "|---|---|---|---|---|"]
    for done in runs.values():
        for r in done:
            status = r.status + ("" if r.solved else f" (unsolved{': ' + r.error if r.error else ''})")
            if r.mode == "count":
                status += f", count {r.count}" + ("" if r.complete else "+")
            lines.append(f"| `{r.backend}` | {r.seed} | {status} | {r.time:.2f} | {r.cpu:.2f} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("level", nargs="?", default=LEVEL, help="a Hexiom level (default: level 38)")
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated (default: %(default)s)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 per backend (default 5)")
    parser.add_argument("--timeout", type=float, default=120.0, help="wall seconds per run (default 120)")
    parser.add_argument("--jsonl", default=None, help="also append one JSON line per run to this file")
    args = parser.parse_args(argv)
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    log = files.Appender(args.jsonl) if args.jsonl else None
    try:
        runs = run(args.level, backends, args.seeds, args.timeout, log)
    finally:
        if log is not None:
            log.close()
    command = "python scripts/level38_paradigms.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(f"{os.path.relpath(args.level, ROOT) if os.path.isabs(args.level) else args.level}: {command.strip()}")
    print(f"started {began}; load average (1, 5, 15 min) {load_before} at the start, {load_average()} at the end")
    print(f"{args.seeds} seeds per backend, interleaved; time limit {args.timeout:g} s wall per run\n")
    print("\n".join(table(runs, args.timeout)))
    print("\nEvery run:\n")
    print("\n".join(per_run(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
