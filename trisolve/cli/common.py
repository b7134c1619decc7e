"""What every subcommand shares: the exit codes, the option types, plugins, output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import click

from trisolve.backends import numbers
from trisolve.backends.numbers import Range
from trisolve.models.errors import TrisolveError

from . import running

# what every command shares with the path that runs without click (running.py), here for the commands
from .running import (  # noqa: F401 - the commands import these from here
    EXIT_BROKEN_PIPE,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_USAGE,
    STARTUP_ALLOWANCE,
    broken_pipe,
    catch_interrupts,
    entered,
    exit_code_of,
    instance_files,
    load_plugins,
    process_started,
    restore_signals,
    said,
)


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
    entered(process_entry)
    previous = catch_interrupts()
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
    except SystemExit as leaving:
        if _stdout_broken():  # click turns EPIPE into sys.exit(1)
            return broken_pipe()
        return exit_code_of(leaving)
    except Exception as problem:  # noqa: BLE001 - the last resort: one line, never a traceback
        return said(problem)
    finally:
        restore_signals(previous)


def _stdout_broken() -> bool:
    return isinstance(sys.stdout, click.utils.PacifyFlushWrapper)


def interrupted_exit() -> None:
    """After a command printed its partial result: exit 130 when Ctrl-C (or SIGTERM) cut it short."""
    try:
        running.interrupted_exit()
    except running.Exit as done:
        raise click.exceptions.Exit(done.exit_code) from None


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
