"""What every subcommand shares: loading instances, naming backends, exit codes, output."""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, Iterable

import click

from .main import EXIT_INTERNAL, EXIT_USAGE


class UsageProblem(click.ClickException):
    """Bad input or usage: exit code 2, message on stderr, no traceback."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        click.echo(f"trisolve: {self.format_message()}", err=True)


def run_cli(group: click.Group, argv: list[str] | None) -> int:
    """Run click, mapping every failure to its exit code; tracebacks only for our own bugs."""
    from trisolve.models.errors import TrisolveError

    try:
        # without standalone mode click returns a raised Exit's code instead of raising it
        code = group.main(args=argv, prog_name="trisolve", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.ClickException as problem:
        problem.show()
        return problem.exit_code if problem.exit_code != 1 else EXIT_USAGE
    except click.exceptions.Abort:
        click.echo("trisolve: interrupted", err=True)
        return 130
    except TrisolveError as problem:
        click.echo(f"trisolve: {problem}", err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        click.echo("trisolve: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    except SystemExit as leaving:
        return int(leaving.code or 0) if not isinstance(leaving.code, str) else EXIT_USAGE
    except Exception:
        click.echo("trisolve: internal error (please report):", err=True)
        traceback.print_exc()
        return EXIT_INTERNAL


def load_instance(path: str, family_name: str | None = None):
    """(family, level) for a file; bad input becomes a UsageProblem naming the file."""
    from trisolve.models import FAMILIES, detect_family
    from trisolve.models.errors import TrisolveError

    if not os.path.exists(path):
        raise UsageProblem(f"{path}: no such file")
    if os.path.isdir(path):
        raise UsageProblem(f"{path}: is a folder; give an instance file")
    try:
        if family_name:
            if family_name not in FAMILIES:
                raise UsageProblem(f"unknown family {family_name!r}; known: {', '.join(FAMILIES)}")
            family = FAMILIES[family_name]
        else:
            family = detect_family(path)
        return family, family.parse(path)
    except TrisolveError as problem:
        raise UsageProblem(str(problem)) from None


def instance_files(paths: Iterable[str]) -> list[str]:
    """Files named, and instance files inside named folders (sorted), for batch commands."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.startswith(".") or name.endswith((".json", ".jsonl", ".md")):
                        continue
                    found.append(os.path.join(root, name))
        elif os.path.exists(path):
            found.append(path)
        else:
            raise UsageProblem(f"{path}: no such file or folder")
    if not found:
        raise UsageProblem("no instance files found in " + ", ".join(paths))
    return found


def resolve_backends(specs: list[str], family: str) -> list[str]:
    """Full ``backend:variant`` names; unknown names are a usage problem, not a traceback."""
    from trisolve.backends import registry

    try:
        return registry.expand(specs, family)
    except (registry.UnknownBackend, registry.UnsupportedFamily) as problem:
        raise UsageProblem(str(problem)) from None


def check_backend(spec: str, family: str) -> str:
    """The full name of one backend configuration, checked before any process starts."""
    from trisolve.backends import registry

    try:
        name = registry.resolve(spec, family)
        registry.get(name, family)  # instantiation is cheap; solvers import lazily at run time
        return name
    except (registry.UnknownBackend, registry.UnsupportedFamily, registry.BackendUnavailable, ValueError) as problem:
        raise UsageProblem(str(problem)) from None


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=None, sort_keys=False) + "\n")


def split_list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]
