"""The 8x8 square minus its centre 2x2, tiled by the twelve pentominoes: 520 tilings, 65 classes (Scott, 1958).

The sigils file format has no holes (a frame is a full rectangle), so this
level cannot ship yet; the check below builds the exactcover backend's rows
for the full 8x8 frame and leaves out the four centre cells and every
placement over them, then counts the covers and their classes under the
square's eight symmetries.  Run: ``python scripts/pentomino_square_with_hole.py``.
"""

from __future__ import annotations

import dataclasses
import os

from trisolve.backends.base import Options
from trisolve.backends.exactcover import engine
from trisolve.backends.exactcover import sigils as translator
from trisolve.models.sigils import model as sigils

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    with open(os.path.join(ROOT, "levels", "sigils", "pentominoes-6x10.txt"), encoding="utf-8") as handle:
        level = sigils.parse_text(handle.read().replace("\n6x10\n", "\n8x8\n"))
    holes = {level.cell(r, c) for r in (3, 4) for c in (3, 4)}
    offered = [p for p in translator.placements(level) if not holes & set(p[1])]
    problem = translator._problem(level, offered, Options(), translator._symmetries(level), None, None)
    hole_items = {translator.cell_name(level, h) for h in holes}
    problem = dataclasses.replace(problem, primary=tuple(i for i in problem.primary if i not in hole_items))
    tilings = [problem.solutions_of(cover)[0] for cover in engine.kernel()(*problem.arrays())]
    classes = {
        min(tuple(sorted((q.piece, q.cells) for q in s.apply(t).placements)) for s in level.symmetries) for t in tilings
    }
    print(f"8x8 minus its centre 2x2: {len(tilings)} tilings, {len(classes)} classes")


if __name__ == "__main__":
    main()
