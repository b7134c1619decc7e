"""One call answering "why": a step-wise explanation of a unique puzzle, a hint from a partly filled board,
the backbone and extra givens of a puzzle with several solutions, the minimal causes of "no solution".

Every claim the SAT solver makes is put to a second paradigm (``check.py``)
unless ``check`` is None; a claim it contradicts is a finding.  The time
limit holds throughout: what was found before it is kept, marked partial.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..constraints import Model
from ..models.pictures import StepMarks
from .check import CHECKERS, Checker, sub_model
from .diagnose import backbone, extra_givens, muses, wrong_entries
from .picture import step_svg
from .reasoner import OutOfTime, Reasoner
from .steps import Step, Stepper
from .units import Unit, Words, own_literals, units_of, variables_of

#: Seconds a single check may take at most (they are small claims; more is a sign of trouble).
CHECK_SECONDS = 30.0


@dataclass(frozen=True)
class Claim:
    """A set of units (and facts) and what it was said to be: "no solution" or "a solution"; ``verdict``
    is the second paradigm's answer ("" unchecked)."""

    units: tuple[Unit, ...]
    facts: tuple[int, ...]
    expected: str
    verdict: str = ""
    #: the paradigm that gave the verdict, when not the explanation's checker (that one ran out of time)
    by: str = ""

    @property
    def agrees(self) -> bool:
        return self.verdict in ("", "unknown") or self.verdict == self.expected


@dataclass(frozen=True)
class Explanation:
    """What ``explain`` found.  ``kind``: "steps" (a unique puzzle), "hint", "several" (backbone and extra
    givens) or "unsolvable" (MUSes)."""

    kind: str
    model: Model = field(repr=False)
    steps: tuple[Step, ...] = ()
    checks: tuple[Claim, ...] = ()
    #: the unique solution (own literals), when known
    solution: frozenset[int] = frozenset()
    known: tuple[int, ...] = ()
    wrong: tuple[int, ...] = ()
    backbone: tuple[int, ...] = ()
    differ: tuple[int, ...] = ()
    givens: tuple[int, ...] = ()
    givens_count: str = ""
    muses: tuple[tuple[Unit, ...], ...] = ()
    checked_by: str = ""
    partial: bool = False
    seconds: float = 0.0
    findings: tuple[str, ...] = ()
    #: the level explained (``trisolve.Level``), when known: its family draws the pictures
    level: Any = field(default=None, repr=False, compare=False)

    @property
    def words(self) -> Words:
        return Words(self.model)

    def marks(self, number: int) -> StepMarks:
        """What the picture of step ``number`` (from 1) shows: the facts known after it, its new fact, the facts
        and units it used."""
        if not 1 <= number <= len(self.steps):
            raise ValueError(f"step {number}: the explanation has {len(self.steps)} steps")
        step = self.steps[number - 1]
        words = self.words
        known = frozenset(self.known) | {s.fact for s in self.steps[:number]}
        units = tuple(
            (unit.label, frozenset().union(*(variables_of(self.model.constraints[i]) for i in unit.constraints)))
            for unit in step.units
        )
        lines = [f"step {number} of {len(self.steps)}: {words.fact(step.fact)}"]
        lines += [f"by: {unit.label}" for unit in step.units]
        lines += [f"with: {fact}" for fact in words.facts(step.facts)]
        return StepMarks(number, len(self.steps), step.fact, step.facts, known, units, tuple(lines))

    def picture(self, number: int) -> str:
        """Step ``number`` (from 1) as SVG: the level's family draws its board after the step, with the new fact
        and the clues and facts the step used highlighted; a family that draws none (or no level) gets the table
        of the model's variables."""
        family = getattr(self.level, "kind", None)
        if family is not None and family.step_picture is not None:
            return family.step_picture(self.level.model, self.model, self.marks(number))
        self.marks(number)  # the same check of the number
        return step_svg(self.model, self.steps, number, self.known)

    def to_json(self) -> dict[str, Any]:
        words = self.words
        data: dict[str, Any] = {"kind": self.kind, "partial": self.partial, "checked_by": self.checked_by}
        if self.kind in ("steps", "hint"):
            data["known"] = words.facts(self.known)
            data["wrong"] = words.facts(self.wrong)
            data["steps"] = [
                {
                    "fact": words.fact(step.fact),
                    "literal": step.fact,
                    "units": [{"label": u.label, "role": u.role} for u in step.units],
                    "facts": words.facts(step.facts),
                    "cost": step.cost,
                    "check": claim.verdict or "unchecked",
                    "checked_by": (claim.by or self.checked_by) if claim.verdict else "",
                }
                for step, claim in zip(self.steps, self._step_checks())
            ]
            data["total_cost"] = sum(step.cost for step in self.steps)
        if self.kind == "several":
            data["backbone"] = words.facts(self.backbone)
            data["differ"] = sorted({words.variable(lit) for lit in self.differ})
            data["extra_givens"] = words.facts(self.givens)
            data["count_with_extra_givens"] = self.givens_count
        if self.kind == "unsolvable":
            data["muses"] = [[{"label": u.label, "role": u.role} for u in mus] for mus in self.muses]
            data["checks"] = [
                {"units": [u.label for u in c.units], "expected": c.expected, "verdict": c.verdict or "unchecked"}
                for c in self.checks
            ]
        data["findings"] = list(self.findings)
        data["seconds"] = round(self.seconds, 3)
        return data

    def _step_checks(self) -> list[Claim]:
        checks = list(self.checks[: len(self.steps)])
        return checks + [Claim((), (), "no solution")] * (len(self.steps) - len(checks))

    def text(self) -> str:
        words = self.words
        lines: list[str] = []
        if self.kind in ("steps", "hint"):
            if self.wrong:
                lines.append("these entries are wrong (the puzzle with any one of them has no solution):")
                lines += [f"  {fact}" for fact in words.facts(self.wrong)]
            for number, (step, claim) in enumerate(zip(self.steps, self._step_checks()), start=1):
                used = [f'"{u.label}"' for u in step.units] + words.facts(step.facts)
                lines.append(f"step {number}: {' and '.join(used)} force: {words.fact(step.fact)}")
                by = claim.by or self.checked_by
                checked = f"checked by {by}: {claim.verdict}" if claim.verdict else "not checked"
                lines.append(f"  cost {step.cost}; {checked}")
            if self.kind == "steps":
                total = sum(step.cost for step in self.steps)
                lines.append(f"{len(self.steps)} steps, total cost {total}")
        elif self.kind == "several":
            lines.append(f"several solutions; true in every one ({len(self.backbone)} facts):")
            lines += [f"  {fact}" for fact in words.facts(self.backbone)]
            lines.append("the solutions differ at: " + ", ".join(sorted({words.variable(f) for f in self.differ})))
            lines.append("these extra givens make the solution unique:")
            lines += [f"  {fact}" for fact in words.facts(self.givens)]
            if self.givens_count:
                lines.append(f"  with them the count is {self.givens_count} ({self.checked_by})")
        elif self.kind == "unsolvable":
            lines.append("no solution; these constraints together have none (each one needed):")
            for number, mus in enumerate(self.muses, start=1):
                if len(self.muses) > 1:
                    lines.append(f"cause {number}:")
                lines += [f"  [{u.role}] {u.label}" for u in mus]
            if self.checked_by:
                agreed = sum(1 for c in self.checks if c.verdict == c.expected)
                lines.append(f"checked by {self.checked_by}: {agreed} of {len(self.checks)} claims confirmed")
        if self.findings:
            lines += [f"FINDING: {finding}" for finding in self.findings]
        state = "PARTIAL (time limit)" if self.partial else "complete"
        lines.append(f"{state}, {self.seconds:.2f} s")
        return "\n".join(lines)


