"""The lesson as data: a TOML file loaded once into frozen, validated dataclasses."""

from __future__ import annotations

import math
import re
import string
import tomllib
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from . import formatting as fmt
from .maths import quiz_answer, scores
from .matrix import MASKS, attend_all, hidden_by, project
from .share_quiz import share_answer
from .steps import DEFAULT_STEPS
from .steps import KINDS as STEP_KINDS
from .words import KINDS, Words, caption_name, english, kind_of, placeholders, said_name

__all__ = [
    "DEFAULT_SERIES",
    "LIMITS",
    "VOICES",
    "Citation",
    "Head",
    "Lesson",
    "LessonError",
    "Limits",
    "Matrix",
    "Quiz",
    "Reference",
    "ShareQuiz",
    "Token",
    "default_lesson",
    "load_lesson",
    "parse_lesson",
]

T = TypeVar("T")

Matrix = tuple[tuple[float, ...], ...]
"""A matrix as its rows, as a TOML list of rows writes it."""


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
    max_steps: int = 12
    max_file_bytes: int = 64 * 1024
    max_asking_d_k: int = 4
    """dₖ when every token asks: each of up to 6 × 6 cells writes out a dot product of dₖ terms."""
    max_heads: int = 3
    max_d_model: int = 6
    """An embedding's length: the rows of every W_Q, W_K, W_V."""
    max_head_width: int = 4
    """A head's dₖ (W_Q's and W_K's columns) and d_v (W_V's): up to 3 × 4 joined entries."""
    max_out_width: int = 6
    """W_O's columns."""
    max_abs_entry: float = 9
    """An embedding's or a learned matrix's entries, small so that x·W can be done by hand."""
    entry_decimals: int = 1
    """Their decimal places: one each keeps every x·W exact at two places (as shown)."""


LIMITS = Limits()

DEFAULT_SERIES = "Day 004 · Transformers"
"""The series of a lesson that names none: the one this lesson was written for."""
VOICES = ("joe", "espeak", "none")
"""What a lesson's ``voice`` may name: Piper's en_US joe, espeak-ng (any language it knows:
the lesson's ``common.word.language``), or no narration. ``render.py --voice`` overrides it."""


@dataclass(frozen=True)
class Token:
    """One statement squeezed into one token: what it says, its key and its value.

    In a heads lesson its ``query``, ``key`` and ``value`` are not written but derived from
    its ``embedding`` through the first head (q = x·W_Q, k = x·W_K, v = x·W_V).
    """

    text: str
    short: str
    key: tuple[float, ...]
    value: tuple[float, ...]
    query: tuple[float, ...] | None = None
    """Its own query, when every token asks (written, or derived in a heads lesson)."""
    embedding: tuple[float, ...] | None = None
    """The token as d_model numbers, in a heads lesson; None otherwise."""


@dataclass(frozen=True)
class Head:
    """One attention head: its learned projections, each d_model rows."""

    w_q: Matrix
    """d_model × dₖ: an embedding to its query."""
    w_k: Matrix
    """d_model × dₖ: an embedding to its key."""
    w_v: Matrix
    """d_model × d_v (the number of answers): an embedding to its value."""


@dataclass(frozen=True)
class Quiz:
    """The quick check of Day 004: what filler tokens score, in the question and in the bonus."""

    filler_score: float
    bonus_filler_score: float


