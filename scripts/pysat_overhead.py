"""Where pysat's time goes on Hexiom: translation against solving, per level, over repeats.

    python scripts/pysat_overhead.py [LEVEL_OR_DIR...] [--variants totalizer] [--repeat 5]
                                                  [--against REV]

Each run is in this process (no fork, the solver already imported), so the
figures are CPU seconds of the two phases: ``translate`` (building the CNF
in Python, timed alone) and ``solve`` (CaDiCaL, the backend's own phase time).
Repeat r runs with seed r: pysat renumbers the CNF's variables and reorders
its clauses from a non-zero seed, so the repeats show the spread of luck.
With ``--against REV`` the Hexiom translator as it was at git revision REV
runs too, as ``REV:variant``, interleaved with today's run by run, so
before and after are measured side by side under the same load.  Prints,
per level and configuration, the median and worst over the repeats, and the
translation as a share of solving.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import statistics
import subprocess
import sys
import time

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options, Stopwatch
from trisolve.models.hexiom import model as hexiom


def translator_at(revision: str):
    """backends/pysat/hexiom.py as it was at ``revision``, importable beside today's."""
    source = subprocess.run(
        ["git", "show", f"{revision}:backends/pysat/hexiom.py"], capture_output=True, text=True, check=True
    ).stdout
    name = f"trisolve.backends.pysat.hexiom_{revision.replace('~', '_').replace('^', '_')}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "trisolve.backends.pysat"
    sys.modules[name] = module
    exec(compile(source, f"{revision}:backends/pysat/hexiom.py", "exec"), module.__dict__)
    return module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("levels", nargs="*", default=["levels/hexiom/level40.txt", "levels/hexiom/level38.txt"])
    parser.add_argument("--variants", default="totalizer")
    parser.add_argument("--repeat", type=int, default=5, help="runs per level and configuration, seeds 0..N-1")
    parser.add_argument("--against", default=None, metavar="REV")
    args = parser.parse_args()
    Stopwatch.record_cpu = True  # CPU seconds per phase: on a shared machine wall times drift with the load
    paths = [
        p
        for arg in args.levels
        for p in (sorted(glob.glob(os.path.join(arg, "*.txt"))) if os.path.isdir(arg) else [arg])
    ]
    configs = {}
    for variant in args.variants.split(","):
        configs[variant] = registry.get(f"pysat:{variant}", "hexiom")
        if args.against:
            before = registry.get(f"pysat:{variant}", "hexiom")
            before.translator = translator_at(args.against)
            configs[f"{args.against}:{variant}"] = before
    totals = {name: {"translate": [], "solve": []} for name in configs}
    print(
        f"{'level':10} {'configuration':22} {'clauses':>8} {'conflicts (median, worst)':>26} "
        f"{'translate CPU s (median, worst)':>32} "
        f"{'solve CPU s (median, worst)':>28} {'translate/solve':>15}"
    )
    for path in paths:
        level = hexiom.parse(path)
        runs = {name: [] for name in configs}
        translations = {name: [] for name in configs}
        for seed in range(args.repeat):  # interleaved: load drifts hit every configuration alike
            for name, backend in configs.items():
                began = time.process_time()
                backend.translator.encode(level, backend.encoding, Options())
                translations[name].append(time.process_time() - began)
                runs[name].append(backend.run(level, Limits(time=120), Options(seed=seed)))
        for name, done in runs.items():
            translate = translations[name]
            solve = [r.times.get("solve_cpu", 0.0) for r in done]
            totals[name]["translate"].append(statistics.median(translate))
            totals[name]["solve"].append(statistics.median(solve))
            share = statistics.median(translate) / max(statistics.median(solve), 1e-9)
            conflicts = sorted(r.stats.get("conflicts", 0) for r in done)
            print(
                f"{os.path.splitext(os.path.basename(path))[0]:10} {name:22} {done[0].stats['clauses']:8d} "
                f"{conflicts[len(conflicts) // 2]:13d} {conflicts[-1]:12d} "
                f"{statistics.median(translate):15.4f} {max(translate):15.4f} "
                f"{statistics.median(solve):13.4f} {max(solve):13.4f} {share:14.0%}"
            )
    if len(paths) > 1:
        for name in configs:
            t, s = sum(totals[name]["translate"]), sum(totals[name]["solve"])
            print(f"all {len(paths)} levels, {name}: translate {t:.3f} CPU s, solve {s:.3f} CPU s (sums of medians)")
    print(f"({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
