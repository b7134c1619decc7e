"""JSON Lines journals that survive a kill: one record per line, a torn last line dropped.

Every command that logs runs as it goes (crosscheck and campaign ``--jsonl``,
bench's ``runs.jsonl``) reads and appends through ``cut_torn_tail`` and
``read_lines``; ``Log`` and ``read_log`` are the run-record journal on top.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from typing import Any

from trisolve.backends.runner import RunRecord


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


def read_log(path: str) -> dict[str, RunRecord]:
    """Finished records of an earlier run; a torn last line (killed mid-write) is ignored."""
    records: dict[str, RunRecord] = {}
    if not os.path.exists(path):
        return records
    for data in read_lines(path):
        try:
            record = RunRecord.from_json(data)
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        records[record.key] = record
    return records


class Log:
    """Append-only JSONL, one record per finished run, durable at once."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.handle = None
        if path:
            folder = os.path.dirname(os.path.abspath(path))
            os.makedirs(folder, exist_ok=True)
            cut_torn_tail(path)
            self.handle = open(path, "a", encoding="utf-8")

    def write(self, record: RunRecord) -> None:
        if self.handle is None:
            return
        with self.lock:
            self.handle.write(json.dumps(record.to_json()) + "\n")
            self.handle.flush()
            os.fsync(self.handle.fileno())

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
