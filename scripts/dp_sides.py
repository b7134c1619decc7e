"""dp on empty and near-empty Hexiom boards of every side: the count, its wall and CPU seconds, per board.

``python scripts/dp_sides.py [--sides 1-16] [--classes]`` counts, for each side, the board with no tiles (1
board), with one 0 tile (one board per cell) and with two 1 tiles (one per edge), in this process, one after
the other, and checks each count against that known one (with ``--classes``, also the symmetry classes:
the orbits of the cells and edges).  A wrong count exits 1.  The first line says the date and the machine's
load, so a table made from it says what it was measured on.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.models import hexiom

KINDS = {"empty": (0,) * 7, "one 0 tile": (1,) + (0,) * 6, "two 1 tiles": (0, 2) + (0,) * 5}


def placements(board: hexiom.Board, kind: str) -> list[tuple[int, ...]]:
    """The occupied cells of every solution: none, any one cell, or two neighbouring cells."""
    if kind == "empty":
        return [()]
    if kind == "one 0 tile":
        return [(c,) for c in range(board.size)]
    return [(a, b) for a in range(board.size) for b in board.neighbours[a] if a < b]


def sides(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default=f"1-{hexiom.MAX_SIDE}", help="a side or a range, e.g. 9 or 1-16")
    parser.add_argument("--classes", action="store_true", help="also count symmetry classes (Burnside)")
    args = parser.parse_args(argv)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load average {load}, {os.cpu_count()} CPUs")
    print(f"{'side':>4}  {'board':12} {'mode':8} {'count':>6}  {'wall s':>7}  {'CPU s':>6}")
    dp = registry.get("dp", "hexiom")
    wrong = 0
    for side in sides(args.sides):
        board = hexiom.Board(side)
        for kind, tiles in KINDS.items():
            level = hexiom.Level(board, tiles, (), frozenset())
            found = placements(board, kind)
            modes = {"count": (Options(enumerate=True), len(found))}
            if args.classes:
                orbits = {min(tuple(sorted(p[c] for c in cells)) for p in level.symmetries) for cells in found}
                modes["classes"] = (Options(enumerate=True, symmetry_breaking=True), len(orbits))
            for mode, (options, truth) in modes.items():
                wall, cpu = time.perf_counter(), time.process_time()
                result = dp.run(level, Limits(), options)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                ok = result.complete and result.count == truth
                wrong += not ok
                note = "" if ok else f"  WRONG: expected {truth} ({result.stopped_by or 'complete'})"
                print(f"{side:>4}  {kind:12} {mode:8} {result.count:>6}  {wall:>7.2f}  {cpu:>6.2f}{note}", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
