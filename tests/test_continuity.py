"""Continuity (#37): a step that starts from what the step before it ended on opens its clip on
those objects, in the same places, so that the cut between the two clips reads as one picture.

Read from dry runs (``scenes.probe``): the step before's last rest against the next step's
opening, what its clip's first frame shows. The heading is each step's own and not carried.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attention_core import Lesson, default_lesson, load_lesson
from scenes.composition import contains
from scenes.layout import HEADING, LOWER, SAFE, Region
from scenes.probe import Box, Probe, run_dry
from scenes.steps.mix import Step5Mix
from scenes.steps.rival import Step6Rival
from scenes.steps.score import Step3Score
from scenes.steps.softmax import Step4Softmax

LESSONS = Path(__file__).parent.parent / "lessons"
CASES = [
    pytest.param("default", id="default"),
    pytest.param("four_tokens", id="four_tokens", marks=pytest.mark.lessons),
]
PLACES = 3  # decimals of a scene unit: a box is where it was to a thousandth

Picture = set[tuple[str, Box]]


def lesson_named(name: str) -> Lesson:
    return default_lesson() if name == "default" else load_lesson(LESSONS / f"{name}.toml")


def rounded(box: Box) -> Box:
    left, bottom, right, top = (round(x, PLACES) for x in box)
    return (left, bottom, right, top)


def picture(texts: list, shapes: tuple[Box, ...] | None, within: Region) -> Picture:
    """The texts (what each says, and where) and shapes (``""``, and where) inside ``within``."""
    region = (within.left, within.bottom, within.right, within.top)
    found = {(shown.text, rounded(shown.box)) for shown in texts if contains(region, shown.box)}
    found |= {("", rounded(box)) for box in shapes or () if contains(region, box)}
    return found


def last_rest(probe: Probe, within: Region) -> Picture:
    """What ``probe``'s scene shows inside ``within`` at its last rest, as its clip ends."""
    last = max(i for i, rest in enumerate(probe.rests) if rest)
    assert not probe.frames[last].closer  # the clip ends on the whole frame
    return picture(probe.moments[last], probe.shapes[last], within)


def opening(probe: Probe, within: Region) -> Picture:
    """What ``probe``'s scene shows inside ``within`` as its clip begins."""
    texts, shapes = probe.opening
    return picture(texts, shapes, within)


@pytest.mark.parametrize("name", CASES)
def test_softmax_opens_on_the_score_table_where_score_left_it(name: str) -> None:
    """Step 4's first frame shows step 3's table, every text and shape of it where step 3
    ended with it (the query and the note over and under it are not carried)."""
    lesson = lesson_named(name)
    ended = last_rest(run_dry(Step3Score, lesson), SAFE.below(HEADING.bottom))
    carried = opening(run_dry(Step4Softmax, lesson), SAFE)
    assert {text for text, _ in carried} >= {token.text for token in lesson.tokens}
    assert carried <= ended


@pytest.mark.parametrize("name", CASES)
def test_mix_opens_on_the_budget_where_softmax_left_it(name: str) -> None:
    """Step 4 ends with the budget bar in the lower band, its slices, line, shares and
    names; step 5's first frame shows exactly that there (and nothing else: the rest of
    step 4's picture is not carried)."""
    lesson = lesson_named(name)
    ended = last_rest(run_dry(Step4Softmax, lesson), LOWER)
    assert sum(1 for text, _ in ended if text) > len(lesson.tokens)  # shares, names, the line
    assert opening(run_dry(Step5Mix, lesson), LOWER) == ended
    assert opening(run_dry(Step5Mix, lesson), SAFE) == ended


@pytest.mark.parametrize("name", CASES)
def test_the_rival_opens_on_the_output_where_mix_left_it(name: str) -> None:
    """Step 5 ends with the output line and the verdict in the lower band and the chart on
    the stage; the rival's first frame shows all of it where it was, the heading aside."""
    lesson = lesson_named(name)
    below_heading = SAFE.below(HEADING.bottom)
    ended = last_rest(run_dry(Step5Mix, lesson), below_heading)
    output = [text for text, box in ended if text.startswith("[") and contains(_lower(), box)]
    assert len(output) == 1  # the output vector's entries, as one text
    assert opening(run_dry(Step6Rival, lesson), SAFE) == ended


def _lower() -> Box:
    return (LOWER.left, LOWER.bottom, LOWER.right, LOWER.top)
