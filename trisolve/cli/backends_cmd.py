"""``trisolve backends``: what can be asked for with --backend / --backends (``trisolve.api.list_backends``)."""

from __future__ import annotations

import click

from .common import load_plugins, plugin_option, print_json


@click.command(name="backends")
@click.option("--family", default=None, help="Only this family.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@plugin_option
def command(family, as_json, plugins):
    """List every backend:variant per family, marking defaults and missing solvers; then, per family, what
    each purpose runs without a named backend (the selection policy: solve and auto per task, crosscheck,
    campaign, bench, bench --portfolio, mutate's references, a generator's counter) and the table's date."""
    from trisolve.selection import TASKS_OF

    from .. import api

    load_plugins(plugins)
    rows = api.list_backends(family)
    head, chosen = api.default_choices(family)
    if as_json:
        print_json([row.to_json() for row in rows])
        return
    for row in rows:
        mark = "*" if row.default else " "
        missing = "" if row.available else f"  [unavailable: {row.install}]"
        click.echo(f"{row.family:8} {mark} {row.backend:28} {row.description}{missing}")
    click.echo("* default variant of its backend")
    reasons = api.compilers_left_out(family)
    if reasons:
        click.echo("\nCompilers of constraint models that leave a family out, and why:")
        for fam, said in reasons.items():
            for reason in said:
                click.echo(f"{fam:8}   {reason}")
    when = f"table measured {head['date']}" if head.get("date") else "no measured table"
    click.echo(f"\nWithout a named backend ({when}; trisolve bench --portfolio --write-defaults remeasures):")
    for selection in chosen:
        task = f" {selection.task}" if selection.purpose in TASKS_OF else ""
        shown = ", ".join(selection.shown) or "none usable here"
        click.echo(f"{selection.family:8}   {selection.purpose + task:16} {shown}  ({selection.source})")
