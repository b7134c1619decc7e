"""The ``trisolve`` command.  Subcommands live in their own modules and are
imported only when run, so ``trisolve --help`` never loads a solver."""

from __future__ import annotations

import importlib
import sys

import click

from .. import __version__
from .common import Failure, run_cli

#: command name -> (module in this package, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "solve": ("solve_cmd", "Solve one instance: first solution, all of them, or the count."),
    "crosscheck": ("crosscheck_cmd", "Run every backend variant on instances and prove they agree."),
    "bench": ("bench_cmd", "Benchmark backends: times, statistics, cactus plot."),
    "render": ("render_cmd", "Draw a level or a solution as an SVG or PNG picture."),
    "export": ("export_cmd", "Write an instance as DIMACS, ASP facts or a CP-SAT model."),
    "backends": ("backends_cmd", "List backends, their encoding variants and defaults."),
    "generate": ("generate_cmd", "Generate instances (optionally with a unique solution)."),
    "campaign": ("campaign_cmd", "Generate and cross-check many instances, resumably."),
    "mutate": ("mutate_cmd", "Mutate the shipped encodings and score how well instances kill the mutants."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, (module, _) in COMMANDS.items() if _exists(module)]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS or not _exists(COMMANDS[name][0]):
            return None
        module = importlib.import_module(f"{__package__}.{COMMANDS[name][0]}")
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
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _exists(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"{__package__}.{module}") is not None


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


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_cli(cli, argv, process_entry=True))


if __name__ == "__main__":
    main()
