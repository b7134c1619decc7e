"""Logic-grid puzzles (Einstein's riddle, the Zebra puzzle): N positions in a
row and several categories of N values each; every value sits at exactly one
position and every position holds one value of every category.  Clues relate
values and positions; the puzzle asks which value goes with which.

Everything here is written from the rules alone and never imports a backend:
the validator is the referee the backends are checked against.  The file
format (TOML) and the exact meaning of every clue are in ``docs/logic.md``;
``MEANINGS`` below is the same table in code.

Names come from the user's file.  The model refers to a value by an ``Item``
(category index, value index); backends only ever see those integers.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from ..errors import InstanceTooLarge, shorten
from ..files import read_instance_text
from ..toml_lines import TomlSource, load_toml

#: Largest puzzles accepted; checked before any model is built.
MAX_POSITIONS = 50
MAX_CATEGORIES = 50
MAX_CLUES = 10_000

TOP_LEVEL_KEYS = ("title", "positions", "categories", "question", "clues")
QUESTION_KEYS = ("value", "category", "text")

# ------------------------------------------------------------ clue vocabulary

#: What each clue kind takes, in order: "value" is a value name, "position" a
#: position 1..N, "distance" a whole number 1..N-1, "positions" a list of positions.
SHAPES: Mapping[str, tuple[str, ...]] = {
    "same": ("value", "value"),
    "not_same": ("value", "value"),
    "at": ("value", "position"),
    "not_at": ("value", "position"),
    "next_to": ("value", "value"),
    "left_of": ("value", "value"),
    "somewhere_left_of": ("value", "value"),
    "distance": ("value", "value", "distance"),
    "either_or": ("value", "value", "value"),
    "one_of": ("value", "positions"),
}

#: The meaning of each clue: given the positions of its values (p) and its
#: numbers (n), does it hold?  This table *is* the specification.
MEANINGS: Mapping[str, Callable[[Sequence[int], Sequence[int]], bool]] = {
    "same": lambda p, n: p[0] == p[1],
    "not_same": lambda p, n: p[0] != p[1],
    "at": lambda p, n: p[0] == n[0],
    "not_at": lambda p, n: p[0] != n[0],
    "next_to": lambda p, n: abs(p[0] - p[1]) == 1,
    "left_of": lambda p, n: p[0] + 1 == p[1],
    "somewhere_left_of": lambda p, n: p[0] < p[1],
    "distance": lambda p, n: abs(p[0] - p[1]) == n[0],
    "either_or": lambda p, n: (p[0] == p[1]) != (p[0] == p[2]),
    "one_of": lambda p, n: p[0] in n,
}

#: How a clue reads when the file gives no ``text`` ({0}, {1}: values; {n}: numbers).
WORDING: Mapping[str, str] = {
    "same": "{0} is at the same position as {1}",
    "not_same": "{0} is not at the same position as {1}",
    "at": "{0} is at position {n}",
    "not_at": "{0} is not at position {n}",
    "next_to": "{0} is next to {1}",
    "left_of": "{0} is immediately left of {1}",
    "somewhere_left_of": "{0} is somewhere left of {1}",
    "distance": "{0} and {1} are {n} positions apart",
    "either_or": "{0} is with either {1} or {2}, not both",
    "one_of": "{0} is at one of the positions {n}",
}

EXAMPLES: Mapping[str, str] = {
    "same": 'same = ["Brit", "red"]',
    "not_same": 'not_same = ["Brit", "tea"]',
    "at": 'at = ["milk", 3]',
    "not_at": 'not_at = ["milk", 1]',
    "next_to": 'next_to = ["Blends", "cats"]',
    "left_of": 'left_of = ["green", "white"]',
    "somewhere_left_of": 'somewhere_left_of = ["green", "white"]',
    "distance": 'distance = ["Brit", "Dane", 2]',
    "either_or": 'either_or = ["Brit", "dogs", "cats"]',
    "one_of": 'one_of = ["fish", [1, 3, 5]]',
}


# ------------------------------------------------------------------ models


class Item(NamedTuple):
    """One value of one category, by index: what the backends see instead of names."""

    category: int
    value: int


@dataclass(frozen=True)
class Category:
    """A category (nationality, colour, ...) and its N values, in file order."""

    name: str
    values: tuple[str, ...]

    @cached_property
    def index(self) -> Mapping[str, int]:
        return {value: i for i, value in enumerate(self.values)}


@dataclass(frozen=True)
class Clue:
    """One clue: its kind, the values it names and its numbers.

    ``numbers`` holds the position of ``at``/``not_at``, the distance of
    ``distance`` or the allowed positions of ``one_of`` (sorted); it is empty
    for the other kinds.  ``text`` is the clue in words, when the file has it.
    """

    kind: str
    items: tuple[Item, ...]
    numbers: tuple[int, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Question:
    """Report the value of ``category`` (or the position, when None) where ``value`` sits."""

    value: Item
    category: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Level:
    """A logic-grid puzzle: positions 1..``positions``, the categories, the clues."""

    positions: int
    categories: tuple[Category, ...]
    clues: tuple[Clue, ...]
    questions: tuple[Question, ...] = ()
    title: str = ""
    name: str = ""

    @cached_property
    def items(self) -> tuple[Item, ...]:
        """Every value of every category, category by category."""
        return tuple(Item(c, v) for c, category in enumerate(self.categories) for v in range(len(category.values)))

    def value_name(self, item: Item) -> str:
        return self.categories[item.category].values[item.value]

    @cached_property
    def _owners(self) -> Mapping[str, tuple[int, ...]]:
        owners: dict[str, list[int]] = {}
        for c, category in enumerate(self.categories):
            for value in category.values:
                owners.setdefault(value, []).append(c)
        return {value: tuple(cs) for value, cs in owners.items()}

    def reference(self, item: Item) -> str:
        """How a file refers to the item: its name, qualified when another category shares it."""
        name = self.value_name(item)
        if len(self._owners.get(name, ())) == 1:
            return name
        return f"{self.categories[item.category].name}.{name}"


@dataclass(frozen=True)
class Solution:
    """Where everything is: ``positions[c][v]`` is the position (1..N) of value v of category c.

    ``categories`` only carries the names for ``to_json``; it takes no part in
    equality, so two solutions are equal when their positions are.
    """

    positions: tuple[tuple[int, ...], ...]
    categories: tuple[Category, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def of(cls, level: Level, positions: Sequence[Sequence[int]]) -> Solution:
        """The solution with these positions, labelled with the level's names."""
        return cls(tuple(tuple(int(p) for p in row) for row in positions), level.categories)

    def position(self, item: Item) -> int:
        return self.positions[item.category][item.value]

    def to_json(self) -> dict:
        if len(self.categories) != len(self.positions):
            # unlabelled (built without a level): fall back to indices
            return {
                "positions": {str(c): {str(v): p for v, p in enumerate(row)} for c, row in enumerate(self.positions)}
            }
        return {
            "positions": {
                category.name: {value: p for value, p in zip(category.values, row)}
                for category, row in zip(self.categories, self.positions)
            }
        }


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the clue (0-based) it concerns where there is one."""

    rule: str
    message: str
    clue: int | None = None


# ------------------------------------------------------------------ parser


def _check_name(source: TomlSource, line: int | None, what: str, name: Any) -> str:
    if not isinstance(name, str):
        raise source.error(line, f"{what} must be a string in quotes, found {shorten(name)!r}")
    if not name.strip():
        raise source.error(line, f"{what} must not be empty")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise source.error(line, f"{what} {shorten(name)!r} contains a control character (newline, tab, ...)")
    return name


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_text(text: str, file: str = "<string>", name: str = "") -> Level:
    """Parse a puzzle in the TOML format of ``docs/logic.md``."""
    source = TomlSource(text, file)
    data = load_toml(source)

    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise source.error(
                source.key_line(key), f"unknown key {shorten(key)!r}; a puzzle has {', '.join(TOP_LEVEL_KEYS)}"
            )
    title = data.get("title", "")
    if not isinstance(title, str):
        raise source.error(source.key_line("title"), "title must be a string")

    positions = _parse_positions(source, data)
    categories = _parse_categories(source, data, positions)
    resolve = _Resolver(source, categories)
    clues = _parse_clues(source, data, positions, resolve)
    questions = _parse_questions(source, data, categories, resolve)
    return Level(positions, categories, clues, questions, title=title, name=name)


def _parse_positions(source: TomlSource, data: Mapping[str, Any]) -> int:
    if "positions" not in data:
        raise source.error(None, "missing 'positions = N' (the number of positions in the row)")
    positions = data["positions"]
    line = source.key_line("positions")
    if not _is_whole(positions):
        raise source.error(line, f"positions must be a whole number, found {shorten(positions)!r}")
    if positions < 1:
        raise source.error(line, f"positions must be at least 1, found {positions}")
    if positions > MAX_POSITIONS:
        raise InstanceTooLarge(
            source.file, line, f"{positions} positions is more than the largest supported, {MAX_POSITIONS}"
        )
    return positions


def _parse_categories(source: TomlSource, data: Mapping[str, Any], positions: int) -> tuple[Category, ...]:
    table = data.get("categories")
    if table is None:
        raise source.error(None, "missing the [categories] table (each category = its list of values)")
    if not isinstance(table, dict) or not table:
        raise source.error(
            source.key_line("categories"), "categories must be a table of at least one category = [values]"
        )
    if len(table) > MAX_CATEGORIES:
        raise InstanceTooLarge(
            source.file,
            source.key_line("categories"),
            f"{len(table)} categories is more than the largest supported, {MAX_CATEGORIES}",
        )
    categories = []
    for category_name, values in table.items():
        line = source.key_line(category_name, "categories")
        _check_name(source, line, "a category name", category_name)
        if not isinstance(values, list):
            raise source.error(line, f"category {shorten(category_name)!r} must be a list of {positions} value names")
        if len(values) != positions:
            raise source.error(
                line,
                f"category {shorten(category_name)!r} has {len(values)} values; every category needs exactly "
                f"{positions}, one per position",
            )
        seen: set[str] = set()
        for value in values:
            _check_name(source, line, f"a value of {shorten(category_name)!r}", value)
            if value in seen:
                raise source.error(
                    line, f"category {shorten(category_name)!r} lists the value {shorten(value)!r} twice"
                )
            seen.add(value)
        categories.append(Category(category_name, tuple(values)))
    return tuple(categories)


class _Resolver:
    """Turns a value name from the file into an Item.

    A plain name must belong to exactly one category; a name two categories
    share is written qualified, ``"category.value"``.
    """

    def __init__(self, source: TomlSource, categories: Sequence[Category]):
        self.source = source
        self.categories = categories
        self.owners: dict[str, list[Item]] = {}
        for c, category in enumerate(categories):
            for v, value in enumerate(category.values):
                self.owners.setdefault(value, []).append(Item(c, v))
        self.category_index = {category.name: c for c, category in enumerate(categories)}

    def __call__(self, reference: Any, line: int | None, where: str) -> Item:
        source = self.source
        if not isinstance(reference, str):
            raise source.error(line, f"{where}: expected a value name in quotes, found {shorten(reference)!r}")
        plain = self.owners.get(reference, [])
        if len(plain) == 1:
            return plain[0]
        if len(plain) > 1:
            homes = " and ".join(repr(self.categories[i.category].name) for i in plain)
            example = f"{self.categories[plain[0].category].name}.{reference}"
            raise source.error(
                line, f"{where}: {shorten(reference)!r} is a value of {homes}; qualify it, e.g. {example!r}"
            )
        qualified = []
        for c, category in enumerate(self.categories):
            prefix = category.name + "."
            if reference.startswith(prefix) and reference[len(prefix) :] in category.index:
                qualified.append(Item(c, category.index[reference[len(prefix) :]]))
        if len(qualified) == 1:
            return qualified[0]
        if len(qualified) > 1:
            raise source.error(line, f"{where}: {shorten(reference)!r} could mean values of several categories")
        if "." in reference:
            head, _, tail = reference.partition(".")
            if head in self.category_index:
                category = self.categories[self.category_index[head]]
                raise source.error(
                    line,
                    f"{where}: category {shorten(head)!r} has no value "
                    f"{shorten(tail)!r}{self._hint(tail, category.values)}",
                )
            if not any(reference.startswith(name + ".") for name in self.category_index):
                raise source.error(
                    line,
                    f"{where}: unknown value {shorten(reference)!r} "
                    f"(no value has this name, and {shorten(head)!r} is not a category)"
                    f"{self._hint(reference, list(self.owners))}",
                )
        raise source.error(
            line, f"{where}: unknown value {shorten(reference)!r}{self._hint(reference, list(self.owners))}"
        )

    @staticmethod
    def _hint(name: str, known: Sequence[str]) -> str:
        close = difflib.get_close_matches(name, known, n=1)
        return f"; did you mean {shorten(close[0])!r}?" if close else ""


def _parse_position(source: TomlSource, value: Any, positions: int, line: int | None, where: str) -> int:
    if not _is_whole(value):
        raise source.error(
            line, f"{where}: expected a position (a whole number 1..{positions}), found {shorten(value)!r}"
        )
    if not 1 <= value <= positions:
        raise source.error(line, f"{where}: position {value} is out of range 1..{positions}")
    return value


def _parse_clues(source: TomlSource, data: Mapping[str, Any], positions: int, resolve: _Resolver) -> tuple[Clue, ...]:
    raw = data.get("clues", [])
    if not isinstance(raw, list):
        raise source.error(
            source.key_line("clues"), "clues must be a list of tables ([[clues]] or clues = [{...}, ...])"
        )
    if len(raw) > MAX_CLUES:
        raise InstanceTooLarge(source.file, source.key_line("clues"), f"{len(raw)} clues is more than {MAX_CLUES}")
    clues = []
    for index, entry in enumerate(raw):
        line = source.clue_line(index)
        where = f"clue {index + 1}"
        if not isinstance(entry, dict):
            raise source.error(
                line, f"{where}: a clue is a table such as {{ {EXAMPLES['same']} }}, found {shorten(entry)!r}"
            )
        kinds = [key for key in entry if key != "text"]
        if len(kinds) != 1:
            found = ", ".join(kinds) if kinds else "none"
            raise source.error(
                line,
                f"{where}: a clue has exactly one kind ({', '.join(SHAPES)}) besides an optional text; found {found}",
            )
        kind = kinds[0]
        if kind not in SHAPES:
            close = difflib.get_close_matches(kind, list(SHAPES), n=1)
            hint = f"; did you mean {shorten(close[0])!r}?" if close else ""
            raise source.error(line, f"{where}: unknown clue kind {shorten(kind)!r}; known: {', '.join(SHAPES)}{hint}")
        where = f"clue {index + 1} ({kind})"
        line = source.clue_line(index, kind)
        text = entry.get("text", "")
        if not isinstance(text, str):
            raise source.error(line, f"{where}: text must be a string")
        arguments = entry[kind]
        shape = SHAPES[kind]
        if not isinstance(arguments, list) or len(arguments) != len(shape):
            found = f"{len(arguments)} arguments" if isinstance(arguments, list) else repr(arguments)
            raise source.error(
                line,
                f"{where}: takes {len(shape)} arguments ({', '.join(shape)}), e.g. {EXAMPLES[kind]}; found {found}",
            )
        items: list[Item] = []
        numbers: list[int] = []
        for role, argument in zip(shape, arguments):
            if role == "value":
                items.append(resolve(argument, line, where))
            elif role == "position":
                numbers.append(_parse_position(source, argument, positions, line, where))
            elif role == "distance":
                if not _is_whole(argument):
                    raise source.error(
                        line, f"{where}: expected a distance (a whole number), found {shorten(argument)!r}"
                    )
                if not 1 <= argument <= positions - 1:
                    raise source.error(line, f"{where}: distance {argument} is out of range 1..{positions - 1}")
                numbers.append(argument)
            elif role == "positions":
                if not isinstance(argument, list) or not argument:
                    raise source.error(
                        line, f"{where}: expected a non-empty list of positions, found {shorten(argument)!r}"
                    )
                allowed = {_parse_position(source, p, positions, line, where) for p in argument}
                numbers.extend(sorted(allowed))
        if len(set(items)) != len(items):
            raise source.error(line, f"{where}: names the same value twice")
        clues.append(Clue(kind, tuple(items), tuple(numbers), text))
    return tuple(clues)


def _parse_questions(
    source: TomlSource, data: Mapping[str, Any], categories: Sequence[Category], resolve: _Resolver
) -> tuple[Question, ...]:
    raw = data.get("question")
    if raw is None:
        return ()
    line = source.key_line("question")
    entries = raw if isinstance(raw, list) else [raw]
    questions = []
    for entry in entries:
        if not isinstance(entry, dict) or "value" not in entry:
            raise source.error(
                line, 'a question is a table: { value = "fish", category = "nationality", text = "Who owns the fish?" }'
            )
        for key in entry:
            if key not in QUESTION_KEYS:
                raise source.error(
                    line, f"question: unknown key {shorten(key)!r}; a question has {', '.join(QUESTION_KEYS)}"
                )
        item = resolve(entry["value"], line, "question")
        category = None
        if "category" in entry:
            names = [c.name for c in categories]
            if entry["category"] not in names:
                hint = _Resolver._hint(str(entry["category"]), names)
                raise source.error(
                    line, f"question: unknown category {shorten(entry['category'])!r}; known: {', '.join(names)}{hint}"
                )
            category = names.index(entry["category"])
        text = entry.get("text", "")
        if not isinstance(text, str):
            raise source.error(line, "question: text must be a string")
        questions.append(Question(item, category, text))
    return tuple(questions)


def parse(path: str) -> Level:
    """Read a puzzle file, with errors that name the file and line."""
    text = read_instance_text(path)
    return parse_text(text, file=path, name=os.path.splitext(os.path.basename(path))[0])


# --------------------------------------------------------------- validator


def clue_holds(clue: Clue, solution: Solution) -> bool:
    return MEANINGS[clue.kind]([solution.position(item) for item in clue.items], clue.numbers)


def validate(level: Level, solution: Solution) -> list[Violation]:
    """Check a solution against the rules alone; an empty list means valid."""
    n = level.positions
    rows = solution.positions
    shape = [len(c.values) for c in level.categories]
    if [len(row) for row in rows] != shape:
        return [Violation("shape", f"solution has {[len(r) for r in rows]} values per category, the puzzle {shape}")]
    violations: list[Violation] = []
    # every value sits at exactly one position 1..N
    for category, row in zip(level.categories, rows):
        for value, p in zip(category.values, row):
            if not _is_whole(p) or not 1 <= p <= n:
                violations.append(
                    Violation("position", f"{category.name} {shorten(value)!r} is at {p!r}, not a position 1..{n}")
                )
    if violations:
        return violations
    # each position holds one value of every category
    for category, row in zip(level.categories, rows):
        for p in range(1, n + 1):
            here = [v for v, q in zip(category.values, row) if q == p]
            if len(here) != 1:
                violations.append(
                    Violation("one per position", f"position {p} holds {len(here)} {category.name} values {here}")
                )
    # every clue holds
    for index, clue in enumerate(level.clues):
        if not clue_holds(clue, solution):
            violations.append(Violation(clue.kind, f"clue {index + 1} is broken: {clue_words(level, clue)}", index))
    return violations


# ---------------------------------------------------------------- rendering


def clue_words(level: Level, clue: Clue) -> str:
    """The clue in words: the file's text if it has one, else the precise meaning."""
    if clue.text:
        return clue.text
    names = [repr(level.reference(item)) for item in clue.items]
    numbers = ", ".join(str(k) for k in clue.numbers)
    return WORDING[clue.kind].format(*names, n=numbers)


