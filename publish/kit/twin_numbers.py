"""What the twin shows of each step: every number its kind's twin spec names, by its key.

A key is ``(quantity, token, head, row, col)``, each as its ``data-`` attribute holds it ("" when
it does not apply). Each number is its source's (:data:`attention_core.twin_spec.SOURCES`, read
here from :func:`attention_core.worked`), formatted by its rule; ``twin.js`` computes the same
sources in the browser, and tests/test_twin.py proves the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from attention_core import formatting as fmt
from attention_core.heads import join, mix
from attention_core.maths import BUDGET, Vector
from attention_core.matrix import GridAttention
from attention_core.model import Quiz as FillerQuiz
from attention_core.model import ShareQuiz
from attention_core.steps import KINDS
from attention_core.twin_spec import AXES, Number, Table, numbers_of
from attention_core.worked import Worked

__all__ = ["SOURCES", "Key", "Shown", "key", "numbers", "shown"]

Key = tuple[str, str, str, str, str]
Shown = dict[Key, str]


def key(
    quantity: str, token: object = "", head: object = "", row: object = "", col: object = ""
) -> Key:
    """A number's key, each part as its ``data-`` attribute holds it."""
    return (quantity, str(token), str(head), str(row), str(col))


def numbers(w: Worked, kind: str) -> Shown:
    """Every number step ``kind`` shows in the twin, by key ({} for a kind whose spec names
    none: the panel shows its heading only)."""
    spec = KINDS[kind]
    found: Shown = {}
    for part in spec.twin:
        listed = numbers_of((part,))
        if isinstance(part, Table):  # its last row only under columns it shows
            columns = {k: text for number in part.columns for k, text in shown(w, number)}
            listed = listed if columns else ()
        found |= {k: text for number in listed for k, text in shown(w, number)}
    if spec.headline is not None:
        found |= dict(shown(w, spec.headline))
    return found


def shown(w: Worked, number: Number) -> Iterator[tuple[Key, str]]:
    """Each place of ``number``'s source, keyed, its value set in its rule; nothing where the
    lesson has no such source (no rival, no heads)."""
    value = SOURCES[number.source](w)
    if value is None:
        return
    rule = fmt.RULES[number.rule]
    roughly = w.lesson.words["common.word.about"]
    for at, x in _places(value, len(number.over)):
        parts = dict(zip(number.over, at, strict=True))
        text = fmt.option(x, roughly) if number.roughly else fmt.apply(rule, x)
        yield key(number.quantity, *(parts.get(axis, "") for axis in AXES)), text


def _places(
    value: Any, depth: int, at: tuple[object, ...] = ()
) -> Iterator[tuple[tuple[object, ...], float]]:
    """Every number of a nested value (sequences by place, mappings by key), with its place."""
    if depth == 0:
        yield at, float(value)
        return
    items = value.items() if isinstance(value, Mapping) else enumerate(value)
    for place, inner in items:
        yield from _places(inner, depth - 1, (*at, place))


Source = Callable[[Worked], Any]


def _with_rival(values: Sequence[float] | Vector) -> dict[object, float]:
    """The rival's run by place, the rival (last) named ``rival``."""
    return {("rival" if t == len(values) - 1 else t): x for t, x in enumerate(values)}


def _filler(read: Callable[[Worked], Any]) -> Source:
    return lambda w: read(w) if isinstance(w.lesson.quiz, FillerQuiz) else None


def _share(read: Callable[[GridAttention, ShareQuiz, int], Any]) -> Source:
    """A share quiz's row: of the grid asked about, under the head asked about ("" without)."""

    def source(w: Worked) -> Any:
        quiz = w.lesson.quiz
        if not isinstance(quiz, ShareQuiz):
            return None
        grid = w.share_quiz.grid.attention
        return {(quiz.head if w.lesson.heads else ""): read(grid, quiz, quiz.asker)}

    return source


def _rival(read: Callable[[Worked], Any]) -> Source:
    return lambda w: read(w) if w.lesson.rival is not None else None


def _grids(name: str, grid: Callable[[Worked], Any]) -> dict[str, Source]:
    def reading(field: str) -> Source:
        return lambda w: getattr(grid(w).attention, field) if w.lesson.asks else None

    return {
        f"{name}.{field}": reading(field)
        for field in ("dots", "scores", "pulls", "weights", "outputs", "totals")
    }


def _joined(w: Worked) -> Any:
    return join(tuple(h.attention for h in w.heads))


def _mixed(w: Worked) -> Any:
    return mix(_joined(w), np.array(w.lesson.w_o, dtype=np.float64))


def _heads(read: Callable[[Worked], Any]) -> Source:
    return lambda w: read(w) if w.lesson.heads else None


SOURCES: dict[str, Source] = {
    "one.root_d_k": lambda w: w.before.attention.root_d_k,
    "one.products": lambda w: w.before.attention.products,
    "one.dots": lambda w: w.before.attention.dots,
    "one.scores": lambda w: w.before.attention.scores,
    "one.pulls": lambda w: w.before.attention.pulls,
    "one.total": lambda w: w.before.attention.total,
    "one.weights": lambda w: w.before.attention.weights,
    "one.scaled": lambda w: w.before.attention.weighted_values,
    "one.output": lambda w: w.before.attention.output,
    "budget": lambda w: BUDGET,
    "rival.dot": _rival(lambda w: {"rival": w.after.attention.dots[-1]}),
    "rival.score": _rival(lambda w: {"rival": w.after.attention.scores[-1]}),
    "rival.weights": _rival(lambda w: _with_rival(w.after.attention.weights)),
    "rival.output": _rival(lambda w: w.after.attention.output),
    "rival.left": _rival(lambda w: w.after.attention.weights[w.outcome.top_token]),
    "quiz.rival_score": _filler(lambda w: {"rival": w.quiz.numbers.rival_score}),
    "quiz.gap": _filler(lambda w: w.quiz.numbers.gap),
    "quiz.needed": _filler(lambda w: w.quiz.numbers.fillers_needed),
    "quiz.options": _filler(lambda w: w.quiz.numbers.options),
    "quiz.bonus_gap": _filler(lambda w: w.quiz.numbers.bonus_gap),
    "quiz.bonus_needed": _filler(lambda w: w.quiz.numbers.bonus_fillers_needed),
    "share_quiz.scores": _share(lambda a, q, i: a.scores[i]),
    "share_quiz.pulls": _share(lambda a, q, i: a.pulls[i]),
    "share_quiz.weights": _share(lambda a, q, i: a.weights[i]),
    "share_quiz.total": _share(lambda a, q, i: a.totals[i]),
    "share_quiz.answer": _share(lambda a, q, i: a.weights[i][q.to]),
    **_grids("grid", lambda w: w.grid),
    **_grids("first_grid", lambda w: w.open_grid if "mask" in w.lesson.steps else w.grid),
    "heads.q": _heads(lambda w: [h.attention.grid.queries for h in w.heads]),
    "heads.k": _heads(lambda w: [h.attention.grid.keys for h in w.heads]),
    "heads.v": _heads(lambda w: [h.attention.grid.values for h in w.heads]),
    "heads.weights": _heads(lambda w: [h.attention.grid.weights for h in w.heads]),
    "heads.outputs": _heads(lambda w: [h.attention.grid.outputs for h in w.heads]),
    "heads.joined": _heads(lambda w: _joined(w)),
    "heads.mixed": lambda w: None if w.lesson.w_o is None else _heads(_mixed)(w),
}
"""How each source of :data:`attention_core.twin_spec.SOURCES` is read from the worked lesson:
its numbers, or None when the lesson has none."""