@dataclass(frozen=True)
class ShareQuiz:
    """The quick check of a lesson where every token asks: how much of one token's attention
    goes to another (in one head)? Its options are derived from the maths."""

    asker: int
    """The asking token, by its place in ``tokens`` (0 is the first)."""
    to: int
    """The token it attends to, by its place in ``tokens``."""
    head: int = 0
    """In a heads lesson, which head's attention, by its place in ``heads``; else 0."""


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
    """The one query Day 004's steps work on: written, or else the newest (last) token's own."""
    answers: tuple[str, ...]
    tokens: tuple[Token, ...]
    rival: Token | None
    """The lookalike token of the ``rival`` step; None when the lesson has none."""
    quiz: Quiz | ShareQuiz | None
    """The ``answer`` step's quick check, of either variant; None when the lesson has none."""
    takeaway: str
    citation: Citation
    references: tuple[Reference, ...]
    words: Words
    """Every word the scenes show or say: the English template with the lesson's [words]."""
    voice: str | None = None
    """Who narrates it (one of :data:`VOICES`); None: the default for its language."""
    steps: tuple[str, ...] = DEFAULT_STEPS
    """Its steps in order, each a kind of :data:`attention_core.steps.KINDS`."""
    mask: str | None = None
    """``"causal"``: token i sees tokens 0…i only (:data:`attention_core.matrix.MASKS`)."""
    heads: tuple[Head, ...] = ()
    """Its attention heads, each with its own projections; () when it has none."""
    w_o: Matrix | None = None
    """(heads × d_v) rows × d_out: what the joined heads' outputs are multiplied by."""

    @property
    def d_k(self) -> int:
        """The length of the query and of every key."""
        return len(self.query)

    @property
    def rival_token(self) -> Token:
        """The rival, for what shows it; LessonError when the lesson has none."""
        if self.rival is None:
            raise LessonError("rival: missing")
        return self.rival

    @property
    def filler_quiz(self) -> Quiz:
        """Day 004's quiz, for what shows it; LessonError when the lesson asks another."""
        if not isinstance(self.quiz, Quiz):
            raise LessonError("quiz: this lesson has no filler_score quiz")
        return self.quiz

    @property
    def share_quiz(self) -> ShareQuiz:
        """The quiz of a lesson where every token asks; LessonError when it asks another."""
        if not isinstance(self.quiz, ShareQuiz):
            raise LessonError("quiz: this lesson has no asker/to quiz")
        return self.quiz

    @property
    def asks(self) -> bool:
        """Whether every token has its own query (written, or derived by the heads)."""
        return all(token.query is not None for token in self.tokens)


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
    """Validate a parsed TOML document and build the Lesson from it.

    Parameters
    ----------
    data
        The document, as :func:`tomllib.loads` gives it.

    Returns
    -------
    Lesson
        The lesson, every field checked; in a heads lesson the tokens' query, key and value
        derived from their embeddings through the first head, and ``query`` (when not written)
        the newest token's own.

    Raises
    ------
    LessonError
        The first problem, naming the field; in a lesson that lists its ``steps``, also the
        first step that needs that field: ``steps[2] "mask": tokens[1].query: …``.
    """
    fields = _Fields(data, "")
    listed = fields.steps("steps") if "steps" in data else None
    try:
        lesson = _parse(fields, listed or DEFAULT_STEPS)
        _check_needs(lesson, named=listed is not None)
        _check_sizes(lesson)
        _check_scores(lesson)
        _check_quiz(lesson)
    except LessonError as error:
        raise _in_step(error, listed) from None
    return lesson