def question_words(level: Level, question: Question) -> str:
    if question.text:
        return question.text
    subject = level.value_name(question.value)
    if question.category is None:
        return f"Where is {subject}?"
    return f"Which {level.categories[question.category].name} goes with {subject}?"


@dataclass(frozen=True)
class Answer:
    """The answer to one of the puzzle's questions, and how sure it is.

    ``determined`` only when every solution of the puzzle gives it: the solutions were all found (a
    second one ruled out, or all of them listed and agreeing).  ``others``: different answers seen in
    other solutions; ``why``: why it is not determined, in words."""

    question: str
    value: str  # the answer: a value of the asked category, or the position as text
    position: int
    determined: bool
    others: tuple[str, ...] = ()
    why: str = ""

    def text(self) -> str:
        found = self.value if self.value == f"position {self.position}" else f"{self.value} (position {self.position})"
        if self.determined:
            return f"{self.question} {found}"
        return f"{self.question} not determined: {found} in the solution shown; {self.why}"

    def to_json(self) -> dict:
        return {
            "question": self.question,
            "answer": self.value,
            "position": self.position,
            "determined": self.determined,
            **({"others": list(self.others)} if self.others else {}),
            **({"why": self.why} if not self.determined else {}),
        }


def _answer_of(level: Level, question: Question, solution: Solution) -> tuple[str, int]:
    p = solution.position(question.value)
    if question.category is None:
        return f"position {p}", p
    row = solution.positions[question.category]
    return level.categories[question.category].values[row.index(p)], p