class Session:
    """The state one ``explain`` call shares: the model, its units, the SAT reasoner, the checker."""

    def __init__(self, model: Model, deadline: float | None, checker: Checker | None) -> None:
        self.model = model.freeze()
        self.units = units_of(self.model)
        self.deadline = deadline
        self.reasoner = Reasoner(self.model, self.units, deadline)
        self.checker = checker
        self._other: Checker | None = None
        self.checks: list[Claim] = []
        self.findings: list[str] = []

    def _other_checker(self) -> Checker:
        """The checking paradigm that is not the session's (made on first use)."""
        assert self.checker is not None
        if self._other is None:
            self._other = Checker(next(p for p in CHECKERS if p != self.checker.paradigm))
        return self._other

    def seconds_left(self) -> float:
        if self.deadline is None:
            return CHECK_SECONDS
        return max(0.0, min(CHECK_SECONDS, self.deadline - time.monotonic()))

    def confirm(self, units: Sequence[Unit], facts: Sequence[int], expected: str) -> Claim:
        """Ask the second paradigm whether ``units`` with ``facts`` have a solution; a contrary answer is a
        finding."""
        if self.checker is None:
            claim = Claim(tuple(units), tuple(facts), expected)
        else:
            constraints = [i for unit in units for i in unit.constraints]
            checker = self.checker
            verdict = checker.claim(self.model, constraints, facts, self.seconds_left())
            if verdict.answer == "unknown" and self.seconds_left() > 0:
                # out of time on this claim: the other non-SAT paradigm is asked (CP-SAT can take minutes to
                # prove that a loop has no way round a few facts, which clingo proves at once)
                checker = self._other_checker()
                verdict = checker.claim(self.model, constraints, facts, self.seconds_left())
            by = checker.name if checker is not self.checker else ""
            claim = Claim(tuple(units), tuple(facts), expected, verdict.answer, by)
            if not claim.agrees:
                words = Words(self.model)
                said = "; ".join([*(f'"{u.label}"' for u in units), *words.facts(facts)])
                self.findings.append(
                    f"{checker.name} finds {verdict.answer} where the SAT solver found {expected}: {said}"
                )
        self.checks.append(claim)
        return claim


