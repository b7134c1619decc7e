"""Plain graph helpers the graph constraints are judged by: components and cycles, no solver.

``semantics.py`` uses them to say whether a ``Connected`` or ``SingleCycle``
holds; the lazy compilers use them to find what to cut from a candidate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def adjacency(vertex_count: int, edges: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Neighbour lists of an undirected graph."""
    neighbours: list[list[int]] = [[] for _ in range(vertex_count)]
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    return neighbours


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