def answers(level: Level, solutions: Sequence[Solution], complete: bool, count: int | None = None) -> list[Answer]:
    """The answers to the puzzle's questions as the first of ``solutions`` gives them.

    ``solutions`` are those a run found, ``complete`` whether it found every one (``count``: how many there
    are, when a complete count holds fewer of them).  An answer is determined only when no solution can
    give another: all were found and agree, or the count says there is one."""
    if not solutions:
        return []
    total = len(solutions) if count is None else count
    out = []
    for question in level.questions:
        value, position = _answer_of(level, question, solutions[0])
        others = tuple(
            dict.fromkeys(v for v, _ in (_answer_of(level, question, s) for s in solutions[1:]) if v != value)
        )
        if others:
            why = f"{', '.join(others)} in another solution"
        elif not complete:
            if len(solutions) == 1:
                why = "a second solution was not ruled out"
            else:
                why = f"the same in the {len(solutions)} solutions found, but more were not ruled out"
        elif total > len(solutions):
            why = f"the puzzle has {total} solutions"
        else:
            why = ""
        out.append(Answer(question_words(level, question), value, position, not why, others, why))
    return out


def answer(level: Level, solution: Solution, found: Sequence[Answer] | None = None) -> str:
    """The answers to the puzzle's questions, one line each ("" when it asks none).  ``found``: the answers
    with how sure each is (``answers``); without them, what this one solution says."""
    if found is None:
        found = [Answer(question_words(level, q), *_answer_of(level, q, solution), True) for q in level.questions]
    return "\n".join(a.text() for a in found)


