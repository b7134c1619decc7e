"""The ``trisolve`` command's entry point (the installed script, ``python -m trisolve``).

Click reads the command line (the group is ``group.py``; ``cli`` is found here too), except in the commonest
case: ``trisolve solve`` given files and flags alone (``plain_solve``).  Those need no parsing beyond telling
the flags from the files, and the command itself (``solving.solve_files``) runs without click, so a one-off
solve does not import it (with what it brings, a tenth of that solve's start-up).  Anything else, a value, a
misspelt flag, ``--help``, a file click would refuse, goes to click, which says what it always says.
"""

from __future__ import annotations

import os
import sys
from typing import Any

#: ``trisolve solve``'s flags that ``plain_solve`` reads: flag -> (the command's argument, its value)
_SOLVE_FLAGS: dict[str, tuple[str, bool]] = {
    "--all": ("all", True),
    "--count": ("count", True),
    "--symmetry-breaking": ("symmetry_breaking", True),
    "--shuffle": ("shuffle", True),
    "--json": ("as_json", True),
    "--quiet": ("quiet", True),
    "-q": ("quiet", True),
    "--colour": ("colour", True),
    "--color": ("colour", True),
    "--no-colour": ("colour", False),
    "--no-color": ("colour", False),
}

#: what click hands ``solve_files`` for each option not given (its defaults; a test checks they agree)
_SOLVE_DEFAULTS: dict[str, Any] = {
    "backend_spec": None,
    "family": None,
    "as_json": False,
    "jsonl": None,
    "colour": None,
    "quiet": False,
    "svg_dir": None,
    "memory": None,
    "plugins": (),
    "all": False,
    "count": False,
    "limit": None,
    "timeout": None,
    "symmetry_breaking": False,
    "seed": 0,
    "shuffle": False,
    "sat_command": None,
}


def plain_solve(args: list[str]) -> dict[str, Any] | None:
    """``solve_files``'s arguments when ``args`` is ``solve`` followed by files and flags alone (``_SOLVE_FLAGS``),
    exactly as click would read them; None for anything else (click reads it).

    A file is what click's ``Path()`` lets through unchanged: a name not starting with ``-`` that does not
    exist or can be read.  Click is also left what it does besides: shell completion (``_TRISOLVE_COMPLETE``),
    and writing to a stream whose encoding it would correct first."""
    if len(args) < 2 or args[0] != "solve" or "_TRISOLVE_COMPLETE" in os.environ:
        return None
    from .running import plain_stream

    if not (plain_stream(sys.stdout) and plain_stream(sys.stderr)):
        return None
    options = dict(_SOLVE_DEFAULTS)
    paths = []
    for arg in args[1:]:
        if arg in _SOLVE_FLAGS:
            name, value = _SOLVE_FLAGS[arg]
            options[name] = value
        elif arg and not arg.startswith("-") and _readable_or_missing(arg):
            paths.append(arg)
        else:
            return None
    if not paths:
        return None
    return {"paths": tuple(paths), **options}


def _readable_or_missing(path: str) -> bool:
    """Click's ``Path()`` check: a path that exists must be readable (one that does not is the command's to
    report)."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return True
    return os.access(path, os.R_OK)


def main(argv: list[str] | None = None) -> None:
    request = plain_solve(sys.argv[1:] if argv is None else list(argv))
    if request is not None:
        from .running import run_plain
        from .solving import solve_files

        sys.exit(run_plain(lambda: solve_files(**request)))
    from .common import run_cli
    from .group import cli

    sys.exit(run_cli(cli, argv, process_entry=True))


def __getattr__(name: str) -> Any:
    """``cli``, ``COMMANDS`` and ``LazyGroup`` are the group's (``group.py``), imported when asked for."""
    if name in ("cli", "COMMANDS", "LazyGroup"):
        from . import group

        return getattr(group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
