"""trisolve's default backend side by side with multi-puzzle-solver on the published puzz.link puzzles.

``python scripts/puzzlink_peer.py`` needs ``pip install multi-puzzle-solver==1.1.10`` (CP-SAT models of 90+
genres; not a dependency of trisolve).  For every ``levels/<genre>/<genre>NN.txt`` of slither, nurikabe and
sudoku it starts one process per puzzle and side, both enumerating every solution:

* trisolve: ``trisolve solve FILE --count`` (the default backend for a count, whatever the table picks);
* the peer: a process that reads the same file with trisolve's parser, builds the peer's ``Board`` from the
  clues and calls its ``solve_and_print(verbose=False)`` (enumerate all solutions, at most 999).

Each side's wall time is the whole process (interpreter start, imports, reading, solving), limited by
``--timeout``; a process that does not finish in time, or finds other than exactly one solution, is unsolved.
It prints per genre the total wall seconds of each side (an unsolved run counted at the limit), the puzzles
each solved, and the ratio; then per puzzle the two times.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shlex
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


def timed(command: list[str], timeout: float) -> tuple[float, str | None]:
    """Wall seconds of a process, and its standard output (None when it ran past the limit or failed)."""
    began = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return timeout, None
    return time.perf_counter() - began, done.stdout if done.returncode == 0 else None


def trisolve_side(path: str, timeout: float) -> tuple[float, bool]:
    seconds, out = timed([sys.executable, "-m", "trisolve", "solve", path, "--count", "-q"], timeout)
    return seconds, out is not None and "exactly one solution" in out


def peer_side(genre: str, path: str, timeout: float) -> tuple[float, bool]:
    seconds, out = timed([sys.executable, __file__, "--peer-one", genre, path], timeout)
    return seconds, out is not None and out.strip() == "1"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--genres", default=",".join(GENRES), help="comma-separated (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=60.0, help="wall seconds per process (default 60)")
    parser.add_argument("--peer-one", nargs=2, metavar=("GENRE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_one:
        print(peer_count(*args.peer_one))
        return 0
    genres = [g.strip() for g in args.genres.split(",") if g.strip()]
    began = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load_average()
    rows = []
    for genre, path in puzzles(genres):  # the two sides one after the other, puzzle by puzzle
        ours, theirs = trisolve_side(path, args.timeout), peer_side(genre, path, args.timeout)
        rows.append((genre, os.path.splitext(os.path.basename(path))[0], ours, theirs))
        print(f"  {rows[-1][1]}: trisolve {ours[0]:.2f} s, peer {theirs[0]:.2f} s", file=sys.stderr)
    command = "python scripts/puzzlink_peer.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(command.strip())
    print(f"started {began}; load average (1, 5, 15 min) {load_before} at the start, {load_average()} at the end")
    print(f"one process per puzzle and side, every solution enumerated; time limit {args.timeout:g} s per process\n")
    print(f"| genre | trisolve solved | trisolve total wall s | {PEER} solved | its total wall s | ratio |")
    print("|---|---|---|---|---|---|")
    for genre in genres:
        mine = [r for r in rows if r[0] == genre]
        ours = sum(r[2][0] for r in mine)
        theirs = sum(r[3][0] for r in mine)
        solved_ours, solved_theirs = sum(r[2][1] for r in mine), sum(r[3][1] for r in mine)
        ratio = f"{ours / theirs:.2f}" if theirs else "-"
        total = len(mine)
        print(f"| {genre} | {solved_ours}/{total} | {ours:.1f} | {solved_theirs}/{total} | {theirs:.1f} | {ratio} |")
    print("\n| puzzle | trisolve wall s | peer wall s |")
    print("|---|---|---|")
    for _, name, ours, theirs in rows:
        show = [f"{side[0]:.2f}" if side[1] else f"{side[0]:.2f} (unsolved)" for side in (ours, theirs)]
        print(f"| {name} | {show[0]} | {show[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
