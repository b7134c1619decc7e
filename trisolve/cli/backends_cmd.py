"""``trisolve backends``: what can be asked for with --backend / --backends (``trisolve.api.list_backends``)."""

from __future__ import annotations

import click

from .common import load_plugins, plugin_option, print_json


@click.command(name="backends")
@click.option("--family", default=None, help="Only this family.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@plugin_option
def command(family, as_json, plugins):
    """List every backend:variant per family, marking defaults and missing solvers; then, per family,
    the backend each task runs without --backend (from the measured portfolio table) and the table's date."""
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
    when = f"measured {head['date']}" if head.get("date") else "no table: every family uses its fallback"
    click.echo(f"\nWithout --backend ({when}; trisolve bench --portfolio --write-defaults remeasures):")
    for fam, picks in chosen.items():
        shown = "   ".join(
            f"{label}: {picks[task]['backend']}" + ("" if picks[task]["from"] == "table" else " (fallback)")
            for task, label in (("first", "first solution"), ("count", "--count"), ("all", "--all"))
        )
        click.echo(f"{fam:8}   {shown}")
    from trisolve.backends import registry

    named = [name for name in registry.names() if name not in registry.by_default()]
    click.echo(
        f"\ncrosscheck and campaign without --backends run {', '.join(registry.by_default())}"
        + (f"; {', '.join(named)} run only when named" if named else "")
    )
