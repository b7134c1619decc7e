"""Judge the runs on one instance: every solution valid, every complete answer equal.

The rules, in order of severity:

* ``invalid`` — a backend returned a solution the model's validator rejects;
* ``error`` — a run crashed (a killed run at its time limit is not an error,
  only incomplete);
* ``disagree`` — complete runs differ (sat vs unsat, counts, solution sets),
  an incomplete run found a solution outside a complete run's set, or found
  more than a complete count, or a result contradicts the expected file;
* ``symmetry`` — with symmetry breaking, a complete count differs from the
  number of orbits of the full solution set, or a solution is not the
  lex-leader of its orbit;
* ``duplicate`` — a backend streamed one solution twice (its count would be
  inflated); a solver's own duplicate reports that the engine filtered are a
  ``note``.

An instance *agrees* only when there is no finding and every run completed;
otherwise it is *incomplete* (compatible so far), never called agreement.

Each rule is a small named check (``CHECKS``, in the order the verdict lists
what they find).  A check reads a ``Case``: the runs with their solutions
validated and keyed, and what the runs of each mode agree on, all worked out
before any check runs, so no check depends on another's findings.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from trisolve.backends.registry import backend_of
from trisolve.models.errors import shorten
from trisolve.models.family import Family
from trisolve.runs import RunRecord

SEVERE = ("invalid", "error", "disagree", "symmetry", "duplicate")


@dataclass(frozen=True)
class Finding:
    kind: str  # one of SEVERE, or "note"
    message: str
    backends: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The judgement on one instance."""

    path: str
    family: str
    status: str  # "agree", "incomplete", "DISAGREE", "INVALID", "ERROR"
    count: int | None  # the agreed exact count, when there is one
    count_text: str  # "12", "1000+", "unsat", "?"
    orbits: int | None = None
    findings: tuple[Finding, ...] = ()
    records: tuple[RunRecord, ...] = field(default=(), repr=False)

    @property
    def failed(self) -> bool:
        return any(f.kind in SEVERE for f in self.findings)


@dataclass(frozen=True)
class Expected:
    count: int
    complete: bool
    orbits: int | None = None
    #: backends (bare names) a default cross-check leaves out here: they take minutes (crosscheck/plan.py)
    slow_for: tuple[str, ...] = ()
    #: why a default cross-check may leave this instance incomplete (said up front), else None
    slow: str | None = None


@dataclass(frozen=True)
class Checked:
    """One run as the checks see it: its record, and per solution the validator's violations and the
    canonical key (equal keys, one solution).  A run with a solution that cannot be read, validated and keyed
    as one of the family's is checked as a crashed run without solutions (``checked``)."""

    record: RunRecord
    violations: tuple[tuple[Any, ...], ...] = ()
    keys: tuple[Any, ...] = ()

    @property
    def backend(self) -> str:
        return self.record.backend

    @cached_property
    def key_set(self) -> frozenset:
        return frozenset(self.keys)

    @property
    def finished(self) -> bool:
        """Complete without an error: its count is an answer."""
        return self.record.complete and not self.record.error

    @property
    def listed(self) -> bool:
        """Finished and listing all its solutions (a count-only run keeps none): its set can be compared."""
        return self.finished and len(self.keys) == self.record.count


@dataclass(frozen=True)
class Mode:
    """The runs of one mode (plain, or with symmetry breaking) and what they agree on.

    ``agreed`` is the expected count when one is recorded (``truth``), else the strict majority of the
    complete counts; ``reference`` the first listed run holding it, whose solution set the others must match.
    """

    label: str  # put before the mode's messages: "" or "with symmetry breaking: "
    runs: tuple[Checked, ...]
    truth: int | None = None

    @cached_property
    def counts(self) -> dict[str, int]:
        """Backend -> complete count (a backend's last run, when it ran twice)."""
        return {run.backend: run.record.count for run in self.runs if run.finished}

    @cached_property
    def agreed(self) -> int | None:
        return _consensus(list(self.counts.values()), self.truth)

    @cached_property
    def reference(self) -> Checked | None:
        agreed = self.agreed
        return next((r for r in self.runs if r.listed and agreed in (None, r.record.count)), None)


