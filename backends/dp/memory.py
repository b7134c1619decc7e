"""The memory budget every dp counter keeps: its default, and what the process holds right now.

``--memory`` (``Options.memory``) is a budget for a counter's layers: a count
that would pass it stops as incomplete (``stopped_by: "memory budget"``)
before it asks for the memory.  Each counter turns the budget into its own
units (bytes per state, measured for its layout) and checks it while a layer
grows, not only once it is built.
"""

from __future__ import annotations

import os


def _default_memory() -> int:
    """Half the machine's memory, at most 12 GiB (4 GiB where the machine does not say)."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return 4 << 30
    return max(1 << 30, min(12 << 30, physical // 2))


#: Bytes a run may use for its layers unless ``--memory`` says otherwise.
DEFAULT_MEMORY = _default_memory()


def resident() -> int:
    """This process's resident memory in bytes (0 where /proc does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
