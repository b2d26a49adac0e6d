"""The twin's inputs: a number field per input of the lesson, named by its role and place.

Each field carries ``data-input`` (``query``, ``key``, ``value``, ``embedding``, ``w_q`` … ``w_o``,
``filler_score``, ``bonus_filler_score``) and ``data-index``, with ``data-token`` (a token's
place, or ``rival``), ``data-head``, ``data-row`` and ``data-col`` where they apply; its value is
the lesson's own number, which "back to the lesson" restores.
"""

from __future__ import annotations

from collections.abc import Sequence

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.model import Quiz as FillerQuiz
from publish.kit.templating import render

__all__ = ["fields"]


def fields(lesson: Lesson) -> str:
    """A field per input number, each named by its role (``data-input``) and place."""
    words = lesson.words
    rows: list[dict[str, object]] = []
    matrices: list[dict[str, object]] | None = None
    numbers: list[dict[str, object]] = []
    if lesson.heads:
        rows += [
            _vector_row(lesson, "embedding", t, tok.embedding or ())
            for t, tok in enumerate(lesson.tokens)
        ]
        matrices = [
            _matrix_fields(lesson, f"w_{r}", h, getattr(head, f"w_{r}"))
            for h, head in enumerate(lesson.heads)
            for r in "qkv"
        ]
        if lesson.w_o is not None:
            matrices.append(_matrix_fields(lesson, "w_o", None, lesson.w_o))
    else:
        if not lesson.asks:
            rows.append(_vector_row(lesson, "query", None, lesson.query))
        for t, tok in enumerate(lesson.tokens):
            if tok.query is not None:
                rows.append(_vector_row(lesson, "query", t, tok.query))
            rows += [
                _vector_row(lesson, "key", t, tok.key),
                _vector_row(lesson, "value", t, tok.value),
            ]
        if lesson.rival is not None:
            rows += [
                _vector_row(lesson, "key", "rival", lesson.rival.key),
                _vector_row(lesson, "value", "rival", lesson.rival.value),
            ]
        if isinstance(lesson.quiz, FillerQuiz):
            numbers = [
                _number(lesson, "filler_score", "page.word.filler", lesson.quiz.filler_score),
                _number(
                    lesson,
                    "bonus_filler_score",
                    "page.word.bonus_filler",
                    lesson.quiz.bonus_filler_score,
                ),
            ]
    return render(
        "twin_fields.html",
        legend=words["page.word.inputs"],
        words=words,
        rows=rows,
        matrices=matrices,
        numbers=numbers,
    )


def _who(lesson: Lesson, token: object) -> str:
    if token == "rival":
        return lesson.words["page.word.rival"]
    if isinstance(token, int):
        return lesson.tokens[token].short
    return ""


def _vector_row(
    lesson: Lesson, role: str, token: object, entries: Sequence[float]
) -> dict[str, object]:
    name = lesson.words[f"handout.word.{role}"]
    who = _who(lesson, token)
    return {
        "label": f"{name} · {who}" if who else name,
        "role": role,
        "token": None if token is None else str(token),
        "entries": [_shown(x) for x in entries],
    }


def _number(lesson: Lesson, role: str, entry: str, x: float) -> dict[str, object]:
    return {"label": lesson.words[entry], "role": role, "value": _shown(x)}


def _matrix_fields(
    lesson: Lesson, role: str, head: int | None, matrix: Sequence[Sequence[float]]
) -> dict[str, object]:
    title = f"W{role[2:].upper()}"
    if head is not None:
        title = f"{lesson.words.say('handout.heading.head', number=fmt.number(head + 1))} · {title}"
    return {
        "title": title,
        "role": role,
        "head": head,
        "rows": [[_shown(x) for x in line] for line in matrix],
    }


def _shown(x: float) -> str:
    return fmt.number(x)  # a lesson's numbers have at most two places: exact
