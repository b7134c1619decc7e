"""The one exception root of trisolve (reading files without trusting them is models/files.py).

Every exception class the package defines derives from ``TrisolveError``
(``tests/test_errors.py`` walks the package to hold this).  Its
``exit_code`` is what the command line exits with when one reaches it
(docs/exit-codes.md): ``UsageError`` and its kind (bad input or usage) exit
2 with one line, any other ``TrisolveError`` 1 with one line, never a
traceback.
"""

from __future__ import annotations

import re


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


#: What an error about a web address given instead of a file calls it (the address itself may be long).
ADDRESS_NAME = "the URL"


class AddressError(LevelSyntaxError):
    """A web address (a puzz.link link given instead of a file) that cannot be read.

    Names "the URL" and the position of the fault (characters counted from 1); a link read from a
    line of a file is the same problem at that file, line and column (``relocated``).
    """

    def __init__(self, position: int | None, message: str) -> None:
        self.position = position
        self.reason = message
        super().__init__(ADDRESS_NAME, None, message if position is None else f"position {position}: {message}")

    def relocated(self, file: str, line: int, column_offset: int = 0) -> LevelSyntaxError:
        """The problem as it shows in a file: the link starts on ``line`` after ``column_offset`` characters."""
        column = None if self.position is None else column_offset + self.position
        kind = InstanceTooLarge if isinstance(self, InstanceTooLarge) else LevelSyntaxError
        return kind(file, line, self.reason, column=column)


class AddressTooLarge(AddressError, InstanceTooLarge):
    """A link whose grid (or length) is over the limits, refused before anything is built."""


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
