"""The plan that both Hexiom counters run: the folded board, the order of decisions, the stock.

``hexiom.py`` (the dictionary program, which rebuilds boards, and the backend) and
``layers.py`` (the array program, which counts) both follow this plan; it lives
on its own so that neither of them imports the other's module back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ....models.errors import TrisolveError
from ....models.hexiom.model import MAX_TILE, Level

EMPTY = -1
NUMBERS = range(MAX_TILE + 1)


# ------------------------------------------------------------ the folded board


@dataclass(frozen=True)
class Vertex:
    """Cells decided together: one cell, or one cycle of a symmetry (they hold equal tiles)."""

    cells: tuple[int, ...]
    locked: int | None
    #: (other vertex, how many neighbours of one of my cells lie in it); may include myself
    links: tuple[tuple[int, int], ...]

    @property
    def weight(self) -> int:
        """Tiles this vertex shows when occupied."""
        return len(self.cells)

    @property
    def degree(self) -> int:
        """Usable neighbours of each of its cells: the largest number it can show."""
        return sum(m for _, m in self.links)


def fold(level: Level, perm: Sequence[int] | None = None) -> tuple[Vertex, ...]:
    """The level's usable cells grouped by the cycles of ``perm`` (None: the identity), in reading order.

    ``perm`` must preserve the level (be one of ``level.symmetries``): a
    cycle mixing blocked and usable cells, or different locks, is refused.
    """
    board = level.board
    size = board.size
    perm = tuple(range(size)) if perm is None else tuple(perm)
    cycle_of = [-1] * size
    cycles: list[tuple[int, ...]] = []
    for start in range(size):
        if cycle_of[start] >= 0:
            continue
        cycle, cell = [], start
        while cycle_of[cell] < 0:
            cycle_of[cell] = len(cycles)
            cycle.append(cell)
            cell = perm[cell]
        cycles.append(tuple(sorted(cycle)))
    usable = []
    for cycle in cycles:
        blocked = {c in level.blocked_cells for c in cycle}
        locks = {level.locked.get(c) for c in cycle}
        if len(blocked) > 1 or len(locks) > 1:
            raise ValueError("dp: the permutation does not preserve the level's blocked cells and locks")
        if not blocked.pop():
            usable.append(cycle)
    usable.sort()  # by their first cell: reading order
    vertex_of = {c: v for v, cycle in enumerate(usable) for c in cycle}
    vertices = []
    for cycle in usable:
        links: dict[int, int] = {}
        for n in board.neighbours[cycle[0]]:
            if n in vertex_of:
                links[vertex_of[n]] = links.get(vertex_of[n], 0) + 1
        vertices.append(Vertex(cycle, level.locked.get(cycle[0]), tuple(sorted(links.items()))))
    return tuple(vertices)


# ------------------------------------------------------------------ the plan


@dataclass(frozen=True)
class Step:
    """Deciding one vertex: where things sit in the frontier before and after.

    Positions index the *extended* frontier: the old frontier with the new
    vertex appended at the end.
    """

    vertex: Vertex
    #: the vertex's links to itself (a cell next to another cell of its own cycle)
    own: int
    #: (position, what I add to its count, what it adds to mine) for decided neighbours
    earlier: tuple[tuple[int, int, int], ...]
    #: positions whose last neighbour this is: their numbers become final
    finalised: tuple[int, ...]
    #: positions that stay, in order: the next frontier
    keep: tuple[int, ...]
    #: kept positions whose range changed: (position, undecided neighbours left, locked number)
    touched: tuple[tuple[int, int, int | None], ...]
    #: per extended position: locked number (None: movable) and weight
    locked_at: tuple[int | None, ...]
    weight_at: tuple[int, ...]
    #: per position of the *next* frontier: undecided neighbours left, weight (0 when locked)
    after_room: tuple[int, ...]
    after_weight: tuple[int, ...]
    #: tiles that free vertices still to decide could show, by "at least k neighbours", per k
    future_at_least: tuple[int, ...]
    #: tiles whose number is final after this step, at most (empty vertices count too)
    gone: int


@dataclass(frozen=True)
class Plan:
    """The vertex order and every step's bookkeeping, computed once per fold."""

    steps: tuple[Step, ...]
    frontiers: tuple[tuple[int, ...], ...]  # the frontier's vertices after each step
    width: int  # the widest frontier


