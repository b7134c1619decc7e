"""Tables and JSON for cross-check verdicts."""

from __future__ import annotations

import os
from collections.abc import Sequence

from trisolve.runs import RunRecord

from .compare import SEVERE, Verdict


def plural(number: int, noun: str) -> str:
    """``1 class``, ``2 classes``, ``1 instance``, ``0 instances``."""
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}es" if noun.endswith(("s", "sh", "ch", "x")) else f"{number} {noun}s"


def cell(record: RunRecord | None) -> str:
    """One run as a table cell: count (``N+`` if incomplete) or unsat, and time."""
    if record is None:
        return "-"
    if record.error:
        return "ERROR"
    what = "unsat" if (record.status == "unsat" and record.complete) else record.count_text
    return f"{what} {record.wall:.2f}s"


def table_rows(verdicts: Sequence[Verdict]) -> tuple[list[str], list[list[str]]]:
    backends: list[str] = []
    for verdict in verdicts:
        for record in verdict.records:
            label = record.backend + (" +sb" if record.symmetry_breaking else "")
            if label not in backends:
                backends.append(label)
    header = ["instance", "verdict", "count", *backends]
    rows = []
    for verdict in verdicts:
        by_label = {r.backend + (" +sb" if r.symmetry_breaking else ""): r for r in verdict.records}
        name = os.path.splitext(os.path.basename(verdict.path))[0]
        count = verdict.count_text + (f" ({plural(verdict.orbits, 'class')})" if verdict.orbits is not None else "")
        rows.append([name, verdict.status, count, *[cell(by_label.get(b)) for b in backends]])
    return header, rows


def print_table(verdicts: Sequence[Verdict], file=None, colour: bool | None = None) -> None:
    """A coloured table on a terminal (or wherever ``colour`` asks for one); plain aligned columns for files
    and pipes."""
    import sys

    out = file or sys.stdout
    header, rows = table_rows(verdicts)
    if not (out.isatty() if colour is None else colour):
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            out.write("  ".join(value.ljust(width) for value, width in zip(row, widths)).rstrip() + "\n")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(header_style="bold")
    for name in header:
        table.add_column(name, no_wrap=True)
    styles = {"agree": "green", "incomplete": "yellow"}
    for row in rows:
        table.add_row(*row, style=styles.get(row[1], "red bold"))
    # a forced colour (a pipe, a string) has no terminal width to fit: the table takes the width it needs
    width = None if colour is None else 1000
    Console(file=out, highlight=False, force_terminal=True if colour else None, width=width).print(table)


def findings_text(verdicts: Sequence[Verdict]) -> list[str]:
    lines = []
    for verdict in verdicts:
        name = os.path.basename(verdict.path)
        for finding in verdict.findings:
            if finding.kind in SEVERE or finding.kind == "note":
                lines.append(f"{name}: {finding.kind}: {finding.message}")
    return lines


def verdict_line(verdicts: Sequence[Verdict]) -> str:
    total = len(verdicts)
    agree = sum(v.status == "agree" for v in verdicts)
    incomplete = sum(v.status == "incomplete" for v in verdicts)
    failed = [v for v in verdicts if v.failed]
    if failed:
        names = ", ".join(os.path.basename(v.path) for v in failed[:8]) + (" ..." if len(failed) > 8 else "")
        return f"VERDICT: FAILED on {len(failed)} of {plural(total, 'instance')} ({names})"
    text = f"VERDICT: all backends agree on {agree} of {plural(total, 'instance')}"
    if incomplete:
        text += f"; {incomplete} incomplete (no contradiction, not counted as agreement)"
    return text


def summary_json(verdicts: Sequence[Verdict]) -> dict:
    return {
        "verdict": "failed" if any(v.failed for v in verdicts) else "ok",
        "instances": [
            {
                "path": v.path,
                "family": v.family,
                "status": v.status,
                "count": v.count,
                "count_text": v.count_text,
                "orbits": v.orbits,
                "findings": [{"kind": f.kind, "message": f.message, "backends": list(f.backends)} for f in v.findings],
                "runs": [
                    {
                        "backend": r.backend,
                        "symmetry_breaking": r.symmetry_breaking,
                        "status": r.status,
                        "count": r.count,
                        "complete": r.complete,
                        "wall": round(r.wall, 4),
                        "error": r.error,
                    }
                    for r in v.records
                ],
            }
            for v in verdicts
        ],
    }
