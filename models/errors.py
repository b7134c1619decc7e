"""The one exception root of trisolve, and reading instance files without trusting them.

Every exception class the package defines derives from ``TrisolveError``
(``tests/test_errors.py`` walks the package to hold this).  Its
``exit_code`` is what the command line exits with when one reaches it
(docs/exit-codes.md): ``UsageError`` and its kind (bad input or usage) exit
2 with one line, any other ``TrisolveError`` 1 with one line, never a
traceback.
"""

from __future__ import annotations

import errno
import os
import re
import stat


class TrisolveError(Exception):
    """Root of every exception trisolve defines.

    Raised as such, it is a failure of trisolve or of a backend (a solver
    that printed nonsense, say): the command line says so in one line and
    exits 1.  Its subclasses say otherwise where they mean otherwise.
    """

    #: the command line's exit code when this error ends a command
    exit_code: int = 1


class UsageError(TrisolveError, ValueError):
    """Bad input or a request that cannot be run as asked (unknown backend, conflicting options,
    a number out of range, an unreadable file): exit code 2, one line naming what is wrong."""

    exit_code = 2


#: Longest error message, in characters (names in messages are cut to 60 by ``shorten``).
MAX_MESSAGE = 1000


class LevelSyntaxError(UsageError):
    """An instance file that cannot be read as a puzzle of its family.

    Carries the file and line (1-based) so the message points at the fault.
    """

    def __init__(self, file: str, line: int | None, message: str, column: int | None = None):
        self.file = file
        self.line = line
        self.column = column
        if len(message) > MAX_MESSAGE:  # the last guard against echoing a huge input back
            message = message[: MAX_MESSAGE - 3] + "..."
        self.message = message
        where = file
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class InstanceTooLarge(LevelSyntaxError):
    """Refused before anything is built, so bad input never exhausts memory."""


def shorten(name: object, width: int = 60) -> str:
    """A user's name or value cut to ``width`` characters for a message: a 300 kB name is not echoed back."""
    text = str(name)
    return text if len(text) <= width else text[: width - 3] + "..."


#: ASCII digits only: ``str.isdigit`` and ``int`` also take "²", "٢" and "１".
WHOLE_NUMBER = re.compile(r"[0-9]+", re.ASCII)
#: Digits kept when a number is converted; longer ones are "too large" (and never reach
#: Python's own 4300-digit conversion limit, which raises ValueError).
MAX_DIGITS = 9


def whole_number(text: str) -> int | None:
    """``text`` as a whole number when it is ASCII digits (None otherwise); at most
    ``MAX_DIGITS`` digits are converted: longer ones read as 10**MAX_DIGITS, above every cap."""
    if not WHOLE_NUMBER.fullmatch(text):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= MAX_DIGITS else 10**MAX_DIGITS


MAX_FILE_BYTES = 1_000_000

#: What a path is, for files that are not regular files (never read: a device or a pipe has no end).
_SPECIAL = (
    (stat.S_ISDIR, "is a folder; give an instance file"),
    (stat.S_ISFIFO, "is a named pipe (FIFO), not an instance file"),
    (stat.S_ISSOCK, "is a socket, not an instance file"),
    (stat.S_ISCHR, "is a device, not an instance file"),
    (stat.S_ISBLK, "is a device, not an instance file"),
)


def _open_problem(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno == errno.ELOOP:
        return "symbolic link loop (the link points back to itself)"
    if exc.errno == errno.EISDIR:
        return _SPECIAL[0][1]
    return f"cannot read file: {exc.strerror or exc}"


def read_instance_text(path: str) -> str:
    """Read a small instance file as text.

    Only regular files are read, and at most ``MAX_FILE_BYTES`` of them: the
    cap is applied while reading, since ``getsize`` says 0 for ``/dev/zero``
    and a FIFO would block forever.  The file is opened non-blocking (a FIFO
    with no writer opens at once) and checked with ``fstat`` on the open
    descriptor, so what is checked is what is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise LevelSyntaxError(path, None, _open_problem(exc)) from None
    try:
        mode = os.fstat(fd).st_mode
        for test, problem in _SPECIAL:
            if test(mode):
                raise LevelSyntaxError(path, None, problem)
        if not stat.S_ISREG(mode):
            raise LevelSyntaxError(path, None, "is not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise LevelSyntaxError(path, None, _open_problem(exc)) from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise InstanceTooLarge(
            path, None, f"file is over {MAX_FILE_BYTES} bytes; instance files are at most {MAX_FILE_BYTES}"
        )
    raw = b"".join(chunks)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise LevelSyntaxError(path, line, "file is not UTF-8 text") from None
