"""Frames of many identical pieces as a user runs them, and what an option entry costs: exactcover's sizes.

    python scripts/exactcover_sizes.py [--rounds 3] [--timeout 120]

Part 1, the commands (each its own ``trisolve solve`` process, no backend named for the counts, so the
portfolio's default for sigils, in an order that rotates from round to round):

* 100 identical 2x2 squares in a 20x20 frame, ``--count`` (1 tiling);
* 100 dominoes in a 20x10 frame, ``--count --limit 1000``;
* 1600 monominoes in a 40x40 frame, ``--count`` (1 tiling);
* ``export --format xc`` of that 40x40 frame (its size in bytes).

Prints per command the median and worst wall and CPU seconds (the command and every child it waited for)
and the peak resident memory of its largest process.  Every count must be the expected one.

Part 2, the memory per option entry behind ``engine.BYTES_PER_ENTRY``: frames of two repeated types (only
one type can go without items, the other's copies are ordered), translated and handed to Algorithm C in a
fresh process each, which prints its entries and the growth of its peak resident memory up to the first cover.
The numba kernel must be compiled already (run any exactcover command once).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRISOLVE = os.path.join(os.path.dirname(sys.executable), "trisolve")

FRAMES = {
    "squares": "20x20\n" + " ".join(["O"] * 100) + "\n",
    "dominoes": "20x10\n" + " ".join(["D"] * 100) + "\npiece D\nDD\n",
    "monominoes": "40x40\n" + " ".join(["M"] * 1600) + "\npiece M\nM\n",
}
#: (frame, arguments after ``solve FILE``, the count expected)
COMMANDS = {
    "100 squares 20x20 --count": ("squares", ["--count"], "exactly one solution"),
    "100 dominoes 20x10 --count --limit 1000": ("dominoes", ["--count", "--limit", "1000"], "1000+ solutions"),
    "1600 monominoes 40x40 --count": ("monominoes", ["--count"], "exactly one solution"),
}
#: two repeated types: one goes without items, the other's copies are ordered (entries grow with the frame)
TWO_TYPES = {
    "12x12, 18 O + 18 I": "12x12\n" + " ".join(["O"] * 18 + ["I"] * 18) + "\n",
    "16x16, 32 O + 32 I": "16x16\n" + " ".join(["O"] * 32 + ["I"] * 32) + "\n",
    "20x20, 50 O + 50 I": "20x20\n" + " ".join(["O"] * 50 + ["I"] * 50) + "\n",
}
PER_ENTRY = """
import resource, sys
from trisolve.backends.base import Options
from trisolve.backends.exactcover import engine, sigils as translator
from trisolve.models import sigils
level = sigils.parse(sys.argv[1])
engine.MAX_ENTRIES, engine.DEFAULT_MEMORY = 10**12, 10**15  # measure, do not refuse
engine.kernel()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
problem = translator.encode(level, "plain", Options(enumerate=True))
entries = sum(len(option) for option in problem.options)
next(engine.kernel()(*problem.arrays()), None)
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
print(entries, grown)
"""


def run(command: list[str]) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak resident MB of the largest child, stdout) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0,):
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return wall, cpu, after.ru_maxrss / 1024.0, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="exactcover-sizes-")
    paths = {}
    for name, text in {**FRAMES, **TWO_TYPES}.items():
        paths[name] = os.path.join(folder, name.replace(" ", "_").replace(",", "").replace("+", "and") + ".txt")
        with open(paths[name], "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")

    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    names = list(COMMANDS)
    for round_ in range(args.rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            frame, extra, wanted = COMMANDS[name]
            wall, cpu, _, out = run([TRISOLVE, "solve", paths[frame], *extra, "--timeout", f"{args.timeout:g}"])
            if wanted not in out:
                raise SystemExit(f"{name}: expected {wanted!r} in:\n{out}")
            figures[name].append((wall, cpu))
    print(f"\n{args.rounds} rounds, the default backend for a sigils count (no --backend):")
    print("| command | wall s (median, worst) | CPU s (median, worst) |")
    print("|---|---|---|")
    for name, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"| `{name}` | {statistics.median(walls):.2f}, {max(walls):.2f} | "
            f"{statistics.median(cpus):.2f}, {max(cpus):.2f} |"
        )
    exported = os.path.join(folder, "monominoes.xc")
    wall, cpu, rss, _ = run([TRISOLVE, "export", paths["monominoes"], "--format", "xc", "-o", exported])
    print(
        f"\n`export --format xc` of the 40x40 monomino frame: {os.path.getsize(exported):,} bytes, "
        f"{wall:.2f} s wall, {cpu:.2f} s CPU, peak {rss:.0f} MB"
    )

    print("\nmemory per option entry (translation, numbered arrays, Algorithm C to its first cover):")
    print("| frame | option entries | peak memory growth MB | bytes per entry |")
    print("|---|---|---|---|")
    for name in TWO_TYPES:
        out = subprocess.run([sys.executable, "-c", PER_ENTRY, paths[name]], capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(out.stderr)
        entries, grown = map(int, out.stdout.split())
        print(f"| {name} | {entries:,} | {grown / 2**20:.0f} | {grown / entries:.0f} |")
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
