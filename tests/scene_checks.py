"""The checks the scene tests make of one dry run: numbers from the maths, texts in the frame."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

import numpy as np
from manim import config

from attention_core import (
    BUDGET,
    PULL_PER_SCORE_POINT,
    SCALING_SECTION,
    Lesson,
    Quiz,
    attend,
    attend_grid,
    quiz_answer,
    with_rival,
)
from attention_core import formatting as fmt
from attention_core.heads import attend_heads
from attention_core.maths import HEADS_SECTION, MASK_SECTION
from attention_core.worked import worked
from scenes.base import LessonScene
from scenes.composition import overlap
from scenes.probe import NUMBER, Probe, Shown, run_dry

__all__ = [
    "MARGIN",
    "allowed_numbers",
    "layout_problems",
    "lesson_texts",
    "formula_moments",
    "shown_sums",
    "stray_numbers",
    "sums_that_do_not_add_up",
]

MARGIN = 0.1


def allowed_numbers(lesson: Lesson) -> set[str]:
    """Every number string the formatter can make of the lesson's data and its maths."""
    steps = len(lesson.steps)
    values: list[float] = [steps, *range(1, steps + 1)]
    # Strings made of a whole, not of any one value; and the paper's sections cited.
    shown_as_such = [fmt.budget(BUDGET), SCALING_SECTION, MASK_SECTION, HEADS_SECTION]
    runs = [attend(lesson)] + ([attend(with_rival(lesson))] if lesson.rival is not None else [])
    for result in runs:
        for name in (
            "query",
            "keys",
            "values",
            "products",
            "dots",
            "scores",
            "pulls",
            "weights",
            "weighted_values",
            "output",
        ):
            values += np.ravel(getattr(result, name)).tolist()
        values += [result.d_k, result.root_d_k, result.total]
    if lesson.asks:  # every token asks: both grids, the mask's and the open one
        for grid in (attend_grid(lesson), attend_grid(lesson, masked=False)):
            for name in GRID_QUANTITIES:
                values += [v for v in np.ravel(getattr(grid, name)).tolist() if np.isfinite(v)]
            values += [grid.d_k, grid.root_d_k]
    if lesson.heads:  # every head's matrices, projections and grid; joined; × W_O
        multi = attend_heads(lesson)
        values += np.ravel(multi.embeddings).tolist()
        for head in multi.heads:
            values += [*np.ravel(head.w_q), *np.ravel(head.w_k), *np.ravel(head.w_v)]
            for name in GRID_QUANTITIES:
                values += [v for v in np.ravel(getattr(head.grid, name)).tolist() if np.isfinite(v)]
        values += [*np.ravel(multi.joined), *np.ravel(multi.mixed), len(multi.heads)]
        if multi.w_o is not None:
            values += np.ravel(multi.w_o).tolist()
    if isinstance(lesson.quiz, Quiz):
        quiz = quiz_answer(lesson)
        values += [
            quiz.rival_score,
            quiz.filler_score,
            quiz.fillers_needed,
            quiz.bonus_filler_score,
            quiz.bonus_fillers_needed,
            quiz.gap,
            quiz.bonus_gap,
            *quiz.options,
        ]
    elif lesson.quiz is not None:  # its options are shares of the grid, as formatted
        shown_as_such += list(worked(lesson).share_quiz.options)
    values += [PULL_PER_SCORE_POINT, BUDGET]
    formatters = (
        fmt.number,
        fmt.factor,
        fmt.pull,
        fmt.share,
        fmt.percent,
        fmt.weight,
        fmt.ratio,
        fmt.rounded,
        fmt.about,
    )
    strings = [f(v) for v in values for f in formatters] + shown_as_such
    strings += [fmt.short_weights([v]) for v in values] + [fmt.tensor([v]) for v in values]
    words = lesson_texts(lesson)
    return {n for s in strings + words for n in NUMBER.findall(s)}


GRID_QUANTITIES = (
    "queries",
    "keys",
    "values",
    "products",
    "dots",
    "scores",
    "pulls",
    "totals",
    "weights",
    "outputs",
)
"""What the grid steps show of ``attend_grid``: −∞ scores are words, not numbers."""


def lesson_texts(lesson: Lesson) -> list[str]:
    """Every text the lesson itself gives: its names, sentences and references."""
    return [
        lesson.title,
        lesson.series,
        lesson.promise,
        lesson.question,
        lesson.takeaway,
        lesson.citation.source,
        lesson.citation.finding,
        *lesson.answers,
        *(
            text
            for t in (*lesson.tokens, *([lesson.rival] if lesson.rival else []))
            for text in (t.text, t.short)
        ),
        *(text for r in lesson.references for text in (r.text, r.where)),
    ]


def stray_numbers(probe: Probe, lesson: Lesson) -> set[str]:
    """Numbers the scene showed that attention_core never made of this lesson."""
    return probe.numbers - allowed_numbers(lesson)


