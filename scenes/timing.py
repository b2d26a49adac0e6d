"""How long the lesson runs: each scene measured by constructing it with every animation
skipped, and the whole in the whole minutes the title shows."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from attention_core import Lesson
from scenes.probe import run_dry

if TYPE_CHECKING:
    from scenes.base import LessonScene

__all__ = ["lesson_minutes", "length_arguments", "minutes_of", "scene_seconds"]


def minutes_of(seconds: float) -> int:
    """A length in the whole minutes the title shows (at least one; halves round up)."""
    return max(1, int(seconds / 60 + 0.5))


def length_arguments(scene_class: type[LessonScene], minutes: int) -> dict[str, Any]:
    """``minutes=`` for a scene that shows the lesson's length; nothing for the others. A scene
    shows the same length whatever the digit, so 0 measures it."""
    return {"minutes": minutes} if scene_class.shows_length else {}


def scene_seconds(scene_class: type[LessonScene], lesson: Lesson, **kwargs: Any) -> float:
    """The length of one scene's clip in seconds, for this lesson, from its (shared) dry run.

    Parameters
    ----------
    scene_class
        The scene to measure.
    lesson
        The lesson it shows.
    **kwargs
        Further keyword arguments for the scene (hashable: results are cached per process).
    """
    return run_dry(scene_class, lesson, **kwargs).seconds


@cache
def lesson_minutes(lesson: Lesson) -> int:
    """The whole video's length in whole minutes, summed over the lesson's scenes (silent)."""
    from scenes import scenes_for  # here, not at the top: the title scene imports this module

    return minutes_of(
        sum(
            scene_seconds(scene, lesson, **length_arguments(scene, 0))
            for scene in scenes_for(lesson)
        )
    )
