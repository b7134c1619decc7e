"""The ``trisolve`` command group, read by click.  Each subcommand lives in its own module, ``<name>_cmd``,
imported only when run, so ``trisolve --help`` never loads a solver."""

from __future__ import annotations

import importlib

import click

from .. import __version__
from .common import Failure

#: command name -> one-line help; the command is ``command`` in this package's module ``<name>_cmd``
COMMANDS: dict[str, str] = {
    "solve": "Solve one instance: first solution, all of them, or the count.",
    "crosscheck": "Run every backend variant on instances and prove they agree.",
    "bench": "Benchmark backends: times, statistics, cactus plot.",
    "render": "Draw a level or a solution as an SVG or PNG picture.",
    "export": "Write an instance as DIMACS, ASP facts or a CP-SAT model.",
    "backends": "List backends, their encoding variants and defaults.",
    "generate": "Generate instances (optionally with a unique solution).",
    "campaign": "Generate and cross-check many instances, resumably.",
    "explain": "Explain a solution step by step, give a hint, or find why there is none.",
    "mutate": "Mutate the shipped encodings and score how well instances kill the mutants.",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in COMMANDS if _exists(name)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS or not _exists(name):
            return None
        module = importlib.import_module(f"{__package__}.{name}_cmd")
        return module.command

    def invoke(self, ctx: click.Context):
        """Run the command; the library's errors end it with their own exit code and one line, however click
        is invoked (``trisolve``, ``run_cli`` or click's test runner)."""
        from trisolve.models.errors import TrisolveError

        try:
            return super().invoke(ctx)
        except TrisolveError as problem:
            raise Failure(problem) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _exists(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"{__package__}.{name}_cmd") is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="trisolve")
def cli() -> None:
    """trisolve: one puzzle model, many solving paradigms (SAT, ASP, CP, MIP, exact cover, model counting,
    dynamic programming), cross-checked.

    Exit codes, the same for every command (docs/exit-codes.md): 0 answered;
    1 a finding (backends disagree, an invalid solution, a crashed run, a
    surviving mutant) or trisolve's own failure; 2 bad input or usage; 3
    stopped by a limit before an answer; 130 interrupted (Ctrl-C or SIGTERM:
    the partial result is printed); 141 the output's reader went away
    (``| head -1``: quiet, as Unix tools do).
    """
