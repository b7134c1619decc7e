"""Sigils as exact cover: the cells and the pieces are the items, the placements the options.

Knuth's own example of exact cover (TAOCP 7.2.2.1): a primary item per
cell of the frame and per piece; an option per way to put a piece on the
frame, covering the piece's item and the cells under it.  A cover is a
tiling.

Repeated pieces.  One repeated type needs no item at all: the cells are
covered exactly once and every other piece placed exactly once, so the
cells left over (as many as its copies cover, since the areas add up) are
covered by exactly its k copies.  A frame of 100 squares is then the plain
cover of its cells by squares: one option per placement, one cover per
tiling.  The type left without items is the one whose copies would cost
the most option entries (``_free_type``).

Every other type placed k times gets k primary items, ``L1`` .. ``Lk``, one
per copy, and each placement of the type is offered to every copy.
Unordered, every tiling would come out k! times (its copies relabelled).
So copies are kept in order of their anchors (first cell in reading order),
with secondary items: the pair ``L1``/``L2`` has an item ``L1<L2@x`` for
each cell x where an L can be anchored; copy 1 anchored at a takes the
items with x <= a, copy 2 anchored at b those with x >= b.  They clash
exactly when b <= a, so the only cover left per tiling is the one whose
copies are numbered in reading order.  That costs each option about as many
entries as the type has anchors, so the problem's size is worked out before
anything is built (``engine.check_size``).

Variants:

* ``plain``: every cover is one tiling.  With symmetry breaking, a cover is
  kept only when it is the lex-leader of its class (the convention of
  ``models/sigils/model.py``: placements ordered by first cell, type in the
  level's order, other cells; the smallest tuple of placements wins).
* ``quadrant`` (the classic speed-up): one piece type that every symmetry
  of the level maps to itself and that is placed once (the X of the
  pentominoes) is offered only one placement per orbit of its placements
  under the level's symmetries -- X in one quadrant.  Every tiling has an
  image with X there, so the covers meet every class; a cover stands for
  its whole class when it is the smallest (by that key) of the class's
  members found, and is then expanded into the class (or, with symmetry
  breaking, into the class's lex-leader).  So each tiling, or each class,
  comes out exactly once, with a search about |G| times smaller.

Orientations are worked out here from the drawing, turned as text
(rows reversed and transposed), independently of the model's geometry.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ...models.sigils.model import Level, Solution
from .. import mutation
from ..base import Options
from ..catalog import Catalog
from .engine import Cover, ExactCover, check_size

CATALOG = Catalog(
    default="quadrant",
    variants={
        "quadrant": "items: cells and piece copies; one option per placement; one piece every symmetry fixes "
        "restricted to one placement per orbit, covers expanded by the symmetries; Algorithm C (xcover)",
        "plain": "items: cells and piece copies; one option per placement; each cover one tiling; Algorithm C (xcover)",
    },
)

#: (piece name, its cells sorted)
Placement = tuple[str, tuple[int, ...]]


# ------------------------------------------------------------------ geometry


def drawings(rows: list[str], mirroring: bool) -> list[list[str]]:
    """The distinct drawings of a piece turned (and turned over): rotating its rows as text."""
    found: list[list[str]] = []
    starts = [rows, [row[::-1] for row in rows]] if mirroring else [rows]
    for drawing in starts:
        for _ in range(4):
            if drawing not in found:
                found.append(drawing)
            drawing = ["".join(column) for column in zip(*reversed(drawing))]  # a quarter turn clockwise
    return found


def placements(level: Level) -> list[Placement]:
    """Every way to put each piece type on the frame, type by type in the level's order."""
    found: list[Placement] = []
    for piece in level.pieces:
        rows = piece.drawing("#").split("\n")  # every row as wide as the drawing
        for drawing in drawings(rows, level.mirroring):
            tall, wide = len(drawing), len(drawing[0])
            for top in range(level.height - tall + 1):
                for left in range(level.width - wide + 1):
                    cells = sorted(
                        (top + r) * level.width + left + c
                        for r, row in enumerate(drawing)
                        for c, mark in enumerate(row)
                        if mark == "#"
                    )
                    found.append((piece.name, tuple(cells)))
    return found


def cell_name(level: Level, cell: int) -> str:
    row, col = divmod(cell, level.width)
    return f"r{row}c{col}"


# ------------------------------------------------------------------ the translation