@dataclass(frozen=True)
class Case:
    """All the checks read: the family and level, the checked runs, the recorded expectation, each mode's
    agreement, the count the verdict gives (``count``: the plain runs' agreed one, when it is confirmed) and the
    symmetry classes of the complete solution set (``orbits``, when a run listed it and the family knows its
    symmetries)."""

    family: Family
    level: Any
    runs: tuple[Checked, ...]
    expected: Expected | None
    plain: Mode
    broken: Mode
    count: int | None
    orbits: int | None

    @property
    def reference_orbits(self) -> int | None:
        """The symmetry classes runs with symmetry breaking must count: from the solutions, else recorded."""
        if self.orbits is not None:
            return self.orbits
        return self.expected.orbits if self.expected else None

    def mode_of(self, run: Checked) -> Mode:
        return self.broken if run.record.symmetry_breaking else self.plain


def case_of(family: Family, level: Any, records: Sequence[RunRecord], expected: Expected | None = None) -> Case:
    """Check every solution of every run, and work out what each mode agrees on."""
    runs = tuple(checked(family, level, record) for record in records)
    truth = expected.count if (expected is not None and expected.complete) else None
    plain = Mode("", tuple(r for r in runs if not r.record.symmetry_breaking), truth)
    broken = Mode(
        "with symmetry breaking: ",
        tuple(r for r in runs if r.record.symmetry_breaking),
        expected.orbits if expected else None,
    )
    count = plain.agreed
    if truth is None and count is not None and not _confirmed(plain, broken, count):
        count = None
    reference = plain.reference
    orbits = None
    if reference is not None and family.orbit_representative is not None:
        orbits = _orbit_count(family, level, plain, reference.key_set)
    return Case(family, level, runs, expected, plain, broken, count, orbits)


#: A check of one run: a finding, or None when the run passes (or the check does not apply to it).
RunCheck = Callable[[Case, Checked], Finding | None]
#: A check of one mode's runs together.
ModeCheck = Callable[[Mode], list[Finding]]
#: An entry of ``CHECKS``: every finding of one or more checks, in order.
Check = Callable[[Case], list[Finding]]


@dataclass(frozen=True)
class EachRun:
    """``checks`` applied to each of ``runs`` in turn (a run's findings together)."""

    runs: Callable[[Case], Iterable[Checked]]
    checks: tuple[RunCheck, ...]

    def __call__(self, case: Case) -> list[Finding]:
        return [found for run in self.runs(case) for check in self.checks if (found := check(case, run)) is not None]


@dataclass(frozen=True)
class InMode:
    """``checks`` applied to one mode's runs together."""

    mode: Callable[[Case], Mode]
    checks: tuple[ModeCheck, ...]

    def __call__(self, case: Case) -> list[Finding]:
        return [found for check in self.checks for found in check(self.mode(case))]


def all_runs(case: Case) -> tuple[Checked, ...]:
    return case.runs


def plain_runs(case: Case) -> tuple[Checked, ...]:
    return case.plain.runs


def broken_runs(case: Case) -> tuple[Checked, ...]:
    return case.broken.runs


def plain_mode(case: Case) -> Mode:
    return case.plain


def broken_mode(case: Case) -> Mode:
    return case.broken


def _one(kind: str, message: str, run: Checked) -> Finding:
    """A finding against one run's backend."""
    return Finding(kind, message, (run.backend,))


# --- each run alone: every solution is checked by the model's own validator, and listed once


def invalid_solutions(case: Case, run: Checked) -> Finding | None:
    """How many solutions the validator rejects, and why the first one (its first three violations)."""
    invalid = [(number, violations) for number, violations in enumerate(run.violations) if violations]
    if not invalid:
        return None
    number, violations = invalid[0]
    return _one(
        "invalid",
        f"{run.backend}: {len(invalid)} of {len(run.record.solutions)} solutions break the rules; "
        f"solution {number + 1}: " + "; ".join(v.message for v in violations[:3]),
        run,
    )


def repeated_solutions(case: Case, run: Checked) -> Finding | None:
    """One solution streamed twice (equal canonical keys) would count twice."""
    repeated = sum(n - 1 for n in Counter(run.keys).values() if n > 1)
    if not repeated:
        return None
    return _one("duplicate", f"{run.backend}: reported {repeated} solutions more than once", run)


def filtered_duplicates(case: Case, run: Checked) -> Finding | None:
    """The engine dropped the solver's own repeats: worth saying, not a fault of the answer."""
    if not run.record.duplicates:
        return None
    return _one(
        "note", f"{run.backend}: the solver reported {run.record.duplicates} duplicates (filtered, not counted)", run
    )


def crashed(case: Case, run: Checked) -> Finding | None:
    return _one("error", f"{run.backend}: {run.record.error}", run) if run.record.error else None


