"""``trisolve solve``: one instance, one backend (or a portfolio race)."""

from __future__ import annotations

import sys
import time

import click

from .common import UsageProblem, check_backend, load_instance, print_json
from .main import EXIT_INTERNAL, EXIT_LIMIT, EXIT_OK

#: The measured fastest backend per family (see README, "Choosing a backend").
DEFAULT_BACKEND = {"hexiom": "clingo", "sigils": "clingo", "logic": "pysat"}


@click.command(name="solve")
@click.argument("level", type=click.Path(dir_okay=False))
@click.option("--backend", "-b", "backend_spec", default=None, metavar="NAME[:VARIANT]",
              help="pysat, clingo, cpsat (optionally :variant), or auto (race them). "
                   "Default: the measured fastest for the family.")
@click.option("--all", "all_", is_flag=True, help="Print every solution.")
@click.option("--count", is_flag=True, help="Count the solutions (prints the count, not the boards).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after N solutions (count shows N+).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, help="Wall-clock limit in seconds.")
@click.option("--symmetry-breaking", is_flag=True, help="Keep one solution per symmetry class (the lex-leader).")
@click.option("--family", default=None, help="Puzzle family, when it cannot be told from the file.")
@click.option("--seed", type=int, default=0, show_default=True, help="Solver random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--colour/--no-colour", default=None, help="Colour in renderings (default: when stdout is a terminal).")
@click.option("--sat-command", default=None, metavar="CMD",
              help='External SAT solver for --backend dimacs (e.g. "kissat"); with auto it joins the race.')
def command(level, backend_spec, all_, count, limit, timeout, symmetry_breaking, family, seed, as_json, colour,
            sat_command):
    """Solve LEVEL: print the first solution, every solution (--all) or the count (--count)."""
    from trisolve.backends.base import Limits, Options
    from trisolve.backends.runner import Job, run_job, race

    if all_ and count:
        raise UsageProblem("--all and --count cannot be used together")
    started = time.monotonic()
    fam, puzzle = load_instance(level, family)
    parse_time = time.monotonic() - started
    enumerate_ = all_ or count
    if limit is not None and not enumerate_:
        raise UsageProblem("--limit needs --all or --count")
    limits = Limits(time=timeout, solutions=limit)
    options = Options(enumerate=enumerate_, symmetry_breaking=symmetry_breaking, seed=seed, sat_command=sat_command)
    spec = backend_spec or DEFAULT_BACKEND.get(fam.name, "pysat")

    render_kwargs = {}
    if fam.name == "sigils":
        render_kwargs["colour"] = sys.stdout.isatty() if colour is None else colour

    def show_streamed(data) -> None:
        if all_ and not as_json and data is not None:
            solution = fam.solution_from_json(puzzle, data)
            click.echo(fam.render(puzzle, solution, **render_kwargs))

    progress = _Progress(enabled=enumerate_ and not as_json and sys.stderr.isatty())
    portfolio = None
    if spec == "auto":
        if enumerate_:
            raise UsageProblem("--backend auto races for the first solution; use one backend with --all/--count")
        names = _portfolio(fam.name, sat_command)
        jobs = [Job(level, fam.name, name, limits, options) for name in names]
        record, records = race(jobs, puzzle)
        portfolio = {"winner": record.backend if record else None, "raced": names,
                     "runs": [{"backend": r.backend, "status": r.status, "wall": round(r.wall, 6),
                               **({"stopped_by": r.stopped_by} if r.stopped_by else {}),
                               **({"error": r.error} if r.error else {})} for r in records]}
        if record is None:
            record = max(records, key=lambda r: r.count) if records else None
        if record is None:
            raise UsageProblem("no backend could run")
    else:
        name = check_backend(spec, fam.name)
        if name.startswith("dimacs:"):
            _check_sat_command(sat_command)
        job = Job(level, fam.name, name, limits, options)

        def on_solution(data) -> None:
            progress.tick()
            show_streamed(data)

        record = run_job(job, puzzle, on_solution=on_solution)
    progress.close()

    if record.error:
        click.echo(f"trisolve: {record.backend} failed: {record.error}", err=True)
        if record.count == 0:
            return _exit(EXIT_INTERNAL)

    solutions = [fam.solution_from_json(puzzle, s) for s in record.solutions]
    invalid = [(i, fam.validate(puzzle, s)) for i, s in enumerate(solutions)]
    invalid = [(i, v) for i, v in invalid if v]
    times = {"parse": round(parse_time, 6), **{k: round(v, 6) for k, v in record.times.items()}, "wall": round(record.wall, 6)}

    if as_json:
        print_json(
            {
                "family": fam.name,
                "instance": level,
                "backend": record.backend,
                "status": record.status,
                "count": record.count,
                "complete": record.complete,
                "solutions": [s.to_json() for s in solutions] if (all_ or not enumerate_) else [],
                "stats": dict(record.stats),
                "time": times,
                "symmetry_breaking": symmetry_breaking,
                **({"portfolio": portfolio} if portfolio else {}),
                **({"stopped_by": record.stopped_by} if record.stopped_by else {}),
                **({"invalid": [{"solution": i, "violations": [x.message for x in v]} for i, v in invalid]} if invalid else {}),
            }
        )
    else:
        click.echo(fam.describe(puzzle))
        if solutions and (not enumerate_ or (count and record.complete and record.count == 1)):
            # the first solution, or the only one when a count proved it unique
            click.echo(fam.render(puzzle, solutions[0], **render_kwargs))
        click.echo(_summary(record, symmetry_breaking))
        if portfolio:
            click.echo(_portfolio_line(portfolio))
        click.echo(_stats_line(record, times))
    if invalid:
        for i, violations in invalid:
            click.echo(f"trisolve: solution {i + 1} from {record.backend} is INVALID: "
                       + "; ".join(v.message for v in violations[:5]), err=True)
        return _exit(EXIT_INTERNAL)
    return _exit(_exit_code(record, limits))


def _portfolio(family: str, sat_command: str | None) -> list[str]:
    """The backends ``auto`` races: every usable default backend, and dimacs when a command is given."""
    from trisolve.backends import registry

    names = []
    for backend in registry.PORTFOLIO + (("dimacs",) if sat_command else ()):
        try:
            names.append(check_backend(backend, family))
        except UsageProblem as problem:
            click.echo(f"trisolve: auto: leaving out {backend}: {problem.format_message()}", err=True)
    if sat_command:
        _check_sat_command(sat_command)
    if not names:
        raise UsageProblem(f"--backend auto: no usable backend for the {family} family")
    return names


def _check_sat_command(sat_command: str | None) -> None:
    from trisolve.backends.base import BackendUnavailable
    from trisolve.backends.dimacs import command_line

    try:
        command_line(sat_command)
    except BackendUnavailable as problem:
        raise UsageProblem(str(problem)) from None


def _portfolio_line(portfolio: dict) -> str:
    others = [r for r in portfolio["runs"] if r["backend"] != portfolio["winner"]]
    shown = ", ".join(f"{r['backend']} {r.get('stopped_by') or r['status']}" for r in others)
    if portfolio["winner"] is None:
        return "portfolio: no backend answered (" + shown + ")"
    return f"portfolio: {portfolio['winner']} answered first" + (f"; stopped the others ({shown})" if shown else "")


def _exit_code(record, limits) -> int:
    if record.status == "unknown":
        return EXIT_LIMIT
    if record.mode == "first" or record.complete:
        return EXIT_OK
    # an enumeration that stopped at the user's own --limit answered the question asked
    if limits.solutions is not None and record.count >= limits.solutions:
        return EXIT_OK
    return EXIT_LIMIT


def _exit(code: int) -> None:
    if code:
        raise click.exceptions.Exit(code)


def _summary(record, symmetry_breaking: bool) -> str:
    what = {"sat": "solved", "unsat": "no solution exists", "unknown": "no answer within the limits"}[record.status]
    parts = [f"{record.backend}: {what}"]
    if record.mode == "all" or record.status == "unsat":
        noun = "symmetry classes" if symmetry_breaking else "solutions"
        if record.complete and record.count == 1:
            parts.append("exactly one " + ("symmetry class" if symmetry_breaking else "solution (unique)"))
        else:
            parts.append(f"{record.count_text} {noun}" + ("" if record.complete else " (incomplete)"))
    if record.stopped_by:
        parts.append(f"stopped: {record.stopped_by}")
    if record.duplicates:
        parts.append(f"{record.duplicates} duplicate reports ignored")
    return ", ".join(parts)


def _stats_line(record, times) -> str:
    shown = ", ".join(f"{k} {v:.3f}s" for k, v in times.items())
    stats = ", ".join(f"{k} {v}" for k, v in record.stats.items() if isinstance(v, (int, float, str)))
    return f"time: {shown}" + (f"\nstats: {stats}" if stats else "")


class _Progress:
    """A one-line counter on stderr for long enumerations (terminals only)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.count = 0
        self.started = time.monotonic()
        self.last = 0.0

    def tick(self) -> None:
        self.count += 1
        now = time.monotonic()
        if self.enabled and now - self.last > 0.2:
            self.last = now
            sys.stderr.write(f"\r{self.count} solutions, {now - self.started:.1f} s")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.last:
            sys.stderr.write("\r" + " " * 40 + "\r")
            sys.stderr.flush()
