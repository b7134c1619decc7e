"""All 41 Hexiom levels, first solution: one ``trisolve solve`` command per backend against a
plain CPMpy loop on OR-Tools (``cpmpy_hexiom.py``), side by side, in interleaved rounds.

    .venv/bin/pip install -e '.[bench]'    # CPMpy (the yardstick) is in the bench extra
    python scripts/side_by_side.py [--rounds 5] [--folder levels/hexiom] [--backends cpsat,pysat,clingo]
                                   [--baseline OTHER_CHECKOUT/.venv/bin/trisolve] [--cpmpy-workers 1]

Each round runs every contender once as its own process, the order rotating
from round to round (so drifts in the machine's load hit all alike), and takes:

* wall time of the whole process;
* CPU time of the process and every child it waited for (trisolve's forked
  runs, OR-Tools' threads);
* the summed in-process solve time: CP-SAT's own solve time per level in the
  CPMpy loop (``Model.status().runtime``), and ``time.solve`` of each line of
  trisolve's ``--jsonl`` (which must hold one solved line per level);
* the summed solve CPU: the process's CPU over each solve call (CP-SAT's
  worker threads included; ``time.solve_cpu`` in trisolve's lines), which the
  machine's load stretches less than wall time.

An untimed warm-up round comes first (see ``environment``).  It prints each
round's figures with each contender's ratio to the CPMpy loop of the same
round, then the median and the worst of those ratios, then where each
contender's wall time went (median over rounds, seconds summed over the
levels): for trisolve the phases its ``--jsonl`` records per level (parse,
import, translate, solve, decode), the rest of each level's run (fork, pipe,
checks) and the rest of the process (interpreter start, CLI, OR-Tools import,
exit); for the CPMpy loop the phases it prints (``cpmpy_hexiom.py``).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
YARDSTICK = "CPMpy loop"


def contenders(
    folder: str, backends: list[str], baseline: str | None, cpmpy_workers: int | None, out: str
) -> dict[str, list[str]]:
    trisolve = [os.path.join(os.path.dirname(sys.executable), "trisolve"), "solve", folder]
    runs = {
        f"trisolve {b}": [*trisolve, "--backend", b, "--jsonl", os.path.join(out, f"{b.replace(':', '_')}.jsonl")]
        for b in backends
    }
    if baseline:  # another build's trisolve (say, main before a change), on the first backend
        runs[f"baseline {backends[0]}"] = [
            baseline,
            "solve",
            folder,
            "--backend",
            backends[0],
            "--jsonl",
            os.path.join(out, "baseline.jsonl"),
        ]
    if cpmpy_workers:  # the same loop with CP-SAT's workers set: how much of the yardstick is its threads
        runs[f"CPMpy, {cpmpy_workers} worker(s)"] = [
            sys.executable,
            os.path.join(HERE, "cpmpy_hexiom.py"),
            folder,
            "--workers",
            str(cpmpy_workers),
        ]
    runs[YARDSTICK] = [sys.executable, os.path.join(HERE, "cpmpy_hexiom.py"), folder]
    return runs


def environment(cache: str) -> dict[str, str]:
    """The contenders' environment: Python's bytecode cached in ``cache``, for every contender alike.

    Installed packages come with their bytecode (CPMpy's, OR-Tools'); a checkout installed
    in editable mode writes its own on first import, unless PYTHONDONTWRITEBYTECODE is set:
    then every start compiles trisolve's modules anew (0.3-0.4 s of CPU). With the cache in
    a folder of its own (PYTHONPYCACHEPREFIX) and the untimed warm-up round, no contender
    compiles while timed, and no checkout is written to.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def measure(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of one command, its waited-for children included; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


TRISOLVE_PHASES = ("parse", "import", "translate", "solve", "decode")


def solve_time(
    name: str, command: list[str], stdout: str, levels: int, wall: float
) -> tuple[float, float, dict[str, float]]:
    """The contender's summed in-process solve time and solve CPU, checking that every level was solved,
    and its wall time split into phases (seconds summed over the levels; see the module's docstring)."""
    if "cpmpy_hexiom.py" in command[1]:
        found = re.search(r"^total: (\d+) levels, .* CPU ([0-9.]+) s, CP-SAT solve ([0-9.]+) s$", stdout, re.MULTILINE)
        assert found and int(found.group(1)) == levels, stdout[-500:]
        split = re.search(r"^phases \(wall s, summed\): (.*)$", stdout, re.MULTILINE)
        assert split, stdout[-500:]
        phases = {k: float(v) for k, v in (item.rsplit(" ", 1) for item in split.group(1).split(", "))}
        phases["rest of the process"] = wall - sum(phases.values())
        return float(found.group(3)), float(found.group(2)), phases
    with open(command[command.index("--jsonl") + 1], encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    assert len(lines) == levels and all(r["status"] == "sat" and r["solutions"] for r in lines), name
    phases = {p: sum(r["time"].get(p, 0.0) for r in lines) for p in TRISOLVE_PHASES}
    runs = sum(r["time"]["wall"] for r in lines)
    phases["rest of each run"] = runs - sum(phases.values())
    phases["rest of the process"] = wall - runs
    return phases["solve"], sum(r["time"].get("solve_cpu", 0.0) for r in lines), phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--folder", default="levels/hexiom")
    parser.add_argument("--backends", default="cpsat,pysat,clingo", help="trisolve backends, comma-separated")
    parser.add_argument("--cpmpy-workers", type=int, help="also run the CPMpy loop with this many CP-SAT workers")
    parser.add_argument("--baseline", metavar="TRISOLVE", help="also run this trisolve executable on the first backend")
    args = parser.parse_args()
    levels = len(glob.glob(os.path.join(args.folder, "level*.txt")))
    print(
        f"{levels} Hexiom levels, first solution; {args.rounds} rounds; {os.cpu_count()} cores; "
        f"started {time.strftime('%Y-%m-%d %H:%M %Z')}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as out:
        runs = contenders(args.folder, args.backends.split(","), args.baseline, args.cpmpy_workers, out)
        env = environment(os.path.join(out, "bytecode"))
        for command in runs.values():  # the warm-up round: bytecode written, files in the page cache
            measure(command, env)
        names = list(runs)
        ratios: dict[str, list[tuple[float, ...]]] = {name: [] for name in names}
        splits: dict[str, list[dict[str, float]]] = {name: [] for name in names}
        for round_ in range(args.rounds):
            order = names[round_ % len(names) :] + names[: round_ % len(names)]
            figures = {}
            for name in order:
                wall, cpu, stdout = measure(runs[name], env)
                solve, solve_cpu, phases = solve_time(name, runs[name], stdout, levels, wall)
                figures[name] = (wall, cpu, solve, solve_cpu)
                splits[name].append(phases)
            base = figures[YARDSTICK]
            print(f"round {round_ + 1} (order: {', '.join(order)}):")
            for name in names:
                wall, cpu, solve, solve_cpu = figures[name]
                ratio = tuple(mine / theirs for mine, theirs in zip(figures[name], base))
                ratios[name].append(ratio)
                print(
                    f"  {name:18s} wall {wall:6.2f} s  CPU {cpu:6.2f} s  solve {solve:6.2f} s"
                    f"  solve CPU {solve_cpu:6.2f} s"
                    f"   ratio to {YARDSTICK}: wall {ratio[0]:.2f}  CPU {ratio[1]:.2f}  solve {ratio[2]:.2f}"
                    f"  solve CPU {ratio[3]:.2f}",
                    flush=True,
                )
    load = os.getloadavg()[0]
    print(f"\nratios to the {YARDSTICK} over {args.rounds} rounds, median (worst); load average {load:.1f} at the end")
    print("| contender | wall | CPU | solve time | solve CPU |")
    print("|---|---|---|---|---|")
    for name in names[:-1]:
        columns = [[r[i] for r in ratios[name]] for i in range(4)]
        print(f"| {name} | " + " | ".join(f"{statistics.median(c):.2f} ({max(c):.2f})" for c in columns) + " |")
    print("\nwall time by phase, seconds summed over the levels, median over rounds:")
    for name in names:
        phases = {k: statistics.median(split[k] for split in splits[name]) for k in splits[name][0]}
        print(f"  {name}: " + ", ".join(f"{k} {v:.2f}" for k, v in phases.items()))


if __name__ == "__main__":
    main()
