"""The pentomino rectangles as a user runs them: exactcover against dp:scanline, side by side in one run.

    python scripts/exactcover_rectangles.py [--rounds 3] [--timeout 600]

Each round runs, as its own ``trisolve solve`` process and in an order that
rotates from round to round (so drifts in the machine's load hit all alike):

* the 6x10 rectangle ``--count`` with ``--backend exactcover`` and with
  ``--backend dp:scanline``;
* the 6x10 rectangle ``--all --backend exactcover`` (every tiling drawn to
  stdout, here discarded, and validated by ``solve``);
* the 3x20, 4x15 and 5x12 rectangles ``--count`` on both backends.

Every command must exit 0 with the count of ``levels/sigils/expected.json``,
complete; the listing's ``--jsonl`` line must hold that many distinct
tilings, each of which this script validates again with the model.  Wall
time is the command's; CPU is the command and every child it waited for
(the forked run included).  Prints per contender the median and worst over
the rounds, and the ratio exactcover / dp:scanline per round (median, worst).
The numba kernel must be compiled already (run any exactcover command once).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = os.path.join(ROOT, "levels", "sigils")
EXPECTED = json.loads(Path(os.path.join(LEVELS, "expected.json")).read_text(encoding="utf-8"))
TRISOLVE = os.path.join(os.path.dirname(sys.executable), "trisolve")
RECTANGLES = ("pentominoes-6x10", "pentominoes-5x12", "pentominoes-4x15", "pentominoes-3x20")


def contenders(timeout: float) -> dict[str, tuple[str, list[str]]]:
    """name -> (level stem, trisolve arguments after ``solve LEVEL``)."""
    runs = {}
    for stem in RECTANGLES:
        short = stem.split("-")[1]
        for backend in ("exactcover", "dp:scanline"):
            runs[f"{short} --count {backend}"] = (stem, ["--count", "--backend", backend])
    runs["6x10 --all exactcover"] = ("pentominoes-6x10", ["--all", "--backend", "exactcover"])
    return {name: (stem, [*args, "--timeout", str(timeout)]) for name, (stem, args) in runs.items()}


def measure(stem: str, args: list[str], jsonl: str) -> tuple[float, float]:
    """(wall s, CPU s) of one ``trisolve solve``, its children included; its answer must be the expected one."""
    command = [TRISOLVE, "solve", os.path.join(LEVELS, f"{stem}.txt"), *args, "--jsonl", jsonl]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    with open(jsonl, encoding="utf-8") as handle:
        line = json.loads(handle.readlines()[-1])
    want = EXPECTED[stem]["count"]
    if not (line["complete"] and line["count"] == want) or "invalid" in line:
        raise SystemExit(f"{' '.join(command)}: count {line['count']} complete={line['complete']}, expected {want}")
    if "--all" in args:
        check_listing(stem, line["solutions"], want)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def check_listing(stem: str, solutions: list, want: int) -> None:
    """Every listed tiling valid (the model's validator), none twice, as many as expected."""
    from trisolve.models import FAMILIES

    family = FAMILIES["sigils"]
    level = family.parse(os.path.join(LEVELS, f"{stem}.txt"))
    tilings = [family.solution_from_json(level, data) for data in solutions]
    bad = [i for i, tiling in enumerate(tilings) if family.validate(level, tiling)]
    if len(tilings) != want or len(set(tilings)) != want or bad:
        raise SystemExit(f"{stem} --all: {len(tilings)} listed, {len(set(tilings))} distinct, {len(bad)} invalid")


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.2f} {max(values):7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    runs = contenders(args.timeout)
    names = list(runs)
    walls: dict[str, list[float]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    print(f"load before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as out:
        for round_ in range(args.rounds):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                stem, arguments = runs[name]
                wall, cpu = measure(stem, arguments, os.path.join(out, "run.jsonl"))
                walls[name].append(wall)
                cpus[name].append(cpu)
                print(f"round {round_ + 1}  {name:28} wall {wall:7.2f} s  CPU {cpu:7.2f} s", flush=True)
    print(f"load after: {os.getloadavg()}")
    print(f"\n{args.rounds} rounds; median and worst    wall s (med, worst)   CPU s (med, worst)")
    for name in names:
        print(f"{name:32} {spread(walls[name])}      {spread(cpus[name])}")
    print("\nexactcover / dp:scanline, per round: median, worst     wall            CPU")
    for stem in RECTANGLES:
        short = stem.split("-")[1]
        mine, theirs = f"{short} --count exactcover", f"{short} --count dp:scanline"
        wall = [a / b for a, b in zip(walls[mine], walls[theirs])]
        cpu = [a / b for a, b in zip(cpus[mine], cpus[theirs])]
        ratios = f"{statistics.median(wall):6.2f} {max(wall):6.2f}     {statistics.median(cpu):6.2f} {max(cpu):6.2f}"
        print(f"{short:32} {ratios}")


if __name__ == "__main__":
    main()
