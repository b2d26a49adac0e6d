"""Properties of the attention maths, checked against a plain-Python reference."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import attend, default_lesson, parse_lesson, quiz_answer, softmax
from attention_core.exponential import exp

from .lessons import lesson_data

SCORES = st.lists(st.floats(-50, 50, allow_nan=False), min_size=1, max_size=8)


@given(SCORES)
def test_weights_are_positive_and_sum_to_one(scores: list[float]) -> None:
    weights = softmax(np.array(scores))
    assert (weights > 0).all()
    assert math.isclose(weights.sum(), 1.0, rel_tol=1e-12)


@given(SCORES, st.floats(-100, 100, allow_nan=False))
def test_adding_a_constant_to_every_score_changes_nothing(
    scores: list[float], shift: float
) -> None:
    np.testing.assert_allclose(
        softmax(np.array(scores) + shift), softmax(np.array(scores)), atol=1e-12
    )


def test_huge_scores_do_not_overflow() -> None:
    weights = softmax(np.array([10_000.0, -10_000.0, 9_999.0]))
    assert np.isfinite(weights).all()
    assert math.isclose(weights.sum(), 1.0)
    assert weights[0] > weights[2] > weights[1] >= 0


def reference_attention(query, keys, values):
    """Attention written out the way the slides do it, in plain Python."""
    scores = [
        sum(q * k for q, k in zip(query, key, strict=True)) / math.sqrt(len(query)) for key in keys
    ]
    pulls = [math.exp(s) for s in scores]
    total = sum(pulls)
    weights = [p / total for p in pulls]
    output = [
        sum(w * v[j] for w, v in zip(weights, values, strict=True)) for j in range(len(values[0]))
    ]
    return scores, pulls, total, weights, output


@settings(max_examples=60)
@given(lesson_data())
def test_attend_agrees_with_the_plain_python_reference(data: dict) -> None:
    lesson = parse_lesson(data)
    result = attend(lesson)
    scores, pulls, total, weights, output = reference_attention(
        lesson.query, [t.key for t in lesson.tokens], [t.value for t in lesson.tokens]
    )
    np.testing.assert_allclose(result.scores, scores, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(result.pulls, pulls, rtol=1e-9)
    assert math.isclose(result.total, total, rel_tol=1e-9)
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(result.output, output, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.weighted_values.sum(axis=0), result.output)
    np.testing.assert_allclose(result.products.sum(axis=1), result.dots)


def test_results_are_read_only() -> None:
    result = attend(default_lesson())
    assert not result.weights.flags.writeable
    assert not result.output.flags.writeable


@given(lesson_data())
def test_quiz_options_follow_the_rival_score(data: dict) -> None:
    lesson = parse_lesson(data)
    quiz = quiz_answer(lesson)
    gap = quiz.rival_score - lesson.quiz.filler_score
    assert quiz.options == (1.0, gap, exp(gap), exp(2 * gap))  # the lesson's e^x: exponential.py
    assert quiz.options[quiz.correct] == quiz.fillers_needed


def test_importing_attention_core_does_not_import_manim() -> None:
    code = "import sys, attention_core; sys.exit('manim' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@given(st.floats(-10, 10, allow_nan=False))
def test_one_more_point_of_score_multiplies_the_pull_by_the_rule_of_thumb(score: float) -> None:
    from attention_core import PULL_PER_SCORE_POINT, SCORE_STEP

    ratio = math.exp(score + SCORE_STEP) / math.exp(score)
    assert math.isclose(ratio, PULL_PER_SCORE_POINT, rel_tol=1e-12)


def test_the_default_lessons_shares_fill_the_budget() -> None:
    from attention_core import BUDGET

    assert math.isclose(attend(default_lesson()).weights.sum(), BUDGET)
