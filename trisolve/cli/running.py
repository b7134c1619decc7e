"""What running a command needs without click: the exit codes, output, the command's start, its ending.

``trisolve solve FILE...`` with nothing but files and flags is read without click (``main.plain_solve``):
click and what it brings (``inspect``'s helpers aside: ``uuid``, ``platform``, ``datetime``, ``gettext``) cost
a one-off solve about a tenth of its start-up.  That path and click's (``common.run_cli``) print and end alike:
both use ``echo`` (click's ``echo`` for a text stream) and ``said`` (one line, the exit code, for every way a
command can fail).
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from trisolve.models.errors import TrisolveError

#: Exit codes, one meaning each, the same for every command (docs/exit-codes.md): 0 answered, 1 a finding
#: (a disagreement, an invalid solution, a run that crashed, a surviving mutant) or trisolve's own failure,
#: 2 bad input or usage, 3 stopped by a limit before an answer, 130 interrupted.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: the reader of the output went away (``| head -1``): quiet, and 128 + SIGPIPE, the code a shell
#: reports for a Unix tool that SIGPIPE ended (``set -o pipefail`` sees it as `yes | head -1`'s)
EXIT_BROKEN_PIPE = 141
#: OSErrors that are the user's file or disk, not a bug: one line, exit code 2
_FILE_ERRNOS = {
    errno.ENOSPC,
    errno.EACCES,
    errno.EPERM,
    errno.ENOENT,
    errno.ENOTDIR,
    errno.EISDIR,
    errno.EROFS,
    errno.EDQUOT,
    errno.EEXIST,
    errno.ENAMETOOLONG,
    errno.ELOOP,
    errno.EFBIG,
    errno.ENXIO,
    errno.EIO,
}


class Exit(TrisolveError):
    """The command is over, with this exit code (what ``click.exceptions.Exit`` says on click's path).

    Not a failure, but under the one root like every exception trisolve defines; whoever catches
    ``TrisolveError`` around a command's end catches ``Exit`` first (``said``, ``solve_cmd``)."""

    def __init__(self, exit_code: int) -> None:
        super().__init__(exit_code)
        self.exit_code = exit_code


# ------------------------------------------------------------------ output
#: An ANSI style code (click's pattern): taken out of text written to something other than a terminal.
_ANSI = re.compile(r"\033\[[0-?]*[ -/]*[@-~]")


def plain_stream(stream: Any) -> bool:
    """Whether ``stream`` is a text stream click would write to as it is: it has an encoding, which is not
    ASCII, and an error handler.  (Click wraps any other stream first; ``echo`` then leaves it to click.)"""
    encoding = getattr(stream, "encoding", None)
    if stream is None or not encoding or getattr(stream, "errors", None) is None:
        return False
    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return False


def echo(message: str = "", *, err: bool = False, color: bool | None = None) -> None:
    """``click.echo`` of a text: the line on stdout (stderr with ``err``), flushed; ANSI styles taken out unless
    ``color`` says keep them, or (``color`` None) the stream is a terminal."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    if not plain_stream(stream):
        import click

        click.echo(message, err=err, color=color)
        return
    text = message + "\n"
    if (not _isatty(stream)) if color is None else not color:
        text = _ANSI.sub("", text)
    stream.write(text)
    stream.flush()


def _isatty(stream: Any) -> bool:
    try:
        return stream.isatty()
    except Exception:  # noqa: BLE001 - click's rule: a stream that cannot say is no terminal
        return False


# ------------------------------------------------------------------ the command's start
#: Seconds an interpreter may take to start and reach trisolve's first line, at most: twice the CPU it
#: used to get there, plus a little, up to a second.
STARTUP_ALLOWANCE = (0.1, 2.0, 1.0)

#: When the command was last entered (``time.monotonic``) and whether as the process's entry point.
_command_entered: tuple[float, bool] | None = None


def entered(process_entry: bool) -> None:
    """A command starts now; ``process_entry``: this process was started to run it (``trisolve.cli.main.main``)."""
    global _command_entered
    _command_entered = (time.monotonic(), process_entry)


def process_started() -> float:
    """When this command started, on ``time.monotonic``'s clock: the command's ``--timeout`` counts from
    here, so starting Python and importing trisolve spend it too (the user's clock starts at the Enter key).
    A command run in a process that was there before it (``run_cli`` called by a test or a program) starts
    when ``run_cli`` was called.

    Linux gives the process's start time in /proc (boot-time clock ticks); elsewhere, or if that fails, it is
    trisolve's first line.  That start is the fork's: a shell that runs trisolve as the last command of
    ``bash -c "... && trisolve ..."`` becomes trisolve by exec, so its start may lie minutes back.  Hence
    never more than ``STARTUP_ALLOWANCE`` before trisolve's first line ran.
    """
    import trisolve

    if _command_entered is not None and not _command_entered[1]:
        return _command_entered[0]
    first_line = trisolve._FIRST_LINE_AT
    least, per_cpu_second, most = STARTUP_ALLOWANCE
    allowance = min(most, least + per_cpu_second * trisolve._CPU_AT_FIRST_LINE)
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            fields = handle.read().rpartition(")")[2].split()
        ticks = int(fields[19])  # field 22, counted after the command name
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return first_line
    return max(time.monotonic() - age, first_line - allowance)


# ------------------------------------------------------------------ inputs
def instance_files(paths: Iterable[str]) -> list[str]:
    """Files named, and instance files inside named folders (sorted), for batch commands.

    They are this command's inputs: no output of it may overwrite one (``models.files.protect``),
    even when a child process is the one that reads them."""
    from trisolve.models import files

    from .. import api

    found = api.instance_files(paths)
    files.protect(*found)
    return found


def load_plugins(paths: Iterable[str]) -> None:
    """Load each --plugin file (a broken one is a usage problem naming the file and line)."""
    from trisolve.backends import registry

    for path in paths:
        registry.load_plugin(path)


# ------------------------------------------------------------------ the command's end
def catch_interrupts() -> dict:
    """Route SIGINT and SIGTERM to ``runs.processes.interrupt``; the handlers they had, to restore."""
    from trisolve.runs import processes as runner

    runner.INTERRUPT.clear()
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, runner.interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}


def restore_signals(previous: dict) -> None:
    """The handlers ``catch_interrupts`` replaced.  After an interruption, a process started for this one
    command is over: a late second signal must not kill its exit, so it ignores them.  A command run inside
    another program (``run_cli``: a notebook, a test) gives the handlers back as they were: an ignored SIGINT
    would outlive the command and be inherited by every process that program starts next."""
    from trisolve.runs import processes as runner

    ending_the_process = runner.interrupted() and _command_entered is not None and _command_entered[1]
    for signum, handler in previous.items():
        signal.signal(signum, signal.SIG_IGN if ending_the_process else handler)


def interrupted_exit() -> None:
    """After a command printed its partial result: exit 130 when Ctrl-C (or SIGTERM) cut it short."""
    from trisolve.runs import processes as runner

    if runner.interrupted():
        echo("trisolve: interrupted; the result above is partial", err=True)
        raise Exit(EXIT_INTERRUPTED)


def broken_pipe() -> int:
    """Nobody reads our output any more: stop quietly (Python would complain when it flushes stdout at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):
        pass
    return EXIT_BROKEN_PIPE


def print_internal_error() -> None:
    """Our own bug: say so, with the traceback that finds it (``traceback`` is imported here, when it is needed)."""
    import traceback

    echo("trisolve: internal error (please report):", err=True)
    traceback.print_exc()


def _is_interruption(exc: Exception) -> bool:
    """Ctrl-C seen by a solver running in this process: PySAT's own SIGINT handler turns it into an error."""
    from trisolve.runs import processes as runner

    return runner.interrupted() or "caught keyboard interrupt" in str(exc).lower()


def exit_code_of(leaving: SystemExit) -> int:
    """A ``sys.exit`` inside a command, as an exit code (a text: bad usage)."""
    return int(leaving.code or 0) if not isinstance(leaving.code, str) else EXIT_USAGE


def said(problem: Exception) -> int:
    """The exit code of a command that ``problem`` ended, said on stderr in one line; a traceback only for our
    own bugs (click's own exceptions are ``common.run_cli``'s)."""
    if isinstance(problem, Exit):
        return problem.exit_code
    if isinstance(problem, TrisolveError):  # bad input or usage (2), or a failure it names (1): one line
        echo(f"trisolve: {problem}", err=True)
        return problem.exit_code
    if isinstance(problem, OSError):
        if problem.errno == errno.EPIPE:  # BrokenPipeError too
            return broken_pipe()
        if problem.errno not in _FILE_ERRNOS:
            print_internal_error()
            return EXIT_FAILED
        # the last net under models.files: a file or a disk the user gave, not a bug
        from trisolve.models.errors import shorten
        from trisolve.models.files import os_problem

        where = f"{shorten(problem.filename, 200)}: " if problem.filename else ""
        echo(f"trisolve: {where}{os_problem(problem)}", err=True)
        return EXIT_USAGE
    if _is_interruption(problem):
        echo("trisolve: interrupted", err=True)
        return EXIT_INTERRUPTED
    print_internal_error()
    return EXIT_FAILED


def run_plain(command: Callable[[], Any]) -> int:
    """Run ``command`` as the process's one command without click, ending as ``common.run_cli`` ends one."""
    entered(process_entry=True)
    previous = catch_interrupts()
    try:
        command()
        return EXIT_OK
    except (EOFError, KeyboardInterrupt):
        echo(err=True)  # the blank line click writes after ^C (the terminal's echo of it)
        echo("trisolve: interrupted", err=True)
        return EXIT_INTERRUPTED
    except SystemExit as leaving:
        return exit_code_of(leaving)
    except Exception as problem:  # noqa: BLE001 - the last resort: one line, never a traceback
        return said(problem)
    finally:
        restore_signals(previous)
