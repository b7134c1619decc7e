"""Mutants of an ``.lp`` rules file, made with clingo's own parser (``clingo.ast``).

One mutant per operator application on a rule: delete the rule, delete a body
literal, negate a body literal, flip a comparison (``<``/``<=``, ``>``/``>=``,
``=``/``!=``; aggregate guards included), shift a comparison's or a
``#count`` guard's bound by +1 or -1, swap a choice rule's bounds.  Each
mutant is the whole file with that one statement rewritten in place (its
other lines unchanged, so line numbers still match the original): a real
``.lp`` file that ``clingo`` runs.  Other statements (``#show``,
``#defined``, ``#heuristic``) are left alone: they do not state the puzzle.

**Equivalence markers.**  A mutant the author has proved changes no answer
(a harmless weakening of a rule that is itself needed) is marked on the rule,
in the comment lines right above it, one line per mutant::

    % mutate: equivalent bound+1 `D+1` -- a number above the degree is never placed (neighbour rule)
    { tile(C,N) : number(N), N <= D } 1 :- free(C), degree(C,D).

The marker names the operator and, optionally in backquotes, a text that the
mutation takes out of the statement or puts into it (it occurs in exactly one
of the original and the mutated statement, both as clingo prints them, which
is how the report shows them); without a text it marks every mutant of that
operator on the rule.  ``mutate`` reports a marked survivor as equivalent
with the reason, outside the score's denominator, and a marked mutant that
is killed anyway as a wrong marker.  Marker lines are not part of the rule's
comment (``LpMutant.comment``).  ``stale_markers`` lists markers that mark
nothing (the rule or the printing changed, or no rule is right below).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import clingo
from clingo import ast

OPERATORS: tuple[str, ...] = (
    "delete-rule",
    "delete-literal",
    "negate-literal",
    "flip-comparison",
    "bound+1",
    "bound-1",
    "swap-choice-bounds",
)

_FLIP = {
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.LessEqual,
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.NotEqual,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.Equal,
}


#: Comparisons that mean the same with their sides swapped.
_SYMMETRIC = (ast.ComparisonOperator.Equal, ast.ComparisonOperator.NotEqual)


@dataclass(frozen=True)
class LpMutant:
    """One mutant: where (1-based line of the original statement), how, and the file it makes."""

    operator: str
    line: int
    original: str  # the statement as clingo prints it
    mutated: str  # its replacement ("" when deleted)
    text: str  # the whole mutated file
    comment: str  # the comment lines just above the statement (a hint why a rule exists), markers left out
    equivalent: str = ""  # the reason of the rule's equivalence marker for this mutant ("" when unmarked)


@dataclass(frozen=True)
class Marker:
    """``% mutate: equivalent OPERATOR [`TEXT`] -- REASON`` on the line ``line`` (1-based)."""

    line: int
    operator: str
    text: str | None
    reason: str

    def marks(self, operator: str, original: str, mutated: str) -> bool:
        if operator != self.operator:
            return False
        return self.text is None or (self.text in original) != (self.text in mutated)


MARKER = re.compile(
    r"^\s*%\s*mutate:\s*equivalent\s+(?P<operator>\S+)(?:\s+`(?P<text>[^`]+)`)?\s+--\s+(?P<reason>\S.*?)\s*$"
)
#: Anything that starts like a marker but does not parse as one is an error, not a comment.
_MARKER_START = re.compile(r"^\s*%\s*mutate:")


def mutants(source: str) -> list[LpMutant]:
    """Every mutant of ``source`` (the text of one .lp file), deduplicated by resulting file."""
    return _mutants(source)[0]


def stale_markers(source: str) -> list[Marker]:
    """The equivalence markers of ``source`` that mark no mutant (the rule or the mutation changed)."""
    return _mutants(source)[1]


def _mutants(source: str) -> tuple[list[LpMutant], list[Marker]]:
    rules: list[Any] = []
    ast.parse_string(
        source, lambda statement: rules.append(statement) if statement.ast_type == ast.ASTType.Rule else None
    )
    lines = source.split("\n")
    every_marker = _markers(lines)
    found: dict[str, LpMutant] = {}
    used: set[int] = set()
    for rule in rules:
        begin, end = rule.location.begin, rule.location.end
        original = str(rule)
        comment, markers = _comment_above(lines, begin.line, every_marker)
        for operator, replacement in _rule_mutants(rule):
            if replacement == original:
                continue  # the operator changed nothing here (e.g. equal bounds swapped)
            text = _splice(lines, begin.line, begin.column, end.line, end.column, replacement)
            if text not in found and text != source:
                marked = [m for m in markers if m.marks(operator, original, replacement)]
                used.update(m.line for m in marked)
                found[text] = LpMutant(
                    operator, begin.line, original, replacement, text, comment, "; ".join(m.reason for m in marked)
                )
    # a marker that is not right above a rule (a blank line between, above a #show) marks nothing either
    return list(found.values()), [m for line, m in sorted(every_marker.items()) if line not in used]


def parses(text: str) -> str | None:
    """None when clingo parses ``text``, else its message (a stillborn mutant)."""
    messages: list[str] = []
    try:
        ast.parse_string(text, lambda _: None, logger=lambda code, message: messages.append(message.strip()))
    except RuntimeError:
        return "; ".join(messages) or "syntax error"
    return None


def _rule_mutants(rule) -> Iterator[tuple[str, str]]:
    yield "delete-rule", ""
    body = list(rule.body)
    for i, literal in enumerate(body):
        yield "delete-literal", str(rule.update(body=body[:i] + body[i + 1 :]))
        if literal.ast_type == ast.ASTType.Literal:
            sign = ast.Sign.Negation if literal.sign == ast.Sign.NoSign else ast.Sign.NoSign
            yield "negate-literal", str(rule.update(body=body[:i] + [literal.update(sign=sign)] + body[i + 1 :]))
    guards = _count(rule, _is_guard)
    for k in range(guards):
        yield (
            "flip-comparison",
            str(_replace_nth(rule, _is_guard, k, lambda g: g.update(comparison=_FLIP[g.comparison]))),
        )
        for delta, operator in ((1, "bound+1"), (-1, "bound-1")):
            yield operator, str(_replace_nth(rule, _is_guard, k, lambda g, d=delta: g.update(term=_shifted(g.term, d))))
    head = rule.head
    one_sided_equality = (
        head.ast_type == ast.ASTType.Aggregate
        and (head.left_guard is None) != (head.right_guard is None)
        and (head.left_guard or head.right_guard).comparison in _SYMMETRIC
    )
    if (
        head.ast_type == ast.ASTType.Aggregate and not one_sided_equality
    ):  # a choice rule (``= k`` reads the same both ways)
        yield (
            "swap-choice-bounds",
            str(rule.update(head=head.update(left_guard=head.right_guard, right_guard=head.left_guard))),
        )


def _is_guard(node) -> bool:
    return node.ast_type == ast.ASTType.Guard


def _shifted(term, delta: int):
    """``term + delta``: folded into an integer constant, else written as a sum."""
    if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Number:
        return term.update(symbol=clingo.Number(term.symbol.number + delta))
    one = ast.SymbolicTerm(term.location, clingo.Number(abs(delta)))
    operator = ast.BinaryOperator.Plus if delta > 0 else ast.BinaryOperator.Minus
    return ast.BinaryOperation(term.location, operator, term, one)


def _children(node) -> Iterator[Any]:
    for key in node.child_keys:
        value = getattr(node, key)
        if isinstance(value, ast.AST):
            yield value
        elif value is not None and not isinstance(value, (str, int, clingo.Symbol)):
            for item in value:
                if isinstance(item, ast.AST):
                    yield item


def _count(node, match: Callable[[Any], bool]) -> int:
    return int(match(node)) + sum(_count(child, match) for child in _children(node))


def _replace_nth(node, match: Callable[[Any], bool], n: int, change: Callable[[Any], Any]):
    """A copy of ``node`` with the n-th matching node (depth first, in order) changed."""
    seen = [0]

    def walk(current):
        if match(current):
            seen[0] += 1
            if seen[0] - 1 == n:
                return change(current)
        updates = {}
        for key in current.child_keys:
            value = getattr(current, key)
            if isinstance(value, ast.AST):
                new = walk(value)
                if new is not value:
                    updates[key] = new
            elif value is not None and not isinstance(value, (str, int, clingo.Symbol)):
                items = list(value)
                new_items = [walk(item) if isinstance(item, ast.AST) else item for item in items]
                if any(a is not b for a, b in zip(items, new_items)):
                    updates[key] = new_items
        return current.update(**updates) if updates else current

    return walk(node)


def _splice(lines: list[str], line: int, column: int, end_line: int, end_column: int, replacement: str) -> str:
    """The file with the span replaced; a multi-line span keeps its line count (line numbers stay true)."""
    before = lines[line - 1][: column - 1]
    after = lines[end_line - 1][end_column - 1 :]
    spliced = [before + replacement + after] + [""] * (end_line - line)
    return "\n".join(lines[: line - 1] + spliced + lines[end_line:])


def _markers(lines: list[str]) -> dict[int, Marker]:
    """Every equivalence marker of the file by its line; a line that starts like one but is not one is an error."""
    out: dict[int, Marker] = {}
    for number, line in enumerate(lines, start=1):
        if not _MARKER_START.match(line):
            continue
        match = MARKER.match(line)
        if match is None or match["operator"] not in OPERATORS:
            raise ValueError(
                f"line {number}: not an equivalence marker: {line.strip()!r} (want % mutate: "
                f"equivalent OPERATOR [`TEXT`] -- REASON, OPERATOR one of {', '.join(OPERATORS)})"
            )
        out[number] = Marker(number, match["operator"], match["text"], match["reason"])
    return out


def _comment_above(lines: list[str], line: int, markers: dict[int, Marker]) -> tuple[str, list[Marker]]:
    """The ``%`` comment lines right above a statement (its stated purpose), and its equivalence markers."""
    out: list[str] = []
    mine: list[Marker] = []
    index = line - 2
    while index >= 0 and lines[index].lstrip().startswith("%"):
        if index + 1 in markers:
            mine.insert(0, markers[index + 1])
        else:
            out.insert(0, lines[index].strip().lstrip("%").strip())
        index -= 1
    return " ".join(out), mine