def layout_problems(probe: Probe) -> list[str]:
    """Every text that leaves the frame, and every two texts that overlap, at any moment."""
    half_w, half_h = config.frame_width / 2 - MARGIN, config.frame_height / 2 - MARGIN
    problems = []
    for moment, shown in enumerate(probe.moments):
        for item in shown:
            left, bottom, right, top = item.box
            if not (-half_w <= left and right <= half_w and -half_h <= bottom and top <= half_h):
                problems.append(f"moment {moment}: {item.text!r} leaves the frame: {item.box}")
        for i, a in enumerate(shown):
            for b in shown[i + 1 :]:
                if not (a.overlap_ok or b.overlap_ok) and overlap(a.box, b.box):
                    problems.append(f"moment {moment}: {a.text!r} overlaps {b.text!r}")
    return problems


def formula_moments(scene_class: type[LessonScene], lesson: Lesson) -> list[list[Shown]]:
    """Every moment of the scene's (shared) dry run: the probe reads each part of a formula that
    is on screen on its own, such as the pulls flown into step 4's total line."""
    return run_dry(scene_class, lesson).moments


def shown_sums(moments: list[list[Shown]]) -> set[tuple[tuple[str, ...], str]]:
    """Every sum a viewer can read on screen, ``a + b + … = c``, as (its terms, what it equals).

    Each moment's texts are read as lines (texts level with each other, left to right). A term
    is a number or a product of numbers (``2 \\times 3``); what a sum equals is the number or
    the sum that follows its ``=``.
    """
    found = set()
    for moment in moments:
        for line in _lines(moment):
            words = line.replace("×", " \\times ").split()  # x·W's terms: 1 × 0.5
            for i, word in enumerate(words):
                if word != "=":
                    continue
                terms = _terms_ending_at(words, i - 1)
                equals = _terms_starting_at(words, i + 1)
                if len(terms) >= 2 and equals:
                    found.add((tuple(terms), " + ".join(equals)))
    return found


def sums_that_do_not_add_up(moments: list[list[Shown]]) -> list[str]:
    """The sums on screen whose shown terms do not add up to what they are shown to equal.

    Products of the lesson's numbers are exact; a lone number with decimals (a pull) is rounded,
    so the sum may be off by half a unit in its last place for each such term, as on the slide
    (``20.09 + 2.72 + 1.00 = 23.80``, the exact total rounded)."""
    return [
        f"{' + '.join(terms)} = {equals}"
        for terms, equals in sorted(shown_sums(moments))
        if abs(_value(terms) - _value(equals.split(" + "))) > _rounding(terms)
    ]


def _rounding(terms: Sequence[str]) -> Decimal:
    """How far rounded terms can add up from the rounded exact total: half a unit in the last
    place of each lone number with decimals, and of the total."""
    rounded = [t for t in terms if "\\times" not in t and "." in t]
    units = [Decimal(1).scaleb(int(_decimal(t).as_tuple().exponent)) for t in rounded]
    return sum(units, Decimal(0)) / 2 + (max(units) / 2 if units else Decimal(0))


def _lines(moment: list[Shown]) -> list[str]:
    """The texts of one moment grouped into lines: a text joins a line when their centres sit
    within each other's height."""
    lines: list[list[Shown]] = []
    for item in sorted(moment, key=_middle, reverse=True):
        for line in lines:
            anchor = line[0]
            if (
                anchor.box[1] <= _middle(item) <= anchor.box[3]
                or item.box[1] <= _middle(anchor) <= item.box[3]
            ):
                line.append(item)
                break
        else:
            lines.append([item])
    return [" ".join(shown.text for shown in sorted(line, key=_left)) for line in lines]


def _left(shown: Shown) -> float:
    return shown.box[0]


def _middle(shown: Shown) -> float:
    return (shown.box[1] + shown.box[3]) / 2


def _terms_ending_at(words: list[str], last: int) -> list[str]:
    """The terms of the sum that ends at ``words[last]``; none when a term is not a number or a
    product of numbers, or when an operator comes before the sum (``÷ 2 + 1`` is no sum)."""
    terms: list[str] = []
    i = last
    while i >= 0 and _is_number(words[i]):
        start = i
        while start >= 2 and words[start - 1] == "\\times" and _is_number(words[start - 2]):
            start -= 2
        terms.insert(0, " ".join(words[start : i + 1]))
        if start >= 2 and words[start - 1] == "+":
            i = start - 2
            continue
        before = words[start - 1] if start >= 1 else ""
        return [] if before in _OPERATORS else terms
    return []


def _terms_starting_at(words: list[str], first: int) -> list[str]:
    """The terms of the sum (or the single number) that starts at ``words[first]``."""
    terms: list[str] = []
    i = first
    while i < len(words) and _is_number(words[i]):
        end = i
        while end + 2 < len(words) and words[end + 1] == "\\times" and _is_number(words[end + 2]):
            end += 2
        terms.append(" ".join(words[i : end + 1]))
        if end + 2 < len(words) and words[end + 1] == "+":
            i = end + 2
        else:
            break
    return terms


def _value(terms: Sequence[str]) -> Decimal:
    total = Decimal(0)
    for term in terms:
        product = Decimal(1)
        for factor in term.split(" \\times "):
            product *= _decimal(factor)
        total += product
    return total


_OPERATORS = {"+", "-", "−", "\\times", "×", "\\cdot", "·", "\\div", "÷"}


def _is_number(word: str) -> bool:
    return NUMBER.fullmatch(word.removeprefix("(").removesuffix(")")) is not None


def _decimal(word: str) -> Decimal:
    return Decimal(word.removeprefix("(").removesuffix(")"))
