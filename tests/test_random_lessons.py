"""Scenes, dry-run, over random lessons within the limits: right numbers, clean layout, composed
as the built-in lessons are (tests/test_scenes.py)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from attention_core import LIMITS, LessonError, parse_lesson
from scenes import SCENES, LessonScene
from scenes.composition import MIN_NUMBER_PX, composition
from scenes.probe import run_dry
from scenes.steps.score import Step3Score
from scenes.timing import length_arguments

from .lessons import default_data, lesson_data
from .scene_checks import layout_problems, stray_numbers

EXAMPLES = int(os.environ.get("RANDOM_LESSONS", "6"))
"""Each example is one lesson shown by one step, so six cost less than one lesson's seven dry runs
(the suite's budget); RANDOM_LESSONS=300 hunts for layout bugs."""

MINUTES = len(SCENES)
"""The title's lesson length, given rather than measured (which dry-runs all seven steps); a
number the number check accepts."""

# The widest numbers the limits allow, and the ones that read oddly (zero, a lone cent).
WIDE_NUMBERS = st.sampled_from([-98.76, -12.25, -1, -0.01, 0, 0.01, 0.5, 9.99, 12.34, 99])


@st.composite
def stretched_lesson(draw: st.DrawFn) -> dict[str, Any]:
    """A valid lesson, with its texts and numbers sometimes pushed to the limits."""
    data = draw(lesson_data())
    everyone = [*data["tokens"], data["rival"]]
    if draw(st.booleans()):  # every text at its longest, in wide letters
        data["title"] = "W" * LIMITS.max_title
        data["question"] = " ".join(["Wmw"] * (LIMITS.max_line // 4))
        data["answers"] = [f"W{i}" + "m" * (LIMITS.max_answer - 2) for i in data["answers"]]
        for i, token in enumerate(everyone):
            token["text"] = ("Wm " * LIMITS.max_token_text)[: LIMITS.max_token_text - 1] + "W"
            token["short"] = f"{'W' * (LIMITS.max_short_length - 1)}{i % 10}"
    if draw(st.booleans()):  # the widest numbers, where the score limit lets them in
        for vector in [data["query"]] + [t[part] for t in everyone for part in ("key", "value")]:
            for i in range(len(vector)):
                if draw(st.booleans()):
                    vector[i] = draw(WIDE_NUMBERS)
    return data


@pytest.mark.lessons
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=stretched_lesson(), scene=st.sampled_from(SCENES))
def test_random_lessons_show_right_numbers_in_a_clean_layout(
    data: dict[str, Any], scene: type[LessonScene]
) -> None:
    try:
        lesson = parse_lesson(data)
    except LessonError:
        assume(False)  # wide numbers can push a score past its limit; such files are refused
    probe = run_dry(scene, lesson, **length_arguments(scene, MINUTES))
    stray = stray_numbers(probe, lesson)
    assert not stray, f"{scene.__name__} shows numbers the maths never made: {stray}"
    assert not layout_problems(probe), "\n".join(layout_problems(probe))
    composed = composition(probe)  # at every rest, in the camera's frame (#37)
    assert composed.texts_outside == ()
    assert composed.shapes_outside == ()
    assert composed.overlaps == ()


def wide_query_lesson() -> dict[str, Any]:
    """Four tokens and a query of eight entries, some of them wide: the query and its dₖ take
    most of the line the question shares with them (drawn as the strategy above draws)."""
    data = default_data()
    data["query"] = [0.01, -12.25, 0.5, -1, 0.01, 0.5, -0.01, 0]
    data["tokens"] = [
        {"text": f"token number {i}", "short": f"t{i}", "key": [0.25 * (i + 1)] * 8, "value": [1]}
        for i in range(4)
    ]
    data["answers"] = [1]
    data["rival"] = {"text": "the rival", "short": "r", "key": [0.25] * 8, "value": [1]}
    data["quiz"] = {"filler_score": -4, "bonus_filler_score": -7}
    return data


@pytest.mark.lessons
def test_a_wide_query_leaves_the_scores_dk_its_size() -> None:
    """Step 3 once squeezed the question into the width the query left beside it, a word a
    line, then fitted the whole line to its height: its "dₖ = 8" came out 6 px tall."""
    lesson = parse_lesson(wide_query_lesson())
    probe = run_dry(Step3Score, lesson, **length_arguments(Step3Score, MINUTES))
    d_k = [n.px for n in composition(probe).numbers if n.text == "8"]
    assert d_k
    assert min(d_k) >= MIN_NUMBER_PX
