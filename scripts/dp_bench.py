"""dp's counts as a user runs them: wall, CPU (user + system) and peak memory of each ``trisolve solve`` run.

``python scripts/dp_bench.py [LEVEL ...] [--classes] [--repeat N]`` runs
``trisolve solve LEVEL --count --backend dp --json`` (and with ``--classes``
the same with ``--symmetry-breaking``) as a child process, one level after
the other, and prints per run the count, wall seconds, user and system CPU
seconds (both threads) and the child's peak resident memory, then per level
and mode the median and worst over the repeats.  Each count is checked
against ``levels/hexiom/expected.json`` (or the expected.json beside the
level); a mismatch exits 1.  The first line says the date and the machine's
load, so a table made from it says what it was measured on.

Default levels: 36-39 and 40 (level 40 takes over a minute and about 3 GB).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def expected_entry(path: str) -> dict | None:
    folder, name = os.path.split(path)
    try:
        with open(os.path.join(folder, "expected.json"), encoding="utf-8") as handle:
            return json.load(handle).get(os.path.splitext(name)[0])
    except OSError:
        return None


def measure(path: str, classes: bool) -> dict:
    """Run the solve as this process's only child: its JSON record, wall seconds, CPU seconds, peak memory."""
    command = [sys.executable, "-m", "trisolve", "solve", path, "--count", "--backend", "dp", "--json"]
    if classes:
        command.append("--symmetry-breaking")
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        return {"error": f"{path}: exit {done.returncode}\n{done.stderr}"}
    record = json.loads(done.stdout)
    return {
        "count": record["count"],
        "complete": record["complete"],
        "wall": wall,
        "user": usage.ru_utime,
        "system": usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,  # Linux: KB
    }


def run(path: str, classes: bool) -> dict:
    """``measure`` in a fresh process of its own, so that the peak memory is this run's alone."""
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--measure", path] + (["--classes"] if classes else []),
        capture_output=True,
        text=True,
    )
    result = json.loads(done.stdout)
    if "error" in result:
        raise SystemExit(result["error"])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", default=[f"levels/hexiom/level{n}.txt" for n in (36, 37, 38, 39, 40)])
    parser.add_argument("--classes", action="store_true", help="also count symmetry classes (--symmetry-breaking)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # internal: one run, its figures as JSON
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.classes)))
        return 0
    load = os.getloadavg()
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
        f"{os.cpu_count()} CPUs",
        flush=True,
    )
    print("level          mode     count               wall s   user s  system s  peak MB", flush=True)
    rows: dict[tuple[str, str], list[dict]] = {}
    bad = 0
    for _ in range(args.repeat):
        for path in args.levels:
            for classes in (False, True) if args.classes else (False,):
                mode = "classes" if classes else "count"
                result = run(path, classes)
                rows.setdefault((path, mode), []).append(result)
                entry = expected_entry(path)
                want = None if entry is None else entry["orbits" if classes else "count"]
                verdict = "" if want is None or want == result["count"] else f"  EXPECTED {want}"
                bad += bool(verdict)
                name = os.path.splitext(os.path.basename(path))[0]
                print(
                    f"{name:<14} {mode:<8} {result['count']:<18} {result['wall']:8.1f} {result['user']:8.1f} "
                    f"{result['system']:9.1f} {result['peak_mb']:8.0f}{verdict}",
                    flush=True,
                )
    if args.repeat > 1:
        print("median (worst) over the repeats:")
        for (path, mode), results in rows.items():
            name = os.path.splitext(os.path.basename(path))[0]
            cpu = [r["user"] + r["system"] for r in results]
            wall = [r["wall"] for r in results]
            print(
                f"{name:<14} {mode:<8} wall {statistics.median(wall):.1f} ({max(wall):.1f}) s, "
                f"CPU {statistics.median(cpu):.1f} ({max(cpu):.1f}) s"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
