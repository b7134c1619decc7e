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
(docs/bench/cpsat-vs-cpmpy.md), so it is not the yardstick.

Levels are read with trisolve's parser and each solution is checked by its
validator, so both sides do the same work around the solver.  Prints one line
per level (its wall time and CP-SAT's solve time), then a ``phases`` line
(wall seconds summed over the levels: importing CPMpy and OR-Tools; parsing;
building the CPMpy model; CPMpy posting it to CP-SAT, its transformations
included; the ``solve`` call around CP-SAT; checking the solution), then a
``total`` line (with the CPU of the solve calls, CP-SAT's threads included) that ``scripts/side_by_side.py`` reads.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time

from trisolve.models.hexiom import model as hexiom

_began = time.perf_counter()
import cpmpy as cp  # noqa: E402 - timed: the import is one of the loop's phases
from ortools.sat.python import cp_model  # noqa: E402, F401 - CPMpy imports it on first solve; timed here

IMPORT_TIME = time.perf_counter() - _began

EMPTY = -1


def model_of(level: hexiom.Level, occupied_spelling: str, narrow: bool = False) -> tuple[cp.Model, cp.core.NDVarArray]:
    board = level.board
    top = [len(board.neighbours[c]) if narrow else hexiom.MAX_TILE for c in range(board.size)]
    content = cp.cpm_array([cp.intvar(EMPTY, top[c], name=f"cell{c}") for c in range(board.size)])
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
    parser.add_argument(
        "--narrow", action="store_true", help="each cell's domain -1..(its number of neighbours), not -1..6"
    )
    parser.add_argument("--workers", type=int, help="CP-SAT's num_workers (default: CP-SAT's own, one per core)")
    args = parser.parse_args()
    paths = [
        p
        for arg in args.paths
        for p in (sorted(glob.glob(os.path.join(arg, "level*.txt"))) if os.path.isdir(arg) else [arg])
    ]
    began = time.monotonic()
    solve_total = solve_cpu = 0.0
    phases = dict.fromkeys(("parse", "build", "post", "solve call", "check"), 0.0)
    clock: list[float] = []

    def lap(phase: str) -> None:
        clock.append(time.perf_counter())
        phases[phase] += clock[-1] - clock[-2]

    for path in paths:
        clock[:] = [time.perf_counter()]
        level = hexiom.parse(path)
        lap("parse")
        model, content = model_of(level, args.occupied, args.narrow)
        lap("build")
        solver = cp.SolverLookup.get("ortools", model)  # what model.solve("ortools") does first
        lap("post")
        cpu = time.process_time()  # the process's CPU: CP-SAT's worker threads included
        if not solver.solve(**({} if args.workers is None else {"num_workers": args.workers})):
            print(f"{path}: no solution found", file=sys.stderr)
            return 1
        lap("solve call")
        solve_cpu += time.process_time() - cpu
        runtime = solver.status().runtime
        solve_total += runtime
        solution = hexiom.Solution(tuple(None if v == EMPTY else int(v) for v in content.value()))
        if hexiom.validate(level, solution):
            print(f"{path}: INVALID solution", file=sys.stderr)
            return 1
        lap("check")
        print(f"{path}: {clock[-1] - clock[0]:.3f} s, CP-SAT solve {runtime:.3f} s")
    print("phases (wall s, summed): " + ", ".join(f"{k} {v:.3f}" for k, v in {"import": IMPORT_TIME, **phases}.items()))
    print(
        f"total: {len(paths)} levels, {time.monotonic() - began:.3f} s in the loop, "
        f"solve call CPU {solve_cpu:.3f} s, CP-SAT solve {solve_total:.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
