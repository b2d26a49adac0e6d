"""Scene lengths measured by dry runs, and the whole video's length in minutes."""

from __future__ import annotations

import pytest

from attention_core import default_lesson
from scenes import SCENES, Step1Title, Step3Score
from scenes.base import reading_time
from scenes.timing import lesson_minutes, scene_seconds

LESSON = default_lesson()


class RecordedScore(Step3Score):
    """Step3Score, noting each beat's caption and length as it is written."""

    beats: list[tuple[str, float]] = []

    def add_subcaption(self, content: str, duration: float = 1, offset: float = 0) -> None:
        self.beats.append((content, duration))
        super().add_subcaption(content, duration, offset)


def test_a_scene_lasts_exactly_as_long_as_its_beats() -> None:
    RecordedScore.beats = []
    seconds = scene_seconds(RecordedScore, LESSON)
    assert RecordedScore.beats
    assert seconds == pytest.approx(sum(duration for _, duration in RecordedScore.beats))
    for caption, duration in RecordedScore.beats:
        assert duration >= reading_time(caption) - 1e-9


def test_scene_seconds_is_measured_once_per_lesson() -> None:
    first = scene_seconds(Step3Score, LESSON)
    assert scene_seconds(Step3Score, default_lesson()) == first  # an equal lesson hits the cache


def test_the_title_lasts_the_same_whatever_length_it_shows() -> None:
    assert scene_seconds(Step1Title, LESSON, minutes=0) == scene_seconds(
        Step1Title, LESSON, minutes=12
    )


def test_lesson_minutes_rounds_the_sum_of_every_scene() -> None:
    total = sum(
        scene_seconds(scene, LESSON, **({"minutes": 0} if scene is Step1Title else {}))
        for scene in SCENES
    )
    assert lesson_minutes(LESSON) == max(1, int(total / 60 + 0.5))  # halves round up


def test_the_default_lesson_runs_three_to_five_minutes() -> None:
    assert 3 <= lesson_minutes(LESSON) <= 5