# --- the runs of one mode together: the same answer, count and solution set


def sat_against_unsat(mode: Mode) -> list[Finding]:
    """Some runs found a solution, others proved there is none.  The suspects: the side the expected count
    contradicts when there is one, else the minority (both sides when they are as many)."""
    sat = [r.backend for r in mode.runs if r.record.status == "sat"]
    unsat = [r.backend for r in mode.runs if r.record.status == "unsat"]
    if not (sat and unsat):
        return []
    if mode.truth is not None:
        suspects = unsat if mode.truth > 0 else sat
    else:
        suspects = sat + unsat if len(sat) == len(unsat) else (unsat if len(sat) > len(unsat) else sat)
    message = f"{mode.label}sat for {', '.join(sat)} but unsat for {', '.join(unsat)}"
    return [Finding("disagree", message, tuple(suspects))]


def complete_counts_differ(mode: Mode) -> list[Finding]:
    """The suspects: the runs whose count is not the agreed one (all of them when none is agreed)."""
    counts, agreed = mode.counts, mode.agreed
    if len(set(counts.values())) <= 1:
        return []
    shown = ", ".join(f"{b} {c}" for b, c in counts.items())
    suspects = tuple(b for b, c in counts.items() if agreed is None or c != agreed)
    return [Finding("disagree", f"{mode.label}complete counts differ: {shown}", suspects)]


def solution_sets_differ(mode: Mode) -> list[Finding]:
    """Each listed run whose solutions are not the reference run's."""
    reference = mode.reference
    if reference is None:
        return []
    return [
        _one(
            "disagree",
            f"{mode.label}solution sets differ: {len(reference.key_set - run.key_set)} only from "
            f"{reference.backend}, {len(run.key_set - reference.key_set)} only from {run.backend}",
            run,
        )
        for run in mode.runs
        if run.listed and run.backend != reference.backend and run.key_set != reference.key_set
    ]


# --- each run stopped early (not complete, no error), against the complete runs of its mode


def _stopped(run: Checked) -> bool:
    return not run.record.complete and not run.record.error


def beyond_complete_count(case: Case, run: Checked) -> Finding | None:
    """A run stopped early that already found more than its mode's agreed complete count."""
    mode = case.mode_of(run)
    agreed = mode.agreed
    if not _stopped(run) or agreed is None or run.record.count <= agreed:
        return None
    return _one(
        "disagree",
        f"{mode.label}{run.backend} found {run.record.count} solutions before stopping, "
        f"more than the complete count {agreed}",
        run,
    )


def outside_complete_set(case: Case, run: Checked) -> Finding | None:
    """A run stopped early that found solutions the reference run's complete set lacks."""
    mode = case.mode_of(run)
    reference = mode.reference
    if not _stopped(run) or reference is None:
        return None
    outside = run.key_set - reference.key_set
    if not outside:
        return None
    return _one(
        "disagree",
        f"{mode.label}{run.backend} found {len(outside)} solutions missing from {reference.backend}'s complete set",
        run,
    )


# --- the count itself


def unconfirmed_count(case: Case) -> list[Finding]:
    """The plain runs agree on a count that only count-only runs gave, and nothing confirmed it (``_confirmed``):
    a note, and the verdict gives no count."""
    agreed = case.plain.agreed
    if agreed is None or case.count is not None:
        return []
    return [
        Finding(
            "note",
            f"{agreed} solutions rest on count-only runs alone, and no complete Burnside "
            "count (the same backend with --symmetry-breaking) confirms it: not taken as the count",
            (),
        )
    ]


# --- symmetry breaking: every solution is its class's lex-leader, and the classes are counted


def not_lex_leader(case: Case, run: Checked) -> Finding | None:
    """The first solution of a run with symmetry breaking that is not the lex-leader of its orbit."""
    family, level = case.family, case.level
    if not run.record.symmetry_breaking or family.is_lex_leader is None:
        return None
    for number, data in enumerate(run.record.solutions):
        if not family.is_lex_leader(level, family.solution_from_json(level, data)):
            return _one(
                "symmetry",
                f"{run.backend}: solution {number + 1} (symmetry breaking on) is not the lex-leader of its orbit",
                run,
            )
    return None


def orbit_count_differs(case: Case, run: Checked) -> Finding | None:
    """A complete count with symmetry breaking is the number of symmetry classes, or something is wrong."""
    orbits = case.reference_orbits
    if not run.record.symmetry_breaking or orbits is None or not run.finished or run.record.count == orbits:
        return None
    return _one(
        "symmetry",
        f"{run.backend}: {run.record.count} solutions with symmetry breaking, "
        f"but the full solution set has {orbits} symmetry classes",
        run,
    )


