"""``trisolve render``: a level or a solution drawn to a picture file; a solution read back from its JSON."""

from __future__ import annotations

import os

from trisolve import arguments
from trisolve.backends import numbers
from trisolve.models.errors import UsageError, shorten

from .levels import Level, Solution

#: Largest solution file read (a ``solve --all --json`` of thousands of tilings is a few MB).
MAX_SOLUTION_BYTES = 64_000_000
PICTURE_KINDS = (".svg", ".png")


def check_picture_path(path: str | os.PathLike) -> str:
    """A picture's file name must say its kind (``.svg`` or ``.png``)."""
    path = os.fspath(path)
    if os.path.splitext(path)[1].lower() not in PICTURE_KINDS:
        raise UsageError(f"{path}: the picture must be a .svg or .png file")
    return path


def render(level: Level | Solution, output: str | os.PathLike) -> str:
    """Draw a level (locked and blocked cells, the empty frame and its pieces, the clues) or a solution
    to ``output``: an SVG, or a PNG (which needs cairosvg: ``pip install 'trisolve[png]'``).  The path written."""
    from trisolve.models.pictures import save

    if not isinstance(level, (Level, Solution)):
        raise UsageError(f"render draws a Level or a Solution, not {type(level).__name__}")
    path = check_picture_path(arguments.path(output, "output") or "")
    try:
        save(level.picture(), path)
    except OSError as problem:
        raise UsageError(f"{path}: cannot write: {problem.strerror or problem}") from None
    return path


def read_solution(path: str | os.PathLike, level: Level, index: int = 1) -> Solution:
    """The solution a JSON file holds, checked against the level by the family's validator.

    The file is ``solve --json`` output, one solution object from it, a
    generated level's ``<name>.solution.json`` (its intended solution under
    ``solution``), or JSON lines (``solve --jsonl``, or ``--json`` over many
    files): then the line about this level's file is used; ``index`` picks
    one of its solutions.
    """
    from trisolve.models import files

    path = os.fspath(arguments.path(path, "path") or "")
    if not isinstance(level, Level):
        raise UsageError(f"level must be a Level, not {type(level).__name__}")
    index = numbers.INDEX.check(index, "index")
    # read as every input is (models.files): a regular file, size-capped, UTF-8, JSON with limits
    text = files.read_text(path, what="solution file", limit=MAX_SOLUTION_BYTES)
    try:
        data = files.parse_json(text, path)
    except files.NotJson as problem:
        if "Extra data" not in problem.message:
            raise
        data = _line_about(path, text, level)
    if not isinstance(data, dict):
        raise UsageError(f"{path}: expected a JSON object (solve --json output or one solution)")
    if data.get("family", level.family) != level.family:
        raise UsageError(
            f"{path}: holds a {shorten(data['family'])} solution; {level.run_path} is a {level.family} level"
        )
    if "solution" in data and "solutions" not in data:  # trisolve generate's <name>.solution.json
        data = data["solution"]
        if not isinstance(data, dict):
            raise UsageError(f"{path}: 'solution' is not a JSON object")
    if "solutions" in data:
        solutions = data["solutions"]
        if not isinstance(solutions, list):
            raise UsageError(f"{path}: 'solutions' is not a list")
        if not solutions:
            raise UsageError(f"{path}: holds no solution (status {shorten(data.get('status', 'unknown'))})")
        if index > len(solutions):
            raise UsageError(f"{path}: holds {len(solutions)} solution(s); index {index} is past the end")
        data = solutions[index - 1]
    elif index != 1:
        raise UsageError(f"{path}: holds one solution; index {index} is past the end")
    if not isinstance(data, dict):
        raise UsageError(f"{path}: solution {index} is not a JSON object")
    try:
        solution = level.solution(data)
    except (KeyError, TypeError, ValueError, AttributeError) as problem:
        raise UsageError(
            f"{path}: not a {level.family} solution ({type(problem).__name__}: {shorten(problem)})"
        ) from None
    violations = solution.violations()
    if violations:
        shown = "; ".join(violations[:3]) + ("; ..." if len(violations) > 3 else "")
        raise UsageError(f"{path}: not a solution of {level.run_path}: {shown}")
    return solution


def _line_about(path: str, text: str, level: Level) -> dict:
    """From JSON lines, the record whose ``instance`` is the level's file (by path, else by name)."""
    from trisolve.models import files

    records = [files.parse_json(line, path, number) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    records = [r for r in records if isinstance(r, dict) and isinstance(r.get("instance"), str)]
    wanted = os.path.abspath(level.run_path)
    same = [r for r in records if os.path.abspath(r["instance"]) == wanted]
    if not same:
        name = os.path.basename(level.run_path)
        same = [r for r in records if os.path.basename(r["instance"]) == name]
    if len({r["instance"] for r in same}) != 1:
        what = "no line" if not same else "lines about different files"
        raise UsageError(f"{path}: {what} for {level.run_path} among its {len(records)} JSON lines")
    return same[0]
