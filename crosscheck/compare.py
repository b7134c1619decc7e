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
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
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


def judge(  # noqa: C901 - the verdict's rules in the order they decide; to become a table of named checks
    family: Family,
    level: Any,
    path: str,
    records: Sequence[RunRecord],
    expected: Expected | None = None,
) -> Verdict:
    """Compare all runs on one instance (plain and symmetry-breaking ones alike).

    A run that returned something that is not a solution of this level's
    family (another family's, a broken object) is an ``error`` of that
    backend, judged like a crashed run: from the journal too, so a resumed
    cross-check gives the same verdict.
    """
    checked = [_checked(family, level, record) for record in records]
    records = [record for record, _ in checked]
    findings: list[Finding] = []
    plain = [r for r in records if not r.symmetry_breaking]
    broken = [r for r in records if r.symmetry_breaking]

    # --- every solution is checked by the model's own validator
    keys: dict[int, list] = {}
    for index, (record, judged) in enumerate(checked):
        solution_keys = [key for _, key in judged]
        invalid = [(number, violations) for number, (violations, _) in enumerate(judged) if violations]
        if invalid:
            number, violations = invalid[0]
            findings.append(
                Finding(
                    "invalid",
                    f"{record.backend}: {len(invalid)} of {len(record.solutions)} solutions break the rules; "
                    f"solution {number + 1}: " + "; ".join(v.message for v in violations[:3]),
                    (record.backend,),
                )
            )
        keys[index] = solution_keys
        repeated = sum(n - 1 for n in Counter(solution_keys).values() if n > 1)
        if repeated:
            findings.append(
                Finding(
                    "duplicate", f"{record.backend}: reported {repeated} solutions more than once", (record.backend,)
                )
            )
        if record.duplicates:
            findings.append(
                Finding(
                    "note",
                    f"{record.backend}: the solver reported {record.duplicates} duplicates (filtered, not counted)",
                    (record.backend,),
                )
            )
        if record.error:
            findings.append(Finding("error", f"{record.backend}: {record.error}", (record.backend,)))

    key_sets = {i: set(k) for i, k in keys.items()}
    index_of = {id(r): i for i, r in enumerate(records)}

    def compare_group(group: Sequence[RunRecord], label: str, truth: int | None) -> tuple[int | None, set | None]:
        """Agreement within one mode; returns (agreed complete count, its solution set).

        Findings name the *suspects*: the runs that differ from the expected
        count when one is recorded, else from the majority.
        """
        complete = [r for r in group if r.complete and not r.error]
        sat = [r.backend for r in group if r.status == "sat"]
        unsat = [r.backend for r in group if r.status == "unsat"]
        if sat and unsat:
            if truth is not None:
                suspects = unsat if truth > 0 else sat
            else:
                suspects = sat + unsat if len(sat) == len(unsat) else (unsat if len(sat) > len(unsat) else sat)
            findings.append(
                Finding(
                    "disagree", f"{label}sat for {', '.join(sat)} but unsat for {', '.join(unsat)}", tuple(suspects)
                )
            )
        counts = {r.backend: r.count for r in complete}
        agreed = _consensus(list(counts.values()), truth)
        if len(set(counts.values())) > 1:
            shown = ", ".join(f"{b} {c}" for b, c in counts.items())
            suspects = tuple(b for b, c in counts.items() if agreed is None or c != agreed)
            findings.append(Finding("disagree", f"{label}complete counts differ: {shown}", suspects))
        # solution sets: the reference is a complete run holding the agreed count
        listed = [r for r in complete if len(keys[index_of[id(r)]]) == r.count]  # count-only runs keep no solutions
        reference: set | None = None
        reference_backend = None
        for r in listed:
            if agreed is None or r.count == agreed:
                reference, reference_backend = key_sets[index_of[id(r)]], r.backend
                break
        if reference is not None:
            for r in listed:
                mine = key_sets[index_of[id(r)]]
                if r.backend != reference_backend and mine != reference:
                    findings.append(
                        Finding(
                            "disagree",
                            f"{label}solution sets differ: {len(reference - mine)} only from "
                            f"{reference_backend}, {len(mine - reference)} only from {r.backend}",
                            (r.backend,),
                        )
                    )
        for r in group:
            if r.complete or r.error:
                continue
            if agreed is not None and r.count > agreed:
                findings.append(
                    Finding(
                        "disagree",
                        f"{label}{r.backend} found {r.count} solutions before stopping, "
                        f"more than the complete count {agreed}",
                        (r.backend,),
                    )
                )
            if reference is not None:
                outside = key_sets[index_of[id(r)]] - reference
                if outside:
                    findings.append(
                        Finding(
                            "disagree",
                            f"{label}{r.backend} found {len(outside)} solutions missing from "
                            f"{reference_backend}'s complete set",
                            (r.backend,),
                        )
                    )
        return agreed, reference

    truth = expected.count if (expected is not None and expected.complete) else None
    agreed, reference = compare_group(plain, "", truth)
    if truth is None and agreed is not None and not _confirmed(plain, broken, agreed):
        findings.append(
            Finding(
                "note",
                f"{agreed} solutions rest on count-only runs alone, and no complete Burnside "
                "count (the same backend with --symmetry-breaking) confirms it: not taken as the count",
                (),
            )
        )
        agreed = None
    orbits: int | None = None
    if reference is not None and family.orbit_representative is not None:
        orbits = _orbit_count(family, level, plain, reference, keys, index_of)

    # --- symmetry breaking: count classes, and every solution is its class's lex-leader
    agreed_sb = None
    if broken:
        agreed_sb, _ = compare_group(broken, "with symmetry breaking: ", expected.orbits if expected else None)
        for r in broken:
            if family.is_lex_leader is None:
                continue
            for number, data in enumerate(r.solutions):
                if not family.is_lex_leader(level, family.solution_from_json(level, data)):
                    findings.append(
                        Finding(
                            "symmetry",
                            f"{r.backend}: solution {number + 1} (symmetry breaking on) "
                            "is not the lex-leader of its orbit",
                            (r.backend,),
                        )
                    )
                    break
        reference_orbits = orbits if orbits is not None else (expected.orbits if expected else None)
        if reference_orbits is not None:
            for r in broken:
                if r.complete and not r.error and r.count != reference_orbits:
                    findings.append(
                        Finding(
                            "symmetry",
                            f"{r.backend}: {r.count} solutions with symmetry breaking, "
                            f"but the full solution set has {reference_orbits} symmetry classes",
                            (r.backend,),
                        )
                    )
                if not r.complete and r.count > reference_orbits:
                    findings.append(
                        Finding(
                            "symmetry",
                            f"{r.backend}: {r.count}+ solutions with symmetry breaking exceed "
                            f"{reference_orbits} symmetry classes",
                            (r.backend,),
                        )
                    )

    # --- the recorded expectation
    if expected is not None:
        for r in plain:
            if r.error:
                continue
            if r.complete and expected.complete and r.count != expected.count:
                findings.append(
                    Finding("disagree", f"{r.backend}: {r.count} solutions, expected {expected.count}", (r.backend,))
                )
            if r.complete and not expected.complete and r.count < expected.count:
                findings.append(
                    Finding(
                        "disagree",
                        f"{r.backend}: {r.count} solutions, but at least {expected.count} are known",
                        (r.backend,),
                    )
                )
            if not r.complete and expected.complete and r.count > expected.count:
                findings.append(
                    Finding(
                        "disagree",
                        f"{r.backend}: {r.count}+ solutions, expected exactly {expected.count}",
                        (r.backend,),
                    )
                )
            if expected.complete and expected.count == 0 and r.status == "sat":
                findings.append(Finding("disagree", f"{r.backend}: found a solution, expected none", (r.backend,)))
            if expected.count > 0 and r.status == "unsat":
                findings.append(
                    Finding("disagree", f"{r.backend}: claims no solution, expected {expected.count}", (r.backend,))
                )

    return _verdict(path, family, records, findings, agreed, orbits, agreed_sb, expected)


