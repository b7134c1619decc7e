"""numba's on-disk cache, made safe to find damaged: an entry that cannot be read is removed and recompiled.

``dp``'s kernels and xcover's Algorithm C (``exactcover``) are compiled by
numba with ``cache=True``: the machine code is kept in ``*.nbi`` (index) and
``*.nbc`` (data) files, pickles, beside the package or in
``NUMBA_CACHE_DIR``.  numba reads them without a net: a file overwritten,
truncated by a full disk or a kill, or written by another build makes the
first call of the function raise whatever ``pickle`` raises
(``UnpicklingError``, ``EOFError``, ``ValueError`` ...), and every later
process fails the same way until someone deletes the files.

``guard()`` puts the net in: numba's cache lookup (``Cache.load_overload``)
then treats an entry it cannot read as missing -- it says so on stderr once
per function, removes that function's index and data files, and numba
compiles the function again and writes a fresh entry.  It changes nothing
when the cache reads fine.  Installed by the backends that use numba before
their first compiled call; idempotent.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

#: numba's ``Cache.load_overload`` as it was before ``guard``, once guarded
_ORIGINAL: Any = None


def guard() -> None:
    """Have numba recompile a function whose cache entry cannot be read, instead of raising (module docstring)."""
    global _ORIGINAL
    if _ORIGINAL is not None:
        return
    try:
        from numba.core import caching

        original = caching.Cache.load_overload
    except (ImportError, AttributeError):  # no numba, or its cache moved: nothing to guard
        return

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return original(self, sig, target_context)
        except Exception as problem:  # noqa: BLE001 - any failure to read a cache entry is a cache miss
            _forget(self, problem)
            return None  # numba compiles, and saves a fresh entry

    original_save = caching.Cache.save_overload

    def save_overload(self: Any, sig: Any, data: Any) -> None:
        # an entry that cannot be written (its index unreadable, a read-only folder numba did not see): the
        # compiled function works, it is just not kept
        with contextlib.suppress(Exception):
            original_save(self, sig, data)

    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload
    _ORIGINAL = original


def _forget(cache: Any, problem: Exception) -> None:
    """Remove the unreadable entry's files (the function's index and its data files), saying so on stderr."""
    removed = []
    try:
        files = cache._cache_file
        prefix = files._data_name_pattern.split("{")[0]  # "<function base>." before the data file's number
        names = [
            name
            for name in os.listdir(files._cache_path)
            if name.startswith(prefix) and name.endswith(".nbc") and name[len(prefix) : -4].isdigit()
        ]
        for path in [files._index_path, *(os.path.join(files._cache_path, name) for name in names)]:
            try:
                os.unlink(path)
                removed.append(path)
            except FileNotFoundError:
                pass
    except (AttributeError, OSError):  # numba's internals moved, or the folder is read-only: compile anyway
        pass
    where = f" ({os.path.dirname(removed[0])})" if removed else ""
    print(
        f"trisolve: numba's cache of {_name(cache)} could not be read "
        f"({type(problem).__name__}); removed it{where} and compiling again",
        file=sys.stderr,
        flush=True,
    )


def _name(cache: Any) -> str:
    function = getattr(cache, "_py_func", None)
    if function is None:
        return "a compiled function"
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}"
