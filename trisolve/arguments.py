"""The library's arguments that are not numbers, checked before anything runs (the numbers: ``backends/numbers.py``).

A call such as ``solve(level=3.5)``, ``solve(backend=["mip"])`` or
``solve(on_solution=5)`` is a usage error naming the argument, as
``--timeout nan`` is on the command line, never a ``TypeError`` from deep
inside a run.  Each check returns the value it was given (a flag as a
``bool``), so a function checks and takes its arguments in one line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from trisolve.models.errors import UsageError, shorten


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {shorten(repr(value), 40)}"


def flag(value: Any, name: str) -> bool:
    """``True`` or ``False`` (a ``bool``; ``0`` and ``1`` pass too, as Python's truth values)."""
    if value is True or value is False or (type(value) is int and value in (0, 1)):
        return bool(value)
    raise UsageError(f"{name} must be True or False, not {_shown(value)}")


def text(value: Any, name: str) -> str | None:
    """A string, or None."""
    if value is None or isinstance(value, str):
        return value
    raise UsageError(f"{name} must be a string or None, not {_shown(value)}")


def path(value: Any, name: str) -> str | os.PathLike | None:
    """A file or folder name (``str`` or ``os.PathLike``), or None."""
    if value is None or isinstance(value, (str, os.PathLike)):
        return value
    raise UsageError(f"{name} must be a file name (str or pathlib.Path) or None, not {_shown(value)}")


def callback(value: Any, name: str) -> Callable[..., Any] | None:
    """A function to call back, or None."""
    if value is None or callable(value):
        return value
    raise UsageError(f"{name} must be a function (or None), not {_shown(value)}")


def choice(value: Any, name: str, choices: Iterable[str]) -> str:
    """One of ``choices``."""
    allowed = tuple(choices)
    if isinstance(value, str) and value in allowed:
        return value
    raise UsageError(f"{name} must be one of {', '.join(allowed)}, not {_shown(value)}")


def level(value: Any, kind: type, name: str = "level") -> Any:
    """A level object of type ``kind`` (the library's ``Level``), a file name, or level text."""
    if isinstance(value, (kind, str, os.PathLike)):
        return value
    raise UsageError(f"{name} must be a Level, a file name or level text, not {_shown(value)}")


def levels(value: Any, kind: type, name: str = "levels") -> Any:
    """One level (see ``level``) or several: a list, tuple or other iterable of them."""
    if isinstance(value, (kind, str, os.PathLike)):
        return value
    if not isinstance(value, Iterable) or isinstance(value, (bytes, dict)):
        raise UsageError(f"{name} must be a Level, a file or folder name, or a list of them, not {_shown(value)}")
    items = list(value)
    for item in items:
        level(item, kind, f"each of {name}")
    return items


def backends(value: Any, name: str = "backends") -> Any:
    """Backend names: one string (``"pysat,clingo"``), a list of strings, or None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return value
    raise UsageError(
        f"{name} must be names such as 'pysat' or 'clingo:count' (a string or a list), not {_shown(value)}"
    )


def memory_for(backend: str, memory: int | None) -> None:
    """``memory`` (bytes) is a budget ``backend`` keeps, and one it can run under (``MIN_MEMORY``), else a
    ``UsageError`` saying which backends take one."""
    if memory is None:
        return
    from trisolve.backends import registry
    from trisolve.backends.spec import Spec

    name = Spec.parse(backend).backend
    least = registry.role(name, "MIN_MEMORY") if name in registry.names() else None
    if least is None:
        keeping = [n for n in registry.names() if registry.role(n, "MIN_MEMORY") is not None]
        raise UsageError(f"memory: {backend} keeps no memory budget; {', '.join(keeping)} do (name one as the backend)")
    if memory < least:
        raise UsageError(f"memory {memory:,} bytes: {name} cannot run in less than {least >> 20}M")
