"""Compiled constraint models against the hand translators, side by side: per level and in total, wall and CPU
seconds, median and worst over seeds.

    python scripts/compiled_vs_hand.py [--family hexiom] [--folder levels/hexiom] [--seeds 3] [--timeout 60]
                                       [--task first|count] [--pair pysat=pysat:compiled ...] [--plugin FILE]

A pair is ``HAND=COMPILED``: two backend specs run on the same levels, the
first a family's own translator (a bare backend name means its default
variant), the second a compiled one.  ``PAIRS`` lists each family's pairs,
one per backend that compiles models; ``--pair`` replaces them.  Each run
is a forked child of this process with the time limit and hard kill of
every benchmark (``bench/runner.py``); rounds use seeds 0, 1, ... (a seed
reorders pysat's clauses, so luck is measured), and within a round the
contenders' order rotates from level to level.  A run that finds no
solution, or an invalid one, is reported, and counts as the time limit.

It prints, for each level, each contender's median and worst wall time and
median CPU time over the seeds, and each pair's ratio of medians; then the
totals over the levels (of each seed's total: median and worst) and each
pair's worst level ratio.  ``--plugin`` loads a Python file first (a family
or backend registered at run time).
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys
import time
from collections import defaultdict

#: Each family's contenders: (hand translator, compiled translator); the other compilers' pairs go here too.
PAIRS: dict[str, list[tuple[str, str]]] = {
    "hexiom": [("pysat", "pysat:compiled")],
    "sigils": [("pysat", "pysat:compiled")],
    "logic": [("pysat", "pysat:compiled")],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--family", default="hexiom")
    parser.add_argument("--folder", help="the levels (default levels/<family>)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--task", choices=("first", "count"), default="first")
    parser.add_argument("--pair", action="append", metavar="HAND=COMPILED", help="replaces the family's PAIRS")
    parser.add_argument("--plugin", action="append", default=[], metavar="FILE")
    args = parser.parse_args()

    from trisolve.backends import registry
    from trisolve.bench.runner import Settings, plan, run_all
    from trisolve.models import FAMILIES

    for path in args.plugin:
        registry.load_plugin(path)
    family = FAMILIES[args.family]
    folder = args.folder or os.path.join("levels", args.family)
    paths = sorted(p for p in glob.glob(os.path.join(folder, "*")) if os.path.isfile(p) and p.endswith(family.suffix))
    pairs = [tuple(p.split("=", 1)) for p in args.pair] if args.pair else PAIRS.get(args.family, [])
    if not paths or not pairs:
        raise SystemExit(f"nothing to run: {len(paths)} levels in {folder}, {len(pairs)} pairs for {args.family}")
    pairs = [(registry.resolve(hand, args.family), registry.resolve(made, args.family)) for hand, made in pairs]
    specs = list(dict.fromkeys(spec for pair in pairs for spec in pair))

    settings = Settings(timeout=args.timeout, repeat=args.seeds, mode=args.task)
    trials = plan([(p, args.family) for p in paths], lambda _: specs, args.seeds)
    print(
        f"{len(paths)} {args.family} levels, {args.task} solution{'s' if args.task == 'count' else ''}, "
        f"{args.seeds} seeds, limit {args.timeout:g} s; {os.cpu_count()} cores; "
        f"started {time.strftime('%Y-%m-%d %H:%M %Z')}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    runs = run_all(trials, {args.family: family}, settings)

    wall: dict[tuple[str, str], list[float]] = defaultdict(list)  # (level, spec) -> per seed
    cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
    totals: dict[tuple[str, int], float] = defaultdict(float)  # (spec, seed) -> summed over the levels
    failed: list[str] = []
    for run in runs:
        good = run.solved and run.valid is not False and (args.task == "first" or run.complete)
        seconds = run.time if good else args.timeout
        if not good:
            failed.append(f"{run.instance} {run.backend} seed {run.seed}: {run.status} {run.stopped_by or run.error}")
        wall[run.instance, run.backend].append(seconds)
        cpu[run.instance, run.backend].append(run.cpu)
        totals[run.backend, run.seed] += seconds

    names = [os.path.splitext(os.path.basename(p))[0] for p in paths]
    print("\nwall s (median / worst over seeds), CPU s (median); ratio = compiled median / hand median")
    head = "| level | " + " | ".join(f"{s} wall | CPU" for s in specs) + " | " + " | ".join("ratio" for _ in pairs)
    print(head + " |")
    print("|---" * (1 + 2 * len(specs) + len(pairs)) + "|")
    worst_ratio: dict[tuple[str, str], tuple[float, str]] = {}
    for name in names:
        cells = []
        for spec in specs:
            w = wall[name, spec]
            cells.append(f"{statistics.median(w):.3f} / {max(w):.3f}" if w else "-")
            cells.append(f"{statistics.median(cpu[name, spec]):.3f}" if w else "-")
        for hand, made in pairs:
            ratio = _ratio(wall[name, made], wall[name, hand])
            cells.append(f"{ratio:.2f}" if ratio is not None else "-")
            if ratio is not None and ratio > worst_ratio.get((hand, made), (0.0, ""))[0]:
                worst_ratio[hand, made] = (ratio, name)
        print(f"| {name} | " + " | ".join(cells) + " |")

    print(f"\ntotal over the {len(names)} levels (wall s of each seed's total: median / worst; CPU s median)")
    for spec in specs:
        per_seed = [totals[spec, seed] for seed in range(args.seeds) if (spec, seed) in totals]
        summed_cpu = [sum(cpu[name, spec][i] for name in names if i < len(cpu[name, spec])) for i in range(args.seeds)]
        middle, worst, cpu_middle = statistics.median(per_seed), max(per_seed), statistics.median(summed_cpu)
        print(f"  {spec}: {middle:.2f} / {worst:.2f}, CPU {cpu_middle:.2f}")
    for hand, made in pairs:
        ratio, level = worst_ratio.get((hand, made), (float("nan"), "-"))
        total = _ratio([totals[made, s] for s in range(args.seeds)], [totals[hand, s] for s in range(args.seeds)])
        print(f"  {made} / {hand}: total {total:.2f}x, worst level {level} {ratio:.2f}x")
    if failed:
        print(f"\n{len(failed)} runs without a valid answer (counted as the limit):")
        for line in failed:
            print("  " + line)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    sys.exit(1 if failed else 0)


def _ratio(mine: list[float], theirs: list[float]) -> float | None:
    if not mine or not theirs:
        return None
    return statistics.median(mine) / max(statistics.median(theirs), 1e-9)


if __name__ == "__main__":
    main()
