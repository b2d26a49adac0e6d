"""The lesson as data: a TOML file loaded once into frozen, validated dataclasses."""

from __future__ import annotations

import math
import string
import tomllib
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from . import formatting as fmt
from .maths import quiz_answer, scores
from .words import KINDS, Words, caption_name, english, kind_of, placeholders, said_name

__all__ = [
    "DEFAULT_SERIES",
    "LIMITS",
    "VOICES",
    "Citation",
    "Lesson",
    "LessonError",
    "Limits",
    "Quiz",
    "Reference",
    "Token",
    "default_lesson",
    "load_lesson",
    "parse_lesson",
]

T = TypeVar("T")


class LessonError(ValueError):
    """A lesson file that cannot be shown; the message names the field and the problem."""


@dataclass(frozen=True)
class Limits:
    """What a lesson may hold so that every scene can still lay it out on screen."""

    min_tokens: int = 2
    max_tokens: int = 6
    max_query_length: int = 9
    max_value_length: int = 6
    max_abs_number: float = 99
    max_abs_score: float = 12
    """So that e^score stays a number a viewer can read: e^12 ≈ 162754.79."""
    max_decimals: int = 2
    max_short_length: int = 10
    max_token_text: int = 32
    max_title: int = 40
    max_line: int = 80
    max_paragraph: int = 160
    max_answer: int = 8
    max_references: int = 4
    max_file_bytes: int = 64 * 1024


LIMITS = Limits()

DEFAULT_SERIES = "Day 004 · Transformers"
"""The series of a lesson that names none: the one this lesson was written for."""
VOICES = ("joe", "heart", "espeak", "none")
"""What a lesson's ``voice`` may name: Piper's en_US joe, hibari's heart, espeak-ng (any
language it knows: the lesson's ``common.word.language``), or no narration. ``render.py
--voice`` overrides it."""


@dataclass(frozen=True)
class Token:
    """One statement squeezed into one token: what it says, its key and its value."""

    text: str
    short: str
    key: tuple[float, ...]
    value: tuple[float, ...]


@dataclass(frozen=True)
class Quiz:
    """The quick check: what filler tokens score, in the question and in the bonus."""

    filler_score: float
    bonus_filler_score: float


@dataclass(frozen=True)
class Citation:
    """A published result the lesson cites as where attention matters."""

    source: str
    finding: str


@dataclass(frozen=True)
class Reference:
    """A pointer to read further."""

    text: str
    where: str


@dataclass(frozen=True)
class Lesson:
    """Everything the slides show that is not computed."""

    title: str
    series: str
    """The series the lesson belongs to, named on its title card: ``Day 004 · Transformers``."""
    promise: str
    question: str
    query: tuple[float, ...]
    answers: tuple[str, ...]
    tokens: tuple[Token, ...]
    rival: Token
    quiz: Quiz
    takeaway: str
    citation: Citation
    references: tuple[Reference, ...]
    words: Words
    """Every word the scenes show or say: the English template with the lesson's [words]."""
    voice: str | None = None
    """Who narrates it (one of :data:`VOICES`); None: the default for its language."""

    @property
    def d_k(self) -> int:
        """The length of the query and of every key."""
        return len(self.query)


def default_lesson() -> Lesson:
    """The lesson the tutorial teaches, shipped inside this package."""
    text = resources.files("attention_core").joinpath("lesson.toml").read_text("utf-8")
    return parse_lesson(_parse_toml(text, "lesson.toml"))


