"""Luck as a user meets it: ``trisolve solve --json`` over many seeds, as whole processes.

``python scripts/seeds.py LEVELS --backends pysat,clingo,cpsat,auto --seeds 20``
runs ``trisolve solve LEVEL --backend B --seed S --json`` for every level
(a file, or a folder solved by one process), backend and seed, and prints
per backend the distribution of the in-process solve time (``time.solve``
and ``time.solve_cpu`` in the JSON) and of the whole process (wall and CPU
seconds, imports included): min, median, p90, max.  Every solution is
checked by the family's validator inside ``solve`` (an invalid one makes
it exit 1), and a run counts as solved only with an answer (sat or unsat).

``--exe LABEL=COMMAND`` (repeatable) compares installations side by side: the
runs of each (level, backend, seed) go one after the other for every
``COMMAND``, so load on a shared machine hits them alike.  Extra words in
``COMMAND`` go after ``solve`` (``--exe 'after=trisolve --shuffle'``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from trisolve.bench.summary import distribution
from trisolve.models import files


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(command: Sequence[str], level: str, backend: str, seed: int, timeout: float) -> list[dict[str, Any]]:
    """One ``solve --json`` process (one level, or a whole folder, one JSON line per level).

    Returns a row per level: exit code, solve time from the JSON, validity;
    the process's wall and CPU seconds (imports included) go on every row
    with ``process_levels``, the number of levels that process solved.
    """
    words = [
        command[0],
        "solve",
        level,
        "--backend",
        backend,
        "--seed",
        str(seed),
        "--json",
        "--timeout",
        f"{timeout:g}",
        *command[1:],
    ]
    cpu_before = _children_cpu()
    began = time.perf_counter()
    try:
        done = subprocess.run(words, capture_output=True, text=True, timeout=timeout * 50 + 30)
        code, out = done.returncode, done.stdout
    except subprocess.TimeoutExpired:
        code, out = -1, ""
    wall = time.perf_counter() - began
    cpu = _children_cpu() - cpu_before
    answers = []
    for line in out.splitlines():
        try:
            answers.append(json.loads(line))
        except ValueError:
            continue
    rows = []
    for data in answers or [{}]:
        time_ = data.get("time") or {}
        rows.append(
            {
                "level": data.get("instance", level),
                "backend": backend,
                "seed": seed,
                "exit": code,
                "process_wall": wall,
                "process_cpu": cpu,
                "process_levels": len(answers),
                "solve": time_.get("solve"),
                "solve_cpu": time_.get("solve_cpu"),
                "solved": data.get("status") in ("sat", "unsat") and "invalid" not in data and code in (0, 3),
                "winner": (data.get("portfolio") or {}).get("winner") or data.get("backend"),
                "valid": "invalid" not in data and code in (0, 3),
            }
        )
    return rows


def _s(value: float | None) -> str:
    if value is None:
        return "–"
    if value == float("inf"):
        return "unsolved"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def table(rows: Sequence[dict[str, Any]], labels: Sequence[str], backends: Sequence[str]) -> str:
    """Markdown: per (installation, backend), solved and min/median/p90/max of solve, wall, CPU."""
    lines = [
        "| version | backend | solved | solve s: min / median / p90 / max | solve CPU s: median / p90 / max "
        "| process wall s: median / p90 / max | process CPU s: median / p90 / max |",
        "|---|---|---|---|---|---|---|",
    ]
    for label in labels:
        for backend in backends:
            group = [r for r in rows if r["label"] == label and r["backend"] == backend]
            if not group:
                continue
            solved = [r for r in group if r["solved"]]
            # an unsolved run's solve time is unknown: it counts as worse than any solved one
            solve = distribution(
                [r["solve"] for r in solved if r["solve"] is not None], unsolved=len(group) - len(solved)
            )
            cpu_known = [r["solve_cpu"] for r in solved if r.get("solve_cpu") is not None]
            # an installation whose JSON has no solve_cpu shows "–", not "unsolved"
            solve_cpu = distribution(cpu_known, unsolved=len(group) - len(solved) if cpu_known else 0)
            # one figure per process: a folder's process solved many levels
            processes = {(r["seed"], r["process_wall"]): r for r in group}.values()
            wall = distribution([r["process_wall"] for r in processes])
            cpu = distribution([r["process_cpu"] for r in processes])
            lines.append(
                f"| {label} | {backend} | {len(solved)}/{len(group)} | "
                + " / ".join(_s(solve[k]) for k in ("min", "median", "p90", "max"))
                + " | "
                + " / ".join(_s(solve_cpu[k]) for k in ("median", "p90", "max"))
                + " | "
                + " / ".join(_s(wall[k]) for k in ("median", "p90", "max"))
                + " | "
                + " / ".join(_s(cpu[k]) for k in ("median", "p90", "max"))
                + " |"
            )
    return "\n".join(lines) + "\n"


def _seeds(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-")
        return list(range(int(low), int(high) + 1))
    return list(range(int(text)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/seeds.py", description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="+")
    parser.add_argument("--backends", default="pysat,clingo,cpsat,auto")
    parser.add_argument("--seeds", default="10", help="N (seeds 0..N-1) or A-B (inclusive)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--exe", action="append", default=[], metavar="LABEL=COMMAND")
    parser.add_argument("--jsonl", default=None, help="append one JSON line per run")
    args = parser.parse_args(argv)

    commands: dict[str, list[str]] = {}
    for spec in args.exe or ["current=trisolve"]:
        label, _, command = spec.partition("=")
        commands[label] = shlex.split(command)
    backends = [b for b in args.backends.split(",") if b]
    rows = []
    journal = files.Appender(args.jsonl) if args.jsonl else None
    try:
        for seed in _seeds(args.seeds):
            for level in args.levels:
                for backend in backends:
                    for label, command in commands.items():
                        found = [
                            {"label": label, **row} for row in run_one(command, level, backend, seed, args.timeout)
                        ]
                        rows.extend(found)
                        if journal:
                            journal.write("".join(json.dumps(row) + "\n" for row in found))
                        worst = max((r["solve"] or 0.0 for r in found), default=0.0)
                        print(
                            f"{label} {os.path.basename(level)} {backend} seed {seed}: {len(found)} level(s), "
                            f"worst solve {_s(worst)} s, process {found[0]['process_wall']:.2f} s "
                            f"[{found[0]['process_cpu']:.2f} CPU], exit {found[0]['exit']}",
                            file=sys.stderr,
                            flush=True,
                        )
    finally:
        if journal:
            journal.close()
    print(table(rows, list(commands), backends), end="")
    return 0 if all(r["valid"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