def orbits_exceeded(case: Case, run: Checked) -> Finding | None:
    """A run with symmetry breaking stopped early that already found more than there are classes."""
    orbits = case.reference_orbits
    if not run.record.symmetry_breaking or orbits is None or run.record.complete or run.record.count <= orbits:
        return None
    return _one(
        "symmetry",
        f"{run.backend}: {run.record.count}+ solutions with symmetry breaking exceed {orbits} symmetry classes",
        run,
    )


# --- the recorded expectation (``expected.json``), against each plain run without an error


def _against(case: Case, run: Checked) -> Expected | None:
    """The expectation a plain run is held to, if it is to be (None: no expectation, or the run crashed)."""
    if case.expected is None or run.record.error or run.record.symmetry_breaking:
        return None
    return case.expected


def not_the_expected_count(case: Case, run: Checked) -> Finding | None:
    expected = _against(case, run)
    if expected is None or not (run.record.complete and expected.complete) or run.record.count == expected.count:
        return None
    return _one("disagree", f"{run.backend}: {run.record.count} solutions, expected {expected.count}", run)


def below_the_known_count(case: Case, run: Checked) -> Finding | None:
    expected = _against(case, run)
    if expected is None or not run.record.complete or expected.complete or run.record.count >= expected.count:
        return None
    return _one(
        "disagree", f"{run.backend}: {run.record.count} solutions, but at least {expected.count} are known", run
    )


def beyond_the_expected_count(case: Case, run: Checked) -> Finding | None:
    expected = _against(case, run)
    if expected is None or run.record.complete or not expected.complete or run.record.count <= expected.count:
        return None
    return _one("disagree", f"{run.backend}: {run.record.count}+ solutions, expected exactly {expected.count}", run)


def a_solution_where_none_is_expected(case: Case, run: Checked) -> Finding | None:
    expected = _against(case, run)
    if expected is None or not expected.complete or expected.count != 0 or run.record.status != "sat":
        return None
    return _one("disagree", f"{run.backend}: found a solution, expected none", run)


def none_where_some_are_expected(case: Case, run: Checked) -> Finding | None:
    expected = _against(case, run)
    if expected is None or expected.count <= 0 or run.record.status != "unsat":
        return None
    return _one("disagree", f"{run.backend}: claims no solution, expected {expected.count}", run)


#: The verdict's checks, in the order it lists their findings (``judge``).
CHECKS: tuple[Check, ...] = (
    EachRun(all_runs, (invalid_solutions, repeated_solutions, filtered_duplicates, crashed)),
    InMode(plain_mode, (sat_against_unsat, complete_counts_differ, solution_sets_differ)),
    EachRun(plain_runs, (beyond_complete_count, outside_complete_set)),
    unconfirmed_count,
    InMode(broken_mode, (sat_against_unsat, complete_counts_differ, solution_sets_differ)),
    EachRun(broken_runs, (beyond_complete_count, outside_complete_set)),
    EachRun(broken_runs, (not_lex_leader,)),
    EachRun(broken_runs, (orbit_count_differs, orbits_exceeded)),
    EachRun(
        plain_runs,
        (
            not_the_expected_count,
            below_the_known_count,
            beyond_the_expected_count,
            a_solution_where_none_is_expected,
            none_where_some_are_expected,
        ),
    ),
)


def judge(
    family: Family,
    level: Any,
    path: str,
    records: Sequence[RunRecord],
    expected: Expected | None = None,
) -> Verdict:
    """Compare all runs on one instance (plain and symmetry-breaking ones alike): ``CHECKS`` in order.

    A run that returned something that is not a solution of this level's
    family (another family's, a broken object) is an ``error`` of that
    backend, judged like a crashed run: from the journal too, so a resumed
    cross-check gives the same verdict.
    """
    case = case_of(family, level, records, expected)
    findings = tuple(found for check in CHECKS for found in check(case))
    records = tuple(run.record for run in case.runs)
    return Verdict(
        path, family.name, status_of(records, findings), case.count, count_text(case), case.orbits, findings, records
    )