def encode(level: Level, variant: str, options: Options) -> ExactCover:
    """The level as exact cover under one variant (see the module docstring)."""
    CATALOG.require(variant, "exactcover", "sigils")
    if level.obstruction:
        # plainly unsolvable (areas differ, or a piece fits nowhere): an item no option covers
        return ExactCover(("no solution",), (), (), lambda cover: (), (f"no solution: {level.obstruction}",))
    everywhere = placements(level)
    symmetries = _symmetries(level)
    pinned, representatives = (None, None)
    if variant == "quadrant":
        pinned, representatives = _pinned_piece(level, everywhere, symmetries)
    offered = [p for p in everywhere if p[0] != pinned or p in representatives]
    return _problem(level, offered, options, symmetries, pinned, representatives)


def export_problem(level: Level, variant: str, options: Options) -> ExactCover:
    """What ``export`` writes: the plain rows, whose covers are the tilings one to one.

    The quadrant restriction is a way to search, not a file other tools can
    count: its covers stand for whole classes.  Symmetry breaking is a filter
    on covers (an exact-cover file has no order to pick a lex-leader by), so
    with it the same rows are written and a comment says their covers are all
    tilings, not one per class.  A level with a plain obstruction gets its
    real rows too (every piece with its items: the areas do not add up), which
    have no cover.
    """
    plain = dataclasses.replace(options, symmetry_breaking=False)
    if level.obstruction:
        problem = _problem(level, placements(level), plain, _symmetries(level)[:1], None, None)
        problem = dataclasses.replace(problem, notes=(*problem.notes, f"no solution: {level.obstruction}"))
    else:
        problem = encode(level, "plain", plain)
    if not options.symmetry_breaking:
        return problem
    note = "symmetry breaking keeps one cover per class after the search: these rows' covers are all tilings"
    return dataclasses.replace(problem, notes=(*problem.notes, note))


def _free_type(level: Level, offered: list[Placement]) -> str | None:
    """The repeated type that gets no item (module docstring): the one whose copies would cost the most entries.

    Only when the areas add up: then the cells its copies must cover are exactly those left over."""
    if level.piece_area != level.cell_count:
        return None
    costs = {
        p.name: _type_entries(level, offered, p.name, n, free=None)
        for p, n in zip(level.pieces, level.piece_counts)
        if n > 1
    }
    return max(costs, key=lambda name: costs[name]) if costs else None


def _type_entries(level: Level, offered: list[Placement], name: str, copies: int, free: str | None) -> int:
    """How many option entries a type's options hold: its cells, its copy's item, its order items.

    Worked out, not built: a placement anchored at the i-th of A anchors is offered to each copy; copies
    after the first take A - i order items, copies before the last take i + 1, (k - 1)(A + 1) in all."""
    own = [covered for piece, covered in offered if piece == name]
    cells = sum(len(covered) for covered in own)
    if name == free:
        return cells
    anchors = len({covered[0] for covered in own})
    return copies * (cells + len(own)) + (copies - 1) * (anchors + 1) * len(own)


def _problem(
    level: Level,
    offered: list[Placement],
    options: Options,
    symmetries: list[tuple[tuple[int, ...], dict[str, str]]],
    pinned: str | None,
    representatives: set[Placement] | None,
) -> ExactCover:
    free = _free_type(level, offered)
    # the size, before anything is built: a frame of many repeated pieces of several types can need billions
    entries = sum(_type_entries(level, offered, p.name, n, free) for p, n in zip(level.pieces, level.piece_counts))
    check_size(entries, options.memory)
    cells = [cell_name(level, c) for c in range(level.cell_count)]
    copies = {
        p.name: [] if p.name == free else [p.name] if n == 1 else [f"{p.name}{k}" for k in range(1, n + 1)]
        for p, n in zip(level.pieces, level.piece_counts)
    }
    anchors = {p.name: sorted({covered[0] for name, covered in offered if name == p.name}) for p in level.pieces}
    # Every cell is covered by exactly one piece: the cells are primary items.
    cover_cells = mutation.keep("every cell covered once")
    # Each piece (each copy of a type) is placed exactly once: a primary item per copy.  The free type has none:
    # its copies cover exactly the cells the others leave (the areas add up).
    place_pieces = mutation.keep("each piece placed once")
    # Copies of a type in reading order of their anchors (else a tiling comes out k! times).
    order_copies = mutation.keep("copies in anchor order")

    rows: list[tuple[str, ...]] = []
    placed: list[Placement] = []
    for name, covered in offered:
        names = copies[name]
        for k, copy in enumerate(names or [None]):
            option = [cells[c] for c in covered] if cover_cells else []
            if place_pieces and copy is not None:
                option.append(copy)
            if order_copies and len(names) > 1:
                if k > 0:  # after copy k-1: its order items from this anchor on
                    option += [_order(names, k - 1, level, x) for x in anchors[name] if x >= covered[0]]
                if k < len(names) - 1:  # before copy k+1: its order items up to this anchor
                    option += [_order(names, k, level, x) for x in anchors[name] if x <= covered[0]]
            rows.append(tuple(option))
            placed.append((name, covered))
    primary = (cells if cover_cells else []) + ([c for names in copies.values() for c in names] if place_pieces else [])
    secondary = [
        _order(names, k, level, x)
        for name, names in copies.items()
        for k in range(len(names) - 1)
        for x in anchors[name]
        if order_copies
    ]

    expand = _expander(level, options, symmetries, pinned, representatives)

    def solutions_of(cover: Cover) -> Sequence[Solution]:
        return expand([placed[i] for i in cover])

    notes = (
        "items r<row>c<col>: the cell in that row and column (from 0, top left), covered once",
        "items <piece> or <piece><k>: the piece, or its k-th copy in reading order, placed once",
        "items <piece><k><<piece><k+1>@r<row>c<col> (secondary): keep copy k anchored before copy k+1",
        *(
            [f"piece {free}: no item; its {level.counts[free]} copies cover the cells the other pieces leave"]
            if free
            else []
        ),
        *(
            [f"piece {pinned} restricted to one placement per symmetry orbit: a cover stands for its class"]
            if pinned
            else []
        ),
    )
    return ExactCover(tuple(primary), tuple(secondary), tuple(rows), solutions_of, notes)


