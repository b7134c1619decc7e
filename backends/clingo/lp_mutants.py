"""Mutants of an ``.lp`` rules file, made with clingo's own parser (``clingo.ast``).

One mutant per operator application on a rule: delete the rule, delete a body
literal, negate a body literal, flip a comparison (``<``/``<=``, ``>``/``>=``,
``=``/``!=``; aggregate guards included), shift a comparison's or a
``#count`` guard's bound by +1 or -1, swap a choice rule's bounds.  Each
mutant is the whole file with that one statement rewritten in place (its
other lines unchanged, so line numbers still match the original): a real
``.lp`` file that ``clingo`` runs.  Other statements (``#show``,
``#defined``, ``#heuristic``) are left alone: they do not state the puzzle.

**Equivalence markers** live beside the rules, not in them: ``<stem>.mutants.toml``
next to ``<stem>.lp`` (``read_markers``), so the ``.lp`` files stay plain
encodings.  A mutant the author has proved changes no answer (a harmless
weakening of a rule that is itself needed) is an ``[[equivalent]]`` entry::

    [[equivalent]]
    rule = "{ tile(C,N) : number(N), N <= D } 1 :- free(C), degree(C,D)."
    operator = "bound+1"
    text = "(D+1)"
    reason = "no cell with D neighbours satisfies the neighbour rule for a tile D+1"

``rule`` is the rule as written (compared as clingo prints it, so spacing and
line breaks do not matter); ``text`` (optional) is a text that the mutation
takes out of the statement or puts into it (it occurs in exactly one of the
original and the mutated statement, both as clingo prints them, which is how
the report shows them); without a text the entry marks every mutant of that
operator on the rule.  A rule that is implied by the others as a whole (kept
to help the search) is an ``[[implied]]`` entry (``rule``, ``reason``): any
weakening of it is harmless.  ``mutate`` reports a marked survivor as
equivalent with the reason, outside the score's denominator, and a marked
mutant that is killed anyway as a wrong marker.  ``stale_markers`` lists
entries that mark nothing (the rule or the printing changed).

**Ids.**  ``LpMutant.index`` tells apart the mutants one operator makes of one
rule (the 2nd body literal deleted, ...): with the file and the rule's line,
it names a mutant by the file alone, whatever instances it then runs on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

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
    comment: str  # the comment lines just above the statement (a hint why a rule exists)
    equivalent: str = ""  # the reason of the sidecar's equivalence marker for this mutant ("" when unmarked)
    implied: str = ""  # the reason the sidecar gives for the whole rule being implied ("" when it is not)
    #: which of the mutants this operator makes of this rule (1, 2, ...); 0 when it makes only one
    index: int = 0


@dataclass(frozen=True)
class Marker:
    """One entry of a sidecar: an ``equivalent`` mutant (``operator``, optional ``text``) of ``rule``, or the
    whole ``rule`` ``implied``; ``rule`` as clingo prints it, ``entry`` its place in the file (1-based)."""

    kind: str
    rule: str
    operator: str | None
    text: str | None
    reason: str
    entry: int = 0

    def marks(self, operator: str, original: str, mutated: str) -> bool:
        if self.kind != "equivalent" or operator != self.operator:
            return False
        return self.text is None or (self.text in original) != (self.text in mutated)


#: The keys each kind of sidecar entry takes (the first two it must have, with ``reason``).
_KEYS = {"equivalent": ("rule", "operator", "text", "reason"), "implied": ("rule", "reason")}


def read_markers(sidecar: str, file: str = "<sidecar>") -> list[Marker]:
    """The entries of a ``.mutants.toml`` sidecar (its text); anything that is not a well-formed entry is a
    ``ValueError`` naming ``file`` and the entry, not a marker silently ignored."""
    try:
        data = tomllib.loads(sidecar)
    except tomllib.TOMLDecodeError as problem:
        raise ValueError(f"{file}: not TOML: {problem}") from None
    stray = set(data) - set(_KEYS)
    if stray:
        raise ValueError(f"{file}: unknown tables {', '.join(sorted(stray))}; known: {', '.join(_KEYS)}")
    out: list[Marker] = []
    for kind, keys in _KEYS.items():
        for number, entry in enumerate(data.get(kind, []), start=1):
            where = f"{file}: [[{kind}]] {number}"
            if (
                not isinstance(entry, dict)
                or set(entry) - set(keys)
                or not all(isinstance(entry.get(key), str) for key in ("rule", "reason"))
            ):
                raise ValueError(f"{where}: want {', '.join(keys)} (strings; text is optional)")
            operator = entry.get("operator")
            if kind == "equivalent" and operator not in OPERATORS:
                raise ValueError(f"{where}: operator {operator!r} is not one of {', '.join(OPERATORS)}")
            out.append(
                Marker(kind, _printed(entry["rule"], where), operator, entry.get("text"), entry["reason"], number)
            )
    return out


def _printed(rule: str, where: str) -> str:
    """A rule as clingo prints it (how a sidecar entry is matched to the rule it names)."""
    found: list[Any] = []
    try:
        ast.parse_string(
            rule, lambda statement: found.append(statement) if statement.ast_type == ast.ASTType.Rule else None
        )
    except RuntimeError:
        found = []
    if len(found) != 1:
        raise ValueError(f"{where}: rule is not one clingo rule: {rule!r}")
    return str(found[0])


def mutants(source: str, markers: str = "", file: str = "<sidecar>") -> list[LpMutant]:
    """Every mutant of ``source`` (the text of one .lp file), deduplicated by resulting file, marked by the
    entries of its sidecar ``markers`` (the text of its ``.mutants.toml``; ``file`` names it in errors)."""
    return _mutants(source, read_markers(markers, file))[0]


def stale_markers(source: str, markers: str = "", file: str = "<sidecar>") -> list[Marker]:
    """The sidecar entries that mark no mutant of ``source`` (the rule or the mutation changed)."""
    return _mutants(source, read_markers(markers, file))[1]


def _mutants(source: str, markers: Sequence[Marker]) -> tuple[list[LpMutant], list[Marker]]:
    rules: list[Any] = []
    ast.parse_string(
        source, lambda statement: rules.append(statement) if statement.ast_type == ast.ASTType.Rule else None
    )
    lines = source.split("\n")
    found: dict[str, LpMutant] = {}
    used: set[int] = set()
    for rule in rules:
        begin, end = rule.location.begin, rule.location.end
        original = str(rule)
        comment = _comment_above(lines, begin.line)
        mine = [(n, m) for n, m in enumerate(markers) if m.rule == original]
        implied = "; ".join(m.reason for _, m in mine if m.kind == "implied")
        used.update(n for n, m in mine if m.kind == "implied")
        made: list[tuple[str, str, str]] = []
        for operator, replacement in _rule_mutants(rule):
            if replacement == original:
                continue  # the operator changed nothing here (e.g. equal bounds swapped)
            text = _splice(lines, begin.line, begin.column, end.line, end.column, replacement)
            if text not in found and text != source and text not in {t for _, _, t in made}:
                made.append((operator, replacement, text))
        for operator, replacement, text in made:
            twins = [t for o, _, t in made if o == operator]
            marked = [(n, m) for n, m in mine if m.marks(operator, original, replacement)]
            used.update(n for n, _ in marked)
            found[text] = LpMutant(
                operator,
                begin.line,
                original,
                replacement,
                text,
                comment,
                "; ".join(m.reason for _, m in marked),
                implied,
                twins.index(text) + 1 if len(twins) > 1 else 0,
            )
    return list(found.values()), [m for n, m in enumerate(markers) if n not in used]


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


def _comment_above(lines: list[str], line: int) -> str:
    """The ``%`` comment lines right above a statement: its stated purpose (a hint for the report)."""
    out: list[str] = []
    index = line - 2
    while index >= 0 and lines[index].lstrip().startswith("%"):
        out.insert(0, lines[index].strip().lstrip("%").strip())
        index -= 1
    return " ".join(out)