def _parse(fields: _Fields, steps: tuple[str, ...]) -> Lesson:
    data = fields.data
    answers = fields.answers("answers")
    mask = fields.choice("mask", MASKS) if "mask" in data else None
    if "heads" in data and len(answers) > LIMITS.max_head_width:
        raise LessonError(
            f"answers: expected 1 to {LIMITS.max_head_width} entries in a lesson with [[heads]] "
            f"(each head's d_v: up to {LIMITS.max_heads} × {LIMITS.max_head_width} joined), "
            f"got {len(answers)}"
        )
    heads = (
        fields.items("heads", _head(len(answers)), 1, LIMITS.max_heads) if "heads" in data else ()
    )
    written = (
        fields.vector("query", max_length=LIMITS.max_query_length) if "query" in data else None
    )
    shape = _Shape(answers=len(answers), heads=heads, d_k=_head_d_k(heads, written))
    listed = data.get("tokens")
    shape.some_ask = isinstance(listed, list) and any(
        isinstance(token, Mapping) and "query" in token for token in listed
    )
    tokens = fields.items("tokens", shape.token, LIMITS.min_tokens, LIMITS.max_tokens)
    query = written if written is not None else tokens[-1].query
    if query is None:  # the newest token asks nothing, though others do
        raise LessonError(f"tokens[{len(tokens) - 1}].query: missing (every token asks, or none)")
    lesson = Lesson(
        title=fields.text("title", LIMITS.max_title),
        series=fields.text("series", LIMITS.max_title) if "series" in data else DEFAULT_SERIES,
        promise=fields.text("promise", LIMITS.max_paragraph),
        question=fields.text("question", LIMITS.max_line),
        query=query,
        answers=answers,
        tokens=tokens,
        rival=fields.table("rival", shape.rival) if "rival" in data else None,
        quiz=fields.table("quiz", _quiz) if "quiz" in data else None,
        takeaway=fields.text("takeaway", LIMITS.max_paragraph),
        citation=fields.table("citation", _citation),
        references=fields.items("references", _reference, 0, LIMITS.max_references),
        words=fields.words("words"),
        voice=fields.choice("voice", VOICES) if "voice" in data else None,
        steps=steps,
        mask=mask,
        heads=heads,
        w_o=_w_o(fields, heads, len(answers)) if "w_o" in data else None,
    )
    fields.reject_unknown()
    return lesson


def _head_d_k(heads: tuple[Head, ...], written: tuple[float, ...] | None) -> int | None:
    """dₖ as far as known before the tokens: the heads' (W_Q's columns), else the query's."""
    if heads:
        d_k = len(heads[0].w_q[0])
        if written is not None and len(written) != d_k:
            raise LessonError(
                f"query: expected {d_k} numbers (the heads' dₖ: columns of heads[0].w_q), "
                f"got {len(written)}"
            )
        return d_k
    return len(written) if written is not None else None


def _w_o(fields: _Fields, heads: tuple[Head, ...], d_v: int) -> Matrix:
    if not heads:
        fields.used.add("w_o")
        raise LessonError("w_o: needs [[heads]]: it multiplies their joined outputs")
    return fields.matrix(
        "w_o",
        rows=(len(heads) * d_v, "the heads' joined outputs: heads × d_v"),
        max_columns=LIMITS.max_out_width,
    )


_NEEDED_COUNT = re.compile(r"^(\w+)\[(\d+)\]$")


def _missing(lesson: Lesson, need: str) -> str | None:
    """What of ``need`` (a field path of :attr:`StepKind.needs`) the lesson lacks, as the
    field's path, or None when it has it."""
    if need.startswith("tokens."):
        name = need.removeprefix("tokens.")
        for i, token in enumerate(lesson.tokens):
            if getattr(token, name) is None:
                return f"tokens[{i}].{name}"
        return None
    counted = _NEEDED_COUNT.match(need)
    if counted:  # heads[1]: at least two heads
        name, index = counted.group(1), int(counted.group(2))
        items = getattr(lesson, name)
        if not items:
            return name
        return need if len(items) <= index else None
    value = getattr(lesson, need)
    return need if value is None or value == () else None


_WHY_NEEDED = {"heads[1]": "this step compares two heads or more"}


def _check_needs(lesson: Lesson, *, named: bool) -> None:
    """Every field a step needs is in the lesson (written, or derived)."""
    for i, name in enumerate(lesson.steps):
        for need in STEP_KINDS[name].needs:
            missing = _missing(lesson, need)
            if missing is None:
                continue
            why = f" ({_WHY_NEEDED[need]})" if need in _WHY_NEEDED and missing == need else ""
            message = f"{missing}: missing{why}"
            raise LessonError(f'steps[{i}] "{name}": {message}' if named else message)