def explain(
    model: Model,
    *,
    hint: bool = False,
    known: Iterable[int] = (),
    timeout: float | None = None,
    check: str | None = "cpsat",
    all_mus: int = 1,
    on_progress: Callable[[str], None] | None = None,
    level: Any = None,
) -> Explanation:
    """Why ``model``'s answer is what it is (module docstring).  ``known``: facts (own literals) of a partly
    filled board (a hint starts from them); ``check``: the second paradigm ("cpsat", "clingo") or None;
    ``all_mus``: how many minimal causes of "no solution" to list at most; ``level``: the ``trisolve.Level``
    the model is of (its family draws the pictures)."""
    if check is not None and check not in CHECKERS:
        raise ValueError(f"no checker {check!r}: {', '.join(CHECKERS)}")
    checker = Checker(check) if check else None  # before the clock starts: it loads its solver
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    say = on_progress or (lambda text: None)
    known = tuple(dict.fromkeys(known))
    found: dict[str, Any] = {}
    session: Session | None = None
    try:
        session = Session(model, deadline, checker)  # compiling counts: the limit may end it already
        with session.reasoner:
            found = _explain(session, hint, known, all_mus, say, found)
    except OutOfTime:
        found["partial"] = True
    return Explanation(
        model=model.freeze(),
        checks=tuple(session.checks) if session else (),
        checked_by=checker.name if checker else "",
        seconds=time.monotonic() - started,
        findings=tuple(session.findings) if session else (),
        level=level,
        **{"kind": "steps", **found},
    )


def _explain(
    session: Session, hint: bool, known: tuple[int, ...], all_mus: int, say: Callable[[str], None], found: dict
) -> dict:
    """Fills ``found`` (the Explanation's fields) as it goes, so that a time limit keeps what is there."""
    reasoner = session.reasoner
    model = session.model
    solutions = reasoner.solutions()
    if not solutions:
        found["kind"] = "unsolvable"
        found["muses"] = ()
        for mus in muses(reasoner, limit=all_mus):
            found["muses"] = (*found["muses"], mus)
            say(f"a minimal cause of {len(mus)} constraints")
            session.confirm(mus, (), "no solution")
            for unit in mus:
                session.confirm([u for u in mus if u is not unit], (), "a solution")
        return found
    solution = own_literals(model, solutions[0])
    if len(solutions) > 1:
        found["kind"] = "several"
        found["backbone"], found["differ"] = backbone(reasoner, solution)
        say(f"backbone: {len(found['backbone'])} facts")
        givens = extra_givens(reasoner, solution, found["differ"])
        found["givens"] = givens
        if session.checker is not None:
            count = session.checker.count(_with_givens(model, givens), 2, session.seconds_left())
            found["givens_count"] = count
            if count != "1":  # the givens were meant to leave exactly one solution
                session.findings.append(f"{session.checker.name} counts {count} solutions with the extra givens")
        return found
    found["solution"] = solution
    found["kind"] = "hint" if hint else "steps"
    if known and wrong_entries(reasoner, known):
        # the solution is the only one: every entry off it is wrong, each confirmed to leave no solution
        found["wrong"] = tuple(fact for fact in known if fact not in solution)
        found["known"] = known
        for fact in found["wrong"]:
            session.confirm(session.units, (fact,), "no solution")
        return found
    found["known"] = known
    with Stepper(reasoner, solution, known) as stepper:  # its kept solvers closed at the end
        steps: list[Step] = []
        while stepper.unknown:
            step = stepper.next_step()
            if step is None:
                raise RuntimeError("no step forces a fact of the unique solution")  # the SAT solver said unique
            stepper.learn(step)
            steps.append(step)
            found["steps"] = tuple(steps)
            claim = session.confirm(step.units, (*step.facts, -step.fact), "no solution")
            say(f"step {len(steps)}: cost {step.cost}, {len(stepper.unknown)} facts to go {claim.verdict}")
            if hint:
                break
    return found


def _with_givens(model: Model, givens: Sequence[int]) -> Model:
    """The model with these facts added as givens (for counting)."""
    return sub_model(model, range(len(model.constraints)), givens)


__all__ = ["Explanation", "explain"]


def known_facts(data: Any, model: Model, path: str) -> tuple[int, ...]:
    """The facts of a partly filled board, from JSON: a list of facts in the words ``explain`` prints them
    ("position of Brit is 3"), bare or under "known" (so a hint's own output can be fed back)."""
    from ..models.errors import UsageError, shorten

    if isinstance(data, dict):
        data = [*data.get("known", ()), *(step["fact"] for step in data.get("steps", ()) if isinstance(step, dict))]
    if not isinstance(data, list):
        raise UsageError(f"{path}: expected a list of facts such as explain prints (or its --json output)")
    words = Words(model)
    literal_of = {words.fact(lit): lit for var in model.own for lit in (var, -var)}
    facts = []
    for number, text in enumerate(data, start=1):
        if not isinstance(text, str) or text not in literal_of:
            raise UsageError(f"{path}: fact {number}, {shorten(text)!r}, is not a fact of this puzzle")
        facts.append(literal_of[text])
    return tuple(facts)
