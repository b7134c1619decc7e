"""dp's Hexiom counting programs side by side: the compiled counter (rows, or halves where the level splits),
the array program it replaced for plain counts (still the one for Burnside's folds), and optionally the
dictionary program (kept for rebuilding one board).

``python scripts/dp_hexiom.py [LEVEL ...] --repeat 3 [--dict]`` counts each level
(default: levels 00-39) with each program, one after the other in each round so
that load on a shared machine hits them alike, and prints per level and in total
the median and worst CPU seconds of each (process CPU: the halves' two threads
add up), the median wall seconds, their CPU ratio, and the peak states of each.
Every count must agree with ``expected.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from trisolve.backends.dp.hexiom import Program, count_boards, fold, make_plan
from trisolve.backends.dp.hexiom.layers import LayerProgram
from trisolve.models.hexiom import model as hexiom

LEVELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "levels", "hexiom")


def compiled_count(level: hexiom.Level) -> tuple[int, int]:
    outcome = count_boards(level, make_plan(fold(level)), memory=None)
    if not outcome.complete:
        raise SystemExit(f"{level.name}: the compiled counter stopped ({outcome.stopped_by})")
    return outcome.count, outcome.stats["peak_states"]


def array_count(level: hexiom.Level) -> tuple[int, int]:
    program = LayerProgram(level, make_plan(fold(level)))
    return program.run(), program.peak_states


def dictionary_count(level: hexiom.Level) -> tuple[int, int]:
    program = Program(level, make_plan(fold(level)), max_states=10**12)
    layer, _ = program.run(0, program.start, len(program.plan.steps))
    return program.final_count(layer), program.peak_states


def timed(count, level) -> tuple[int, int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result, peak = count(level)
    return result, peak, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", default=[f"level{i:02d}" for i in range(40)])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dict", action="store_true", help="also time the dictionary program (slow)")
    args = parser.parse_args()
    with open(os.path.join(LEVELS, "expected.json"), encoding="utf-8") as handle:
        expected = json.load(handle)
    programs = {"compiled": compiled_count, "arrays": array_count}
    if args.dict:
        programs["dict"] = dictionary_count
    compiled_count(hexiom.parse(os.path.join(LEVELS, "level38.txt")))  # numba's cache loads once, outside the timings
    totals = {name: [0.0] * args.repeat for name in programs}
    print("level    program   cpu median  cpu worst  wall median  peak states")
    for name in args.levels:
        level = hexiom.parse(os.path.join(LEVELS, f"{name}.txt"))
        runs: dict[str, list] = {p: [] for p in programs}
        for r in range(args.repeat):
            for program, count in programs.items():
                result, peak, cpu, wall = timed(count, level)
                if result != expected[name]["count"]:
                    raise SystemExit(f"{name}: {program} counted {result}, expected {expected[name]['count']}")
                runs[program].append((cpu, wall, peak))
                totals[program][r] += cpu
        for program, rows in runs.items():
            cpus = [c for c, _, _ in rows]
            print(
                f"{name}  {program:8}  {statistics.median(cpus):10.3f}  {max(cpus):9.3f}  "
                f"{statistics.median(w for _, w, _ in rows):11.3f}  {rows[0][2]:11d}",
                flush=True,
            )
        ratio = statistics.median(c for c, _, _ in runs["arrays"]) / max(
            1e-9, statistics.median(c for c, _, _ in runs["compiled"])
        )
        print(f"{name}  arrays/compiled CPU ratio {ratio:.1f}", flush=True)
    for program, sums in totals.items():
        print(
            f"total CPU {program}: median {statistics.median(sums):.2f} s, worst {max(sums):.2f} s over "
            f"{args.repeat} rounds"
        )
    print(
        "total CPU ratio arrays/compiled: "
        f"{statistics.median(totals['arrays']) / statistics.median(totals['compiled']):.2f}"
    )


if __name__ == "__main__":
    main()
