"""JSON Lines journals that survive a kill: one record per line, a torn last line dropped.

Every command that logs runs as it goes (crosscheck and campaign ``--jsonl``,
bench's ``runs.jsonl``) reads and appends through these two functions.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterator


def cut_torn_tail(path: str) -> None:
    """Drop a last line left half-written by a kill, so the next record starts on its own line."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as handle:
        data = handle.read()
        if data and not data.endswith(b"\n"):
            handle.truncate(data.rfind(b"\n") + 1)


def read_lines(path: str) -> Iterator[Any]:
    """Each line's JSON value, in order; blank lines and lines that do not parse (a torn tail) are skipped."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except ValueError:
                continue
