"""How long each scene runs, measured by constructing it with every animation skipped."""

from __future__ import annotations

import inspect
from functools import cache
from typing import TYPE_CHECKING, Any

from attention_core import Lesson
from scenes.probe import run_dry

if TYPE_CHECKING:
    from scenes.base import LessonScene

__all__ = ["lesson_minutes", "scene_seconds"]


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
    """The whole video's length in whole minutes (at least one), summed over ``scenes.SCENES``.

    A scene that shows this very number (the title) is measured with a placeholder of 0 minutes:
    its length does not depend on the digit it shows.
    """
    from scenes import SCENES  # here, not at the top: the title scene imports this module

    seconds = 0.0
    for scene_class in SCENES:
        takes_minutes = "minutes" in inspect.signature(scene_class.__init__).parameters
        kwargs = {"minutes": 0} if takes_minutes else {}
        seconds += scene_seconds(scene_class, lesson, **kwargs)
    return max(1, int(seconds / 60 + 0.5))
