"""JSON Lines journals that survive a kill: one record per line; a line torn by a kill is skipped, never cut.

Every command that logs runs as it goes (crosscheck, campaign and mutate
``--jsonl``, bench's ``runs.jsonl``) reads through ``read_lines`` and appends
through ``models.files.Appender``; ``Log`` and ``read_log`` are the
run-record journal on top.

What a journal may hold, and what is refused (``FileProblem``, exit 2, naming
the file and line):

* a line torn by a kill: a record's start (``{"``) that ends early -- the
  last line, or one an append closed with a newline instead of cutting it
  off -- skipped;
* any other line that is not JSON (binary data, a user's text): the file is
  not a journal -- refused, and nothing is appended to it;
* JSON that trisolve never writes (``NaN``, 5,000-digit numbers, deep
  nesting) or a record whose fields have the wrong types -- refused.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from trisolve.models import files
from trisolve.models.errors import shorten
from trisolve.models.files import FileProblem, NotJson
from trisolve.runs import RunRecord

#: A run record's fields and their kinds (``models.files.KINDS``); the first nine are required.
RECORD_FIELDS: dict[str, str] = {
    "key": "str",
    "path": "str",
    "family": "str",
    "backend": "str",
    "mode": "str",
    "symmetry_breaking": "bool",
    "status": "str",
    "count": "count",
    "complete": "bool",
    "duplicates": "count",
    "solutions": "list",
    "stats": "object",
    "times": "object",
    "wall": "number",
    "cpu": "number",
    "peak_rss_mb": "number",
    "stopped_by": "str?",
    "error": "str?",
    "seed": "int",
}
_REQUIRED = tuple(RECORD_FIELDS)[:9]
STATUSES = ("sat", "unsat", "unknown")


def _torn(raw: bytes, problem: str = "") -> bool:
    """A line a kill cut short: a record's start (``{"``, no NUL byte) that ends early, not a whole value
    followed by more (``Extra data``).  Anything else that is not JSON is not a journal's."""
    return raw.lstrip().startswith(b'{"') and b"\x00" not in raw and "Extra data" not in problem


def read_numbered(path: str, what: str = "journal") -> Iterator[tuple[int, Any]]:
    """(line number, JSON value) for each line; torn lines skipped, any other bad line refused."""
    for number, raw, _ in files.iter_lines(path, what=what):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if _torn(raw):
                continue
            raise FileProblem(path, number, f"not UTF-8 text: not a trisolve {what}") from None
        try:
            yield number, files.parse_json(text, path, number)
        except NotJson as problem:
            if _torn(raw, problem.message):
                continue
            raise FileProblem(path, number, f"not a JSON line: not a trisolve {what} (give another file)") from None


def read_lines(path: str, what: str = "journal") -> Iterator[Any]:
    """Each line's JSON value, in order (see the module docstring for what is skipped and what refused)."""
    for _, value in read_numbered(path, what):
        yield value


def record_from_line(data: Any, path: str, line: int) -> RunRecord:
    """A journal line as a run record, every field checked against its type."""
    files.fields(data, RECORD_FIELDS, path, line, required=_REQUIRED, what="run record")
    if data["status"] not in STATUSES:
        raise FileProblem(path, line, f"run record status must be one of {', '.join(STATUSES)}")
    for number, solution in enumerate(data.get("solutions", ()), 1):
        if type(solution) is not dict:
            raise FileProblem(path, line, f"run record field 'solutions': solution {number} is not an object")
    for name, value in data.get("times", {}).items():
        if type(value) not in (int, float):
            raise FileProblem(path, line, f"run record field 'times': {shorten(name, 40)!r} is not a number")
    return RunRecord.from_json(data)


def read_log(path: str) -> dict[str, RunRecord]:
    """Finished records of an earlier run, by job key (a missing file holds none)."""
    import os

    records: dict[str, RunRecord] = {}
    if not os.path.lexists(path):
        return records
    for number, data in read_numbered(path):
        record = record_from_line(data, path, number)
        records[record.key] = record
    return records


def check_journal(path: str) -> None:
    """Refuse to append to an existing file that is not a journal: its first line must be a JSON object
    (or one a kill cut short).  Read no further than that line."""
    import os

    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    for number, raw, _ in files.iter_lines(path, what="journal", limit=files.MAX_LINE_BYTES):
        if not raw.strip():
            continue
        if _torn(raw):
            return
        try:
            value = files.parse_json(raw.decode("utf-8"), path, number)
        except (UnicodeDecodeError, FileProblem):
            value = None
        if type(value) is not dict:
            raise FileProblem(
                path, number, "not a trisolve journal (its first line is not a JSON record); give another file"
            )
        return


class Log:
    """Append-only JSONL, one record per finished run, durable at once.

    Appending never cuts what the file holds (``models.files.Appender``); a write that fails
    (disk full) raises a ``FileProblem`` naming the file.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.output: files.Appender | None = None
        if path:
            check_journal(path)
            self.output = files.Appender(path, what="journal")

    def write(self, record: RunRecord) -> None:
        if self.output is None:
            return
        with self.lock:
            self.output.write(files.dumps(record.to_json()) + "\n")

    def close(self) -> None:
        if self.output is not None:
            self.output.close()