def _in_step(error: LessonError, listed: tuple[str, ...] | None) -> LessonError:
    """The error, prefixed by the first listed step that needs the field it names."""
    message = str(error)
    if listed is None or message.startswith("steps["):
        return error
    field = re.sub(r"\[\d+\]", "", message.partition(":")[0])
    for i, name in enumerate(listed):
        for need in STEP_KINDS[name].needs:
            need = re.sub(r"\[\d+\]", "", need)
            if field == need or field.startswith(f"{need}."):
                return LessonError(f'steps[{i}] "{name}": {message}')
    return error


def _check_sizes(lesson: Lesson) -> None:
    """A lesson where every token asks keeps dₖ small enough for its grid of dot products;
    the tokens' own queries come all or none; a heads lesson's projections stay showable."""
    with_query = [i for i, token in enumerate(lesson.tokens) if token.query is not None]
    if with_query and len(with_query) < len(lesson.tokens):
        lacking = next(i for i in range(len(lesson.tokens)) if i not in with_query)
        raise LessonError(
            f"tokens[{lacking}].query: missing (tokens[{with_query[0]}] has one: "
            "either every token asks, or none)"
        )
    if with_query and lesson.d_k > LIMITS.max_asking_d_k:
        where = "tokens[0].query" if not lesson.heads else "heads[0].w_q"
        raise LessonError(
            f"{where}: dₖ is {lesson.d_k}; when every token asks it may be at most "
            f"{LIMITS.max_asking_d_k}, so that each cell's dot product fits"
        )
    for h, head in enumerate(lesson.heads):
        for t, token in enumerate(lesson.tokens):
            assert token.embedding is not None  # every token of a heads lesson has one
            for role, matrix in (("query", head.w_q), ("key", head.w_k), ("value", head.w_v)):
                for entry in project(token.embedding, matrix):
                    if abs(entry) > LIMITS.max_abs_number:
                        raise LessonError(
                            f"tokens[{t}].embedding: its {role} in heads[{h}] has {entry:g}, "
                            f"too large to show (limit ±{LIMITS.max_abs_number:g})"
                        )


def _check_scores(lesson: Lesson) -> None:
    """Scores (and the quiz's filler scores) must keep e^score readable and the quiz meaningful."""
    limit = LIMITS.max_abs_score
    tail = f"scores must stay within ±{limit:g} so that e^score can be shown"
    # Every pair, masked ones too: the mask step shows the open grid before it darkens it.
    x = [token.embedding for token in lesson.tokens if token.embedding is not None]
    for h, head in enumerate(lesson.heads):
        grid = attend_all(project(x, head.w_q), project(x, head.w_k), project(x, head.w_v))
        for (i, j), score in np.ndenumerate(grid.scores):
            if abs(score) > limit:
                raise LessonError(
                    f"heads[{h}]: tokens[{i}]'s query scores {score:.2f} against "
                    f"tokens[{j}]'s key; {tail}"
                )
    if lesson.asks and not lesson.heads:
        for i, token in enumerate(lesson.tokens):
            assert token.query is not None
            for j, score in enumerate(scores(token.query, [t.key for t in lesson.tokens])):
                if abs(score) > limit:
                    raise LessonError(
                        f"tokens[{i}].query: scores {score:.2f} against tokens[{j}].key; {tail}"
                    )
    keys = {f"tokens[{i}]": token.key for i, token in enumerate(lesson.tokens)}
    if lesson.rival is not None:
        keys["rival"] = lesson.rival.key
    for path, score in zip(keys, scores(lesson.query, list(keys.values())), strict=True):
        if abs(score) > limit:
            raise LessonError(f"{path}.key: scores {score:.2f} against the query; {tail}")


def _check_quiz(lesson: Lesson) -> None:
    """Day 004's quiz is measured against the rival; the other names tokens that exist."""
    quiz, limit = lesson.quiz, LIMITS.max_abs_score
    if isinstance(quiz, ShareQuiz):
        _check_share_quiz(lesson, quiz)
        return
    if quiz is None:
        return
    if lesson.rival is None:
        raise LessonError("rival: missing (the quiz's filler scores are measured against it)")
    rival_score = scores(lesson.query, [lesson.rival.key])[0]
    for name in ("filler_score", "bonus_filler_score"):
        filler = getattr(quiz, name)
        if not -limit <= filler < rival_score:
            raise LessonError(
                f"quiz.{name}: {filler:g} must be below the rival's score ({rival_score:.2f}) "
                f"and at least -{limit:g}"
            )
    _check_quiz_options(lesson)