def _table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows) + "\n"


def render(level: Level, solution: Solution | None = None, answers: Sequence[Answer] | None = None) -> str:
    """Without a solution: the puzzle in words.  With one: the solved grid
    (positions as columns, categories as rows) and the answers (``answers``: with how sure each is)."""
    n = level.positions
    if solution is None:
        out = [describe(level)]
        for category in level.categories:
            out.append(f"  {category.name}: {', '.join(category.values)}")
        for index, clue in enumerate(level.clues):
            out.append(f"{index + 1:3d}. {clue_words(level, clue)}")
        for question in level.questions:
            out.append(f"  ? {question_words(level, question)}")
        return "\n".join(out) + "\n"
    header = [""] + [str(p) for p in range(1, n + 1)]
    rows = [header]
    for c, category in enumerate(level.categories):
        at = {p: category.values[v] for v, p in enumerate(solution.positions[c])}
        rows.append([category.name] + [at.get(p, "?") for p in range(1, n + 1)])
    text = _table(rows)
    said = answer(level, solution, answers)
    return text + ("\n" + said + "\n" if said else "")


def _toml_string(text: str) -> str:
    # JSON string escapes are valid TOML basic-string escapes (names have no control characters)
    return json.dumps(text, ensure_ascii=False)


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def format_level(level: Level) -> str:
    """The puzzle as a TOML file; ``parse_text(format_level(l), name=l.name) == l``."""
    out = []
    if level.title:
        out.append(f"title = {_toml_string(level.title)}")
    out.append(f"positions = {level.positions}")
    out.append("")
    out.append("[categories]")
    for category in level.categories:
        out.append(f"{_toml_key(category.name)} = [{', '.join(_toml_string(v) for v in category.values)}]")
    for question in level.questions:
        out += ["", "[[question]]", f"value = {_toml_string(level.reference(question.value))}"]
        if question.category is not None:
            out.append(f"category = {_toml_string(level.categories[question.category].name)}")
        if question.text:
            out.append(f"text = {_toml_string(question.text)}")
    for clue in level.clues:
        arguments = [_toml_string(level.reference(item)) for item in clue.items]
        if clue.kind == "one_of":
            arguments.append("[" + ", ".join(str(k) for k in clue.numbers) + "]")
        else:
            arguments += [str(k) for k in clue.numbers]
        out += ["", "[[clues]]", f"{clue.kind} = [{', '.join(arguments)}]"]
        if clue.text:
            out.append(f"text = {_toml_string(clue.text)}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------- solution handling


def canonical(level: Level, solution: Solution) -> tuple:
    """A hashable key equal solutions share: the positions, category by category."""
    return solution.positions


def solution_from_json(level: Level, data: Mapping) -> Solution:
    """Read ``{"positions": {category: {value: position}}}`` back (names as in the level)."""
    from ..files import whole

    table = data["positions"]
    if not isinstance(table, Mapping):
        raise ValueError("positions must be an object: {category: {value: position}}")
    rows = []
    for category in level.categories:
        placed = table[category.name]
        if not isinstance(placed, Mapping):
            raise ValueError(f"positions of category {shorten(category.name)!r} must be an object")
        unknown = set(placed) - set(category.values)
        if unknown:
            shown = ", ".join(shorten(v, 30) for v in sorted(map(str, unknown))[:5])
            raise ValueError(f"category {shorten(category.name)!r} has no value(s) {shown}")
        rows.append([whole(placed[value], f"position of {shorten(value)!r}") for value in category.values])
    return Solution.of(level, rows)


def describe(level: Level) -> str:
    """One line about the puzzle, for headers and progress."""
    label = level.title or level.name
    head = f"logic {level.positions} positions x {len(level.categories)} categories, {len(level.clues)} clues"
    return f"{head}: {label}" if label else head


# ----------------------------------------------------------- minimiser moves


def shrink_candidates(level: Level) -> list[Level]:
    """Smaller variants of a puzzle, for the cross-checker's minimiser.

    Each candidate removes one thing: the last position (with the last value
    of every category, and the clues and questions that no longer fit), a
    whole category (with its clues and questions), half of the clues (so that
    a long list shrinks in a few steps, not one clue a step), or a single clue.
    """
    candidates: list[Level] = []
    if level.positions > 1:
        candidates.append(_shorter_row(level))
    if len(level.categories) > 1:
        for c in range(len(level.categories) - 1, -1, -1):
            candidates.append(_without_category(level, c))
    half = len(level.clues) // 2
    kept = [level.clues[half:], level.clues[:half]] if half >= 2 else []
    for index in range(len(level.clues) - 1, -1, -1):
        kept.append(level.clues[:index] + level.clues[index + 1 :])
    for clues in kept:
        candidates.append(Level(level.positions, level.categories, clues, level.questions, level.title, level.name))
    return candidates


def _shorter_row(level: Level) -> Level:
    n = level.positions - 1
    categories = tuple(Category(c.name, c.values[:n]) for c in level.categories)
    fits = lambda item: item.value < n  # noqa: E731
    clues = []
    for clue in level.clues:
        if not all(fits(item) for item in clue.items):
            continue
        numbers = clue.numbers
        if clue.kind == "one_of":
            numbers = tuple(k for k in numbers if k <= n)
            if not numbers:
                continue
        elif clue.kind in ("at", "not_at") and numbers[0] > n or clue.kind == "distance" and numbers[0] > n - 1:
            continue
        clues.append(Clue(clue.kind, clue.items, numbers, clue.text))
    questions = tuple(q for q in level.questions if fits(q.value))
    return Level(n, categories, tuple(clues), questions, level.title, level.name)


def _without_category(level: Level, dropped: int) -> Level:
    def moved(item: Item) -> Item:
        return Item(item.category - (item.category > dropped), item.value)

    categories = level.categories[:dropped] + level.categories[dropped + 1 :]
    clues = tuple(
        Clue(clue.kind, tuple(moved(i) for i in clue.items), clue.numbers, clue.text)
        for clue in level.clues
        if all(i.category != dropped for i in clue.items)
    )
    questions = tuple(
        Question(moved(q.value), None if q.category is None else q.category - (q.category > dropped), q.text)
        for q in level.questions
        if q.value.category != dropped and q.category != dropped
    )
    return Level(level.positions, categories, clues, questions, level.title, level.name)
