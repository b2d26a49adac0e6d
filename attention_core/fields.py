"""Reading a lesson's TOML table by table: each field's type, count and limits, errors named."""

from __future__ import annotations

import math
import string
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from .limits import LIMITS, LessonError
from .model import Matrix
from .steps import KINDS as STEP_KINDS
from .words import KINDS, Words, caption_name, english, kind_of, placeholders, said_name

__all__ = ["Fields", "check_text", "kind"]

T = TypeVar("T")


class Fields:
    """Reads one TOML table, remembering which keys were used so the rest can be refused."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, Mapping):
            raise LessonError(f"{path or 'lesson'}: expected a table, got {kind(data)}")
        self.data = data
        self.path = path
        self.used: set[str] = set()

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str) -> Any:
        self.used.add(key)
        if key not in self.data:
            raise LessonError(f"{self.where(key)}: missing")
        return self.data[key]

    def reject_unknown(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise LessonError(f"{self.where(unknown[0])}: unknown key")

    def text(self, key: str, max_length: int) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise LessonError(f"{self.where(key)}: expected text, got {kind(value)}")
        check_text(value, self.where(key), max_length)
        return value

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        value = self.get(key)
        if value not in allowed:
            listed = ", ".join(f'"{name}"' for name in allowed)
            raise LessonError(f"{self.where(key)}: expected one of {listed}, got {value!r}")
        return str(value)

    def number(self, key: str) -> float:
        return _number(self.get(key), self.where(key))

    def vector(
        self,
        key: str,
        *,
        max_length: int | None = None,
        exact_length: int | None = None,
        why: str = "",
    ) -> tuple[float, ...]:
        value = self.get(key)
        path = self.where(key)
        if not isinstance(value, list):
            raise LessonError(f"{path}: expected a list of numbers, got {kind(value)}")
        if exact_length is not None and len(value) != exact_length:
            raise LessonError(f"{path}: expected {exact_length} numbers ({why}), got {len(value)}")
        if max_length is not None and not 1 <= len(value) <= max_length:
            raise LessonError(f"{path}: expected 1 to {max_length} numbers, got {len(value)}")
        return tuple(_number(item, f"{path}[{i}]") for i, item in enumerate(value))

    def index(self, key: str) -> int:
        """A place in a list: a whole number, 0 for the first."""
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise LessonError(f"{self.where(key)}: expected a whole number, got {kind(value)}")
        return value

    def entries(self, key: str, *, exact_length: int, why: str) -> tuple[float, ...]:
        """An embedding: small numbers of at most one decimal place."""
        value = self.get(key)
        path = self.where(key)
        if not isinstance(value, list):
            raise LessonError(f"{path}: expected a list of numbers, got {kind(value)}")
        if len(value) != exact_length:
            raise LessonError(f"{path}: expected {exact_length} numbers ({why}), got {len(value)}")
        return tuple(_entry(item, f"{path}[{i}]") for i, item in enumerate(value))

    def matrix(
        self,
        key: str,
        *,
        rows: tuple[int, str] | None = None,
        columns: tuple[int, str] | None = None,
        max_rows: int = 0,
        max_columns: int = 0,
    ) -> Matrix:
        """A list of rows of small numbers, each row as long as the first.

        ``rows`` and ``columns`` are an exact count and why; else up to ``max_rows`` and
        ``max_columns``.
        """
        value = self.get(key)
        path = self.where(key)
        if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
            raise LessonError(
                f"{path}: expected a list of rows (lists of numbers), got {kind(value)}"
            )
        _check_count(path, "rows", len(value), rows, max_rows)
        width = len(value[0])
        for i, row in enumerate(value):
            where = f"{path}[{i}]"
            if i == 0:
                _check_count(where, "numbers", width, columns, max_columns)
            elif len(row) != width:
                raise LessonError(
                    f"{where}: expected {width} numbers (as {path}[0]), got {len(row)}"
                )
        return tuple(
            tuple(_entry(item, f"{path}[{i}][{j}]") for j, item in enumerate(row))
            for i, row in enumerate(value)
        )

    def sequence(self, key: str, low: int, high: int) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise LessonError(f"{self.where(key)}: expected a list, got {kind(value)}")
        if not low <= len(value) <= high:
            raise LessonError(
                f"{self.where(key)}: expected {low} to {high} entries, got {len(value)}"
            )
        return value

    def items(self, key: str, build: Callable[[Fields], T], low: int, high: int) -> tuple[T, ...]:
        values = self.sequence(key, low, high)
        return tuple(
            build(Fields(item, f"{self.where(key)}[{i}]")) for i, item in enumerate(values)
        )

    def steps(self, key: str) -> tuple[str, ...]:
        """The lesson's steps in order, each a known kind, none twice."""
        names = self.sequence(key, 1, LIMITS.max_steps)
        known = ", ".join(STEP_KINDS)
        for i, name in enumerate(names):
            path = f"{self.where(key)}[{i}]"
            if not isinstance(name, str):
                raise LessonError(f"{path}: expected a step's name, got {kind(name)}")
            if name not in STEP_KINDS:
                raise LessonError(f'{path}: unknown step "{name}" (known: {known})')
            if name in names[:i]:
                raise LessonError(f'{path}: "{name}" is already step {names.index(name) + 1}')
        return tuple(names)

    def answers(self, key: str) -> tuple[str, ...]:
        """What each value slot stands for: whole numbers or short labels."""
        values = self.sequence(key, 1, LIMITS.max_value_length)
        labels = []
        for i, value in enumerate(values):
            path = f"{self.where(key)}[{i}]"
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise LessonError(
                    f"{path}: expected a whole number or a short text, got {kind(value)}"
                )
            labels.append(str(value))
            check_text(labels[-1], path, LIMITS.max_answer)
        return tuple(labels)

    def table(self, key: str, build: Callable[[Fields], T]) -> T:
        return build(Fields(self.get(key), self.where(key)))

    def words(self, key: str) -> Words:
        """The English template with the lesson's translations of any of its entries."""
        self.used.add(key)
        if key not in self.data:
            return english()
        translated = dict(_translations(self.data[key], self.where(key), ""))
        words = {**english(), **translated}
        for name in translated:  # a caption translated, but not its said form: say it as shown
            if said_name(name) != name and said_name(name) not in translated:
                words.pop(said_name(name), None)
        return Words(words)


