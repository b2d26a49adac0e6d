"""The checks the scene tests make of one dry run: numbers from the maths, texts in the frame."""

from __future__ import annotations

import numpy as np
from manim import config

from attention_core import (
    BUDGET,
    PULL_PER_SCORE_POINT,
    Lesson,
    attend,
    quiz_answer,
    with_rival,
)
from attention_core import formatting as fmt
from scenes import SCENES
from scenes.probe import NUMBER, Probe

__all__ = ["MARGIN", "allowed_numbers", "layout_problems", "lesson_texts", "stray_numbers"]

MARGIN = 0.1


def allowed_numbers(lesson: Lesson) -> set[str]:
    """Every number string the formatter can make of the lesson's data and its maths."""
    values: list[float] = [len(SCENES), *range(1, len(SCENES) + 1)]
    for result in (attend(lesson), attend(with_rival(lesson))):
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
        PULL_PER_SCORE_POINT,
        BUDGET,
    ]
    formatters = (
        fmt.number,
        fmt.factor,
        fmt.pull,
        fmt.share,
        fmt.weight,
        fmt.ratio,
        fmt.rounded,
        fmt.about,
    )
    strings = [f(v) for v in values for f in formatters]
    strings += [fmt.short_weights([v]) for v in values] + [fmt.tensor([v]) for v in values]
    words = lesson_texts(lesson)
    return {n for s in strings + words for n in NUMBER.findall(s)}


def lesson_texts(lesson: Lesson) -> list[str]:
    """Every text the lesson itself gives: its names, sentences and references."""
    return [
        lesson.title,
        lesson.promise,
        lesson.question,
        lesson.takeaway,
        lesson.citation.source,
        lesson.citation.finding,
        *lesson.answers,
        *(text for t in (*lesson.tokens, lesson.rival) for text in (t.text, t.short)),
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


def overlap(a: tuple[float, ...], b: tuple[float, ...], slack: float = 0.02) -> bool:
    return (
        a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]
    )
