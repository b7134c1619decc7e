"""What every subcommand shares: the exit codes, the option types, plugins, output."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterable, Mapping
from typing import Any

import click

from trisolve.backends import numbers
from trisolve.backends.numbers import Range
from trisolve.models.errors import TrisolveError

#: Exit codes, one meaning each, the same for every command (docs/exit-codes.md): 0 answered, 1 a finding
#: (a disagreement, an invalid solution, a run that crashed, a surviving mutant) or trisolve's own failure,
#: 2 bad input or usage, 3 stopped by a limit before an answer, 130 interrupted.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class Failure(click.ClickException, TrisolveError):
    """A library error (``TrisolveError``) ending a command, in click's terms: its message on one line, its exit
    code (2 for bad input or usage, 1 otherwise; docs/exit-codes.md)."""

    def __init__(self, problem: Exception) -> None:
        super().__init__(str(problem))
        self.exit_code = getattr(problem, "exit_code", EXIT_FAILED)

    def show(self, file: Any = None) -> None:
        click.echo(f"trisolve: {self.format_message()}", err=True)


def run_cli(group: click.Group, argv: list[str] | None) -> int:
    """Run click, mapping every failure to its exit code; tracebacks only for our own bugs.

    Ctrl-C and SIGTERM both go to ``runner.interrupt``: every running child is
    killed at once (in every thread), and the command prints what finished
    and exits 130.
    """
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
        return 0
    except SystemExit as leaving:
        return int(leaving.code or 0) if not isinstance(leaving.code, str) else EXIT_USAGE
    except Exception as exc:
        if _is_interruption(exc):
            click.echo("trisolve: interrupted", err=True)
            return EXIT_INTERRUPTED
        click.echo("trisolve: internal error (please report):", err=True)
        traceback.print_exc()
        return EXIT_FAILED
    finally:
        from trisolve.backends import runner

        for signum, handler in previous.items():
            # after an interruption the command is over: a late second signal must not kill the exit
            signal.signal(signum, signal.SIG_IGN if runner.interrupted() else handler)


def _catch_interrupts() -> dict:
    """Route SIGINT and SIGTERM to ``runner.interrupt``; the handlers they had, to restore."""
    from trisolve.backends import runner

    runner.INTERRUPT.clear()
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, runner.interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}


def _is_interruption(exc: Exception) -> bool:
    """Ctrl-C seen by a solver running in this process: PySAT's own SIGINT handler turns it into an error."""
    from trisolve.backends import runner

    return runner.interrupted() or "caught keyboard interrupt" in str(exc).lower()


def interrupted_exit() -> None:
    """After a command printed its partial result: exit 130 when Ctrl-C (or SIGTERM) cut it short."""
    from trisolve.backends import runner

    if runner.interrupted():
        click.echo("trisolve: interrupted; the result above is partial", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)


def verdict_exit(failed: bool) -> None:
    """The end of every command that judges runs (crosscheck, campaign, mutate, bench): 130 when interrupted,
    1 when ``failed`` (a verdict with a disagreement, an invalid solution or a crashed run), else 0."""
    interrupted_exit()
    if failed:
        raise click.exceptions.Exit(EXIT_FAILED)


def print_minimised(items: Iterable[Mapping[str, Any]]) -> None:
    """Where each shrunk instance went, and the command that reproduces its finding."""
    for item in items:
        click.echo(
            f"minimised {item['instance']} to {item['file']} ({item['steps']} steps); reproduce with:\n  "
            f"{item['command']}"
        )


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


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=None, sort_keys=False) + "\n")


def split_list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


class RunProgress:
    """Finished runs (out of all, once known), on stderr, for terminals."""

    def __init__(self, enabled: bool) -> None:
        self.total, self.enabled, self.finished = 0, enabled, 0

    def start(self, total: int) -> None:
        self.total = total

    def update(self, record, reused: bool) -> None:
        self.finished += 1
        if self.enabled:
            done = f"{self.finished}/{self.total}" if self.total else f"{self.finished}"
            name = os.path.basename(record.path)
            sys.stderr.write(f"\r[{done}] {name} {record.backend}: {record.count_text}".ljust(78)[:78])
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()