def checked(family: Family, level: Any, record: RunRecord) -> Checked:
    """The record with (violations, canonical key) per solution; or, when one of its solutions cannot be read,
    validated and keyed as a solution of ``family``, the same record as a crashed run without solutions
    (the error names the first bad one)."""
    violations, keys = [], []
    for number, data in enumerate(record.solutions):
        try:
            solution = family.solution_from_json(level, data)
            violations.append(tuple(family.validate(level, solution)))
            keys.append(family.canonical(level, solution))
            hash(keys[-1])
        except Exception as problem:  # noqa: BLE001 - a backend's output, judged, never trusted
            error = (
                f"solution {number + 1} is not a {family.name} solution of this level "
                f"({type(problem).__name__}: {shorten(problem, 200)})"
            )
            return Checked(dataclasses.replace(record, solutions=(), error=error, complete=False, status="unknown"))
    return Checked(record, tuple(violations), tuple(keys))


def _confirmed(plain: Mode, broken: Mode, count: int) -> bool:
    """A count is taken without an expected one when a run listed that many solutions, or when a
    count-only run's own second method agrees: its Burnside run (``fixed_per_symmetry``, the
    identity first) fixed exactly that many boards by the identity, and the fixed counts summed to a
    multiple of the group's size (else that run ends in an error)."""
    if count == 0 or any(
        r.finished and r.record.count == count and len(r.record.solutions) == count for r in plain.runs
    ):
        return True
    for r in broken.runs:
        fixed = r.record.stats.get("fixed_per_symmetry") if r.finished else None
        if fixed and fixed[0] == count and None not in fixed and sum(fixed) % len(fixed) == 0:
            return True
    return False


def _consensus(counts: list[int], truth: int | None) -> int | None:
    """The count the runs agree on: the expected one if recorded, else a strict majority."""
    if not counts:
        return None
    if truth is not None:
        return truth
    tally = Counter(counts).most_common()
    if len(tally) == 1 or tally[0][1] > tally[1][1]:
        return tally[0][0]
    return None


def _orbit_count(family: Family, level: Any, plain: Mode, reference: frozenset) -> int | None:
    """Symmetry classes of the complete reference set, from the solutions themselves."""
    for r in plain.runs:
        if r.listed and r.key_set == reference:
            classes = {
                family.orbit_representative(level, family.solution_from_json(level, data))
                for data in r.record.solutions
            }
            return len(classes)
    return None


def status_of(records: Sequence[RunRecord], findings: Sequence[Finding]) -> str:
    """The worst finding names the status; without one, "agree" only when every run completed."""
    kinds = {f.kind for f in findings}
    if "invalid" in kinds:
        return "INVALID"
    if kinds & {"disagree", "symmetry", "duplicate"}:
        return "DISAGREE"
    if "error" in kinds:
        return "ERROR"
    if records and all(r.complete for r in records):
        return "agree"
    return "incomplete"


def count_text(case: Case) -> str:
    """The count as a report shows it: the verdict's, else the most any plain run found ("12+"), "unsat" when
    one proved there is none and none found any, "?" when nothing is known."""
    if case.count is not None:
        return "unsat" if case.count == 0 else str(case.count)
    plain = [r.record for r in case.plain.runs]
    if not plain:
        return "?"
    best = max(r.count for r in plain)
    known = any(r.status == "unsat" for r in plain)
    return "unsat" if known and best == 0 else (f"{best}+" if best else "?")


#: What an ``expected.json`` entry holds (``models.files.KINDS``).
#: ``slow_for`` and ``slow`` are the default cross-check plan's (crosscheck/plan.py).
EXPECTED_FIELDS = {"count": "count", "complete": "bool", "orbits": "count?", "slow_for": "list", "slow": "str?"}


def load_expected(path: str) -> dict[str, Expected]:
    """``expected.json`` beside the instances: ``{stem: {count, complete, orbits?, slow_for?, slow?}}`` (keys
    starting with ``_`` are comments; ``slow_for`` and ``slow`` are the default cross-check plan's,
    crosscheck/plan.py).  Read as every input is (``models.files``); a bad file or entry is a
    ``FileProblem`` naming the file and the entry."""
    import os

    from trisolve.models import files

    if not os.path.lexists(path):
        return {}
    data = files.read_json(path, what="expected.json")
    if type(data) is not dict:
        raise files.FileProblem(path, None, "an expected.json is a JSON object: {instance stem: {count, complete}}")
    out = {}
    for stem, entry in data.items():
        if stem.startswith("_"):
            continue
        files.fields(entry, EXPECTED_FIELDS, path, required=("count", "complete"), what=f"entry {shorten(stem)!r}")
        out[stem] = Expected(
            entry["count"],
            entry["complete"],
            entry.get("orbits"),
            tuple(str(name) for name in entry.get("slow_for", ())),
            entry.get("slow"),
        )
    return out


