"""``trisolve backends``: what can be asked for with --backend / --backends."""

from __future__ import annotations

import click

from .common import UsageProblem, load_plugins, plugin_option, print_json


@click.command(name="backends")
@click.option("--family", default=None, help="Only this family.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@plugin_option
def command(family, as_json, plugins):
    """List every backend:variant per family, marking defaults and missing solvers; then, per family,
    the backend each task runs without --backend (from the measured portfolio table) and the table's date."""
    from trisolve.backends import defaults, registry
    from trisolve.models import FAMILIES
    from trisolve.models.errors import shorten

    if family is not None and family not in FAMILIES:
        raise UsageProblem(f"unknown family {shorten(family)!r}; known: {', '.join(FAMILIES)}")
    load_plugins(plugins)
    rows = []
    chosen = {}
    for fam in [family] if family else list(FAMILIES):
        chosen[fam] = defaults.describe(fam)
        for name, text, is_default in registry.describe_all(fam):
            backend = name.split(":")[0]
            hint = registry._module(backend).available()
            rows.append(
                {
                    "family": fam,
                    "backend": name,
                    "default": is_default,
                    "description": text,
                    "available": hint is None,
                    "default_for": [task for task, pick in chosen[fam].items() if pick["backend"] == name],
                    **({"install": hint} if hint else {}),
                }
            )
    if as_json:
        print_json(rows)
        return
    for row in rows:
        mark = "*" if row["default"] else " "
        missing = "" if row["available"] else f"  [unavailable: {row['install']}]"
        click.echo(f"{row['family']:8} {mark} {row['backend']:28} {row['description']}{missing}")
    click.echo("* default variant of its backend")
    head = defaults.header()
    when = f"measured {head['date']}" if head.get("date") else "no table: every family uses its fallback"
    click.echo(f"\nWithout --backend ({when}; trisolve bench --portfolio --write-defaults remeasures):")
    for fam, picks in chosen.items():
        shown = "   ".join(
            f"{label}: {picks[task]['backend']}" + ("" if picks[task]["from"] == "table" else " (fallback)")
            for task, label in (("first", "first solution"), ("count", "--count"), ("all", "--all"))
        )
        click.echo(f"{fam:8}   {shown}")
