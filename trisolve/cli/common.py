"""What every subcommand shares: the exit codes, the option types, plugins, output."""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import click

from trisolve.backends import numbers
from trisolve.backends.numbers import Range
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


class Failure(click.ClickException, TrisolveError):
    """A library error (``TrisolveError``) ending a command, in click's terms: its message on one line, its exit
    code (2 for bad input or usage, 1 otherwise; docs/exit-codes.md)."""

    def __init__(self, problem: Exception) -> None:
        super().__init__(str(problem))
        self.exit_code = getattr(problem, "exit_code", EXIT_FAILED)

    def show(self, file: Any = None) -> None:
        click.echo(f"trisolve: {self.format_message()}", err=True)


def run_cli(group: click.Group, argv: list[str] | None, *, process_entry: bool = False) -> int:
    """Run click, mapping every failure to its exit code; tracebacks only for our own bugs.

    ``process_entry`` says this process was started to run this one command (``trisolve.cli.main.main``):
    then its ``--timeout`` counts from the process's start; otherwise (a test or a program calling in)
    from this call (``process_started``).

    Ctrl-C and SIGTERM both go to ``runs.processes.interrupt``: every running child is
    killed at once (in every thread), and the command prints what finished
    and exits 130.
    """
    global _command_entered
    _command_entered = (time.monotonic(), process_entry)
    previous = _catch_interrupts()
    try:
        # without standalone mode click returns a raised Exit's code instead of raising it
        code = group.main(args=argv, prog_name="trisolve", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click.exceptions.Exit as done:
        return done.exit_code
    except Failure as problem:
        problem.show()
        return problem.exit_code
    except click.UsageError as problem:  # one line, as every bad input is (not click's usage block)
        command = problem.ctx.command_path if problem.ctx is not None else "trisolve"
        hint = f" (see {command} --help)" if problem.ctx is not None else ""
        click.echo(f"{command}: {problem.format_message()}{hint}", err=True)
        return EXIT_USAGE
    except click.ClickException as problem:
        problem.show()
        return problem.exit_code if problem.exit_code != 1 else EXIT_USAGE
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("trisolve: interrupted", err=True)
        return EXIT_INTERRUPTED
    except TrisolveError as problem:  # bad input or usage (2), or a failure it names (1): one line
        click.echo(f"trisolve: {problem}", err=True)
        return problem.exit_code
    except BrokenPipeError:
        return _broken_pipe()
    except SystemExit as leaving:
        if _stdout_broken():  # click turns EPIPE into sys.exit(1)
            return _broken_pipe()
        return int(leaving.code or 0) if not isinstance(leaving.code, str) else EXIT_USAGE
    except OSError as problem:
        if problem.errno == errno.EPIPE:
            return _broken_pipe()
        if problem.errno not in _FILE_ERRNOS:
            _print_internal_error()
            return EXIT_FAILED
        # the last net under models.files: a file or a disk the user gave, not a bug
        from trisolve.models.errors import shorten
        from trisolve.models.files import os_problem

        where = f"{shorten(problem.filename, 200)}: " if problem.filename else ""
        click.echo(f"trisolve: {where}{os_problem(problem)}", err=True)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the last resort: one line, never a traceback
        if _is_interruption(exc):
            click.echo("trisolve: interrupted", err=True)
            return EXIT_INTERRUPTED
        _print_internal_error()
        return EXIT_FAILED
    finally:
        from trisolve.runs import processes as runner

        for signum, handler in previous.items():
            # after an interruption the command is over: a late second signal must not kill the exit
            signal.signal(signum, signal.SIG_IGN if runner.interrupted() else handler)


def _print_internal_error() -> None:
    """Our own bug: say so, with the traceback that finds it (``traceback`` is imported here, when it is needed)."""
    import traceback

    click.echo("trisolve: internal error (please report):", err=True)
    traceback.print_exc()


def _stdout_broken() -> bool:
    return isinstance(sys.stdout, click.utils.PacifyFlushWrapper)


def _broken_pipe() -> int:
    """Nobody reads our output any more: stop quietly (Python would complain when it flushes stdout at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):
        pass
    return EXIT_BROKEN_PIPE


def _catch_interrupts() -> dict:
    """Route SIGINT and SIGTERM to ``runs.processes.interrupt``; the handlers they had, to restore."""
    from trisolve.runs import processes as runner

    runner.INTERRUPT.clear()
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, runner.interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}


def _is_interruption(exc: Exception) -> bool:
    """Ctrl-C seen by a solver running in this process: PySAT's own SIGINT handler turns it into an error."""
    from trisolve.runs import processes as runner

    return runner.interrupted() or "caught keyboard interrupt" in str(exc).lower()


def interrupted_exit() -> None:
    """After a command printed its partial result: exit 130 when Ctrl-C (or SIGTERM) cut it short."""
    from trisolve.runs import processes as runner

    if runner.interrupted():
        click.echo("trisolve: interrupted; the result above is partial", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)


def verdict_exit(failed: bool, problems: Sequence[str] = ()) -> None:
    """The end of every command that judges runs (crosscheck, campaign, mutate, bench): 130 when interrupted,
    2 when there are ``problems``, 1 when ``failed`` (a verdict with a disagreement, an invalid solution or a
    crashed run), else 0.

    ``problems`` are files the command could not write (a minimised level, its repro note): each is said on
    stderr here, after the output, which is printed whole; the verdicts stand, but the exit code says so."""
    for problem in problems:
        click.echo(f"trisolve: {problem}", err=True)
    interrupted_exit()
    if problems:
        raise click.exceptions.Exit(EXIT_USAGE)
    if failed:
        raise click.exceptions.Exit(EXIT_FAILED)


def print_minimised(items: Iterable[Mapping[str, Any]]) -> None:
    """Where each shrunk instance went, and the command that reproduces its finding."""
    for item in items:
        if item.get("reproduced", True):
            said = "reproduce with"
        else:
            said = "but rerun on its witnesses alone the finding did not show again; what was tried"
        click.echo(
            f"minimised {item['instance']} to {item['file']} ({item['steps']} steps); {said}:\n  {item['command']}"
        )


def load_level(path: str, family_name: str | None = None):
    """The library's Level for a file argument.

    A file argument is always a path, even one whose name holds a line break (``api.load`` reads
    a ``str`` with a line break as level text, a ``Path`` never)."""
    from .. import api

    return api.load(api.named(path), family_name)


def instance_files(paths: Iterable[str]) -> list[str]:
    """Files named, and instance files inside named folders (sorted), for batch commands.

    They are this command's inputs: no output of it may overwrite one (``models.files.protect``),
    even when a child process is the one that reads them."""
    from trisolve.models import files

    from .. import api

    found = api.instance_files(paths)
    files.protect(*found)
    return found


# ------------------------------------------------------------------ numeric options
# The library's own ranges (backends/numbers.py): a number no solver takes is a usage error naming the
# option, never a crash inside one, and the library refuses the same numbers.


def number_type(allowed: Range) -> click.ParamType:
    """A click type for one of the library's ranges: click's range (for the help text), then the library's check
    (which also refuses nan, inf and a float where a whole number is wanted)."""
    base = click.IntRange if allowed.kind is int else click.FloatRange

    class Checked(base):  # type: ignore[misc, valid-type]
        def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
            from trisolve.models.errors import UsageError

            number = super().convert(value, param, ctx)
            try:
                return allowed.check(number, "the value")
            except UsageError as problem:
                self.fail(str(problem), param, ctx)

    return Checked(allowed.low, allowed.high, min_open=allowed.low_open)


TIMEOUT = number_type(numbers.TIMEOUT)
BUDGET = number_type(numbers.BUDGET)
SEED = number_type(numbers.SEED)
SOLUTION_LIMIT = number_type(numbers.SOLUTION_LIMIT)
JOBS = number_type(numbers.JOBS)
COUNT = number_type(numbers.COUNT)
COUNT_OR_NONE = number_type(numbers.COUNT_OR_NONE)
INDEX = number_type(numbers.INDEX)
PORTFOLIO_SEEDS = number_type(numbers.PORTFOLIO_SEEDS)


def plugin_option(command):
    """``--plugin FILE`` (repeatable), the same on every command that runs backends."""
    return click.option(
        "--plugin",
        "plugins",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False),
        help="A Python file that registers extra backends (your own encoding); repeatable. "
        "Installed packages add backends through the trisolve.backends entry points.",
    )(command)


def load_plugins(paths: Iterable[str]) -> None:
    """Load each --plugin file (a broken one is a usage problem naming the file and line)."""
    from trisolve.backends import registry

    for path in paths:
        registry.load_plugin(path)


#: Seconds an interpreter may take to start and reach trisolve's first line, at most: twice the CPU it
#: used to get there, plus a little, up to a second.
STARTUP_ALLOWANCE = (0.1, 2.0, 1.0)


#: When ``run_cli`` was last entered (``time.monotonic``) and whether as the process's entry point.
_command_entered: tuple[float, bool] | None = None


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


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=None, sort_keys=False) + "\n")


def split_list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def quiet_option(command):
    """``--quiet``/``-q``: no progress on stderr (the same on every long command; trisolve/cli/progress.py)."""
    return click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")(command)


def colour_option(command):
    """``--colour/--no-colour``: forced either way, even in a pipe; default: NO_COLOR, FORCE_COLOR, else
    whether the output is a terminal (``progress.colour_wanted``)."""
    return click.option(
        "--colour/--no-colour",
        "--color/--no-color",
        default=None,
        help="Colour, even in a pipe (default: not when NO_COLOR is set; yes when FORCE_COLOR is; "
        "else when the output is a terminal).",
    )(command)
