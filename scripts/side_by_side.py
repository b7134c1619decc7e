"""All 41 Hexiom levels, first solution: one ``trisolve solve`` command per backend against a
plain CPMpy loop on OR-Tools (``cpmpy_hexiom.py``), side by side in one run.

    .venv/bin/pip install cpmpy    # the yardstick only: not a trisolve dependency
    python scripts/side_by_side.py [--rounds 3] [--folder levels/hexiom]

Each round runs every contender once as its own process (the order rotating
from round to round, so drifts in the machine's load hit all alike) and
takes its wall time and CPU time (the process and every child it waited for:
trisolve's forked runs, OR-Tools' threads).  Each trisolve command writes
``--jsonl`` and must give one line per level with a solution.  Prints the
median and worst over the rounds, and each contender's ratio to CPMpy.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def contenders(folder: str, out: str) -> dict[str, list[str]]:
    trisolve = [os.path.join(os.path.dirname(sys.executable), "trisolve"), "solve", folder]
    runs = {
        f"trisolve {b}": [*trisolve, "--backend", b, "--jsonl", os.path.join(out, f"{b}.jsonl")]
        for b in ("clingo", "pysat", "cpsat")
    }
    runs["CPMpy loop (OR-Tools)"] = [sys.executable, os.path.join(HERE, "cpmpy_hexiom.py"), folder]
    return runs


def measure(command: list[str]) -> tuple[float, float]:
    """(wall s, CPU s) of one command, its waited-for children included; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", default="levels/hexiom")
    args = parser.parse_args()
    levels = len(glob.glob(os.path.join(args.folder, "level*.txt")))
    with tempfile.TemporaryDirectory() as out:
        runs = contenders(args.folder, out)
        names = list(runs)
        figures: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
        for round_ in range(args.rounds):
            order = names[round_ % len(names) :] + names[: round_ % len(names)]
            for name in order:
                figures[name].append(measure(runs[name]))
                print(
                    f"round {round_ + 1}: {name}: {figures[name][-1][0]:.1f} s wall, {figures[name][-1][1]:.1f} s CPU",
                    file=sys.stderr,
                    flush=True,
                )
                if name.startswith("trisolve"):
                    path = os.path.join(out, f"{name.split()[1]}.jsonl")
                    with open(path, encoding="utf-8") as handle:
                        lines = [json.loads(line) for line in handle]
                    assert len(lines) == levels and all(r["status"] == "sat" and r["solutions"] for r in lines), path
    reference = statistics.median(w for w, _ in figures[names[-1]])
    reference_cpu = statistics.median(c for _, c in figures[names[-1]])
    print(
        f"{levels} Hexiom levels, first solution; {args.rounds} rounds, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the end ({time.strftime('%Y-%m-%d %H:%M')})"
    )
    print("| contender | wall s, median (worst) | CPU s, median (worst) | wall / CPMpy | CPU / CPMpy |")
    print("|---|---|---|---|---|")
    for name in names:
        walls, cpus = [w for w, _ in figures[name]], [c for _, c in figures[name]]
        print(
            f"| {name} | {statistics.median(walls):.1f} ({max(walls):.1f}) | {statistics.median(cpus):.1f} "
            f"({max(cpus):.1f}) | {statistics.median(walls) / reference:.2f} | "
            f"{statistics.median(cpus) / reference_cpu:.2f} |"
        )


if __name__ == "__main__":
    main()
