"""trisolve's default backend side by side with multi-puzzle-solver on the published puzz.link puzzles.

``python scripts/puzzlink_peer.py`` needs ``pip install multi-puzzle-solver==1.1.10`` (CP-SAT models of 90+
genres; not a dependency of trisolve).  For every ``levels/<genre>/<genre>NN.txt`` of slither, nurikabe and
sudoku it starts one process per puzzle and side, both enumerating every solution:

* trisolve: ``trisolve solve FILE --count`` (the default backend for a count, whatever the table picks);
* the peer: a process that reads the same file with trisolve's parser, builds the peer's ``Board`` from the
  clues and calls its ``solve_and_print(verbose=False)`` (enumerate all solutions, at most 999).

Each side's wall time is the whole process (interpreter start, imports, reading, solving), limited by
``--timeout``, and its CPU time the process's own (user + system, its children included); a process that does
not finish in time, or finds other than exactly one solution, is unsolved.  ``--rounds N`` sweeps every puzzle
N times (the two sides alternate puzzle by puzzle in each round): both solvers are left on their own seeds, so
the rounds give the spread.  It prints per genre the total wall and CPU seconds of each side (an unsolved run
counted at the limit), median and worst over the rounds, the puzzles each solved in every round, and the ratio
of the median totals; then per puzzle the two times, median / worst.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from puzzlink_times import GENRES, load_average, puzzles  # the same puzzles, found the same way

PEER = "multi-puzzle-solver 1.1.10"


# ------------------------------------------------------------------ the peer's side, in its own process


def peer_board(genre: str, path: str):  # returns the peer's Board (untyped)
    """The peer's board for a trisolve level: a grid of one-character (or number) strings, blank for no clue."""
    import numpy as np

    from trisolve.models import FAMILIES

    level = FAMILIES[genre].parse(path)
    if genre == "sudoku":
        from puzzle_solver.puzzles.sudoku.sudoku import Board

        n = level.size
        grid = [[" " if d is None else str(d) for d in level.givens[r * n : (r + 1) * n]] for r in range(n)]
        return Board(np.array(grid))
    # a clue without its number (?) constrains the loop nowhere; the peer has no such clue in nurikabe
    cells = [" " if c is None or c < 0 else str(c) for c in level.clues]
    grid = [cells[r * level.width : (r + 1) * level.width] for r in range(level.height)]
    if genre == "slither":
        from puzzle_solver.puzzles.slitherlink.slitherlink import Board
    else:
        from puzzle_solver.puzzles.nurikabe.nurikabe import Board
    return Board(np.array(grid))


def peer_count(genre: str, path: str) -> int:
    """The number of solutions the peer enumerates."""
    return len(peer_board(genre, path).solve_and_print(verbose=False))


# ------------------------------------------------------------------ both sides, timed


def timed(command: list[str], timeout: float) -> tuple[float, float, str | None]:
    """Wall and CPU seconds of a process, and its standard output (None when it ran past the limit or failed)."""
    began, used = time.perf_counter(), _children_cpu()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:  # run() killed and reaped it: its CPU is counted
        return timeout, _children_cpu() - used, None
    return time.perf_counter() - began, _children_cpu() - used, done.stdout if done.returncode == 0 else None


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: a side's run of one puzzle: wall seconds, CPU seconds, and whether it found exactly one solution
Run = tuple[float, float, bool]


def trisolve_side(path: str, timeout: float) -> Run:
    wall, cpu, out = timed([sys.executable, "-m", "trisolve", "solve", path, "--count", "-q"], timeout)
    return wall, cpu, out is not None and "exactly one solution" in out


def peer_side(genre: str, path: str, timeout: float) -> Run:
    wall, cpu, out = timed([sys.executable, __file__, "--peer-one", genre, path], timeout)
    return wall, cpu, out is not None and out.strip() == "1"


def _spread(values: Sequence[float], digits: int = 1) -> str:
    return f"{statistics.median(values):.{digits}f} / {max(values):.{digits}f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--genres", default=",".join(GENRES), help="comma-separated (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall seconds per process (default 60)")
    parser.add_argument("--rounds", type=int, default=1, help="sweeps over every puzzle (default 1)")
    parser.add_argument("--peer-one", nargs=2, metavar=("GENRE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_one:
        print(peer_count(*args.peer_one))
        return 0
    genres = [g.strip() for g in args.genres.split(",") if g.strip()]
    began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    runs: dict[tuple[str, str], list[tuple[Run, Run]]] = {}  # (genre, puzzle) -> one (ours, theirs) per round
    for round_number in range(1, args.rounds + 1):
        for genre, path in puzzles(genres):  # the two sides one after the other, puzzle by puzzle
            ours, theirs = trisolve_side(path, args.timeout), peer_side(genre, path, args.timeout)
            name = os.path.splitext(os.path.basename(path))[0]
            runs.setdefault((genre, name), []).append((ours, theirs))
            print(f"  round {round_number} {name}: trisolve {ours[0]:.2f} s, peer {theirs[0]:.2f} s", file=sys.stderr)
    command = "python scripts/puzzlink_peer.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(command.strip())
    print(f"started {began}; load average (1, 5, 15 min) {load_before} at the start, {load_average()} at the end")
    print(
        f"one process per puzzle and side, every solution enumerated; time limit {args.timeout:g} s per process; "
        f"{args.rounds} round(s): totals are median / worst over the rounds\n"
    )
    print(
        f"| genre | trisolve solved | trisolve total wall s | CPU s | {PEER} solved | its total wall s | CPU s "
        "| ratio of median wall |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for genre in genres:
        mine = [rounds for (g, _), rounds in runs.items() if g == genre]
        totals = {}
        for side in (0, 1):
            for measure in (0, 1):  # wall, CPU
                totals[side, measure] = [sum(rounds[r][side][measure] for rounds in mine) for r in range(args.rounds)]
        solved = [sum(all(r[side][2] for r in rounds) for rounds in mine) for side in (0, 1)]
        theirs = statistics.median(totals[1, 0])
        ratio = f"{statistics.median(totals[0, 0]) / theirs:.2f}" if theirs else "-"
        print(
            f"| {genre} | {solved[0]}/{len(mine)} | {_spread(totals[0, 0])} | {_spread(totals[0, 1])} "
            f"| {solved[1]}/{len(mine)} | {_spread(totals[1, 0])} | {_spread(totals[1, 1])} | {ratio} |"
        )
    print("\n| puzzle | trisolve wall s | CPU s | peer wall s | CPU s |")
    print("|---|---|---|---|---|")
    for (_, name), rounds in runs.items():
        cells = []
        for side in (0, 1):
            unsolved = "" if all(r[side][2] for r in rounds) else " (unsolved in a round)"
            cells.append(_spread([r[side][0] for r in rounds], 2) + unsolved)
            cells.append(_spread([r[side][1] for r in rounds], 2))
        print(f"| {name} | {' | '.join(cells)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