def _checked(family: Family, level: Any, record: RunRecord) -> tuple[RunRecord, list[tuple[list, Any]]]:
    """The record with (violations, canonical key) per solution; or, when one of its solutions cannot be read,
    validated and keyed as a solution of ``family``, the same record as a crashed run without solutions
    (the error names the first bad one)."""
    judged = []
    for number, data in enumerate(record.solutions):
        try:
            solution = family.solution_from_json(level, data)
            judged.append((family.validate(level, solution), family.canonical(level, solution)))
            hash(judged[-1][1])
        except Exception as problem:  # noqa: BLE001 - a backend's output, judged, never trusted
            error = (
                f"solution {number + 1} is not a {family.name} solution of this level "
                f"({type(problem).__name__}: {shorten(problem, 200)})"
            )
            return dataclasses.replace(record, solutions=(), error=error, complete=False, status="unknown"), []
    return record, judged


def _confirmed(plain: Sequence[RunRecord], broken: Sequence[RunRecord], count: int) -> bool:
    """A count is taken without an expected one when a run listed that many solutions, or when a
    count-only run's own second method agrees: its Burnside run (``fixed_per_symmetry``, the
    identity first) fixed exactly that many boards by the identity, and the fixed counts summed to a
    multiple of the group's size (else that run ends in an error)."""
    if count == 0 or any(r.complete and not r.error and r.count == count and len(r.solutions) == count for r in plain):
        return True
    for r in broken:
        fixed = r.stats.get("fixed_per_symmetry") if r.complete and not r.error else None
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


def _orbit_count(family, level, plain, reference, keys, index_of) -> int | None:
    """Symmetry classes of the complete reference set, from the solutions themselves."""
    for r in plain:
        i = index_of[id(r)]
        if r.complete and not r.error and set(keys[i]) == reference and len(keys[i]) == r.count:
            classes = {
                family.orbit_representative(level, family.solution_from_json(level, data)) for data in r.solutions
            }
            return len(classes)
    return None


def _verdict(path, family, records, findings, agreed, orbits, agreed_sb, expected) -> Verdict:
    kinds = {f.kind for f in findings}
    if "invalid" in kinds:
        status = "INVALID"
    elif kinds & {"disagree", "symmetry", "duplicate"}:
        status = "DISAGREE"
    elif "error" in kinds:
        status = "ERROR"
    elif records and all(r.complete for r in records):
        status = "agree"
    else:
        status = "incomplete"
    plain = [r for r in records if not r.symmetry_breaking]
    if agreed is not None:
        count_text = "unsat" if agreed == 0 else str(agreed)
    elif plain:
        best = max(r.count for r in plain)
        known = any(r.status == "unsat" for r in plain)
        count_text = "unsat" if known and best == 0 else (f"{best}+" if best else "?")
    else:
        count_text = "?"
    return Verdict(path, family.name, status, agreed, count_text, orbits, tuple(findings), tuple(records))


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
