"""Where ``trisolve solve levels/hexiom --backend cpsat`` spends its time: per level and per phase.

    python scripts/cpsat_profile.py levels [--seeds 0-4] [--levels 36,38] [--variant int] [--shuffle]
                                           [--params JSON] [--drop GROUP] [--max-dtime 5]
    python scripts/cpsat_profile.py process [--rounds 3] [--folder levels/hexiom]

``levels`` builds and solves each level in this process, as the backend does
(the translator's model and parameters), over several seeds, and splits each
solve with CP-SAT's own log into presolve (up to "Starting search") and
search; it prints per level the median (worst) of each phase, in wall and CPU
seconds, and CP-SAT's deterministic time, which the machine's load does not
stretch.  Other settings are tried with ``--params`` (CP-SAT parameters over
the translator's, e.g. '{"search_branching": "PORTFOLIO_WITH_QUICK_RESTART_SEARCH"}')
and ``--drop`` (an implied constraint group left out, e.g. "implied: contents add up").

``process`` times what surrounds the solves in one ``trisolve solve`` command:
the interpreter and CLI start, the OR-Tools import (with the stand-in for
pandas that ``backends/cpsat/engine.py`` uses, and plainly), the interpreter's
exit, and, from the command's ``--jsonl``, the per-level wall time not spent
parsing, translating, solving or decoding (fork, pipe, checking the result).
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


def seeds_of(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def median_worst(values: list[float], digits: int = 3) -> str:
    return f"{statistics.median(values):.{digits}f} ({max(values):.{digits}f})"


# ------------------------------------------------------------------ levels


def profile_levels(args: argparse.Namespace) -> None:
    from trisolve.backends import mutation
    from trisolve.backends.base import Options
    from trisolve.backends.cpsat import engine
    from trisolve.backends.cpsat import hexiom as translator
    from trisolve.models.hexiom import model as hexiom

    module = engine.cp_model()
    paths = sorted(glob.glob(os.path.join(args.folder, "level*.txt")))
    if args.levels:
        paths = [os.path.join(args.folder, f"level{int(n):02d}.txt") for n in args.levels.split(",")]
    seeds = seeds_of(args.seeds)
    overrides = json.loads(args.params)
    if "search_branching" in overrides:  # an enum: given by name
        overrides["search_branching"] = getattr(module, overrides["search_branching"])
    dropped = None
    if args.drop:  # a constraint group left out, through the mutation hooks (backends/mutation.py)
        with mutation.record() as sites:
            translator.encode(hexiom.parse(paths[0]), args.variant, Options())
        site = next(s for s in sites.values() if s.kind == "group" and s.name == args.drop)
        dropped = mutation.Mutation("drop-group", site.file, site.line, site.name)
    phases = ("build", "presolve", "search", "decode")
    totals = {seed: dict.fromkeys(phases, 0.0) | {"cpu": 0.0, "dtime": 0.0, "unsolved": 0} for seed in seeds}
    print(f"variant {args.variant}, parameters {args.params}, dropped: {args.drop}, shuffle: {args.shuffle}")
    print(f"| level | {' | '.join(phases)} | solve CPU | deterministic time | conflicts |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        level = hexiom.parse(path)
        rows: dict[str, list[float]] = {key: [] for key in (*phases, "cpu", "dtime", "conflicts")}
        unsolved = 0
        for seed in seeds:
            began = time.perf_counter()
            with mutation.active(dropped):
                encoding = translator.encode(level, args.variant, Options(seed=seed))
            built = time.perf_counter()
            solver = module.CpSolver()
            params = solver.parameters
            engine.apply_parameters(params, {"num_workers": engine.DEFAULT_WORKERS, **encoding.parameters})
            for name, value in overrides.items():
                if isinstance(value, list):  # a list given replaces the translator's
                    getattr(params, name).clear()
            engine.apply_parameters(params, overrides)
            params.random_seed = seed
            params.permute_variable_randomly = params.permute_presolve_constraint_order = args.shuffle
            params.max_deterministic_time = args.max_dtime
            params.log_search_progress = True
            params.log_to_stdout = False
            log: list[str] = []
            solver.log_callback = log.append
            cpu = time.process_time()
            status = solver.solve(encoding.model)
            cpu = time.process_time() - cpu
            solved = time.perf_counter()
            if status in (module.OPTIMAL, module.FEASIBLE):
                solution = encoding.decode([solver.value(v) for v in encoding.projection])
                assert not hexiom.validate(level, solution), path
            else:
                unsolved += 1
            decoded = time.perf_counter()
            found = (re.search(r"Starting search at ([0-9.]+)s", line) for line in log)
            started = next((float(m.group(1)) for m in found if m), solved - built)
            figures = {
                "build": built - began,
                "presolve": started,
                "search": solved - built - started,
                "decode": decoded - solved,
                "cpu": cpu,
                "dtime": solver.response_proto.deterministic_time,
                "conflicts": solver.num_conflicts,
            }
            for key, value in figures.items():
                rows[key].append(value)
                if key in totals[seed]:
                    totals[seed][key] += value
            totals[seed]["unsolved"] += status not in (module.OPTIMAL, module.FEASIBLE)
        cells = [median_worst(rows[key]) for key in (*phases, "cpu", "dtime")]
        note = f" ({unsolved} of {len(seeds)} unsolved within the cap)" if unsolved else ""
        name = os.path.basename(path)
        print(f"| {name}{note} | {' | '.join(cells)} | {statistics.median(rows['conflicts']):.0f} |")
    print(f"\nsums over the {len(paths)} levels, median (worst) over seeds {args.seeds}:")
    for key in (*phases, "cpu", "dtime"):
        print(f"  {key}: {median_worst([totals[seed][key] for seed in seeds], 2)}")
    capped = sum(t["unsolved"] for t in totals.values())
    print(f"  runs stopped by the deterministic-time cap {args.max_dtime}: {capped}")


# ----------------------------------------------------------------- process


def timed(command: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of a command and its waited-for children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.monotonic() - began, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def profile_process(folder: str, rounds: int) -> None:
    python = sys.executable
    trisolve = os.path.join(os.path.dirname(python), "trisolve")
    exits = "import time, sys; {0}; sys.stderr.write(repr(time.time()))"
    snippets = {
        "interpreter": "pass",
        "+ the CLI": "import trisolve.cli.main",
        "+ cpsat cp_model(), pandas stand-in": "from trisolve.backends.cpsat.engine import cp_model as m; m()",
        "+ cp_model, plain import": "from ortools.sat.python import cp_model",
    }
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in snippets}
    overhead: list[float] = []
    command_times: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(rounds):
            for name, code in snippets.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                began = time.time()
                done = subprocess.run([python, "-c", exits.format(code)], check=True, capture_output=True, text=True)
                ended = time.time()
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                # the snippet's last act is to print the clock: what follows is the interpreter's exit
                figures[name].append((ended - began, cpu, ended - float(done.stderr)))
            jsonl = os.path.join(out, "run.jsonl")
            command_times.append(timed([trisolve, "solve", folder, "--backend", "cpsat", "--jsonl", jsonl]))
            with open(jsonl, encoding="utf-8") as handle:
                lines = [json.loads(line) for line in handle]
            phases = ("parse", "import", "translate", "solve", "decode")
            overhead.append(sum(r["time"]["wall"] - sum(r["time"].get(p, 0.0) for p in phases) for r in lines))
    print("| process | wall s | CPU s | of which exit, wall s |")
    print("|---|---|---|---|")
    for name, rows in figures.items():
        cells = [median_worst([r[i] for r in rows]) for i in range(3)]
        print(f"| {name} | {' | '.join(cells)} |")
    walls, cpus = [w for w, _ in command_times], [c for _, c in command_times]
    print(f"\ntrisolve solve {folder} --backend cpsat: wall {median_worst(walls, 2)} s, CPU {median_worst(cpus, 2)} s")
    print(f"per-level wall outside parse/import/translate/solve/decode, summed: {median_worst(overhead, 2)} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["levels", "process"])
    parser.add_argument("--folder", default="levels/hexiom")
    parser.add_argument("--variant", default="int")
    parser.add_argument("--seeds", default="0-4", help="levels: seeds FIRST-LAST")
    parser.add_argument("--levels", help="levels: level numbers, comma-separated (default: every level)")
    parser.add_argument("--params", default="{}", help="levels: CP-SAT parameters over the translator's, as JSON")
    parser.add_argument("--drop", metavar="GROUP", help="levels: leave out this constraint group (an implied one)")
    parser.add_argument("--shuffle", action="store_true", help="levels: CP-SAT permutes variables and constraints")
    parser.add_argument("--max-dtime", type=float, default=5.0, help="levels: CP-SAT deterministic-time cap per run")
    parser.add_argument("--rounds", type=int, default=3, help="process: rounds")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}\n")
    if args.what == "levels":
        profile_levels(args)
    else:
        profile_process(args.folder, args.rounds)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
