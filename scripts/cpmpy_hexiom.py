"""The yardstick for ``trisolve solve levels/hexiom --backend cpsat``: a plain CPMpy loop over Hexiom levels.

    .venv/bin/pip install -e '.[bench]'    # CPMpy is in the bench extra, not a trisolve dependency
    python scripts/cpmpy_hexiom.py levels/hexiom

The model is the one issue 25 names, written as a CPMpy user would, not tuned
by us: one integer in -1..6 per cell (-1 empty, else the tile's number); the
level's blocked cells empty and locked tiles in place; a ``Count`` per tile
number; and one implication per cell, "an occupied cell holds its number of
occupied neighbours", where occupied is spelled ``!= -1``.  Solved with
OR-Tools through CPMpy at its defaults (CP-SAT's own: one worker per core).

``--occupied '>= 0'`` spells occupancy the other way, as this script did
before: the same model to a reader, but CP-SAT then needs minutes for level 38
(docs/bench/cpsat-profile.md), so it is not the yardstick.

Levels are read with trisolve's parser and each solution is checked by its
validator, so both sides do the same work around the solver.  Prints one line
per level (its wall time and CP-SAT's solve time), then a ``total`` line that
``scripts/side_by_side.py`` reads.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

import cpmpy as cp

from trisolve.models import hexiom

EMPTY = -1


def model_of(level: hexiom.Level, occupied_spelling: str) -> tuple[cp.Model, cp.core.NDVarArray]:
    board = level.board
    content = cp.cpm_array([cp.intvar(EMPTY, hexiom.MAX_TILE, name=f"cell{c}") for c in range(board.size)])
    if occupied_spelling == "!= -1":
        occupied = [content[c] != EMPTY for c in range(board.size)]
    else:
        occupied = [content[c] >= 0 for c in range(board.size)]
    model = cp.Model()
    for cell in level.blocked_cells:
        model += content[cell] == EMPTY
    for cell, number in level.locked_tiles:
        model += content[cell] == number
    for number, count in enumerate(level.tile_counts):
        model += cp.Count(content, number) == count
    for cell in range(board.size):
        around = cp.sum([occupied[n] for n in board.neighbours[cell]])
        model += occupied[cell].implies(content[cell] == around)
    return model, content


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", help="level files or folders of level*.txt")
    parser.add_argument("--occupied", choices=["!= -1", ">= 0"], default="!= -1")
    args = parser.parse_args()
    paths = [
        p
        for arg in args.paths
        for p in (sorted(glob.glob(os.path.join(arg, "level*.txt"))) if os.path.isdir(arg) else [arg])
    ]
    began = time.monotonic()
    solve_total = 0.0
    for path in paths:
        started = time.monotonic()
        level = hexiom.parse(path)
        model, content = model_of(level, args.occupied)
        if not model.solve("ortools"):
            print(f"{path}: no solution found", file=sys.stderr)
            return 1
        solve_total += model.status().runtime
        solution = hexiom.Solution(tuple(None if v == EMPTY else int(v) for v in content.value()))
        if hexiom.validate(level, solution):
            print(f"{path}: INVALID solution", file=sys.stderr)
            return 1
        print(f"{path}: {time.monotonic() - started:.3f} s, CP-SAT solve {model.status().runtime:.3f} s")
    print(f"total: {len(paths)} levels, {time.monotonic() - began:.3f} s in the loop, CP-SAT solve {solve_total:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
