"""TEMPLATE: a row of cells; choose exactly K of them, some cells given as chosen or not.

[GUIDELINE] Say the rules in the puzzle's words.  Everything here is written
from the rules alone: frozen dataclasses for the level and the solution, a
parser whose errors name file and line, a validator that needs no solver.

A level file::

    choose 6 2
    given +1 -4

(six cells, numbered 1 to 6, two of them chosen; cell 1 is chosen, cell 4 is
not).  The ``given`` line is optional; ``#`` starts a comment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import InstanceTooLarge, LevelSyntaxError, shorten, whole_number
from ..files import read_instance_text

#: [GUIDELINE] Check sizes before building anything: a huge number in a file is an error, never a memory blow-up.
MAX_CELLS = 64


@dataclass(frozen=True)
class Level:
    cells: int
    chosen: int
    #: cell -> True (given as chosen) or False (given as not chosen), cells numbered 0..cells-1
    givens: tuple[tuple[int, bool], ...] = ()
    name: str = ""


@dataclass(frozen=True)
class Solution:
    """The chosen cells, ascending (numbered 0..cells-1)."""

    chosen: tuple[int, ...]

    def to_json(self) -> dict:
        return {"chosen": list(self.chosen)}


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str


# ------------------------------------------------------------------ reading


def _strip(line: str) -> str:
    return line.split("#", 1)[0].strip()


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """A level from its text; a bad line is a ``LevelSyntaxError`` naming ``file`` and the line."""
    lines = [(number, _strip(line)) for number, line in enumerate(text.splitlines(), 1) if _strip(line)]
    if not lines:
        raise LevelSyntaxError(file, None, "empty level: expected 'choose N K'")
    number, first = lines[0]
    words = first.split()
    sizes = [whole_number(word) for word in words[1:]]
    if len(words) != 3 or words[0] != "choose" or None in sizes:
        raise LevelSyntaxError(file, number, f"expected 'choose N K', not {shorten(first)!r}")
    cells, chosen = sizes
    if not 1 <= cells <= MAX_CELLS:
        raise InstanceTooLarge(file, number, f"N must be 1..{MAX_CELLS}, not {cells}")
    if chosen > cells:
        raise LevelSyntaxError(file, number, f"cannot choose {chosen} of {cells} cells")
    givens: dict[int, bool] = {}
    for number, line in lines[1:]:
        words = line.split()
        if words[0] != "given":
            raise LevelSyntaxError(file, number, f"expected 'given +CELL -CELL ...', not {shorten(line)!r}")
        for word in words[1:]:
            cell = whole_number(word[1:])
            if word[:1] not in "+-" or cell is None or not 1 <= cell <= cells:
                raise LevelSyntaxError(
                    file, number, f"expected +CELL or -CELL with CELL in 1..{cells}, not {shorten(word)!r}"
                )
            givens[cell - 1] = word[0] == "+"
    return Level(cells, chosen, tuple(sorted(givens.items())), name)


def parse(path: str) -> Level:
    """A level file (read as every input is: a regular file, size and encoding checked)."""
    import os

    return parse_text(read_instance_text(path), path, os.path.splitext(os.path.basename(path))[0])


def format_level(level: Level) -> str:
    """The level in its own file format (for the minimiser and the generator)."""
    givens = " ".join(("+" if chosen else "-") + str(cell + 1) for cell, chosen in level.givens)
    return f"choose {level.cells} {level.chosen}\n" + (f"given {givens}\n" if givens else "")


# ------------------------------------------------------------------ the referee


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Every rule the solution breaks (empty: it is a solution)."""
    chosen = set(solution.chosen)
    problems = [Violation("board", f"cell {c + 1} is not in the row") for c in chosen if not 0 <= c < level.cells]
    if len(chosen) != len(solution.chosen):
        problems.append(Violation("count", "a cell is chosen twice"))
    if len(chosen) != level.chosen:
        problems.append(Violation("count", f"{len(chosen)} cells chosen, not {level.chosen}"))
    for cell, given in level.givens:
        if (cell in chosen) != given:
            problems.append(Violation("given", f"cell {cell + 1} is given as {'chosen' if given else 'not chosen'}"))
    return problems


# ------------------------------------------------------------------ showing and comparing


def render(level: Level, solution: Solution | None = None) -> str:
    """The row as text: ``#`` chosen, ``.`` not; without a solution, ``+`` and ``-`` the givens, ``?`` the rest."""
    if solution is not None:
        chosen = set(solution.chosen)
        return "".join("#" if c in chosen else "." for c in range(level.cells)) + "\n"
    given = dict(level.givens)
    return "".join("?" if c not in given else "+" if given[c] else "-" for c in range(level.cells)) + "\n"


def describe(level: Level) -> str:
    return f"TEMPLATE: choose {level.chosen} of {level.cells} cells, {len(level.givens)} given"


def canonical(level: Level, solution: Solution) -> tuple:
    """A key equal for equal solutions."""
    return tuple(sorted(solution.chosen))


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """A solution from its JSON form, read exactly (``files.whole``: 1.9, ``true`` or ``" 1 "`` is a ValueError)."""
    from ..files import listed, whole

    return Solution(tuple(sorted(whole(cell, "cell") for cell in listed(data["chosen"], "chosen"))))


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller levels like this one, for the minimiser: one cell fewer (dropping a given or the last cell)."""
    smaller = [
        Level(level.cells, level.chosen, level.givens[:i] + level.givens[i + 1 :]) for i in range(len(level.givens))
    ]
    if level.cells > 1:
        givens = tuple((c, g) for c, g in level.givens if c < level.cells - 1)
        smaller.append(Level(level.cells - 1, min(level.chosen, level.cells - 1), givens))
    return smaller
