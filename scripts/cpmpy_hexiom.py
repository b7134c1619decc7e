"""The yardstick for ``trisolve solve levels/hexiom``: a plain CPMpy loop over Hexiom levels, one process.

    .venv/bin/pip install cpmpy    # for this measurement only: not a trisolve dependency
    python scripts/cpmpy_hexiom.py levels/hexiom

The model is what a CPMpy user would write first: an integer per cell (-1
empty, else the tile's number), the level's locked and blocked cells, how many
tiles of each number, and "a tile numbered d has exactly d occupied
neighbours"; solved with OR-Tools through CPMpy, default settings.  (A Boolean
per cell and number did worse: no answer on level 38 in 4 CPU minutes; adding
"occupied cells = tiles" to this one did not find level 38 in 90 s either.)  Levels
are read with trisolve's parser and each solution checked by its validator,
so both sides do the same work around the solver.  Prints one line per level.
"""

from __future__ import annotations

import glob
import os
import sys
import time

import cpmpy as cp

from trisolve.models import hexiom


def solve(level: hexiom.Level) -> hexiom.Solution | None:
    board = level.board
    content = cp.cpm_array([cp.intvar(-1, hexiom.MAX_TILE, name=f"cell{c}") for c in range(board.size)])
    occupied = [content[c] >= 0 for c in range(board.size)]
    model = cp.Model()
    for cell in level.blocked_cells:
        model += content[cell] == -1
    for cell, number in level.locked_tiles:
        model += content[cell] == number
    for number, count in enumerate(level.tile_counts):
        model += cp.Count(content, number) == count
    for cell in range(board.size):
        around = cp.sum(occupied[n] for n in board.neighbours[cell])
        model += occupied[cell].implies(content[cell] == around)
    if not model.solve("ortools"):
        return None
    return hexiom.Solution(tuple(None if v < 0 else int(v) for v in content.value()))


def main() -> int:
    paths = [
        p
        for arg in sys.argv[1:]
        for p in (sorted(glob.glob(os.path.join(arg, "level*.txt"))) if os.path.isdir(arg) else [arg])
    ]
    for path in paths:
        started = time.monotonic()
        level = hexiom.parse(path)
        solution = solve(level)
        if solution is None or hexiom.validate(level, solution):
            print(f"{path}: no valid solution", file=sys.stderr)
            return 1
        print(f"{path}: solved in {time.monotonic() - started:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