def load_lesson(path: str | Path) -> Lesson:
    """Read and validate a lesson TOML file; raise LessonError naming what is wrong."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > LIMITS.max_file_bytes:
            raise LessonError(
                f"{path}: file is {size} bytes, "
                f"more than the {LIMITS.max_file_bytes} a lesson may be"
            )
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise LessonError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise LessonError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise LessonError(f"{path}: cannot read ({error.strerror})") from None
    return parse_lesson(_parse_toml(text, str(path)))


def _parse_toml(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{name}: not valid TOML ({error})") from None
    except RecursionError:
        raise LessonError(f"{name}: nested too deeply") from None


def parse_lesson(data: Mapping[str, Any]) -> Lesson:
    """Validate a parsed TOML document and build the Lesson from it."""
    fields = _Fields(data, "")
    query = fields.vector("query", max_length=LIMITS.max_query_length)
    answers = fields.answers("answers")
    tokens = fields.items(
        "tokens", _token(len(query), len(answers)), LIMITS.min_tokens, LIMITS.max_tokens
    )
    lesson = Lesson(
        title=fields.text("title", LIMITS.max_title),
        series=fields.text("series", LIMITS.max_title) if "series" in data else DEFAULT_SERIES,
        promise=fields.text("promise", LIMITS.max_paragraph),
        question=fields.text("question", LIMITS.max_line),
        query=query,
        answers=answers,
        tokens=tokens,
        rival=fields.table("rival", _token(len(query), len(answers))),
        quiz=fields.table("quiz", _quiz),
        takeaway=fields.text("takeaway", LIMITS.max_paragraph),
        citation=fields.table("citation", _citation),
        references=fields.items("references", _reference, 0, LIMITS.max_references),
        words=fields.words("words"),
        voice=fields.choice("voice", VOICES) if "voice" in data else None,
    )
    fields.reject_unknown()
    _check_scores(lesson)
    _check_quiz_options(lesson)
    return lesson


def _check_scores(lesson: Lesson) -> None:
    """Scores (and the quiz's filler scores) must keep e^score readable and the quiz meaningful."""
    keys = {f"tokens[{i}]": token.key for i, token in enumerate(lesson.tokens)}
    keys["rival"] = lesson.rival.key
    limit = LIMITS.max_abs_score
    for path, score in zip(keys, scores(lesson.query, list(keys.values())), strict=True):
        if abs(score) > limit:
            raise LessonError(
                f"{path}.key: scores {score:.2f} against the query; "
                f"scores must stay within ±{limit:g} so that e^score can be shown"
            )
    rival_score = scores(lesson.query, [lesson.rival.key])[0]
    for name in ("filler_score", "bonus_filler_score"):
        filler = getattr(lesson.quiz, name)
        if not -limit <= filler < rival_score:
            raise LessonError(
                f"quiz.{name}: {filler:g} must be below the rival's score ({rival_score:.2f}) "
                f"and at least -{limit:g}"
            )


def _check_quiz_options(lesson: Lesson) -> None:
    """The quiz's four options must read as four different answers."""
    options = quiz_answer(lesson).options
    shown = [fmt.about(x) for x in options]
    for i, rough in enumerate(shown):
        if rough in shown[:i]:
            first = "ABCD"[shown.index(rough)]
            raise LessonError(
                f"quiz.filler_score: options {first} and {'ABCD'[i]} would both read {rough!r}; "
                "move the filler score so that the gap to the rival's score is not 1 and not "
                "tiny"
            )


def _token(query_length: int, answer_count: int) -> Callable[[_Fields], Token]:
    def build(fields: _Fields) -> Token:
        key = fields.vector("key", exact_length=query_length, why="the query's length")
        value = fields.vector("value", exact_length=answer_count, why="the number of answers")
        token = Token(
            text=fields.text("text", LIMITS.max_token_text),
            short=fields.text("short", LIMITS.max_short_length),
            key=key,
            value=value,
        )
        fields.reject_unknown()
        return token

    return build


def _quiz(fields: _Fields) -> Quiz:
    quiz = Quiz(
        filler_score=fields.number("filler_score"),
        bonus_filler_score=fields.number("bonus_filler_score"),
    )
    fields.reject_unknown()
    return quiz


def _citation(fields: _Fields) -> Citation:
    citation = Citation(
        source=fields.text("source", LIMITS.max_title),
        finding=fields.text("finding", LIMITS.max_paragraph),
    )
    fields.reject_unknown()
    return citation


def _reference(fields: _Fields) -> Reference:
    reference = Reference(
        text=fields.text("text", LIMITS.max_line), where=fields.text("where", LIMITS.max_line)
    )
    fields.reject_unknown()
    return reference


class _Fields:
    """Reads one TOML table, remembering which keys were used so the rest can be refused."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, Mapping):
            raise LessonError(f"{path or 'lesson'}: expected a table, got {_kind(data)}")
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
            raise LessonError(f"{self.where(key)}: expected text, got {_kind(value)}")
        _check_text(value, self.where(key), max_length)
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
            raise LessonError(f"{path}: expected a list of numbers, got {_kind(value)}")
        if exact_length is not None and len(value) != exact_length:
            raise LessonError(f"{path}: expected {exact_length} numbers ({why}), got {len(value)}")
        if max_length is not None and not 1 <= len(value) <= max_length:
            raise LessonError(f"{path}: expected 1 to {max_length} numbers, got {len(value)}")
        return tuple(_number(item, f"{path}[{i}]") for i, item in enumerate(value))

    def sequence(self, key: str, low: int, high: int) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise LessonError(f"{self.where(key)}: expected a list, got {_kind(value)}")
        if not low <= len(value) <= high:
            raise LessonError(
                f"{self.where(key)}: expected {low} to {high} entries, got {len(value)}"
            )
        return value

    def items(self, key: str, build: Callable[[_Fields], T], low: int, high: int) -> tuple[T, ...]:
        values = self.sequence(key, low, high)
        return tuple(
            build(_Fields(item, f"{self.where(key)}[{i}]")) for i, item in enumerate(values)
        )

    def answers(self, key: str) -> tuple[str, ...]:
        """What each value slot stands for: whole numbers or short labels."""
        values = self.sequence(key, 1, LIMITS.max_value_length)
        labels = []
        for i, value in enumerate(values):
            path = f"{self.where(key)}[{i}]"
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise LessonError(
                    f"{path}: expected a whole number or a short text, got {_kind(value)}"
                )
            labels.append(str(value))
            _check_text(labels[-1], path, LIMITS.max_answer)
        return tuple(labels)

    def table(self, key: str, build: Callable[[_Fields], T]) -> T:
        return build(_Fields(self.get(key), self.where(key)))

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
        raise LessonError(f"{path}: expected a table, got {_kind(table)}")
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
            raise LessonError(f"{where}: expected text, got {_kind(value)}")
        else:
            # A said entry (new, or overriding) speaks a caption: it takes the caption's names.
            template = english().get(entry, english().get(caption_name(entry), ""))
            _check_text(value, where, KINDS[kind_of(entry)])
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
        raise LessonError(f"{path}: expected a number, got {_kind(value)}")
    if not math.isfinite(value):
        raise LessonError(f"{path}: expected a finite number, got {value}")
    if abs(value) > LIMITS.max_abs_number:
        raise LessonError(
            f"{path}: {value} is too large to show (limit ±{LIMITS.max_abs_number:g})"
        )
    if round(value, LIMITS.max_decimals) != value:
        raise LessonError(f"{path}: {value} has more than {LIMITS.max_decimals} decimal places")
    return float(value)


def _check_text(text: str, path: str, max_length: int) -> None:
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


def _kind(value: Any) -> str:
    names = {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}
    return names.get(type(value), "a table" if isinstance(value, Mapping) else type(value).__name__)
