"""Check dp's count by halves cube by cube against a SAT solver's complete enumeration.

A *cube* fixes which cells of the middle rows m and m+1 are occupied.  The
halves counter knows how many boards each cube holds (its join is a sum over
them); CaDiCaL, on the pysat backend's CNF with the same occupancies as unit
clauses, lists the boards of a cube and counts them.  The two share no code
(every board the solver lists is checked by the model's validator), so
agreement on cubes drawn at random tests the tables, the join and the
pruning on the level itself, not on a smaller stand-in.  Cubes with no board
are drawn too (row m+1 occupancies the halves never reached), where the
solver must prove that there is none.

``python scripts/dp_cubes.py levels/hexiom/level40.txt --leaves 24 --cubes 40 --max-boards 500``
counts by halves only ``--leaves`` random occupancies of row m (all of them
with ``--leaves 0``), draws ``--cubes`` cubes from them, and prints one line
per cube and a summary; it exits 1 on any difference.  ``--check-mirror``
also counts every leaf whose left-right mirror image would stand in for it,
and stops with an error if a leaf and its image differ.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from trisolve.backends.dp.hexiom.halves import HalvesCounter, halves_for
from trisolve.models.hexiom import model as hexiom


def solver_count(level: hexiom.Level, empty: list[int], occupied: list[int], timeout: float) -> tuple[int, bool, float]:
    """Boards of ``level`` with exactly these cells empty and occupied, listed by CaDiCaL on the shipped CNF
    translation: (count, complete, seconds).

    Each board found is checked by the model's validator, then blocked on its occupancy (a board is fixed by
    which cells hold a tile).  Why not clingo: on level 40 it lists about 57 boards a second with its fastest
    variant (``occupancy``, ``crafty``), and a cube of a few hundred boards took it over five minutes; CaDiCaL
    lists about 110 a second and proves a cube empty in seconds.
    """
    from pysat.solvers import Solver

    from trisolve.backends.base import Options
    from trisolve.backends.pysat import hexiom as cnf

    started = time.monotonic()
    encoding = cnf.encode(level, "totalizer", Options())
    cells = [c for c in range(level.board.size) if c not in level.blocked_cells]
    occupancy = {c: encoding.pool.id(("occupied", c)) for c in cells}
    projection = set(encoding.projection)
    boards = 0
    with Solver(name="cadical195", bootstrap_with=encoding.clauses) as solver:
        for c in empty:
            solver.add_clause([-occupancy[c]])
        for c in occupied:
            solver.add_clause([occupancy[c]])
        while True:
            if time.monotonic() - started > timeout:
                return boards, False, time.monotonic() - started
            if not solver.solve():
                return boards, True, time.monotonic() - started
            true = {v for v in solver.get_model() if v > 0}
            solution = encoding.decode(frozenset(true & projection))
            if hexiom.validate(level, solution):
                raise AssertionError(f"the solver listed an invalid board: {solution}")
            boards += 1
            solver.add_clause([-occupancy[c] if occupancy[c] in true else occupancy[c] for c in cells])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level")
    parser.add_argument(
        "--leaves", type=int, default=24, help="random occupancies of row m to count by halves (0: all)"
    )
    parser.add_argument("--cubes", type=int, default=40, help="cubes to check, a fifth of them without boards")
    parser.add_argument("--max-boards", type=int, default=500, help="largest cube the solver is asked to list")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds the solver may take per cube")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--check-mirror",
        action="store_true",
        help="count every leaf, and compare each with its left-right mirror image",
    )
    args = parser.parse_args(argv)
    level = hexiom.parse(args.level)
    halves = halves_for(level)
    if halves is None:
        print(f"{args.level}: the level does not split into halves", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    width = len(halves.row)
    leaves = None
    if args.leaves:
        # random occupancies with a few empty cells: those hold the small cubes a solver can list
        leaves = set()
        while len(leaves) < args.leaves:
            empty = set(rng.sample(range(width), rng.randint(1, min(5, width))))
            leaves.add(tuple(j not in empty for j in range(width)))
    cubes: dict[tuple[tuple[bool, ...], tuple[bool, ...]], int] = {}

    def on_leaf(row: tuple[bool, ...], weight: int, shares: list[tuple[tuple[bool, ...], int]]) -> None:
        for lower, boards in shares:
            cubes[row, lower] = boards

    started = time.monotonic()
    cpu = time.process_time()
    outcome = HalvesCounter(halves, on_leaf=on_leaf, leaves=leaves, check_mirror=args.check_mirror).count()
    whose = "these leaves" if args.check_mirror else "these leaves and their mirror images"
    print(
        f"halves: {outcome.count} boards ({whose}) in {sum(1 for n in cubes.values() if n)} cubes of "
        f"{outcome.stats['leaves']} leaves "
        f"({'complete' if outcome.complete else outcome.stopped_by}), {time.monotonic() - started:.1f} s wall, "
        f"{time.process_time() - cpu:.1f} s CPU",
        flush=True,
    )
    if args.check_mirror:
        print(
            f"mirror check: {outcome.stats.get('mirror_checks', 0)} leaves equal to their mirror images' "
            "(a difference would have stopped the count)",
            flush=True,
        )
    small = [cube for cube, boards in sorted(cubes.items()) if 0 < boards <= args.max_boards]
    rows = sorted({row for row, _ in cubes})
    lower_width = len(halves.lower)
    empty_cubes = set()
    for _ in range(50 * args.cubes):
        if len(empty_cubes) >= args.cubes // 5 or not rows:
            break
        row = rng.choice(rows)
        lower = tuple(rng.random() < 0.8 for _ in range(lower_width))
        if (row, lower) not in cubes:
            empty_cubes.add((row, lower))
    chosen = rng.sample(small, min(len(small), args.cubes - len(empty_cubes))) + sorted(empty_cubes)
    differences = 0
    print("row m         row m+1      halves  solver  seconds")
    for row, lower in chosen:
        empty = [c for c, o in zip(halves.row, row) if not o] + [c for c, o in zip(halves.lower, lower) if not o]
        occupied = [c for c, o in zip(halves.row, row) if o] + [c for c, o in zip(halves.lower, lower) if o]
        ours = cubes.get((row, lower), 0)
        theirs, complete, seconds = solver_count(level, empty, occupied, args.timeout)
        verdict = "" if complete and theirs == ours else ("  (solver stopped)" if not complete else "  DIFFERENT")
        differences += complete and theirs != ours
        picture = "".join("o" if o else "." for o in row), "".join("o" if o else "." for o in lower)
        print(f"{picture[0]:<13} {picture[1]:<12} {ours:>7} {theirs:>7} {seconds:>8.1f}{verdict}", flush=True)
    print(f"{len(chosen)} cubes, {sum(1 for c in chosen if cubes.get(c, 0))} with boards, {differences} different")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