def _translations(table: Any, path: str, name: str) -> Iterator[tuple[str, str]]:
    """(entry name, checked text) for every entry of a [words] table, however it is nested."""
    if not isinstance(table, Mapping):
        raise LessonError(f"{path}: expected a table, got {kind(table)}")
    for key, value in table.items():
        entry = f"{name}{key}"
        where = f"{path}.{key}"
        if isinstance(value, Mapping) and entry.count(".") < 2:
            yield from _translations(value, where, f"{entry}.")
        elif entry not in english() and caption_name(entry) not in english():
            raise LessonError(
                f"{where}: unknown entry; known entries are listed in attention_core/words.toml"
            )
        elif not isinstance(value, str):
            raise LessonError(f"{where}: expected text, got {kind(value)}")
        else:
            # A said entry (new, or overriding) speaks a caption: it takes the caption's names.
            template = english().get(entry, english().get(caption_name(entry), ""))
            check_text(value, where, KINDS[kind_of(entry)])
            _check_placeholders(value, template, where)
            yield entry, value


def _check_placeholders(text: str, template: str, path: str) -> None:
    """A translation asks for exactly the English entry's {names}, plain, with no format."""
    wanted = placeholders(template)
    listed = ", ".join(f"{{{name}}}" for name in wanted) or "none"
    try:
        fields = [
            (field, spec, conversion)
            for _, field, spec, conversion in string.Formatter().parse(text)
            if field is not None
        ]
    except ValueError:
        raise LessonError(
            f"{path}: a lone {{ or }}; write {{{{ or }}}} for a literal brace"
        ) from None
    for field, spec, conversion in fields:
        if field not in wanted:
            raise LessonError(f"{path}: unknown placeholder {{{field}}}; this entry takes {listed}")
        if spec or conversion:
            raise LessonError(
                f"{path}: placeholder {{{field}}} must be plain, without ! or : after its name"
            )
    for name in wanted:
        if name not in (field for field, _, _ in fields):
            raise LessonError(f"{path}: missing placeholder {{{name}}}; this entry takes {listed}")


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LessonError(f"{path}: expected a number, got {kind(value)}")
    if not math.isfinite(value):
        raise LessonError(f"{path}: expected a finite number, got {value}")
    if abs(value) > LIMITS.max_abs_number:
        raise LessonError(
            f"{path}: {value} is too large to show (limit ±{LIMITS.max_abs_number:g})"
        )
    if round(value, LIMITS.max_decimals) != value:
        raise LessonError(f"{path}: {value} has more than {LIMITS.max_decimals} decimal places")
    return float(value)


def _check_count(
    path: str, what: str, count: int, exact: tuple[int, str] | None, most: int
) -> None:
    if exact is not None and count != exact[0]:
        raise LessonError(f"{path}: expected {exact[0]} {what} ({exact[1]}), got {count}")
    if exact is None and not 1 <= count <= most:
        raise LessonError(f"{path}: expected 1 to {most} {what}, got {count}")


def _entry(value: Any, path: str) -> float:
    """An embedding's or a learned matrix's entry: small, one decimal place at most."""
    number = _number(value, path)
    if abs(number) > LIMITS.max_abs_entry:
        raise LessonError(
            f"{path}: {value} is too large for a hand-worked projection "
            f"(limit ±{LIMITS.max_abs_entry:g})"
        )
    if round(number, LIMITS.entry_decimals) != number:
        raise LessonError(
            f"{path}: {value} has more than {LIMITS.entry_decimals} decimal place "
            "(so that x·W stays exact at two)"
        )
    return number


def check_text(text: str, path: str, max_length: int) -> None:
    if not text.strip():
        raise LessonError(f"{path}: empty text")
    if len(text) > max_length:
        raise LessonError(
            f"{path}: {len(text)} characters, more than the {max_length} that fit on screen"
        )
    for char in text:
        if unicodedata.category(char) in _NOT_SHOWN:
            raise LessonError(
                f"{path}: contains a control character (U+{ord(char):04X}); "
                "write the text on one line, without tabs or escapes"
            )


_NOT_SHOWN = {"Cc", "Zl", "Zp"}
"""Control characters (C0, DEL, C1: tabs, newlines, terminal escapes) and line or paragraph
separators: a text is one line of glyphs, and ``--check-lesson`` prints it to a terminal."""


def kind(value: Any) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}
    return names.get(type(value), "a table" if isinstance(value, Mapping) else type(value).__name__)
