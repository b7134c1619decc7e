"""How long clingo:hand takes to prove each published puzz.link puzzle unique (its count of 1, complete).

``python scripts/puzzlink_times.py`` counts every ``levels/<genre>/<genre>NN.txt``
of slither, nurikabe and sudoku with ``clingo:hand`` (the families' own ASP
rules), once per seed: seed 0 as the facts are written, seeds 1.. with the
facts reordered from the seed (``--shuffle``: other luck, same answer), the
puzzles interleaved so that load on a shared machine hits them alike.  Each run
is a child forked from this script after clingo is imported here, so a run pays
the translation, grounding, solving and decoding, not the import.  Every count
must be 1 and complete (the script stops otherwise).

It prints, per puzzle, the median and worst over seeds of the wall seconds of
the whole run and of clingo's own CPU seconds (ground + solve, the uniqueness
proof), then per genre the median and worst of those.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import os
import shlex
import statistics
import sys
from collections.abc import Sequence

from trisolve.backends import registry
from trisolve.bench.runner import BenchRun, Settings, Trial, run_trial
from trisolve.models import FAMILIES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENRES = ("slither", "nurikabe", "sudoku")
BACKEND = "clingo:hand"


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def puzzles(genres: Sequence[str]) -> list[tuple[str, str]]:
    """(genre, path) of every published puzzle, in file order."""
    return [
        (genre, path)
        for genre in genres
        for path in sorted(glob.glob(os.path.join(ROOT, "levels", genre, f"{genre}[0-9][0-9].txt")))
    ]


def solver_cpu(run: BenchRun) -> float:
    return (run.ground_cpu or 0.0) + (run.solve_cpu or 0.0)


def measure(chosen: list[tuple[str, str]], seeds: int, timeout: float) -> dict[str, list[BenchRun]]:
    """Every puzzle counted once per seed, seed by seed; the runs per puzzle."""
    for genre in dict.fromkeys(genre for genre, _ in chosen):
        registry.preload([BACKEND], genre)
    runs: dict[str, list[BenchRun]] = {path: [] for _, path in chosen}
    for seed in range(seeds):
        settings = Settings(timeout=timeout, mode="count", seed=seed, shuffle=seed > 0)
        for genre, path in chosen:
            done = run_trial(Trial(path, genre, BACKEND, 0), FAMILIES[genre], settings)
            if not (done.solved and done.complete and done.count == 1):
                raise SystemExit(f"{path}: seed {seed}: {done.status}, count {done.count}, complete {done.complete}")
            runs[path].append(done)
    return runs


def row(name: str, size: str, values: list[BenchRun]) -> str:
    wall = [r.time for r in values]
    cpu = [solver_cpu(r) for r in values]
    return (
        f"| {name} | {size} | {statistics.median(wall):.2f} | {max(wall):.2f} | "
        f"{statistics.median(cpu):.3f} | {max(cpu):.3f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--genres", default=",".join(GENRES), help="comma-separated (default: %(default)s)")
    parser.add_argument("--seeds", type=int, default=3, help="runs per puzzle, seeds 0..N-1 (default 3)")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall seconds per run (default 60)")
    args = parser.parse_args(argv)
    genres = [g.strip() for g in args.genres.split(",") if g.strip()]
    began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    chosen = puzzles(genres)
    runs = measure(chosen, args.seeds, args.timeout)
    command = "python scripts/puzzlink_times.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(command.strip())
    print(f"started {began}; load average (1, 5, 15 min) {load_before} at the start, {load_average()} at the end")
    print(f"{BACKEND}, count to completion; {args.seeds} seeds per puzzle; time limit {args.timeout:g} s per run\n")
    print("| puzzle | size | wall s median | wall s worst | clingo CPU s median | clingo CPU s worst |")
    print("|---|---|---|---|---|---|")
    for genre, path in chosen:
        level = FAMILIES[genre].parse(path)
        width = getattr(level, "width", getattr(level, "size", 0))
        height = getattr(level, "height", width)
        print(row(os.path.splitext(os.path.basename(path))[0], f"{width}x{height}", runs[path]))
    print("\n| genre | puzzles | wall s median | wall s worst | clingo CPU s median | clingo CPU s worst |")
    print("|---|---|---|---|---|---|")
    for genre in genres:
        values = [r for g, path in chosen if g == genre for r in runs[path]]
        if values:
            print(row(genre, str(sum(g == genre for g, _ in chosen)), values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
