"""Ctrl-C while PySAT's C code runs: Python's own handler stays in place.

PySAT's C functions (every solver's solve call and every ``CardEnc`` encoder), called from the main
thread, swap Python's SIGINT handler for one that ``longjmp``s out of the C code.  A jump out of
``malloc`` leaves the heap corrupt, and after a jump PySAT never puts Python's handler back, so a later
Ctrl-C jumps into a stack frame that is gone; a signal that the kernel hands to another thread jumps
onto the wrong stack.  Each ends in SIGSEGV (``trisolve generate`` stopped by Ctrl-C: 3 of 10 tries,
docs/bench/timing-notes.md, "pysat").

PySAT installs that handler only when ``pysat._utils.MainThread.check()`` says the caller is the main
thread.  Within ``python_sigint()`` it says no, so Python's handler stays: a Ctrl-C sets its flag, and
KeyboardInterrupt comes when the C call returns (an encoding takes milliseconds; a CaDiCaL solve runs in
slices of ``engine.SLICE_SECONDS``).
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])

#: how deep the main thread is in ``python_sigint`` stretches, and PySAT's own check while it is
_STATE: dict[str, Any] = {"depth": 0, "check": None}


@contextlib.contextmanager
def python_sigint() -> Iterator[None]:
    """Within it, PySAT calls from the main thread keep Python's SIGINT handler (nests; other threads
    are untouched: PySAT never installs its handler there)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from pysat._utils import MainThread

    if not _STATE["depth"]:
        _STATE["check"] = MainThread.__dict__["check"]
        MainThread.check = staticmethod(_never_main)  # type: ignore[method-assign]
    _STATE["depth"] += 1
    try:
        yield
    finally:
        _STATE["depth"] -= 1
        if not _STATE["depth"]:
            MainThread.check = _STATE["check"]  # type: ignore[method-assign]


def keeps_python_sigint(function: Function) -> Function:
    """``function`` runs within ``python_sigint()`` (for a translator's ``encode``, whoever calls it)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with python_sigint():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _never_main() -> bool:
    return False
