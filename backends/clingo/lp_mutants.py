"""Mutants of an ``.lp`` rules file, made with clingo's own parser (``clingo.ast``).

One mutant per operator application on a rule: delete the rule, delete a body
literal, negate a body literal, flip a comparison (``<``/``<=``, ``>``/``>=``,
``=``/``!=``; aggregate guards included), shift a comparison's or a
``#count`` guard's bound by +1 or -1, swap a choice rule's bounds.  Each
mutant is the whole file with that one statement rewritten in place (its
other lines unchanged, so line numbers still match the original): a real
``.lp`` file that ``clingo`` runs.  Other statements (``#show``,
``#defined``, ``#heuristic``) are left alone: they do not state the puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

import clingo
from clingo import ast

OPERATORS: tuple[str, ...] = ("delete-rule", "delete-literal", "negate-literal", "flip-comparison",
                              "bound+1", "bound-1", "swap-choice-bounds")

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
    comment: str  # the comment lines just above the statement (a hint why a rule exists)


def mutants(source: str) -> list[LpMutant]:
    """Every mutant of ``source`` (the text of one .lp file), deduplicated by resulting file."""
    rules: list[Any] = []
    ast.parse_string(source, lambda statement: rules.append(statement)
                     if statement.ast_type == ast.ASTType.Rule else None)
    lines = source.split("\n")
    found: dict[str, LpMutant] = {}
    for rule in rules:
        begin, end = rule.location.begin, rule.location.end
        original = str(rule)
        for operator, replacement in _rule_mutants(rule):
            if replacement == original:
                continue  # the operator changed nothing here (e.g. equal bounds swapped)
            text = _splice(lines, begin.line, begin.column, end.line, end.column, replacement)
            if text not in found and text != source:
                found[text] = LpMutant(operator, begin.line, original, replacement, text,
                                       _comment_above(lines, begin.line))
    return list(found.values())


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
        yield "delete-literal", str(rule.update(body=body[:i] + body[i + 1:]))
        if literal.ast_type == ast.ASTType.Literal:
            sign = ast.Sign.Negation if literal.sign == ast.Sign.NoSign else ast.Sign.NoSign
            yield "negate-literal", str(rule.update(body=body[:i] + [literal.update(sign=sign)] + body[i + 1:]))
    guards = _count(rule, _is_guard)
    for k in range(guards):
        yield "flip-comparison", str(_replace_nth(rule, _is_guard, k, lambda g: g.update(comparison=_FLIP[g.comparison])))
        for delta, operator in ((1, "bound+1"), (-1, "bound-1")):
            yield operator, str(_replace_nth(rule, _is_guard, k, lambda g, d=delta: g.update(term=_shifted(g.term, d))))
    head = rule.head
    one_sided_equality = (head.ast_type == ast.ASTType.Aggregate and (head.left_guard is None) != (head.right_guard is None)
                          and (head.left_guard or head.right_guard).comparison in _SYMMETRIC)
    if head.ast_type == ast.ASTType.Aggregate and not one_sided_equality:  # a choice rule (``= k`` reads the same both ways)
        yield "swap-choice-bounds", str(rule.update(head=head.update(left_guard=head.right_guard,
                                                                      right_guard=head.left_guard)))


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
    after = lines[end_line - 1][end_column - 1:]
    spliced = [before + replacement + after] + [""] * (end_line - line)
    return "\n".join(lines[: line - 1] + spliced + lines[end_line:])


def _comment_above(lines: list[str], line: int) -> str:
    """The ``%`` comment lines right above a statement (its stated purpose)."""
    out: list[str] = []
    index = line - 2
    while index >= 0 and lines[index].lstrip().startswith("%"):
        out.insert(0, lines[index].strip().lstrip("%").strip())
        index -= 1
    return " ".join(out)
