"""Count sigil tilings exactly with a dynamic program over a scan line, no solver.

Why this works: in any tiling, the piece covering the first uncovered cell (in
scan order) has that cell as its own first cell.  So the cells are taken one
by one; a cell already covered is passed over, an uncovered one gets every
placement that starts there and fits.  Two partial tilings that have covered
the same cells from the current one on (a *window*, as wide as the tallest
piece reaches) and have the same pieces left are completed in exactly the same
ways, so they are merged and only counted:
``layer[(stock, window)] = number of partial tilings``.

The frame is scanned along its shorter side (it is transposed when it is wider
than tall), which keeps the window narrow: for the 6x10 pentomino rectangle it
is at most 25 cells.  The stock is one packed integer, a field per piece type.

Equal pieces are interchangeable (a tiling is a set of placements per type),
as in ``models/sigils/model.py``: one placement of a type takes one from its stock,
whichever copy it is.  Orientations and placements are worked out here from
the pieces' drawings, independently of the solver translators.

Symmetry breaking is not supported (such runs answer ``unknown``).  A first-
solution run keeps every layer and walks back from the full frame to rebuild
one tiling.

The memory budget (``--memory``, ``memory.DEFAULT_MEMORY`` by default) is
kept in states: the placements' table is sized before it is built, and the
states held (the layer being built, the one before it, and every kept layer
of a first-solution run) are checked while a layer grows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ...models.errors import TrisolveError
from ...models.sigils.model import Level, Piece, Solution
from .. import base
from ..base import Limits, Options, Result, SolutionSink, Status
from ..catalog import Catalog
from .counter import Counter
from .memory import DEFAULT_MEMORY

CATALOG = Catalog(
    default="scanline",
    variants={
        "scanline": "exact count by a DP along the frame's shorter side (covered window + piece stock); "
        "enumeration is count-only, a first-solution run rebuilds one tiling; no symmetry breaking",
    },
    count_only=True,
    #: no Burnside count of tilings yet: symmetry-breaking runs would only say "unknown"
    symmetry_breaking=False,
)

#: Bytes one held state costs: a dict slot (with the dict's spare room after it grows), its key (a Python
#: int of a few hundred bits: the stock above the window) and its count.  Measured with tracemalloc on the
#: 40x40 and 6x10 frames (90-160 bytes a state); ``tests/test_sigils.py`` holds a run to its budget.
BYTES_PER_STATE = 200
#: Bytes one placement costs in the scan's table (its object, its window mask), and per cell it covers (an
#: entry of its cells' tuple and the cell's number): 285 bytes a tetromino's placement on the 40x40 frame.
BYTES_PER_PLACEMENT = 160
BYTES_PER_PLACED_CELL = 36
#: States processed between two looks at the clock and the budget.
CLOCK_EVERY = 4096


@dataclass(frozen=True, slots=True)
class Start:
    """A placement that starts on a scan cell: its type, its cells relative to it, the model's cells."""

    type: int
    relative: int  # bit k: the cell k steps later in scan order
    cells: tuple[int, ...]  # the model's cell numbers


def placement_count(level: Level) -> int:
    """How many placements the scan's table will hold (counted without building it)."""
    total = 0
    for piece in level.pieces:
        for shape in orientations(piece, level.mirroring):
            tall = max(r for r, _ in shape) + 1
            wide = max(c for _, c in shape) + 1
            total += max(0, level.height - tall + 1) * max(0, level.width - wide + 1)
    return total


class Scan:
    """The frame in scan order (transposed when wider than tall) and the placements starting on each cell."""

    def __init__(self, level: Level) -> None:
        self.transposed = level.width > level.height
        self.across = min(level.width, level.height)  # cells per scan row
        self.rows = max(level.width, level.height)
        self.size = level.cell_count
        self.starts: list[list[Start]] = [[] for _ in range(self.size)]
        # shapes are turned in the frame's own coordinates (transposing a shape would mirror it)
        for t, piece in enumerate(level.pieces):
            for shape in orientations(piece, level.mirroring):
                for row in range(level.height):
                    for col in range(level.width):
                        cells = [(row + r, col + c) for r, c in shape]
                        if all(0 <= r < level.height and 0 <= c < level.width for r, c in cells):
                            scan = sorted(self.scan_cell(r, c) for r, c in cells)
                            first = scan[0]
                            relative = sum(1 << (s - first) for s in scan)
                            model = tuple(sorted(level.cell(r, c) for r, c in cells))
                            self.starts[first].append(Start(t, relative, model))
        self.window = max((s.relative.bit_length() for starts in self.starts for s in starts), default=1)

    def scan_cell(self, row: int, col: int) -> int:
        """Where the frame's cell (row, col) comes in scan order."""
        return col * self.across + row if self.transposed else row * self.across + col

    def model_cell(self, level: Level, scan: int) -> int:
        row, col = divmod(scan, self.across)
        return level.cell(col, row) if self.transposed else level.cell(row, col)


