"""Compiled constraint models against the hand translators, side by side: per level and in total, wall and CPU
seconds, median and worst over seeds.

    python scripts/compiled_vs_hand.py [--family hexiom] [--folder levels/hexiom] [--seeds 3] [--timeout 60]
                                       [--task first|count] [--pair pysat=pysat:compiled[@LAST] ...]
                                       [--plugin FILE]

A pair is ``HAND=COMPILED``: two backend specs run on the same levels, the
first a family's own translator (a bare backend name means its default
variant), the second a compiled one; ``@LAST`` runs the pair only on the
levels up to that one (in name order: ``mip=mip:compiled@level30``).
``PAIRS`` lists each family's pairs, one per backend that has both a hand
translator of the family and a compiler that takes its model; ``--pair``
replaces them.  Each run
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
import re
import statistics
import sys
import time
from collections import defaultdict

#: Each family's contenders: (hand translator's default, compiled translator, last level or None for all), one
#: pair per backend that has both.  Hexiom's MIP pair stops at level30: the hand MIP model itself takes minutes on
#: some of the larger boards, which says nothing about the compiler.
PAIRS: dict[str, list[tuple[str, str, str | None]]] = {
    "hexiom": [
        ("pysat", "pysat:compiled", None),
        ("clingo", "clingo:compiled", None),
        ("cpsat", "cpsat:compiled", None),
        ("mip", "mip:compiled", "level30"),
    ],
    "sigils": [
        ("pysat", "pysat:compiled", None),
        ("clingo", "clingo:compiled", None),
        ("cpsat", "cpsat:compiled", None),
        ("mip", "mip:compiled", None),
        ("exactcover", "exactcover:compiled", None),
    ],
    "logic": [
        ("pysat", "pysat:compiled", None),
        ("clingo", "clingo:compiled", None),
        ("cpsat", "cpsat:compiled", None),
        ("mip", "mip:compiled", None),
    ],
}


def _pair(text: str) -> tuple[str, str, str | None]:
    """``HAND=COMPILED[@LAST]`` as a pair."""
    found = re.fullmatch(r"([^=]+)=([^@]+)(?:@(.+))?", text)
    if found is None:
        raise SystemExit(f"--pair {text}: expected HAND=COMPILED[@LAST]")
    hand, made, last = found.groups()
    return hand, made, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--family", default="hexiom")
    parser.add_argument("--folder", help="the levels (default levels/<family>)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--task", choices=("first", "count"), default="first")
    parser.add_argument("--pair", action="append", metavar="HAND=COMPILED[@LAST]", help="replaces the family's PAIRS")
    parser.add_argument("--plugin", action="append", default=[], metavar="FILE")
    args = parser.parse_args()

    from trisolve.backends import registry
    from trisolve.backends.spec import Spec
    from trisolve.bench.runner import Settings, plan, run_all
    from trisolve.models import FAMILIES

    for path in args.plugin:
        registry.load_plugin(path)
    family = FAMILIES[args.family]
    folder = args.folder or os.path.join("levels", args.family)
    paths = sorted(p for p in glob.glob(os.path.join(folder, "*")) if os.path.isfile(p) and p.endswith(family.suffix))
    chosen = [_pair(p) for p in args.pair] if args.pair else PAIRS.get(args.family, [])
    if not paths or not chosen:
        raise SystemExit(f"nothing to run: {len(paths)} levels in {folder}, {len(chosen)} pairs for {args.family}")
    names = [_stem(p) for p in paths]
    pairs = [(registry.resolve(hand, args.family), registry.resolve(made, args.family)) for hand, made, _ in chosen]
    #: (hand, compiled) -> the levels the pair runs on
    covers = {pair: [n for n in names if last is None or n <= last] for pair, (_, _, last) in zip(pairs, chosen)}
    specs = list(dict.fromkeys(spec for pair in pairs for spec in pair))
    wanted = {(n, spec) for pair, levels in covers.items() for n in levels for spec in pair}

    settings = Settings(timeout=args.timeout, repeat=args.seeds, mode=args.task)
    trials = plan([(p, args.family) for p in paths], lambda _: specs, args.seeds)
    trials = [t for t in trials if (_stem(t.path), t.backend) in wanted]
    print(
        f"{len(paths)} {args.family} levels, {args.task} solution{'s' if args.task == 'count' else ''}, "
        f"{args.seeds} seeds, limit {args.timeout:g} s, {len(trials)} runs; {os.cpu_count()} cores; "
        f"started {time.strftime('%Y-%m-%d %H:%M %Z')}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for (hand, made), levels in covers.items():
        if len(levels) < len(names):
            print(f"{made} and {hand} on {levels[0]} .. {levels[-1]} only", flush=True)
    runs = run_all(trials, {args.family: family}, settings)

    wall: dict[tuple[str, str], list[float]] = defaultdict(list)  # (level, spec) -> per seed
    cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
    seeded: dict[tuple[str, str, int], float] = {}  # (level, spec, seed) -> seconds
    failed: list[str] = []
    for run in runs:
        good = run.solved and run.valid is not False and (args.task == "first" or run.complete)
        seconds = run.time if good else args.timeout
        if not good:
            failed.append(f"{run.instance} {run.backend} seed {run.seed}: {run.status} {run.stopped_by or run.error}")
        wall[run.instance, run.backend].append(seconds)
        cpu[run.instance, run.backend].append(run.cpu)
        seeded[run.instance, run.backend, run.seed] = seconds

    seeds = sorted({seed for _, _, seed in seeded})

    def total(spec: str, levels: list[str], seed: int) -> float:
        return sum(seeded.get((n, spec, seed), 0.0) for n in levels)

    print("\nwall s (median / worst over seeds), CPU s (median); ratio = compiled median / hand median")
    ratios = " | ".join(f"ratio {Spec.parse(made).backend}" for _, made in pairs)
    head = "| level | " + " | ".join(f"{s} wall | CPU" for s in specs) + " | " + ratios
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
            ratio = _ratio(wall[name, made], wall[name, hand]) if name in covers[hand, made] else None
            cells.append(f"{ratio:.2f}" if ratio is not None else "-")
            if ratio is not None and ratio > worst_ratio.get((hand, made), (0.0, ""))[0]:
                worst_ratio[hand, made] = (ratio, name)
        print(f"| {name} | " + " | ".join(cells) + " |")

    print("\ntotal over each pair's levels (wall s of each seed's total: median / worst; CPU s median)")
    print(
        "| pair | levels | hand wall | hand CPU | compiled wall | compiled CPU | total ratio | worst level | over 2x |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for (hand, made), levels in covers.items():
        cells = []
        for spec in (hand, made):
            per_seed = [total(spec, levels, seed) for seed in seeds]
            summed_cpu = [sum(cpu[n, spec][i] for n in levels if i < len(cpu[n, spec])) for i in range(len(seeds))]
            cells += [
                f"{statistics.median(per_seed):.2f} / {max(per_seed):.2f}",
                f"{statistics.median(summed_cpu):.2f}",
            ]
        ratio, level = worst_ratio.get((hand, made), (float("nan"), "-"))
        summed = _ratio([total(made, levels, s) for s in seeds], [total(hand, levels, s) for s in seeds])
        over = [n for n in levels if (r := _ratio(wall[n, made], wall[n, hand])) is not None and r > 2]
        print(
            f"| {made} / {hand} | {len(levels)} | " + " | ".join(cells) + f" | {summed:.2f}x | {level} {ratio:.2f}x | "
            f"{len(over)}{' (' + ', '.join(over) + ')' if over else ''} |"
        )
    if failed:
        print(f"\n{len(failed)} runs without a valid answer (counted as the limit):")
        for line in failed:
            print("  " + line)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    sys.exit(1 if failed else 0)


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _ratio(mine: list[float], theirs: list[float]) -> float | None:
    if not mine or not theirs:
        return None
    return statistics.median(mine) / max(statistics.median(theirs), 1e-9)


if __name__ == "__main__":
    main()
