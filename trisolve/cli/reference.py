"""The command reference of docs/usage.md, written from the commands themselves (click's own metadata).

Every command ``trisolve --help`` lists, and every option of each, as its ``--help`` shows them: a new
command or option appears here without anyone writing it twice.  ``python scripts/usage_reference.py
--write`` rewrites the part of docs/usage.md between ``BEGIN`` and ``END``; a test fails when that part
is stale (tests/test_docs.py).
"""

from __future__ import annotations

import inspect
import re

import click

BEGIN = "<!-- command reference: written by `python scripts/usage_reference.py --write` from each command's --help -->"
END = "<!-- end of the command reference -->"


def _markdown(text: str) -> str:
    """Help text as Markdown text: angle brackets shown, not read as HTML."""
    return re.sub(r"([<>*])", r"\\\1", " ".join(text.split()))


def _paragraphs(help_text: str) -> list[str]:
    """A docstring-style help as paragraphs (click's ``\\b`` markers dropped)."""
    text = inspect.cleandoc(help_text).replace("\b\n", "")
    return [_markdown(part) for part in text.split("\n\n") if part.strip()]


def _options(command: click.Command, ctx: click.Context) -> list[str]:
    lines = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue  # an argument: in the usage line
        names, text = record
        lines.append(f"- `{names}`" + (f": {_markdown(text)}" if text else ""))
    return lines


def reference(cli: click.Group) -> str:
    """The reference of the ``trisolve`` group (``trisolve.cli.main.cli``, handed in: this module is below the
    group that lists it): the group's usage and options, then one section per command, in ``--help``'s order."""
    # contexts as the command line makes them (the group's settings: -h as well as --help), never parsing anything
    root = cli.make_context("trisolve", [], resilient_parsing=True)
    out = [BEGIN, "", "### trisolve", "", f"`trisolve {' '.join(cli.collect_usage_pieces(root))}`", ""]
    out += [paragraph + "\n" for paragraph in _paragraphs(cli.help or "")]
    out += _options(cli, root) + [""]
    for name in cli.list_commands(root):
        command = cli.get_command(root, name)
        ctx = command.make_context(name, [], parent=root, resilient_parsing=True)
        out += [f"### trisolve {name}", "", f"`trisolve {name} {' '.join(command.collect_usage_pieces(ctx))}`", ""]
        out += [paragraph + "\n" for paragraph in _paragraphs(command.help or "")]
        out += _options(command, ctx) + [""]
    out.append(END)
    return "\n".join(out) + "\n"


def updated(document: str, cli: click.Group) -> str:
    """``document`` (docs/usage.md's text) with its reference rewritten (appended when it has none)."""
    if BEGIN in document and END in document:
        before, rest = document.split(BEGIN, 1)
        after = rest.split(END, 1)[1]
        return before + reference(cli).rstrip("\n") + after
    return document.rstrip("\n") + "\n\n" + reference(cli)
