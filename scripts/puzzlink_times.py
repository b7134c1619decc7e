"""Paradigms compared on the published puzz.link puzzles: each backend variant proves each puzzle unique.

``python scripts/puzzlink_times.py`` counts every ``levels/<genre>/<genre>NN.txt``
of slither, nurikabe and sudoku to completion with every backend variant that
takes the genre and needs nothing outside Python (``--backends`` chooses
others), once per seed: seed 0 as the input is written, seeds 1.. with the
input reordered from the seed (``--shuffle``: other luck, same answer).  Runs
are interleaved (seed, then puzzle, then backend) so that load on a shared
machine hits every backend alike.  Each run is a child forked from this script
after the solvers are imported here, so a run pays translation, solving and
decoding, not the import.  A run that finishes must count exactly 1 (the
script stops otherwise); one cut short by ``--timeout`` is unsolved.

It prints, per genre and backend, the runs solved and the median, p90 and
worst wall seconds (an unsolved run slower than any) and CPU seconds of the
whole run; then, per puzzle, the same for the genre's default backend (what
``trisolve solve --count`` runs without ``--backend``).

``--ladder DIR`` measures generated puzzles of growing size instead: every
``DIR/<genre>/**/*.txt`` (made with ``trisolve generate <genre> --unique``,
so each has exactly one solution), grouped by size, smallest first.  Every
size is run with every seed before the next, and a backend that leaves a run
of a size unsolved is not run on larger ones (they count as unsolved): how
far each paradigm gets, and how its time grows on the way.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import os
import shlex
import sys
from collections.abc import Sequence

from trisolve.backends import registry
from trisolve.bench import provenance
from trisolve.bench.runner import BenchRun, Settings, Trial, run_trial
from trisolve.bench.summary import distribution
from trisolve.models import FAMILIES
from trisolve.selection import policy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENRES = ("slither", "nurikabe", "sudoku")


def load_average() -> str:
    found = provenance.load()
    return " ".join(f"{x:.2f}" for x in found) if found else "unknown"


def puzzles(genres: Sequence[str]) -> list[tuple[str, str]]:
    """(genre, path) of every published puzzle, in file order."""
    return [
        (genre, path)
        for genre in genres
        for path in sorted(glob.glob(os.path.join(ROOT, "levels", genre, f"{genre}[0-9][0-9].txt")))
    ]


def backends_of(genre: str, asked: Sequence[str] | None) -> list[str]:
    """The backends measured on ``genre``: those asked that take it, else every in-Python variant that does."""
    offered = registry.variants(genre, policy.declaring("IN_PYTHON"))
    if not asked:
        return list(offered)
    return [name for name in asked if name in offered]


def measure(
    chosen: list[tuple[str, str]], backends: dict[str, list[str]], seeds: int, timeout: float
) -> dict[tuple[str, str], list[BenchRun]]:
    """Every puzzle counted once per seed and backend; the runs per (puzzle, backend)."""
    for genre, names in backends.items():
        registry.preload(names, genre)
    runs: dict[tuple[str, str], list[BenchRun]] = {}
    for seed in range(seeds):
        settings = Settings(timeout=timeout, mode="count", seed=seed, shuffle=seed > 0)
        for genre, path in chosen:
            for backend in backends[genre]:
                done = run_trial(Trial(path, genre, backend, 0), FAMILIES[genre], settings)
                if done.complete and done.count != 1:
                    raise SystemExit(f"{path}: {backend}, seed {seed}: counted {done.count}, not 1")
                runs.setdefault((path, backend), []).append(done)
                print(f"  {os.path.basename(path)} {backend} seed {seed}: {done.time:.2f} s", file=sys.stderr)
    return runs


def ladder_puzzles(folder: str, genres: Sequence[str]) -> dict[str, dict[tuple[int, int], list[str]]]:
    """Per genre, the generated puzzles under ``folder/<genre>`` by (width, height), smallest first."""
    found: dict[str, dict[tuple[int, int], list[str]]] = {}
    for genre in genres:
        by_size: dict[tuple[int, int], list[str]] = {}
        for path in sorted(glob.glob(os.path.join(folder, genre, "**", "*.txt"), recursive=True)):
            level = FAMILIES[genre].parse(path)
            by_size.setdefault((level.width, level.height), []).append(path)
        found[genre] = dict(sorted(by_size.items(), key=lambda item: (item[0][0] * item[0][1], item[0])))
    return found


def measure_ladder(
    ladder: dict[tuple[int, int], list[str]], genre: str, backends: list[str], seeds: int, timeout: float
) -> dict[tuple[tuple[int, int], str], list[BenchRun]]:
    """Each size's puzzles counted once per seed and backend, sizes in order; a backend that leaves a run
    unsolved stops there.  The runs per (size, backend); a size a backend never reached has none."""
    registry.preload(backends, genre)
    runs: dict[tuple[tuple[int, int], str], list[BenchRun]] = {}
    alive = list(backends)
    for size, paths in ladder.items():
        for seed in range(seeds):
            settings = Settings(timeout=timeout, mode="count", seed=seed, shuffle=seed > 0)
            for path in paths:
                for backend in alive:
                    done = run_trial(Trial(path, genre, backend, 0), FAMILIES[genre], settings)
                    if done.complete and done.count != 1:
                        raise SystemExit(f"{path}: {backend}, seed {seed}: counted {done.count}, not 1")
                    runs.setdefault((size, backend), []).append(done)
                    print(
                        f"  {size[0]}x{size[1]} {os.path.basename(path)} {backend} seed {seed}: {done.time:.2f} s",
                        file=sys.stderr,
                    )
        alive = [b for b in alive if all(r.solved and r.complete for r in runs[size, b])]
    return runs


def spread(values: list[BenchRun]) -> str:
    """Solved, then wall and CPU seconds, median / p90 / worst (an unsolved run counts as beyond any)."""
    solved = [r for r in values if r.solved and r.complete]
    unsolved = len(values) - len(solved)

    def three(numbers: list[float]) -> str:
        found = distribution(numbers, unsolved)
        shown = ("> limit" if found[k] == float("inf") else f"{found[k]:.2f}" for k in ("median", "p90", "max"))
        return " / ".join(shown)

    return f"{len(solved)}/{len(values)} | {three([r.time for r in solved])} | {three([r.cpu for r in solved])}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--genres", default=",".join(GENRES), help="comma-separated (default: %(default)s)")
    parser.add_argument("--backends", default="", help="comma-separated backend:variant (default: every one in Python)")
    parser.add_argument("--seeds", type=int, default=3, help="runs per puzzle and backend, seeds 0..N-1 (default 3)")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall seconds per run (default 60)")
    parser.add_argument("--ladder", metavar="DIR", help="generated puzzles of growing size: DIR/<genre>/**/*.txt")
    args = parser.parse_args(argv)
    genres = [g.strip() for g in args.genres.split(",") if g.strip()]
    asked = [b.strip() for b in args.backends.split(",") if b.strip()]
    backends = {genre: backends_of(genre, asked) for genre in genres}
    if args.ladder:
        return ladder_main(args, genres, backends, argv)
    began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    chosen = puzzles(genres)
    runs = measure(chosen, backends, args.seeds, args.timeout)
    command = "python scripts/puzzlink_times.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(command.strip())
    print(f"started {began}; load average (1, 5, 15 min) {load_before} at the start, {load_average()} at the end")
    print(f"count to completion; {args.seeds} seeds per puzzle and backend; time limit {args.timeout:g} s per run\n")
    print("| genre | backend | solved | wall s: median / p90 / worst | CPU s: median / p90 / worst |")
    print("|---|---|---|---|---|")
    for genre in genres:
        for backend in backends[genre]:
            values = [r for g, path in chosen if g == genre for r in runs[path, backend]]
            print(f"| {genre} | {backend} | {spread(values)} |")
    for genre in genres:
        default = policy.choose(genre, "solve", "count").backends[0]
        if ":" not in default:
            default = f"{default}:{registry.default_variant(default, genre)}"
        if default not in backends[genre]:
            continue
        print(f"\n{genre}: the default for a count, `{default}`, per puzzle\n")
        print("| puzzle | size | solved | wall s: median / p90 / worst | CPU s: median / p90 / worst |")
        print("|---|---|---|---|---|")
        for g, path in chosen:
            if g != genre:
                continue
            level = FAMILIES[genre].parse(path)
            width = getattr(level, "width", getattr(level, "size", 0))
            height = getattr(level, "height", width)
            name = os.path.splitext(os.path.basename(path))[0]
            print(f"| {name} | {width}x{height} | {spread(runs[path, default])} |")
    return 0


def ladder_main(
    args: argparse.Namespace, genres: list[str], backends: dict[str, list[str]], argv: Sequence[str] | None
) -> int:
    """``--ladder``: per genre, every backend on each size until it leaves a run unsolved."""
    began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    ladders = ladder_puzzles(args.ladder, genres)
    measured = {
        genre: measure_ladder(ladders[genre], genre, backends[genre], args.seeds, args.timeout) for genre in genres
    }
    command = "python scripts/puzzlink_times.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(command.strip())
    print(f"started {began}; load average (1, 5, 15 min) {load_before} at the start, {load_average()} at the end")
    print(f"count to completion; {args.seeds} seeds per puzzle and backend; time limit {args.timeout:g} s per run;")
    print("a backend that leaves a run of a size unsolved is not run on larger sizes")
    for genre in genres:
        ladder, runs = ladders[genre], measured[genre]
        puzzles_per_size = ", ".join(f"{w}x{h}: {len(paths)}" for (w, h), paths in ladder.items())
        print(f"\n{genre} (puzzles per size: {puzzles_per_size})\n")
        print("| size | backend | solved | wall s: median / p90 / worst | CPU s: median / p90 / worst |")
        print("|---|---|---|---|---|")
        for size in ladder:
            for backend in backends[genre]:
                values = runs.get((size, backend))
                if values:
                    print(f"| {size[0]}x{size[1]} | {backend} | {spread(values)} |")
                else:
                    print(f"| {size[0]}x{size[1]} | {backend} | not run (stopped at a smaller size) | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