def orientations(piece: Piece, mirroring: bool) -> list[tuple[tuple[int, int], ...]]:
    """The piece's distinct shapes under quarter turns (and flips when allowed), top-left at (0, 0)."""
    found = set()
    cells = list(piece.shape)
    for flip in (False, True) if mirroring else (False,):
        shape = [(r, -c) for r, c in cells] if flip else cells
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]  # a quarter turn
            top = min(r for r, _ in shape)
            left = min(c for _, c in shape)
            found.add(tuple(sorted((r - top, c - left) for r, c in shape)))
    return sorted(found)


@dataclass
class Outcome:
    complete: bool
    count: int
    stats: dict[str, Any]
    stopped_by: str | None = None
    layers: list[dict[int, int]] | None = None


class Stopped(TrisolveError):
    """A limit ended the count (the message says which)."""


class Program:
    """The layered count: ``key = stock << window | covered`` maps to the number of partial tilings."""

    def __init__(self, level: Level, *, deadline: float | None, memory: int | None = DEFAULT_MEMORY) -> None:
        placements = placement_count(level)
        cells = sum(len(p.shape) for p in level.pieces) // max(1, len(level.pieces))
        table = placements * (BYTES_PER_PLACEMENT + BYTES_PER_PLACED_CELL * cells) + level.cell_count * 64
        if memory is not None and table > memory:
            raise Stopped("memory budget")
        self.scan = Scan(level)
        #: states the budget allows at once, over every layer held
        self.max_states = None if memory is None else (memory - table) // BYTES_PER_STATE
        #: states held in layers kept for the walk back (first-solution runs)
        self.kept = 0
        counts = level.piece_counts
        self.field = max(counts, default=0).bit_length() + 1
        self.field_mask = (1 << self.field) - 1
        self.stock = sum(n << (self.field * t) for t, n in enumerate(counts))
        self.deadline = deadline
        self.widest = 0
        self.transitions = 0

    def step(self, i: int, layer: dict[int, int]) -> dict[int, int]:
        """From the layer before scan cell ``i`` to the layer after it."""
        window = self.scan.window
        low = (1 << window) - 1
        starts = [(s.relative, self.field * s.type, s) for s in self.scan.starts[i]]
        field_mask = self.field_mask
        after: dict[int, int] = {}
        get = after.get
        held = self.kept + len(layer)
        for seen, (key, ways) in enumerate(layer.items()):
            if seen % CLOCK_EVERY == 0:
                self._check(held + len(after))
            covered = key & low
            stock = key >> window
            if covered & 1:  # covered by an earlier piece: pass over it
                target = (stock << window) | (covered >> 1)
                after[target] = get(target, 0) + ways
                continue
            for relative, shift, _ in starts:
                if covered & relative or not (stock >> shift) & field_mask:
                    continue
                target = ((stock - (1 << shift)) << window) | ((covered | relative) >> 1)
                after[target] = get(target, 0) + ways
                self.transitions += 1
        self._check(held + len(after))
        self.widest = max(self.widest, len(after))
        return after

    def _check(self, states: int) -> None:
        """Stop at the deadline, or when the states held pass the budget."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise Stopped("time limit")
        if self.max_states is not None and states > self.max_states:
            raise Stopped("memory budget")

    def run(self, keep: bool) -> Outcome:
        layer = {self.stock << self.scan.window: 1}
        layers = [layer] if keep else None
        try:
            for i in range(self.scan.size):
                layer = self.step(i, layer)
                if layers is not None:
                    self.kept += len(layers[-1])
                    layers.append(layer)
                if not layer:
                    break
        except Stopped as stop:
            return Outcome(False, 0, self.stats(), str(stop))
        return Outcome(True, layer.get(0, 0), self.stats(), None, layers)

    def stats(self) -> dict[str, Any]:
        return {
            "window": self.scan.window,
            "widest_layer": self.widest,
            "transitions": self.transitions,
            "placements": sum(len(s) for s in self.scan.starts),
            "transposed": self.scan.transposed,
        }

    def walk_back(self, layers: list[dict[int, int]], pieces: tuple[str, ...]) -> Solution:
        """One tiling: from the full frame back to the empty one, a predecessor at every cell."""
        window = self.scan.window
        low = (1 << window) - 1
        state = 0
        chosen: list[tuple[str, tuple[int, ...]]] = []
        for i in range(self.scan.size - 1, -1, -1):
            state, start = self._predecessor(i, layers[i], state, window, low)
            if start is not None:
                chosen.append((pieces[start.type], start.cells))
        return Solution.of(chosen)

    def _predecessor(
        self, i: int, before: dict[int, int], state: int, window: int, low: int
    ) -> tuple[int, Start | None]:
        for key in before:
            covered = key & low
            stock = key >> window
            if covered & 1:
                if (stock << window) | (covered >> 1) == state:
                    return key, None
                continue
            for start in self.scan.starts[i]:
                shift = self.field * start.type
                if covered & start.relative or not (stock >> shift) & self.field_mask:
                    continue
                if ((stock - (1 << shift)) << window) | ((covered | start.relative) >> 1) == state:
                    return key, start
        raise AssertionError("dp walk-back found no predecessor")  # the forward pass put the state there


class DpSigils(Counter):
    """``dp:scanline`` on sigils: an exact counter that the solver backends are checked against."""

    family = "sigils"
    catalog = CATALOG

    def run(self, level: Level, limits: Limits, options: Options, on_solution: SolutionSink | None = None) -> Result:
        """Count (enumerate: count-only) or rebuild one tiling."""
        watch = base.Stopwatch()
        if options.symmetry_breaking:
            return self._unknown({}, watch, "symmetry breaking is not supported by dp on sigils")
        if not options.enumerate and limits.solutions is not None and limits.solutions <= 0:
            return self._unknown({}, watch, "solution limit")
        if level.obstruction:  # the areas differ or a piece fits nowhere: nothing to count
            return Result(self.name, self.family, Status.UNSAT, (), True, 0, {"obstruction": level.obstruction}, {})
        deadline = limits.deadline(time.monotonic())
        watch.start("count")
        memory = DEFAULT_MEMORY if options.memory is None else options.memory
        try:
            program = Program(level, deadline=deadline, memory=memory)
        except Stopped as stop:  # the placements' table alone would pass the budget
            watch.stop("count")
            return self._unknown({}, watch, str(stop))
        outcome = program.run(keep=not options.enumerate)
        watch.stop("count")
        if not outcome.complete:
            return self._unknown(outcome.stats, watch, outcome.stopped_by)
        if options.enumerate:
            # Count only (solutions=()): the cross-checker compares this run by its count.
            return self._counted(outcome.count, outcome.stats, watch)
        stats = dict(outcome.stats, count=outcome.count)
        if not outcome.count:
            return self._no_solution(stats, watch)
        watch.start("rebuild")
        assert outcome.layers is not None
        solution = program.walk_back(outcome.layers, tuple(p.name for p in level.pieces))
        watch.stop("rebuild")
        return self._first_solution(solution, stats, watch, on_solution)

    def export(self, level: Level, options: Options) -> str:
        """The scan as text: per scan cell, its model cell and how many placements start there."""
        scan = Scan(level)
        lines = [
            f"# dp:{self.variant} scan of a {level.width}x{level.height} frame "
            f"({'transposed' if scan.transposed else 'row by row'}), window {scan.window} cells",
            "# scan-cell model-cell placements-starting-here",
        ]
        lines += [f"{i} {scan.model_cell(level, i)} {len(s)}" for i, s in enumerate(scan.starts)]
        return "\n".join(lines) + "\n"


def make(variant: str) -> DpSigils:
    """The dp backend for this family (what ``backends/dp/__init__.make`` returns)."""
    return DpSigils(variant)
