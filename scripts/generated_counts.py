"""Generated Hexiom levels of side 6 and 7: made by ``trisolve generate``, counted by dp, and checked.

    python scripts/generated_counts.py [--only NAME ...] [--cubes 20] [--enumerate-up-to 2000]

Each level in ``LEVELS`` is made by ``trisolve generate hexiom --side S --fill F --seed X`` (a random
board, solved by construction; no locks, so the level has all 12 symmetries of the board) and written
as ``levels/generated/hexiom/NAME.txt`` with its intended solution beside it.  Then, each as its own
``trisolve`` process or script:

1. the count: ``trisolve solve NAME.txt --count --backend dp --json`` (wall and CPU seconds);
2. the symmetry classes: the same with ``--symmetry-breaking``; by Burnside's lemma the boards each of
   the 12 symmetries fixes (the count for the identity) must sum to 12 times the class count;
3. by halves, every occupancy of the middle row counted and compared with its left-right mirror image,
   and ``--cubes`` cubes (occupancies of the two middle rows) listed by CaDiCaL on the pysat CNF and
   compared with the halves' share of each: ``python scripts/dp_cubes.py NAME.txt --leaves 0
   --check-mirror --cubes N``;
4. where the count is at most ``--enumerate-up-to``: a complete enumeration by clingo and pysat,
   ``trisolve crosscheck NAME.txt --backends dp,clingo:count,pysat:totalizer``.

Any disagreement exits 1.  ``levels/generated/hexiom/expected.json`` gets each level's count, class
count, the fixed boards per symmetry, the commands and the checks that passed; the table printed last (wall
and CPU seconds of this run) is the one in docs/bench/generated-hexiom.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trisolve.models import files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "levels", "generated", "hexiom")
TRISOLVE = os.path.join(os.path.dirname(sys.executable), "trisolve")

#: name -> (side, fill, seed): chosen from a sweep of fills and seeds so that each counts within minutes
#: (side-6 levels with 14 and 15 empty cells and a side-7 one with 11 ran out of the 12 GB budget, see
#: docs/bench/generated-hexiom.md)
LEVELS: dict[str, tuple[int, float, int]] = {
    "side6-fill0.93-seed0": (6, 0.93, 0),
    "side6-fill0.89-seed1": (6, 0.89, 1),
    "side6-fill0.88-seed2": (6, 0.88, 2),
    "side7-fill0.95-seed1": (7, 0.95, 1),
    "side7-fill0.94-seed1": (7, 0.94, 1),
    "side7-fill0.935-seed3": (7, 0.935, 3),
}


def run(command: list[str], *, check: bool = True) -> tuple[subprocess.CompletedProcess, float, float]:
    """(the finished process, wall s, CPU s of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done, wall, cpu


def generate(name: str, side: int, fill: float, seed: int) -> str:
    """Write NAME.txt and NAME.solution.json from ``trisolve generate``; the level's path."""
    os.makedirs(FOLDER, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        run([TRISOLVE, "generate", "hexiom", "--side", str(side), "--fill", str(fill), "--seed", str(seed),
             "-o", scratch, "-q"])  # fmt: skip
        for suffix in (".txt", ".solution.json"):  # the generator's one file pair, renamed after the level
            shutil.move(os.path.join(scratch, f"hexiom-s{seed}-0000{suffix}"), os.path.join(FOLDER, name + suffix))
    return os.path.join(FOLDER, name + ".txt")


def count(path: str, classes: bool) -> tuple[dict, float, float]:
    flags = ["--symmetry-breaking"] if classes else []
    done, wall, cpu = run([TRISOLVE, "solve", path, "--count", "--backend", "dp", "--json", "-q", *flags])
    record = json.loads(done.stdout)
    if not record["complete"]:
        raise SystemExit(f"{path}: the dp count did not finish: {record.get('stopped_by')}")
    return record, wall, cpu


def check(name: str, path: str, cubes: int, enumerate_up_to: int) -> tuple[dict, dict]:
    """(the level's expected.json entry, this run's seconds)."""
    relative = os.path.relpath(path, ROOT)
    plain, wall, cpu = count(path, classes=False)
    classes, classes_wall, classes_cpu = count(path, classes=True)
    fixed = classes["stats"]["fixed_per_symmetry"]
    total, orbits = plain["count"], classes["count"]
    if fixed[0] != total or sum(fixed) % 12 or sum(fixed) // 12 != orbits:
        raise SystemExit(f"{name}: Burnside fails: count {total}, fixed {fixed}, classes {orbits}")
    checks = [f"Burnside: the boards the 12 symmetries fix, {fixed}, sum to 12 x {orbits}"]
    done, cubes_wall, _ = run(
        [sys.executable, "scripts/dp_cubes.py", relative, "--leaves", "0", "--check-mirror", "--cubes", str(cubes)]
    )
    lines = done.stdout.splitlines()
    halves_total = int(lines[0].split()[1])
    if halves_total != total:
        raise SystemExit(f"{name}: halves over every leaf gave {halves_total}, the count {total}")
    checks.append(f"python scripts/dp_cubes.py {relative} --leaves 0 --check-mirror --cubes {cubes}: {lines[1]}; "
                  f"{lines[-1]}")  # fmt: skip
    if total <= enumerate_up_to:
        backends = "dp,clingo:count,pysat:totalizer"
        done, _, _ = run([TRISOLVE, "crosscheck", relative, "--backends", backends, "--timeout", "600", "-q"])
        verdict = done.stdout.strip().splitlines()[-1]
        checks.append(f"trisolve crosscheck {relative} --backends {backends}: {verdict}")
    return {
        "count": total,
        "complete": True,
        "orbits": orbits,
        "fixed_per_symmetry": fixed,
        "generated_by": f"trisolve generate hexiom --side {LEVELS[name][0]} --fill {LEVELS[name][1]} "
        f"--seed {LEVELS[name][2]}",
        "command": f"trisolve solve {relative} --count --backend dp --json",
        "checks": checks,
    }, {
        "count": (round(wall, 2), round(cpu, 2)),
        "classes": (round(classes_wall, 2), round(classes_cpu, 2)),
        "checks": round(cubes_wall, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="these names only")
    parser.add_argument("--cubes", type=int, default=20)
    parser.add_argument("--enumerate-up-to", type=int, default=2000)
    args = parser.parse_args(argv)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()}", flush=True)
    expected_path = os.path.join(FOLDER, "expected.json")
    expected = json.loads(Path(expected_path).read_text(encoding="utf-8")) if os.path.exists(expected_path) else {}
    rows = []
    for name in args.only or LEVELS:
        side, fill, seed = LEVELS[name]
        path = generate(name, side, fill, seed)
        entry, m = check(name, path, args.cubes, args.enumerate_up_to)
        expected[name] = entry
        text = json.dumps(dict(sorted(expected.items())), indent=1)
        # each list of numbers on one line
        text = re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]", lambda m: "[" + re.sub(r"\s+", " ", m[1]) + "]", text)
        files.write_text(expected_path, text + "\n", what="expected.json", updating=True)  # whole or not at all
        empties = Path(path).read_text(encoding="utf-8").count(".")
        rows.append(
            f"| {name} | {empties} | {entry['count']:,} | {entry['orbits']:,} | {m['count'][0]} / {m['count'][1]} "
            f"| {m['classes'][0]} / {m['classes'][1]} | {m['checks']} |"
        )
        print(rows[-1], flush=True)
    print(f"# done, load average {os.getloadavg()}")
    header = "| level | empty cells | boards | classes | count: wall / CPU s | classes: wall / CPU s | checks: wall s |"
    print("\n" + header)
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
