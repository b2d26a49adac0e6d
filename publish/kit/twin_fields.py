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
from publish.kit.twin_layout import table
from publish.kit.webpage import html_attribute, html_text

__all__ = ["fields"]


def fields(lesson: Lesson) -> str:
    """A field per input number, each named by its role (``data-input``) and place."""
    words = lesson.words
    legend = words["page.word.inputs"]
    rows: list[str] = []
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
        return _fieldset(
            legend, table(["", words["handout.word.embedding"]], rows) + "".join(matrices)
        )
    if not lesson.asks:
        rows.append(_vector_row(lesson, "query", None, lesson.query))
    for t, tok in enumerate(lesson.tokens):
        if tok.query is not None:
            rows.append(_vector_row(lesson, "query", t, tok.query))
        rows += [_vector_row(lesson, "key", t, tok.key), _vector_row(lesson, "value", t, tok.value)]
    if lesson.rival is not None:
        rows += [
            _vector_row(lesson, "key", "rival", lesson.rival.key),
            _vector_row(lesson, "value", "rival", lesson.rival.value),
        ]
    quiz = ""
    if isinstance(lesson.quiz, FillerQuiz):
        quiz = table(
            [],
            [
                _number_row(lesson, "filler_score", "page.word.filler", lesson.quiz.filler_score),
                _number_row(
                    lesson,
                    "bonus_filler_score",
                    "page.word.bonus_filler",
                    lesson.quiz.bonus_filler_score,
                ),
            ],
        )
    return _fieldset(legend, table([], rows) + quiz)


def _fieldset(legend: str, inner: str) -> str:
    return f"<fieldset><legend>{html_text(legend)}</legend>{inner}</fieldset>"


def _who(lesson: Lesson, token: object) -> str:
    if token == "rival":
        return lesson.words["page.word.rival"]
    if isinstance(token, int):
        return lesson.tokens[token].short
    return ""


def _vector_row(lesson: Lesson, role: str, token: object, entries: Sequence[float]) -> str:
    name = lesson.words[f"handout.word.{role}"]
    who = _who(lesson, token)
    label = f"{name} · {who}" if who else name
    at = "" if token is None else f' data-token="{html_attribute(str(token))}"'
    cells = "".join(
        f"<td>{_input(f'{label} · {i + 1}', f'data-input={role}{at} data-index={i}', x)}</td>"
        for i, x in enumerate(entries)
    )
    return f"<tr><th scope=row>{html_text(label)}</th>{cells}</tr>"


def _number_row(lesson: Lesson, role: str, entry: str, x: float) -> str:
    label = lesson.words[entry]
    field = _input(label, f"data-input={role} data-index=0", x)
    return f"<tr><th scope=row>{html_text(label)}</th><td>{field}</td></tr>"


def _matrix_fields(
    lesson: Lesson, role: str, head: int | None, matrix: Sequence[Sequence[float]]
) -> str:
    title = f"W{role[2:].upper()}"
    if head is not None:
        title = f"{lesson.words.say('handout.heading.head', number=fmt.number(head + 1))} · {title}"
    at = "" if head is None else f' data-head="{head}"'
    width = len(matrix[0])

    def field(r: int, c: int, x: float) -> str:
        where = f"data-input={role}{at} data-row={r} data-col={c} data-index={r * width + c}"
        return f"<td>{_input(f'{title} · {r + 1} · {c + 1}', where, x)}</td>"

    rows = "".join(
        "<tr>" + "".join(field(r, c, x) for c, x in enumerate(line)) + "</tr>"
        for r, line in enumerate(matrix)
    )
    return f"<table><caption>{html_text(title)}</caption>{rows}</table>"


def _input(label: str, attributes: str, x: float) -> str:
    shown = fmt.number(x)  # a lesson's numbers have at most two places: exact
    return (
        f'<input type=number step=any inputmode=decimal value="{shown}" '
        f'aria-label="{html_attribute(label)}" {attributes}>'
    )