def _check_share_quiz(lesson: Lesson, quiz: ShareQuiz) -> None:
    count = len(lesson.tokens)
    for name in ("asker", "to"):
        index = getattr(quiz, name)
        if not 0 <= index < count:
            raise LessonError(
                f"quiz.{name}: {index} is not a token's place (0 to {count - 1}: "
                "tokens[0] is the first)"
            )
    if not lesson.asks:
        raise LessonError(
            "quiz.asker: this quiz asks how one token attends to another: "
            "every token needs its own query (tokens[0].query: missing)"
        )
    if lesson.heads and not 0 <= quiz.head < len(lesson.heads):
        raise LessonError(
            f"quiz.head: {quiz.head} is not a head's place (0 to {len(lesson.heads) - 1})"
        )
    if not lesson.heads and quiz.head != 0:
        raise LessonError("quiz.head: this lesson has no [[heads]]; leave it out")
    if hidden_by(lesson.mask, count)[quiz.asker, quiz.to]:
        raise LessonError(
            f"quiz.to: the {lesson.mask} mask hides tokens[{quiz.to}] from tokens[{quiz.asker}], "
            "so its share is 0 whatever the numbers; ask about a token the asker sees"
        )
    answer = share_answer(lesson)
    if len(answer.options) < 4:
        drawn = ", ".join(f"{slip} {fmt.share(value)}" for slip, value in answer.drawn)
        raise LessonError(
            f"quiz.to: the options would not read as four different answers (right "
            f"{fmt.share(answer.share)}; {drawn}); ask about another pair of tokens"
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


class _Shape:
    """The sizes the tokens must agree on, some known only from the first token read."""

    def __init__(self, *, answers: int, heads: tuple[Head, ...], d_k: int | None) -> None:
        self.answers = answers
        self.heads = heads
        self.d_k = d_k
        self.d_k_from = "the query's length"
        self.some_ask = False
        """Whether any token of the file has its own query."""

    def token(self, fields: _Fields) -> Token:
        """A token of the file: written q/k/v, or an embedding the first head projects."""
        if self.heads:
            token = self._embedded(fields)
        else:
            if "embedding" in fields.data:
                fields.used.add("embedding")
                raise LessonError(
                    f"{fields.where('embedding')}: needs [[heads]] to project it "
                    "(or write the token's query, key and value)"
                )
            query = self._own_query(fields) if "query" in fields.data else None
            if self.d_k is None and self.some_ask:  # others ask, the first does not
                raise LessonError(f"{fields.where('query')}: missing (every token asks, or none)")
            if self.d_k is None:  # neither a query nor this (first) token's own
                raise LessonError("query: missing")
            token = Token(
                text=fields.text("text", LIMITS.max_token_text),
                short=fields.text("short", LIMITS.max_short_length),
                key=fields.vector("key", exact_length=self.d_k, why=self.d_k_from),
                value=fields.vector(
                    "value", exact_length=self.answers, why="the number of answers"
                ),
                query=query,
            )
        fields.reject_unknown()
        return token

    def rival(self, fields: _Fields) -> Token:
        """The rival: a key and a value, scored against the one query."""
        assert self.d_k is not None  # the tokens came first and set it
        rival = Token(
            text=fields.text("text", LIMITS.max_token_text),
            short=fields.text("short", LIMITS.max_short_length),
            key=fields.vector("key", exact_length=self.d_k, why=self.d_k_from),
            value=fields.vector("value", exact_length=self.answers, why="the number of answers"),
        )
        fields.reject_unknown()
        return rival

    def _own_query(self, fields: _Fields) -> tuple[float, ...]:
        if self.d_k is None:  # the first token's query sets dₖ for every other vector
            query = fields.vector("query", max_length=LIMITS.max_asking_d_k)
            self.d_k, self.d_k_from = len(query), f"{fields.path}.query's length"
            return query
        return fields.vector("query", exact_length=self.d_k, why=self.d_k_from)

    def _embedded(self, fields: _Fields) -> Token:
        for derived in ("query", "key", "value"):
            if derived in fields.data:
                fields.used.add(derived)
                raise LessonError(
                    f"{fields.where(derived)}: not written in a lesson with [[heads]]: "
                    f"it is derived from the embedding (x·W_{derived[0].upper()} of heads[0])"
                )
        d_model = len(self.heads[0].w_q)
        embedding = fields.entries(
            "embedding", exact_length=d_model, why="the heads' d_model: rows of heads[0].w_q"
        )
        first = self.heads[0]
        return Token(
            text=fields.text("text", LIMITS.max_token_text),
            short=fields.text("short", LIMITS.max_short_length),
            key=_projected(embedding, first.w_k),
            value=_projected(embedding, first.w_v),
            query=_projected(embedding, first.w_q),
            embedding=embedding,
        )


def _projected(x: tuple[float, ...], w: Matrix) -> tuple[float, ...]:
    return tuple(float(entry) for entry in project(x, w))


def _head(d_v: int) -> Callable[[_Fields], Head]:
    """A head's builder: the first head's W_Q sets d_model and dₖ for every matrix after it."""
    read: list[Head] = []

    def build(fields: _Fields) -> Head:
        if read:
            w_q = fields.matrix("w_q", rows=_rows_of(read[0].w_q), columns=_columns_of(read[0].w_q))
        else:
            w_q = fields.matrix(
                "w_q", max_rows=LIMITS.max_d_model, max_columns=LIMITS.max_head_width
            )
        head = Head(
            w_q=w_q,
            w_k=fields.matrix("w_k", rows=_rows_of(w_q), columns=_columns_of(w_q)),
            w_v=fields.matrix("w_v", rows=_rows_of(w_q), columns=(d_v, "the number of answers")),
        )
        fields.reject_unknown()
        read.append(head)
        return head

    return build


def _rows_of(w_q: Matrix) -> tuple[int, str]:
    return len(w_q), "d_model: the rows of heads[0].w_q"


def _columns_of(w_q: Matrix) -> tuple[int, str]:
    return len(w_q[0]), "dₖ: the columns of heads[0].w_q"


def _quiz(fields: _Fields) -> Quiz | ShareQuiz:
    """Either variant, told apart by its keys: Day 004's filler scores, or asker and to."""
    quiz: Quiz | ShareQuiz
    if "asker" in fields.data or "to" in fields.data:
        quiz = ShareQuiz(
            asker=fields.index("asker"),
            to=fields.index("to"),
            head=fields.index("head") if "head" in fields.data else 0,
        )
    else:
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

    def index(self, key: str) -> int:
        """A place in a list: a whole number, 0 for the first."""
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise LessonError(f"{self.where(key)}: expected a whole number, got {_kind(value)}")
        return value

    def entries(self, key: str, *, exact_length: int, why: str) -> tuple[float, ...]:
        """An embedding: small numbers of at most one decimal place."""
        value = self.get(key)
        path = self.where(key)
        if not isinstance(value, list):
            raise LessonError(f"{path}: expected a list of numbers, got {_kind(value)}")
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
                f"{path}: expected a list of rows (lists of numbers), got {_kind(value)}"
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

    def steps(self, key: str) -> tuple[str, ...]:
        """The lesson's steps in order, each a known kind, none twice."""
        names = self.sequence(key, 1, LIMITS.max_steps)
        known = ", ".join(STEP_KINDS)
        for i, name in enumerate(names):
            path = f"{self.where(key)}[{i}]"
            if not isinstance(name, str):
                raise LessonError(f"{path}: expected a step's name, got {_kind(name)}")
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
