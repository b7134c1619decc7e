"""Plain graph helpers the graph constraints are judged by: components and cycles, no solver.

``semantics.py`` uses them to say whether a ``Connected`` or ``SingleCycle``
holds; the lazy compilers use them to find what to cut from a candidate.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def adjacency(vertex_count: int, edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Neighbour lists of an undirected graph."""
    neighbours: list[list[int]] = [[] for _ in range(vertex_count)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    return neighbours


@functools.lru_cache(maxsize=256)
def graph_of(vertex_count: int, edges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Neighbour lists of a graph constraint's fixed graph, built once: a lazy check asks for them on every
    candidate (hundreds of thousands of times in one Nurikabe explanation)."""
    return tuple(tuple(others) for others in adjacency(vertex_count, edges))


def is_connected(chosen: Sequence[bool], neighbours: Sequence[Sequence[int]]) -> bool:
    """Whether the chosen vertices are in one component (none chosen counts as one): a search from the first
    chosen vertex reaches every other."""
    start = next((vertex for vertex, picked in enumerate(chosen) if picked), None)
    if start is None:
        return True
    seen = [False] * len(chosen)
    seen[start] = True
    stack, reached = [start], 1
    while stack:
        for other in neighbours[stack.pop()]:
            if chosen[other] and not seen[other]:
                seen[other] = True
                reached += 1
                stack.append(other)
    return reached == sum(chosen)


def components(chosen: Sequence[bool], neighbours: Sequence[Sequence[int]]) -> list[list[int]]:
    """The connected components of the chosen vertices (each sorted; in order of their least vertex)."""
    seen = [False] * len(chosen)
    found: list[list[int]] = []
    for start, picked in enumerate(chosen):
        if not picked or seen[start]:
            continue
        seen[start] = True
        stack, part = [start], [start]
        while stack:
            vertex = stack.pop()
            for other in neighbours[vertex]:
                if chosen[other] and not seen[other]:
                    seen[other] = True
                    stack.append(other)
                    part.append(other)
        found.append(sorted(part))
    return found


def boundary(part: Iterable[int], neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The vertices next to ``part`` but not in it."""
    inside = set(part)
    return sorted({other for vertex in inside for other in neighbours[vertex] if other not in inside})


def degrees(vertex_count: int, chosen_edges: Iterable[tuple[int, int]]) -> list[int]:
    counts = [0] * vertex_count
    for a, b in chosen_edges:
        counts[a] += 1
        counts[b] += 1
    return counts


def edge_components(vertex_count: int, chosen_edges: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The components of the graph made of the chosen edges, as lists of indices into ``chosen_edges``."""
    neighbours = adjacency(vertex_count, chosen_edges)
    used = [bool(n) for n in neighbours]
    parts = components(used, neighbours)
    where = {vertex: i for i, part in enumerate(parts) for vertex in part}
    grouped: list[list[int]] = [[] for _ in parts]
    for index, (a, _) in enumerate(chosen_edges):
        grouped[where[a]].append(index)
    return grouped


def is_single_cycle(vertex_count: int, chosen_edges: Sequence[tuple[int, int]]) -> bool:
    """Whether the chosen edges form exactly one cycle: some edge, every degree 0 or 2, one component."""
    if not chosen_edges:
        return False
    if any(d not in (0, 2) for d in degrees(vertex_count, chosen_edges)):
        return False
    return len(edge_components(vertex_count, chosen_edges)) == 1


# ------------------------------------------------------------------ what a lazy compiler cuts

#: With many components, each is separated from this many others (the largest), not from all.
PARTNERS = 4


@dataclass(frozen=True)
class Separation:
    """Vertices ``u`` and ``w`` lie in different components of a candidate, and ``fence`` separates them: any
    connected set (or cycle) holding both also holds a member of ``fence``, which the candidate left out.

    A compiler states it in its own terms: for a connected set, "u and w are not both chosen, or a vertex of the
    fence is"; for a cycle (``fence`` holds edge indices), "u or w is unused, or an edge of the fence is chosen".
    Every solution satisfies it, so a candidate cut by it is never a solution lost."""

    u: int
    w: int
    fence: tuple[int, ...]


def vertex_separations(
    chosen: Sequence[bool], neighbours: Sequence[Sequence[int]], parts: Sequence[Sequence[int]] | None = None
) -> list[Separation]:
    """For a chosen vertex set in several components K, L, ...: u in K, w in L, and the vertices next to K.
    ``parts``: the components (``components``), if already found."""
    if parts is None:
        parts = components(chosen, neighbours)
    found = []
    for k, part in enumerate(parts):
        fence = tuple(boundary(part, neighbours))
        found.extend(Separation(part[0], other[0], fence) for other in _partners(parts, k))
    return found


def cycle_separations(
    vertex_count: int,
    edges: Sequence[tuple[int, int]],
    chosen: Sequence[bool],
    parts: Sequence[Sequence[int]] | None = None,
) -> list[Separation]:
    """For chosen edges in several components K, L, ...: a vertex of K, one of L, and the edges (indices into
    ``edges``) with one end in K.  ``parts``: the components (``cycle_parts``), if already found.  A lazy
    solver asks this of every candidate, so only the chosen edges and the edges at their ends are read."""
    if parts is None:
        parts = cycle_parts(vertex_count, edges, chosen)
    if len(parts) < 2:
        return []
    at = incidence(vertex_count, tuple(edges))
    found = []
    for k, part in enumerate(parts):
        inside = set(part)
        fence = tuple(sorted({i for vertex in part for i in at[vertex] if sum(edges[i]) - vertex not in inside}))
        found.extend(Separation(part[0], other[0], fence) for other in _partners(parts, k))
    return found


@functools.lru_cache(maxsize=256)
def incidence(vertex_count: int, edges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Each vertex's edges (indices into ``edges``), built once per graph."""
    at: list[list[int]] = [[] for _ in range(vertex_count)]
    for i, (a, b) in enumerate(edges):
        at[a].append(i)
        at[b].append(i)
    return tuple(tuple(edge) for edge in at)


def cycle_parts(vertex_count: int, edges: Sequence[tuple[int, int]], chosen: Sequence[bool]) -> list[list[int]]:
    """The vertex sets of the components the chosen edges make (each sorted, in order of their least vertex)."""
    parent = list(range(vertex_count))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    touched: set[int] = set()
    for a, b in [edge for edge, on in zip(edges, chosen) if on]:
        touched.add(a)
        touched.add(b)
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
    grouped: dict[int, list[int]] = {}
    for vertex in sorted(touched):
        grouped.setdefault(root(vertex), []).append(vertex)
    return list(grouped.values())


def is_one_cycle(vertex_count: int, edges: Sequence[tuple[int, int]], chosen: Sequence[bool], parts: int) -> bool:
    """Whether chosen edges that make ``parts`` components form exactly one cycle: one component, every degree
    0 or 2 (``is_single_cycle`` without finding the components again)."""
    if parts != 1:
        return False
    counts = degrees(vertex_count, [edge for edge, on in zip(edges, chosen) if on])
    return all(d in (0, 2) for d in counts)


def _partners(parts: Sequence[Sequence[int]], k: int) -> list[Sequence[int]]:
    others = [p for i, p in enumerate(parts) if i != k]
    if len(others) > PARTNERS:
        others = sorted(others, key=len, reverse=True)[:PARTNERS]
    return others


# ------------------------------------------------------------------ anchoring a connected set at a forced vertex


def hops(neighbours: Sequence[Sequence[int]], source: int) -> list[int | None]:
    """Each vertex's number of edges from ``source`` (breadth first); None for one it cannot reach."""
    found: list[int | None] = [None] * len(neighbours)
    found[source] = 0
    frontier = [source]
    while frontier:
        following = []
        for vertex in frontier:
            for other in neighbours[vertex]:
                if found[other] is None:
                    found[other] = found[vertex] + 1  # type: ignore[operator]
                    following.append(other)
        frontier = following
    return found


def central(neighbours: Sequence[Sequence[int]], candidates: Iterable[int]) -> int | None:
    """The candidate whose farthest reachable vertex is fewest edges away (the least such candidate on a tie);
    None without candidates."""
    best: tuple[int, int] | None = None
    for vertex in candidates:
        reach = [h for h in hops(neighbours, vertex) if h is not None]
        key = (max(reach), vertex)
        if best is None or key < best:
            best = key
    return None if best is None else best[1]


def small_sets(neighbours: Sequence[Sequence[int]], size: int, avoid: Iterable[int] = ()) -> list[tuple[int, ...]]:
    """Every connected set of 1 to ``size`` vertices that holds none of ``avoid``, each once (sorted), smaller
    sets first."""
    barred = set(avoid)
    level = {(v,) for v in range(len(neighbours)) if v not in barred}
    found: list[tuple[int, ...]] = sorted(level)
    for _ in range(size - 1):
        grown: set[tuple[int, ...]] = set()
        for part in level:
            for other in boundary(part, neighbours):
                if other not in barred:
                    grown.add(tuple(sorted((*part, other))))
        level = grown
        found += sorted(level)
    return found


@dataclass(frozen=True)
class Pocket:
    """Vertices ``inside`` that hold no root and are fenced off by ``fence`` (every vertex next to them): any
    connected set holding the root and a vertex of ``inside`` also holds a vertex of ``fence``."""

    inside: tuple[int, ...]
    fence: tuple[int, ...]


def anchored_separations(
    neighbours: Sequence[Sequence[int]], root: int, size: int, fence: int, known: Iterable[int] = ()
) -> list[Pocket]:
    """The small connected sets without ``root`` (at most ``size`` vertices) whose fence has at most ``fence``
    vertices, none of them ``known`` (vertices every solution holds: a fence with one says nothing).  A set
    whose fence is empty cannot reach the root at all."""
    held = set(known) | {root}
    found = []
    for part in small_sets(neighbours, size, avoid=held):
        around = boundary(part, neighbours)
        if len(around) <= fence and not held.intersection(around):
            found.append(Pocket(part, tuple(around)))
    return found