def make_plan(vertices: Sequence[Vertex]) -> Plan:
    """Precompute what deciding each vertex (in the given order) does to the frontier."""
    count = len(vertices)
    link = [dict(v.links) for v in vertices]
    # the step after which every neighbour of a vertex is decided
    last = [max([u] + [w for w in link[u]]) for u in range(count)]
    # future_at_least after step i, for every i at once (from the end): one pass, not one per step
    future: list[tuple[int, ...]] = [()] * count
    running = [0] * len(NUMBERS)
    for i in range(count - 1, -1, -1):
        future[i] = tuple(running)
        vertex = vertices[i]
        if vertex.locked is None:
            degree, weight = vertex.degree, vertex.weight
            running = [total + (weight if degree >= k else 0) for k, total in zip(NUMBERS, running)]
    steps = []
    frontiers = []
    frontier: list[int] = []
    gone = 0
    for i, vertex in enumerate(vertices):
        extended = frontier + [i]
        where = {u: p for p, u in enumerate(extended)}
        earlier = tuple((where[w], link[w][i], m) for w, m in link[i].items() if w < i)
        finalised = tuple(p for p, u in enumerate(extended) if last[u] == i)
        keep = tuple(p for p, u in enumerate(extended) if last[u] > i)
        gone += sum(vertices[extended[p]].weight for p in finalised)

        def undecided(u: int, i: int = i) -> int:
            return sum(m for w, m in link[u].items() if w > i)

        kept = set(keep)
        touched = tuple(
            (p, undecided(extended[p]), vertices[extended[p]].locked)
            for p in [e[0] for e in earlier] + [len(frontier)]
            if p in kept
        )
        kept_vertices = [extended[p] for p in keep]
        steps.append(
            Step(
                vertex=vertex,
                own=link[i].get(i, 0),
                earlier=earlier,
                finalised=finalised,
                keep=keep,
                touched=touched,
                locked_at=tuple(vertices[u].locked for u in extended),
                weight_at=tuple(vertices[u].weight for u in extended),
                after_room=tuple(undecided(u) for u in kept_vertices),
                after_weight=tuple(0 if vertices[u].locked is not None else vertices[u].weight for u in kept_vertices),
                future_at_least=future[i],
                gone=gone,
            )
        )
        frontiers.append(tuple(kept_vertices))
        frontier = kept_vertices
    width = max((len(f) for f in frontiers), default=0)
    return Plan(tuple(steps), tuple(frontiers), width)


# ---------------------------------------------------------------- the stock


class Stock:
    """The movable tiles not shown yet, packed into one integer.

    One field per number the level has movable tiles of (tiles of exactly
    that number left), and one per threshold k where it says more (tiles
    numbered k or more left).  Each field has a guard bit above it: after a
    subtraction, a field that went negative has borrowed its guard bit.
    """

    def __init__(self, movable: tuple[int, ...], cells: int) -> None:
        present = [d for d in NUMBERS if movable[d] > 0]
        fields = [frozenset({d}) for d in present]
        for k in NUMBERS:
            wider = frozenset(d for d in present if d >= k)
            if len(wider) > 1 and wider not in fields:
                fields.append(wider)
        self.present = frozenset(present)
        self.fields: tuple[frozenset[int], ...] = tuple(fields)
        # wide enough for any count of cells, so sums of bounds never reach a guard bit
        bits = max(1, sum(movable), cells).bit_length()
        self.stride = bits + 1
        self.limit = (1 << bits) - 1
        self.guards = sum(1 << (f * self.stride + bits) for f in range(len(fields)))
        #: what showing number d once takes from the stock (-1: the level has no movable tile d)
        self.take = tuple(
            self.pack([int(d in f) for f in fields], guards=False) if d in self.present else -1 for d in NUMBERS
        )
        self.start = tuple(sum(movable[d] for d in f) for f in fields)
        self.initial = self.pack(self.start)

    def pack(self, values: Sequence[int], guards: bool = True) -> int:
        packed = self.guards if guards else 0
        for field, value in enumerate(values):
            packed += max(0, min(value, self.limit)) << (field * self.stride)
        return packed

    def can_show(self, low: int, high: int) -> tuple[int, ...]:
        """Per field: 1 when a tile that may show low..high could take a tile from it."""
        return tuple(int(any(low <= d <= high for d in f)) for f in self.fields)

    def must_show(self, low: int, high: int) -> tuple[int, ...]:
        """Per field: 1 when every number in stock that such a tile may show is in the field."""
        shown = [d for d in range(low, high + 1) if d in self.present]
        return tuple(int(bool(shown) and all(d in f for d in shown)) for f in self.fields)


# ------------------------------------------------------------ the transition


@dataclass
class Outcome:
    """What one run of the program found (``count`` is exact only when ``complete``)."""

    count: int
    complete: bool
    stopped_by: str | None
    stats: dict[str, Any]


class Stopped(TrisolveError):
    """A limit ended the run (the message says which)."""


#: where a counting program reports its progress: a dict per step (or per finished task)
ProgressSink = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Budget:
    """What one count may spend, and whom it tells: the record every compiled counter (rows, halves) takes.

    Why one record: the counters and their entry points all take the same limits, and a limit added to one
    (or a default changed) must reach every one of them alike.
    """

    deadline: float | None = None  #: ``time.monotonic()`` at which the count stops ("time limit")
    memory: int | None = None  #: bytes the count's layers may hold ("memory budget"); None: no limit
    progress: ProgressSink | None = None  #: gets a dict after each step or finished part
    threads: int = 2  #: threads a big step is split between


def program_stats(
    vertices: int, width: int, peak_states: int, transitions: int, peak_bytes: int | None = None
) -> dict[str, Any]:
    """The stats every counting program reports (the JSON's ``stats``), named once."""
    stats: dict[str, Any] = {
        "vertices": vertices,
        "frontier_width": width,
        "peak_states": peak_states,
        "frontier_transitions": transitions,
    }
    if peak_bytes is not None:
        stats["peak_bytes"] = peak_bytes
    return stats
