"""Counts of the compiled constraint models against expected.json, on every shipped level the backend's own
hand-written translator counts within the time limit.

    python scripts/compiled_counts.py [--family hexiom ...] [--backends pysat,clingo,cpsat,mip,exactcover]
                                      [--timeout 60] [--compiled-timeout 60] [--levels level00,level01]
                                      [--jsonl runs.jsonl] [--resume]

For each family and each backend with a ``compiled`` variant for it, the
backend's hand-written default (``registry.resolve(backend, family)``) counts
every level of ``levels/<family>/`` that ``expected.json`` lists; the levels it
counts completely within ``--timeout`` are the ones attempted, and on each of
them the backend's ``compiled`` variant counts too (``--compiled-timeout``).
A compiled count agrees when it is complete and equal to expected.json's.
Every run is a forked child with its own time limit and hard kill (the
benchmark runner, ``bench/runner.py``), one at a time, seed 0.

It prints one row per family and backend: levels agreeing / attempted, the
compiled runs' worst wall and CPU seconds (and the hand runs' for
comparison), the levels the hand default did not count in time; and, loudly,
every disagreement: a compiled count that is complete and differs from
expected.json, or one that did not finish.  Exit status 1 when there is any.

``--jsonl`` appends every run as one JSON line (``BenchRun``); with
``--resume`` the runs already in that file with the same backend, level and
time limit are read back instead of made again (the hand runs, say, while the
compilers change).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

#: The backends whose compilers are measured, in the table's order.
BACKENDS: tuple[str, ...] = ("pysat", "clingo", "cpsat", "mip", "exactcover")
FAMILIES: tuple[str, ...] = ("hexiom", "sigils", "logic")


class Row:
    """One family and backend: the hand default's runs and the compiled variant's, by level (a plain class:
    the tests load this script as a module outside ``sys.modules``, where a dataclass cannot be made)."""

    def __init__(self, family: str, backend: str, hand: str, compiled: str, expected: dict) -> None:
        self.family, self.backend, self.hand, self.compiled = family, backend, hand, compiled
        self.expected = expected
        #: level -> the hand run; level -> the compiled run (only where the hand default counted)
        self.hand_runs: dict = {}
        self.compiled_runs: dict = {}

    @property
    def attempted(self) -> list[str]:
        return [n for n, run in self.hand_runs.items() if run.complete]

    def agrees(self, name: str) -> bool:
        run = self.compiled_runs.get(name)
        return run is not None and run.complete and run.error is None and run.count == self.expected[name]

    def disagreements(self) -> list[str]:
        """Each attempted level where the compiled count is not expected.json's, in words."""
        found = []
        for name in self.attempted:
            run = self.compiled_runs.get(name)
            if self.agrees(name):
                continue
            if run is None:
                found.append(f"{name}: no compiled run")
            elif run.complete and run.error is None:
                found.append(f"{name}: {self.compiled} counted {run.count}, expected.json says {self.expected[name]}")
            else:
                why = run.error or run.stopped_by or run.status
                found.append(f"{name}: {self.compiled} did not finish ({run.count}+ after {run.time:.1f} s: {why})")
        hand_wrong = [
            f"{n}: the hand default {self.hand} counted {run.count}, expected.json says {self.expected[n]}"
            for n, run in self.hand_runs.items()
            if run.complete and run.count != self.expected[n]
        ]
        return found + hand_wrong


def expected_counts(folder: str) -> dict[str, int]:
    """expected.json's complete counts, by level name."""
    with open(os.path.join(folder, "expected.json"), encoding="utf-8") as handle:
        data = json.load(handle)
    return {name: entry["count"] for name, entry in data.items() if entry.get("complete", True)}


def level_paths(family, folder: str, wanted: set[str] | None) -> dict[str, str]:
    """Level name -> path, for the levels expected.json counts (and ``wanted`` names, if given)."""
    expected = expected_counts(folder)
    found = {}
    for entry in sorted(os.listdir(folder)):
        name, suffix = os.path.splitext(entry)
        if suffix == family.suffix and name in expected and (wanted is None or name in wanted):
            found[name] = os.path.join(folder, entry)
    return found


def compiled_backends(family: str, backends: list[str]) -> list[tuple[str, str, str]]:
    """(backend, hand default, compiled spec) for each backend that has both for ``family``."""
    from trisolve.backends import registry

    pairs = []
    for backend in backends:
        offered = registry.variants(family, [backend])
        made = f"{backend}:compiled"
        if made in offered and offered[0] != made:  # the default is the hand translator's
            pairs.append((backend, offered[0], made))
    return pairs