def _order(names: list[str], k: int, level: Level, cell: int) -> str:
    return f"{names[k]}<{names[k + 1]}@{cell_name(level, cell)}"


# ------------------------------------------------------------------ symmetries


def _symmetries(level: Level) -> list[tuple[tuple[int, ...], dict[str, str]]]:
    """The level's symmetries as (cell map, piece renaming), identity first."""
    found = []
    for index, symmetry in enumerate(level.symmetries):
        if index and not mutation.keep_symmetry("symmetry group", index):
            continue
        found.append((symmetry.cells, dict(symmetry.renaming)))
    return found


def _image(placement: Placement, symmetry: tuple[tuple[int, ...], dict[str, str]]) -> Placement:
    cells, renaming = symmetry
    name, covered = placement
    return renaming.get(name, name), tuple(sorted(cells[c] for c in covered))


def _pinned_piece(
    level: Level, everywhere: list[Placement], symmetries: list[tuple[tuple[int, ...], dict[str, str]]]
) -> tuple[str | None, set[Placement] | None]:
    """The piece to restrict and its one placement per orbit, or (None, None) when none helps.

    It must be placed once (so a tiling has one such placement) and mapped
    to itself by every symmetry (so its placements' orbits stay among its
    own).  Of those, the one whose placements fall into the fewest orbits per
    placement (the biggest cut); the smallest placement of each orbit stays.
    """
    if len(symmetries) < 2:
        return None, None
    best: tuple[float, str, set[Placement]] | None = None
    for piece, count in zip(level.pieces, level.piece_counts):
        if count != 1 or any(renaming.get(piece.name, piece.name) != piece.name for _, renaming in symmetries):
            continue
        own = [p for p in everywhere if p[0] == piece.name]
        kept = {min(_image(p, s) for s in symmetries) for p in own}
        cut = len(kept) / len(own)
        if best is None or cut < best[0]:
            best = (cut, piece.name, kept)
    if best is None or best[0] == 1:
        return None, None
    return best[1], best[2]


def _expander(
    level: Level,
    options: Options,
    symmetries: list[tuple[tuple[int, ...], dict[str, str]]],
    pinned: str | None,
    representatives: set[Placement] | None,
):
    """What a cover (its placements) stands for: the tilings or the class leaders it contributes."""
    rank = {p.name: i for i, p in enumerate(level.pieces)}

    def key(tiling: Sequence[Placement]) -> tuple:
        # the lex-leader convention: placements by first cell, type in the level's order, other cells
        return tuple(sorted((cs[0], rank[name], cs) for name, cs in tiling))

    def solution(tiling: Sequence[Placement]) -> Solution:
        return Solution.of(tiling)

    if pinned is None:
        if not options.symmetry_breaking:
            return lambda tiling: [solution(tiling)]

        def leader_only(tiling: Sequence[Placement]) -> list[Solution]:
            own = key(tiling)
            if any(key([_image(p, s) for p in tiling]) < own for s in symmetries[1:]):
                return []
            return [solution(tiling)]

        return leader_only

    def whole_class(tiling: Sequence[Placement]) -> list[Solution]:
        images = {key(img): img for img in ([_image(p, s) for p in tiling] for s in symmetries)}
        searched = [k for k, img in images.items() if any(p[0] == pinned and p in representatives for p in img)]
        if key(tiling) != min(searched):
            return []  # another member of the class was (or will be) found and stands for it
        if options.symmetry_breaking:
            return [solution(images[min(images)])]
        return [solution(img) for img in images.values()]

    return whole_class