def _expected_cached(path: str) -> dict[str, Expected]:
    """``load_expected``, read once per version of the file (a cross-check asks once per instance)."""
    import os

    try:
        info = os.stat(path)
        version = (info.st_mtime_ns, info.st_size, info.st_ino)
    except OSError:
        version = None
    cached = _EXPECTED_CACHE.get(path)
    if cached is not None and cached[0] == version and version is not None:
        return cached[1]
    loaded = load_expected(path)
    _EXPECTED_CACHE[path] = (version, loaded)
    return loaded


_EXPECTED_CACHE: dict[str, tuple[Any, dict[str, Expected]]] = {}


def expected_for(path: str) -> Expected | None:
    import os

    folder = os.path.dirname(os.path.abspath(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    return _expected_cached(os.path.join(folder, "expected.json")).get(stem)


def confirmed_by(records: Sequence[RunRecord], count: int) -> tuple[str, ...]:
    """The backends (without variants: ``registry.backend_of``) whose complete plain runs gave ``count``.  Two
    variants of one backend share its mistakes, so they are one opinion."""
    return tuple(
        sorted(
            {
                backend_of(r.backend)
                for r in records
                if not r.symmetry_breaking and r.complete and not r.error and r.count == count
            }
        )
    )


#: how many independent backends (``confirmed_by``) a count needs before ``record_expected`` writes it as established
CONFIRMATIONS = 2


def record_expected(path: str, verdicts: Sequence[Verdict]) -> None:
    """Merge the established counts into an ``expected.json`` at ``path``.

    A count is established when every plain run completed with it and at least two independent backends
    (``confirmed_by``) gave it: the entry is exact (with the orbit count when known).  Else the entry is a lower
    bound, of the solutions the runs listed (each checked by the validator and distinct, or the verdict failed),
    when it beats the one recorded; a count no second backend gave, exact or a lower bound, goes beside it as
    ``"unconfirmed": {"count": N, "complete": bool, "backends": [...]}``, which nothing takes as the truth
    (loaders ignore fields they do not know).  An exact count recorded earlier stays as it is.

    What is there must be an expected.json (checked field by field, a ``FileProblem`` otherwise); the merged
    file replaces it whole (``models.files``: a full disk or a missing folder leaves it as it was)."""
    import os

    from trisolve.models import files

    load_expected(path)
    data = files.read_json(path, what="expected.json") if os.path.lexists(path) else {}
    for verdict in verdicts:
        plain = [r for r in verdict.records if not r.symmetry_breaking]
        if verdict.failed or not plain:
            continue
        stem = os.path.splitext(os.path.basename(verdict.path))[0]
        old = data.get(stem, {})
        complete = all(r.complete for r in plain)
        counts = {r.count for r in plain}
        count = verdict.count if verdict.count is not None else (counts.pop() if len(counts) == 1 else None)
        confirmers = confirmed_by(plain, count) if complete and count is not None else ()
        if len(confirmers) >= CONFIRMATIONS:
            entry: dict[str, Any] = {"count": count, "complete": True}
            if verdict.orbits is not None:
                entry["orbits"] = verdict.orbits
            elif old.get("complete") and old.get("count") == count and "orbits" in old:
                entry["orbits"] = old["orbits"]  # a count-only backend's agreement lists no solutions to count classes
        elif old.get("complete"):
            continue  # an established count stays (one that differs failed the verdict, unless unchecked)
        else:
            # a lower bound proved by listed solutions; what one backend alone claims beyond it goes beside it
            entry = {"count": max(max(len(r.solutions) for r in plain), old.get("count", 0)), "complete": False}
            claim, exact = (count, True) if confirmers else (max(r.count for r in plain), False)
            if exact or claim > entry["count"]:
                backends = confirmers or sorted({backend_of(r.backend) for r in plain if r.count == claim})
                entry["unconfirmed"] = {"count": claim, "complete": exact, "backends": list(backends)}
            elif entry == {key: old.get(key) for key in entry}:
                continue  # nothing new
        # the default plan's notes (crosscheck/plan.py) are kept
        data[stem] = {**entry, **{key: old[key] for key in ("slow_for", "slow") if key in old}}
    text = files.dumps(dict(sorted(data.items())), indent=1) + "\n"
    files.write_text(path, text, what="expected.json", updating=True)  # merged from what it held
