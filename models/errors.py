"""One exception root for everything a user can get wrong in an instance file."""

from __future__ import annotations


class TrisolveError(Exception):
    """Root of trisolve's own errors: the CLI turns these into exit code 2."""


class LevelSyntaxError(TrisolveError):
    """An instance file that cannot be read as a puzzle of its family.

    Carries the file and line (1-based) so the message points at the fault.
    """

    def __init__(self, file: str, line: int | None, message: str, column: int | None = None):
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        where = file
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class InstanceTooLarge(LevelSyntaxError):
    """Refused before anything is built, so bad input never exhausts memory."""


MAX_FILE_BYTES = 1_000_000


def read_instance_text(path: str) -> str:
    """Read a small instance file as text, refusing huge or binary files up front."""
    import os

    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise LevelSyntaxError(path, None, f"cannot read file: {exc.strerror or exc}") from None
    if size > MAX_FILE_BYTES:
        raise InstanceTooLarge(path, None, f"file is {size} bytes; instance files are at most {MAX_FILE_BYTES}")
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise LevelSyntaxError(path, None, f"cannot read file: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise LevelSyntaxError(path, line, "file is not UTF-8 text") from None
