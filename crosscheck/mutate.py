"""Mutation testing of the shipped encodings: how good is an instance set at finding encoding bugs?

Mutants are made automatically: for clingo, from each ``.lp`` file a variant
loads (``backends/clingo/lp_mutants.py``, through ``clingo.ast``); for the
CNF and CP-SAT translators, at the sites they mark (``backends/mutation.py``),
found by translating a few instances with every site recorded.  Each mutant
runs as the backend ``mutated:<backend:variant>~<mutation>`` through the
cross-checker's own jobs, executors and judge, against the unmutated
backends' runs on the same instance: it is *killed* when the judge finds an
invalid solution (by the validator) or a count, set or sat/unsat difference
(by counting only).  A mutant that does not run at all (clingo refuses the
file, the translator raises) is *stillborn*, outside the score.

A mutant whose run is cut short by the time limit on an instance where its
own variant, unmutated, completed within ``TIMEOUT_KILL_SHARE`` of the limit
is *killed by timeout* (a rule that makes grounding or search explode is a
bug too), counted apart from the other two kinds; it still runs on the later
shipped instances, where a validator or count kill replaces it.  The cross-checker itself
never calls a run cut short a finding: only ``mutate`` does, and only
against that quick unmutated run.

Instances go in batches (smallest first): after each batch the killed
mutants stop, so each costs runs only until something kills it.  Survivors
are then re-tried on generated instances within a time budget; those still
alive are candidate equivalent mutants, with the reason when one is known:
the rule or group is marked as implied by the others, or the mutant itself is
marked equivalent (in the rules file's sidecar ``<stem>.mutants.toml``, see
``backends/clingo/lp_mutants.py``).  Every run goes to the JSONL log at once;
a rerun with the same log reuses every finished run.  A mutant's id names it by
file, line and operator (and a hook's group), so it means the same mutant on
any instance set.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trisolve.backends import mutation as hooks
from trisolve.backends import registry
from trisolve.backends.base import Limits, Options
from trisolve.backends.spec import Spec
from trisolve.models import files
from trisolve.models.errors import TrisolveError, UsageError, shorten
from trisolve.models.family import Family
from trisolve.runs import INTERRUPT, Job, RunRecord
from trisolve.selection import choose

from .compare import Verdict, expected_for, judge
from .run import Instance, Plan, Runs, cross_check

#: What each hook operator does, for the report.
HOOK_CHANGES: dict[str, str] = {
    "drop-group": "the group is left out",
    "bound+1": "the bound is one higher",
    "bound-1": "the bound is one lower",
    "reverse": "premise and conclusion swapped",
    "drop-symmetry": "the first symmetry's lex-leader constraint is left out",
}
#: Marks a sibling run with symmetry breaking (rules a plain run never fires).
SB = " +symmetry-breaking"
#: Why a surviving mutant changes nothing, when its site or rule says so.
IMPLIED = (
    "it changes a constraint the encoding states as implied by the others (kept only to help the search): "
    "removed or weakened, what is left still implies it"
)
#: A mutant run cut short by the time limit kills the mutant (``how="timeout"``) when the unmutated
#: encoding (the same variant, the same mode) completed the same instance within this share of the limit.
TIMEOUT_KILL_SHARE = 0.2


class UnknownMutant(UsageError):
    """``ids`` names a mutant that the encodings do not give."""


@dataclass(frozen=True)
class Mutant:
    """One mutation of one encoding file, run as the registry backend ``spec``."""

    id: str
    base: str  # backend:variant mutated
    change: str  # the mutation, as backends/mutated.py reads it
    file: str  # the encoding file, relative to the package root
    line: int
    operator: str
    original: str  # the statement (ASP) or source line (hook site) as written
    mutated: str  # the statement that replaces it, or what the operator does
    symmetry_breaking: bool  # the site only acts with symmetry breaking: run it that way
    purpose: str = ""  # the rule's comment or the group's name: what it is for, in the report's JSON
    #: the encoding's own marker for exactly this mutant: why it is equivalent ("" when none)
    equivalent: str = ""
    #: why the whole rule or group is implied by the others, when the encoding says so ("" when not):
    #: the sidecar's [[implied]] entry, or a hook group named "implied: ..."
    implied: str = ""
    #: other variants that load the file or reach the site, and its own variant with symmetry breaking
    #: when that loads it too (``SB`` suffix): a survivor is re-tried under each
    siblings: tuple[str, ...] = ()

    @property
    def spec(self) -> str:
        """The registry name that runs it: ``mutated:<base>~<change>``."""
        return str(dataclasses.replace(Spec.parse(self.base), mutation=self.change))

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> dict:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        data["siblings"] = list(self.siblings)
        data["spec"] = self.spec
        return data


@dataclass
class Outcome:
    """What became of one mutant."""

    mutant: Mutant
    status: str = "survived"  # killed, survived, stillborn
    how: str | None = None  # validator, count, timeout
    instance: str | None = None  # the first instance that killed it
    finding: str = ""  # the judge's message, or the error of a stillborn mutant
    tried: int = 0  # instances it ran on
    timeouts: int = 0  # of those, runs cut short without a finding
    reason: str | None = None  # for survivors: why it is (probably) equivalent, when known
    #: a mutant the encoding marks equivalent that was killed anyway (by validator or count): the marker is wrong
    wrong_marker: str | None = None

    def to_json(self) -> dict:
        data = {k: v for k, v in self.__dict__.items() if k != "mutant"}
        data["mutant"] = self.mutant.to_json()
        return data


@dataclass(frozen=True)
class Report:
    family: str
    backend: str
    outcomes: tuple[Outcome, ...]
    instances: tuple[str, ...]  # instances the mutants ran on (references agreed and completed)
    excluded: Mapping[str, str]  # instance -> why no mutant ran on it
    generated: tuple[str, ...]  # generated instances the survivors were re-tried on
    kills: Mapping[str, tuple[str, ...]]  # instance -> mutant ids it killed
    suite: tuple[str, ...] = ()
    wall: float = 0.0
    runs: int = 0
    reused: int = 0
    #: instance -> where the unmutated backends themselves failed on it (a finding: exit code 1)
    failures: Mapping[str, str] = field(default_factory=dict)
    #: Ctrl-C or SIGTERM stopped it: the outcomes are those judged so far (the rest still "survived",
    #: untried), the scores partial, and no suite was written
    interrupted: bool = False

    @property
    def unexplained(self) -> list[Outcome]:
        """The survivors with no known reason (they count against the score)."""
        return [o for o in self.outcomes if o.status == "survived" and o.reason is None]

    @property
    def failed(self) -> bool:
        """Exit code 1 (docs/exit-codes.md): a survivor without a known reason, a mutant marked equivalent
        that was killed anyway (the marker is wrong), or unmutated backends that themselves disagree,
        return an invalid solution or crash on an instance."""
        return bool(self.unexplained or self.failures or any(o.wrong_marker for o in self.outcomes))

    def table(self, key: Callable[[Outcome], str]) -> list[dict]:
        """Score rows grouped by ``key`` (file, operator), plus a total row."""
        groups: dict[str, list[Outcome]] = {}
        for outcome in self.outcomes:
            groups.setdefault(key(outcome), []).append(outcome)
        rows = [score_row(name, items) for name, items in groups.items()]
        rows.append(score_row("total", list(self.outcomes)))
        return rows

    def to_json(self) -> dict:
        return {
            "family": self.family,
            "backend": self.backend,
            "by_file": self.table(lambda o: o.mutant.file),
            "by_operator": self.table(lambda o: o.mutant.operator),
            "outcomes": [o.to_json() for o in self.outcomes],
            "instances": list(self.instances),
            "excluded": dict(self.excluded),
            "generated": list(self.generated),
            "kills": {k: list(v) for k, v in self.kills.items()},
            "suite": list(self.suite),
            "wall_seconds": round(self.wall, 2),
            "runs": self.runs,
            "reused_runs": self.reused,
            "reference_failures": dict(self.failures),
            "interrupted": self.interrupted,
        }


def score_row(name: str, outcomes: Sequence[Outcome]) -> dict:
    """mutants, stillborn, killed (by validator / by count only / by timeout), survivors, explained
    equivalents, score.

    score = killed / (mutants - stillborn - explained equivalents): a survivor
    without a known reason counts against it.
    """
    killed = [o for o in outcomes if o.status == "killed"]
    stillborn = sum(o.status == "stillborn" for o in outcomes)
    survivors = [o for o in outcomes if o.status == "survived"]
    equivalent = sum(o.reason is not None for o in survivors)
    judged = len(outcomes) - stillborn - equivalent
    return {
        "name": name,
        "mutants": len(outcomes),
        "stillborn": stillborn,
        "killed": len(killed),
        "by_validator": sum(o.how == "validator" for o in killed),
        "by_count": sum(o.how == "count" for o in killed),
        "by_timeout": sum(o.how == "timeout" for o in killed),
        "survived": len(survivors),
        "equivalent": equivalent,
        "score": None if judged <= 0 else round(len(killed) / judged, 4),
    }


# ------------------------------------------------------------------ making mutants


def make_mutants(family: str, backend: str, instances: Sequence[Instance], folder: str) -> list[Mutant]:
    """Every mutant of the encodings that ``backend`` (all its variants, or the one named) uses for ``family``."""
    named = Spec.parse(backend)
    name = named.backend
    variants = [Spec.parse(v).variant_name for v in registry.expand([named], family)]
    how = registry.role(name, "MUTANTS")
    if how == "rules":
        return _asp_mutants(family, variants, folder)
    if how == "hooks":
        return _hook_mutants(family, name, variants, instances)
    mutable = [n for n in registry.names() if registry.role(n, "MUTANTS")]
    raise UsageError(f"backend {name} declares no mutants (MUTANTS); mutants are made of {', '.join(mutable)}")


def _asp_mutants(family: str, variants: Sequence[str], folder: str) -> list[Mutant]:
    from trisolve.backends.clingo import engine, lp_mutants

    owner: dict[str, tuple[str, bool]] = {}  # .lp file -> (first variant loading it, only with symmetry breaking)
    loaders: dict[str, list[str]] = {}  # .lp file -> every variant loading it
    for variant in variants:
        translator = registry.translator("clingo", family, variant)  # the family's, or the compiler's (model.lp)
        for symmetry_breaking in (False, True):
            for name in translator.rules(variant, Options(symmetry_breaking=symmetry_breaking)):
                owner.setdefault(name, (variant, symmetry_breaking))
                loaders.setdefault(name, [])
                if variant not in loaders[name]:
                    loaders[name].append(variant)
                if symmetry_breaking and owner[name] == (variant, False):
                    loaders[name].append(f"{variant}{SB}")
    out: list[Mutant] = []
    for name, (variant, symmetry_breaking) in owner.items():
        path = engine.encoding_path(name)
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        sidecar = os.path.splitext(path)[0] + ".mutants.toml"  # the markers: mutants known equivalent
        markers = ""
        if os.path.exists(sidecar):
            with open(sidecar, encoding="utf-8") as handle:
                markers = handle.read()
        # a family's own rules (clingo:hand) are named by their absolute path: label them from the package root
        label = os.path.relpath(name, _package_root()) if os.path.isabs(name) else name
        stem = os.path.splitext(label)[0]
        files.make_folder(os.path.join(folder, stem), "mutants folder")
        for lp in lp_mutants.mutants(source, markers, file=os.path.basename(sidecar)):
            ident = f"{lp.line}:{lp.operator}" + (f"#{lp.index}" if lp.index else "")
            target = os.path.abspath(os.path.join(folder, stem, f"{ident.replace(':', '-').replace('#', '-')}.lp"))
            files.write_text(target, lp.text, what="mutant encoding")
            out.append(
                Mutant(
                    id=f"{label}:{ident}",
                    base=f"clingo:{variant}",
                    change=f"lp:{name}={target}",
                    file=os.path.relpath(path, _package_root()),
                    line=lp.line,
                    operator=lp.operator,
                    original=lp.original,
                    mutated=lp.mutated or "(deleted)",
                    symmetry_breaking=symmetry_breaking,
                    purpose=lp.comment,
                    equivalent=lp.equivalent,
                    implied=lp.implied,
                    siblings=tuple(f"clingo:{v}" for v in loaders[name][1:]),
                )
            )
    return out


def _hook_mutants(family: str, name: str, variants: Sequence[str], instances: Sequence[Instance]) -> list[Mutant]:
    """Mutants at every site the translations of a few small instances reach, per variant and mode."""
    sample = instances[:6]
    owner: dict[tuple[str, int, str, str], tuple[hooks.Site, str, bool]] = {}
    reached: dict[tuple[str, int, str, str], list[str]] = {}  # site -> every variant reaching it
    for variant in variants:
        backend = registry.get(f"{name}:{variant}", family)
        # a variant that cannot break symmetries (a compiled model) refuses to be asked to: its sites are all
        # reached without
        modes = (False, True) if registry.breaks_symmetries(f"{name}:{variant}", family) else (False,)
        for symmetry_breaking in modes:
            with hooks.record() as sites:
                for instance in sample:
                    backend.export(instance.level, Options(symmetry_breaking=symmetry_breaking))
            for site in sites.values():
                key = (site.kind, site.file, site.line, site.name)
                owner.setdefault(key, (site, variant, symmetry_breaking))
                reached.setdefault(key, [])
                if variant not in reached[key]:
                    reached[key].append(variant)
                if symmetry_breaking and owner[key][1:] == (variant, False):
                    reached[key].append(f"{variant}{SB}")
    out: list[Mutant] = []
    for key, (site, variant, symmetry_breaking) in owner.items():
        siblings = tuple(f"{name}:{v}" for v in reached[key][1:])
        for operator in hooks.OPERATORS[site.kind]:
            change = site.mutation(operator)
            out.append(
                Mutant(
                    # named by the hook alone (one line may hold hooks of several names: clue kinds)
                    id=f"{site.file.removeprefix('backends/')}:{site.line}:{operator}[{site.name}]",
                    base=f"{name}:{variant}",
                    change=change.spec,
                    file=site.file,
                    line=site.line,
                    operator=operator,
                    original=_source_line(site.file, site.line),
                    mutated=f"[{site.name}] {HOOK_CHANGES[operator]}",
                    symmetry_breaking=symmetry_breaking,
                    purpose=site.name,
                    implied=site.name if site.name.lower().startswith("implied") else "",
                    siblings=siblings,
                )
            )
    return out


def _package_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(registry.__file__)))


def _source_line(file: str, line: int) -> str:
    try:
        with open(os.path.join(_package_root(), file), encoding="utf-8") as handle:
            return handle.read().split("\n")[line - 1].strip()
    except (OSError, IndexError):
        return ""


# ------------------------------------------------------------------ running them


@dataclass
class _Reference:
    """The unmutated runs on one instance and what they agreed."""

    records: list[RunRecord] = field(default_factory=list)
    count: int | None = None
    orbits: int | None = None


class _Stopped(TrisolveError):
    """Ctrl-C (or SIGTERM) came: the runs so far are logged; judging stops here (never leaves ``run_mutate``)."""


class _StoppingRuns(Runs):
    """``Runs`` that stop the mutation run once Ctrl-C came: an interrupted run is no evidence, so nothing
    after it is judged (a killed mutant or a survivor would be a guess)."""

    def __call__(self, jobs: Sequence[Job], levels: Mapping[str, Any]) -> list[RunRecord]:
        records = super().__call__(jobs, levels)
        if INTERRUPT.is_set():
            raise _Stopped
        return records


@dataclass
class _Pass:
    """What every batch of a mutation run shares: how to run, and what was found so far."""

    family: Family
    references: list[str]  # the unmutated backends each instance is cross-checked on first
    with_symmetry: bool  # the references also run with symmetry breaking
    runner: Runs
    timeout: float
    batch: int
    seed: int
    kills: dict[str, list[str]] = field(default_factory=dict)  # instance -> mutant ids it killed
    excluded: dict[str, str] = field(default_factory=dict)  # instance -> why no mutant ran on it
    agreed: dict[str, _Reference] = field(default_factory=dict)  # instance -> the references' agreement
    #: instance -> the finding, where the unmutated backends themselves disagree, return an invalid
    #: solution or crash: a finding about the shipped encodings (exit code 1)
    failures: dict[str, str] = field(default_factory=dict)


def run_mutate(
    family: Family,
    backend: str,
    instances: Sequence[Instance],
    *,
    folder: str,
    timeout: float = 10.0,
    parallel: int = 2,
    jsonl: str | None = None,
    resume: bool = False,
    executor: str = "local",
    scheduler: str | None = None,
    batch: int = 4,
    generate: Callable[[], Sequence[Instance]] | None = None,
    retry_budget: float = 300.0,
    suite: str | None = None,
    seed: int = 0,
    only: Sequence[str] = (),
    ids: Sequence[str] = (),
    references: Sequence[str] | None = None,
    on_record: Callable[[RunRecord, bool], None] | None = None,
) -> Report:
    """Make the mutants, run them on ``instances`` (then survivors on ``generate()``'s), judge, report.

    ``only``: keep the mutants of encoding files whose name holds one of these strings.
    ``ids``: keep only the mutants with these ids (``Mutant.id``, e.g. ``sigils.lp:59:delete-literal#2``).
    ``references``: the unmutated backends (default variant unless named) each mutant is judged against,
    beside its own variant unmutated (default: the portfolio, each paradigm's backend); a plugin's may be one.
    """
    began = time.monotonic()
    mutants = make_mutants(family.name, backend, instances, folder)
    if only:
        mutants = [m for m in mutants if any(part in os.path.basename(m.file) for part in only)]
    if ids:
        unknown = sorted(set(ids) - {m.id for m in mutants})
        if unknown:
            raise UnknownMutant(
                f"no mutant {', '.join(shorten(i) for i in unknown[:5])} "
                f"(ids look like {mutants[0].id if mutants else 'FILE:LINE:OPERATOR'})"
            )
        mutants = [m for m in mutants if m.id in ids]
    outcomes = {m.id: Outcome(m) for m in mutants}
    runner = _StoppingRuns(
        jsonl, resume=resume, executor=executor, parallel=parallel, scheduler=scheduler, on_record=on_record
    )
    state = _Pass(
        family,
        _reference_specs(family.name, mutants, default_references(family.name) if references is None else references),
        any(m.symmetry_breaking for m in mutants),
        runner,
        timeout,
        batch,
        seed,
    )
    used: list[str] = []
    generated: list[Instance] = []
    stopped = False
    try:
        used = _kill(state, instances, mutants, outcomes, deadline=None)
        _under_siblings(state, instances, outcomes)
        if generate is not None and any(o.status == "survived" for o in outcomes.values()):
            generated = list(generate())
            survivors = [o.mutant for o in outcomes.values() if o.status == "survived"]
            _kill(state, generated, survivors, outcomes, deadline=time.monotonic() + retry_budget)
    except (_Stopped, KeyboardInterrupt):  # Ctrl-C while judging, or while generating the retry instances
        INTERRUPT.set()
        stopped = True
    finally:
        runner.close()
    for outcome in outcomes.values():
        explain(outcome)
    chosen = killing_suite(state.kills)
    if suite and not stopped:
        _write_suite(suite, chosen, state.agreed)
    return Report(
        family.name,
        backend,
        tuple(outcomes[m.id] for m in mutants),
        tuple(used),
        state.excluded,
        tuple(i.path for i in generated),
        {k: tuple(v) for k, v in state.kills.items()},
        tuple(chosen),
        time.monotonic() - began,
        runner.runs,
        runner.reused,
        state.failures,
        interrupted=stopped,
    )


def default_references(family: str) -> list[str]:
    """The unmutated backends a mutant is judged against when none is named: the selection policy's."""
    return list(choose(family, "mutate").backends)


def _reference_specs(family: str, mutants: Sequence[Mutant], references: Sequence[str]) -> list[str]:
    """The reference backends (a bare name: its default variant), and every mutated variant unmutated."""
    specs = []
    for spec in references:
        try:
            registry.get(spec, family)
        except (registry.UnsupportedFamily, registry.BackendUnavailable):
            continue
        specs.append(registry.resolve(spec, family))
    specs.extend(m.base for m in mutants)
    return list(dict.fromkeys(specs))


def _kill(
    state: _Pass,
    instances: Sequence[Instance],
    mutants: Sequence[Mutant],
    outcomes: dict[str, Outcome],
    deadline: float | None,
) -> list[str]:
    """Run the mutants still alive on the instances, batch by batch, until all are killed or time is up.

    A mutant killed only by timeout keeps running on the later batches: a
    validator or count kill found there replaces it (it needs no clock, and
    it names the instance the killing suite should hold).
    """
    family, timeout, kills = state.family, state.timeout, state.kills
    alive = [m for m in mutants if _still_open(outcomes[m.id])]
    used: list[str] = []
    for start in range(0, len(instances), max(1, state.batch)):
        if not alive or (deadline is not None and time.monotonic() >= deadline):
            break
        chunk = instances[start : start + state.batch]
        refs = _references(state, chunk)
        state.agreed.update(refs)
        ready = [i for i in chunk if i.path in refs]
        used.extend(i.path for i in ready)
        jobs, owners = [], []
        for mutant in alive:
            for instance in ready:
                ref = refs[instance.path]
                bound = ref.orbits if mutant.symmetry_breaking else ref.count
                if bound is None:
                    continue
                options = Options(enumerate=True, symmetry_breaking=mutant.symmetry_breaking, seed=state.seed)
                jobs.append(
                    Job(instance.path, family.name, mutant.spec, Limits(time=timeout, solutions=bound + 1), options)
                )
                owners.append((mutant, instance))
        for record, (mutant, instance) in zip(state.runner(jobs, {i.path: i.level for i in chunk}), owners):
            outcome = outcomes[mutant.id]
            if not _still_open(outcome):
                continue  # killed earlier in this batch (a timeout kill may still become a stronger one)
            before = (outcome.status, outcome.how, outcome.instance)
            _classify(outcome, family, instance, refs[instance.path], record, timeout)
            if outcome.status == "killed" and (outcome.status, outcome.how) != before[:2]:
                _drop_suite_kill(kills, mutant.id, before[2])  # the suite wants the stronger kill
                kills.setdefault(instance.path, []).append(mutant.id)
        # a mutant killed by a second instance of the same batch also counts for the suite
        alive = [m for m in alive if _still_open(outcomes[m.id])]
    return used


def _drop_suite_kill(kills: dict[str, list[str]], mutant_id: str, instance: str | None) -> None:
    """Forget that ``instance`` killed the mutant (a stronger kill elsewhere replaces it)."""
    if instance is not None and mutant_id in kills.get(instance, []):
        kills[instance].remove(mutant_id)


def _still_open(outcome: Outcome) -> bool:
    """Alive, or killed by timeout only (a stronger kill may still come)."""
    return outcome.status == "survived" or (outcome.status, outcome.how) == ("killed", "timeout")


def _under_siblings(state: _Pass, instances: Sequence[Instance], outcomes: dict[str, Outcome]) -> None:
    """Survivors of a file or site other variants share, re-tried under each of them.

    ``hexiom.lp`` is loaded by every clingo variant: a rule the ``count``
    variant states twice may be the only copy in ``occupancy``.  A mutant
    killed under any variant counts as killed, the finding naming the variant.
    A mutant killed only by timeout is re-tried too, unless every one of its
    runs was cut short (none ever finished): a validator or count kill under
    a sibling (symmetry breaking, often) replaces the timeout kill.
    """
    twins = {
        f"{o.mutant.id}@{sibling}": (
            o,
            Mutant(
                **{
                    **o.mutant.__dict__,
                    "id": f"{o.mutant.id}@{sibling}",
                    "base": sibling.removesuffix(SB),
                    "siblings": (),
                    "symmetry_breaking": o.mutant.symmetry_breaking or sibling.endswith(SB),
                }
            ),
        )
        for o in outcomes.values()
        if o.status == "survived" or (_still_open(o) and o.timeouts < o.tried)
        for sibling in o.mutant.siblings
    }
    if not twins:
        return
    twin_outcomes = {key: Outcome(twin) for key, (_, twin) in twins.items()}
    twin_state = dataclasses.replace(
        state,
        references=list(state.references) + sorted({twin.base for _, twin in twins.values()}),
        with_symmetry=state.with_symmetry or any(twin.symmetry_breaking for _, twin in twins.values()),
        kills={},
    )
    _kill(twin_state, instances, [twin for _, twin in twins.values()], twin_outcomes, deadline=None)
    kills = state.kills
    for key, twin_outcome in twin_outcomes.items():
        original = twins[key][0]
        if twin_outcome.status != "killed":
            continue
        stronger = original.how == "timeout" and twin_outcome.how != "timeout"
        if original.status == "survived" or stronger:
            if stronger:
                _drop_suite_kill(kills, original.mutant.id, original.instance)  # the suite wants the stronger kill
            original.status, original.how, original.instance = "killed", twin_outcome.how, twin_outcome.instance
            twin = twins[key][1]
            original.finding = f"under {twin.base}{SB if twin.symmetry_breaking else ''}: {twin_outcome.finding}"
    for path, killed in twin_state.kills.items():
        for key in killed:
            original, how = twins[key][0], twin_outcomes[key].how
            if how != "timeout" or original.how == "timeout":  # a clock-bound kill only where nothing stronger is
                kills.setdefault(path, []).append(original.mutant.id)


def _references(state: _Pass, chunk: Sequence[Instance]) -> dict[str, _Reference]:
    """Cross-check the unmutated backends on the chunk; keep the instances where they completed and agreed."""
    plan = Plan(timeout=state.timeout, symmetry_breaking=state.with_symmetry, seed=state.seed)
    checked = cross_check(chunk, lambda _: state.references, state.runner, plan)
    out: dict[str, _Reference] = {}
    for instance, verdict in zip(chunk, checked.verdicts):
        records = list(verdict.records)
        if verdict.failed:
            findings = [f.message for f in verdict.findings if f.kind != "note"]
            state.failures[instance.path] = f"{verdict.status}: {'; '.join(findings)}"
        if verdict.status != "agree" or verdict.count is None:
            state.excluded[instance.path] = (
                f"the unmutated backends did not agree and complete ({verdict.status}, {verdict.count_text})"
            )
            continue
        state.excluded.pop(instance.path, None)  # left out in an earlier pass (a reference was slow then), used now
        orbits = verdict.orbits
        if state.with_symmetry and orbits is None:
            counts = {r.count for r in records if r.symmetry_breaking and r.complete}
            orbits = counts.pop() if len(counts) == 1 else None
        out[instance.path] = _Reference(records, verdict.count, orbits)
    return out


def _classify(
    outcome: Outcome, family: Family, instance: Instance, ref: _Reference, record: RunRecord, timeout: float
) -> None:
    """Judge one mutant run beside the references: killed (and how), stillborn, or still alive.

    A kill by timeout is the weakest kind: a later run that kills by
    validator or count replaces it.
    """
    outcome.tried += 1
    if record.error:
        if outcome.tried == 1 and not record.solutions:
            outcome.status, outcome.finding = "stillborn", record.error.splitlines()[0][:300]
            outcome.instance = instance.path
        return
    verdict: Verdict = judge(family, instance.level, instance.path, [*ref.records, record], expected_for(instance.path))
    mine = [f for f in verdict.findings if record.backend in f.backends and f.kind != "note"]
    if any(f.kind == "invalid" for f in mine):
        _killed(outcome, "validator", instance, mine[0].message)
    elif mine:
        _killed(outcome, "count", instance, mine[0].message)
    elif record.duplicates and not any(r.duplicates for r in ref.records):
        # the engine filtered answer sets the solver found twice (sigils enumerate without --project):
        # the count was wrong before the filter, and the unmutated encoding never does it
        _killed(
            outcome, "count", instance, f"{record.backend}: the solver reported {record.duplicates} answer sets twice"
        )
    elif not record.complete:
        outcome.timeouts += 1
        quick = _quick_unmutated_run(ref, outcome.mutant, record, timeout)
        if outcome.status == "survived" and quick is not None and "time limit" in (record.stopped_by or ""):
            _killed(
                outcome,
                "timeout",
                instance,
                f"{record.backend}: cut short by the {timeout:g} s time limit ({record.count_text} solutions); "
                f"{quick.backend} unmutated completed it in {quick.wall:.2f} s",
            )


def _killed(outcome: Outcome, how: str, instance: Instance, finding: str) -> None:
    outcome.status, outcome.how, outcome.instance, outcome.finding = "killed", how, instance.path, finding


def _quick_unmutated_run(ref: _Reference, mutant: Mutant, record: RunRecord, timeout: float) -> RunRecord | None:
    """The mutant's own variant, unmutated, in the same mode, completed within TIMEOUT_KILL_SHARE of the limit."""
    for run in ref.records:
        if (
            run.backend == mutant.base
            and run.symmetry_breaking == record.symmetry_breaking
            and run.complete
            and not run.error
            and run.wall <= TIMEOUT_KILL_SHARE * timeout
        ):
            return run
    return None


def explain(outcome: Outcome) -> None:
    """A survivor gets its reason when one is known; a mutant marked equivalent that was killed by the
    validator or by count gets ``wrong_marker`` (the marker's claim is false).  A timeout kill does not
    contradict a marker: an equivalent mutant may well be slower."""
    if outcome.status == "survived":
        outcome.reason = equivalence_reason(outcome.mutant)
    elif outcome.status == "killed" and outcome.how != "timeout" and outcome.mutant.equivalent:
        outcome.wrong_marker = (
            f"marked equivalent ({outcome.mutant.equivalent}) but killed by {outcome.how} on {outcome.instance}"
        )


def equivalence_reason(mutant: Mutant) -> str | None:
    """Why a surviving mutant is (probably) equivalent, when its rule or site says so; else None.

    The rule's own marker for this very mutant comes first; then a rule or
    group stated as implied (any weakening of it is harmless)."""
    if mutant.equivalent:
        return f"marked equivalent: {mutant.equivalent}"
    if mutant.implied:
        return IMPLIED
    return None


# ------------------------------------------------------------------ killing suite


def killing_suite(kills: Mapping[str, Sequence[str]]) -> list[str]:
    """A small instance set that kills every killed mutant: greedy set cover (most new kills first)."""
    left = {m for killed in kills.values() for m in killed}
    chosen: list[str] = []
    while left:
        best = max(sorted(kills), key=lambda path: len(left & set(kills[path])))
        gain = left & set(kills[best])
        if not gain:
            break
        chosen.append(best)
        left -= gain
    return chosen


def _write_suite(folder: str, paths: Sequence[str], agreed: Mapping[str, _Reference]) -> None:
    """Copy the suite's instances into ``folder`` with their agreed counts as ``expected.json``
    (what ``crosscheck`` and a later ``mutate --levels`` check against)."""
    files.make_folder(folder, "--suite folder")
    expected: dict[str, dict] = {}
    changes = []  # the instances and their counts: all or none
    for path in paths:
        target = os.path.join(folder, os.path.basename(path))
        changes.append(files.Change(target, files.read_bytes(path), "suite instance"))
        ref = agreed[path]
        stem = os.path.splitext(os.path.basename(path))[0]
        expected[stem] = {
            "count": ref.count,
            "complete": True,
            **({"orbits": ref.orbits} if ref.orbits is not None else {}),
        }
    if expected:
        text = files.dumps(expected, indent=1, sort_keys=True) + "\n"
        changes.append(files.Change.text(os.path.join(folder, "expected.json"), text, "expected.json"))
    files.write_files(changes)


__all__ = [
    "UnknownMutant",
    "Mutant",
    "Outcome",
    "Report",
    "make_mutants",
    "run_mutate",
    "killing_suite",
    "score_row",
    "explain",
    "TIMEOUT_KILL_SHARE",
]