class Store:
    """The runs made so far (``--jsonl``), read back with ``--resume``."""

    def __init__(self, path: str | None, resume: bool) -> None:
        from trisolve.bench.runner import BenchRun

        self.path = path
        self.known: dict[tuple[str, str, str, float], BenchRun] = {}
        if path and resume and os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        run = BenchRun.from_json(json.loads(line))
                        self.known[run.family, run.backend, run.instance, run.timeout] = run

    def run(self, path: str, family, backend: str, timeout: float):
        from trisolve.bench.runner import Settings, Trial, run_trial

        key = (family.name, backend, os.path.splitext(os.path.basename(path))[0], timeout)
        if key in self.known:
            return self.known[key]
        run = run_trial(Trial(path, family.name, backend, 0), family, Settings(timeout=timeout, mode="count"))
        self.known[key] = run
        if self.path:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(run.to_json(), default=str) + "\n")
        return run


def measure(
    families: list[str],
    backends: list[str],
    timeout: float,
    compiled_timeout: float,
    store: Store,
    wanted: set[str] | None = None,
    progress=None,
) -> list[Row]:
    """Every row: the hand default on each level, then the compiled variant where the hand default counted."""
    from trisolve.models import FAMILIES as KNOWN
    from trisolve.runs.executors import warm_machine

    rows = []
    for name in families:
        family = KNOWN[name]
        folder = os.path.join("levels", name)
        expected = expected_counts(folder)
        paths = level_paths(family, folder, wanted)
        pairs = compiled_backends(name, backends)
        warm_machine([spec for _, hand, made in pairs for spec in (hand, made)], name)
        for backend, hand, made in pairs:
            row = Row(name, backend, hand, made, expected={n: expected[n] for n in paths})
            for level, path in paths.items():
                row.hand_runs[level] = hand_run = store.run(path, family, hand, timeout)
                if hand_run.complete:
                    row.compiled_runs[level] = store.run(path, family, made, compiled_timeout)
                if progress is not None:
                    done = row.compiled_runs.get(level)
                    progress(
                        f"{name} {level} {hand} {_brief(hand_run)}"
                        + (f", {made} {_brief(done)}" if done is not None else "")
                    )
            rows.append(row)
    return rows


def _brief(run) -> str:
    count = f"{run.count}" if run.complete else f"{run.count}+"
    return f"{count} in {run.time:.2f} s"


def table(rows: list[Row], timeout: float) -> list[str]:
    """The table's lines (Markdown): one row per family and backend."""
    lines = [
        "| family | backend | compiled: agree / attempted | compiled wall s: median / worst | compiled CPU s: worst "
        "| hand default | hand wall s: median / worst | not counted by the hand default within "
        f"{timeout:g} s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        made = [row.compiled_runs[n] for n in row.attempted if n in row.compiled_runs]
        hand = [row.hand_runs[n] for n in row.attempted]
        skipped = [n for n in row.hand_runs if n not in row.attempted]
        agree = sum(row.agrees(n) for n in row.attempted)
        lines.append(
            f"| {row.family} | `{row.compiled}` | {agree}/{len(row.attempted)} | {_spread(made)} | "
            f"{max((r.cpu for r in made), default=0.0):.2f} | `{row.hand}` | {_spread(hand)} | "
            f"{', '.join(skipped) if skipped else '-'} |"
        )
    return lines


def _spread(runs) -> str:
    if not runs:
        return "-"
    times = sorted(r.time for r in runs)
    worst = max(runs, key=lambda r: r.time)
    return f"{times[len(times) // 2]:.2f} / {worst.time:.2f} ({worst.instance})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--family", action="append", choices=FAMILIES, help="default: all three")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--timeout", type=float, default=60.0, help="the hand default's limit per count")
    parser.add_argument("--compiled-timeout", type=float, help="the compiled variant's (default: --timeout)")
    parser.add_argument("--levels", help="only these levels (comma-separated names)")
    parser.add_argument("--jsonl", help="append every run here")
    parser.add_argument("--resume", action="store_true", help="read back the runs already in --jsonl")
    parser.add_argument("--quiet", action="store_true", help="no line per level on stderr")
    args = parser.parse_args(argv)

    families = args.family or list(FAMILIES)
    compiled_timeout = args.compiled_timeout or args.timeout
    wanted = set(args.levels.split(",")) if args.levels else None
    started, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()
    print(
        f"compiled counts: {', '.join(families)}; hand default's limit {args.timeout:g} s, compiled "
        f"{compiled_timeout:g} s; {os.cpu_count()} cores; started {started}, load average "
        f"{load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}",
        flush=True,
    )

    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    store = Store(args.jsonl, args.resume)
    rows = measure(families, args.backends.split(","), args.timeout, compiled_timeout, store, wanted, progress=progress)
    print("\n".join(table(rows, args.timeout)))
    wrong = [(row, line) for row in rows for line in row.disagreements()]
    for row, line in wrong:
        print(f"DISAGREEMENT {row.family} {line}")
    load = os.getloadavg()
    print(
        f"{len(store.known)} runs; finished {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}"
    )
    print(f"VERDICT: {len(wrong)} disagreements" if wrong else "VERDICT: every compiled count agrees")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
