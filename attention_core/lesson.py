"""The lesson as data: a TOML file loaded once into frozen, validated dataclasses."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from .checks import check_needs, check_quiz, check_scores, check_sizes, in_step
from .fields import Fields
from .limits import LIMITS, LessonError, Limits
from .matrix import MASKS, project
from .model import Citation, Head, Lesson, Matrix, Quiz, Reference, ShareQuiz, Token
from .steps import DEFAULT_STEPS
from .text_file import TextFileError, read_small_text

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


DEFAULT_SERIES = "Day 004 · Transformers"
"""The series of a lesson that names none: the one this lesson was written for."""
VOICES = ("joe", "heart", "espeak", "none")
"""What a lesson's ``voice`` may name: Piper's en_US joe, hibari's heart, espeak-ng (any
language it knows: the lesson's ``common.word.language``), or no narration. ``render.py
--voice`` overrides it."""


def default_lesson() -> Lesson:
    """The lesson the tutorial teaches, shipped inside this package."""
    text = resources.files("attention_core").joinpath("lesson.toml").read_text("utf-8")
    return parse_lesson(_parse_toml(text, "lesson.toml"))


def load_lesson(path: str | Path) -> Lesson:
    """Read and validate a lesson TOML file; raise LessonError naming what is wrong."""
    path = Path(path)
    try:
        text = read_small_text(path, LIMITS.max_file_bytes)
    except TextFileError as error:
        raise LessonError(f"{path}: {error}") from None
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
    fields = Fields(data, "")
    listed = fields.steps("steps") if "steps" in data else None
    try:
        lesson = _parse(fields, listed or DEFAULT_STEPS)
        check_needs(lesson, named=listed is not None)
        check_sizes(lesson)
        check_scores(lesson)
        check_quiz(lesson)
    except LessonError as error:
        raise in_step(error, listed) from None
    return lesson


def _parse(fields: Fields, steps: tuple[str, ...]) -> Lesson:
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


def _w_o(fields: Fields, heads: tuple[Head, ...], d_v: int) -> Matrix:
    if not heads:
        fields.used.add("w_o")
        raise LessonError("w_o: needs [[heads]]: it multiplies their joined outputs")
    return fields.matrix(
        "w_o",
        rows=(len(heads) * d_v, "the heads' joined outputs: heads × d_v"),
        max_columns=LIMITS.max_out_width,
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

    def token(self, fields: Fields) -> Token:
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

    def rival(self, fields: Fields) -> Token:
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

    def _own_query(self, fields: Fields) -> tuple[float, ...]:
        if self.d_k is None:  # the first token's query sets dₖ for every other vector
            query = fields.vector("query", max_length=LIMITS.max_asking_d_k)
            self.d_k, self.d_k_from = len(query), f"{fields.path}.query's length"
            return query
        return fields.vector("query", exact_length=self.d_k, why=self.d_k_from)

    def _embedded(self, fields: Fields) -> Token:
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


def _head(d_v: int) -> Callable[[Fields], Head]:
    """A head's builder: the first head's W_Q sets d_model and dₖ for every matrix after it."""
    read: list[Head] = []

    def build(fields: Fields) -> Head:
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


def _quiz(fields: Fields) -> Quiz | ShareQuiz:
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


def _citation(fields: Fields) -> Citation:
    citation = Citation(
        source=fields.text("source", LIMITS.max_title),
        finding=fields.text("finding", LIMITS.max_paragraph),
    )
    fields.reject_unknown()
    return citation


def _reference(fields: Fields) -> Reference:
    reference = Reference(
        text=fields.text("text", LIMITS.max_line), where=fields.text("where", LIMITS.max_line)
    )
    fields.reject_unknown()
    return reference
