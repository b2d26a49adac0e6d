"""The lesson's length, the whole minutes its title shows: which scenes show it, how a scene is
measured, how the scenes' lengths sum and round, and the arguments a title takes.

Every command reads the length from here: a render from its clips' durations (rendered now,
cached, or dry-run for the clips neither), ``--list`` and ``--dry-run`` from dry runs (silent
or narrated), the preview from the clips it made, and manim's own command from silent dry runs.
This module does not import the scene registry (``scenes``): the title, one of its scenes,
imports this module; the registry tells it how a lesson's scenes are found instead
(:func:`find_scenes_with`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from attention_core import Lesson
from scenes.probe import run_dry

if TYPE_CHECKING:
    from scenes.base import LessonScene

__all__ = [
    "MEASURED_WITH",
    "find_scenes_with",
    "length_arguments",
    "lesson_minutes",
    "measured_minutes",
    "minutes_from",
    "minutes_of",
    "minutes_shown",
    "scene_seconds",
    "title_arguments",
    "titles",
    "unknown",
]

MEASURED_WITH = 0
"""The minutes a title is measured with: it lasts the same whatever the digit."""

_scenes_of: Callable[[Lesson], Sequence[type[LessonScene]]] | None = None


def find_scenes_with(scenes_of: Callable[[Lesson], Sequence[type[LessonScene]]]) -> None:
    """How a lesson's scenes are found (``scenes.scenes_for``, which registers itself: this
    module importing it would make a circle through the title)."""
    global _scenes_of
    _scenes_of = scenes_of


def minutes_of(seconds: float) -> int:
    """A length in the whole minutes the title shows (at least one; halves round up)."""
    return max(1, int(seconds / 60 + 0.5))


def titles(scenes: Iterable[type[LessonScene]]) -> list[type[LessonScene]]:
    """The scenes that show the lesson's length: they wait for every other clip's."""
    return [scene for scene in scenes if scene.shows_length]


def length_arguments(scene_class: type[LessonScene], minutes: int) -> dict[str, Any]:
    """``minutes=`` for a scene that shows the lesson's length; nothing for the others."""
    return {"minutes": minutes} if scene_class.shows_length else {}


def title_arguments(scene_class: type[LessonScene], minutes: int) -> tuple[tuple[str, Any], ...]:
    """:func:`length_arguments` as a job and a clip's record carry them."""
    return tuple(length_arguments(scene_class, minutes).items())


def minutes_shown(kwargs: Iterable[tuple[str, Any]]) -> int | None:
    """The minutes a clip made with ``kwargs`` shows (None: it shows none)."""
    minutes: int | None = dict(kwargs).get("minutes")
    return minutes


def unknown(
    scenes: Iterable[type[LessonScene]], lengths: Mapping[type[LessonScene], float]
) -> list[type[LessonScene]]:
    """The scenes of a lesson whose length is not yet known."""
    return [scene for scene in scenes if scene not in lengths]


def minutes_from(
    scenes: Sequence[type[LessonScene]], lengths: Mapping[type[LessonScene], float]
) -> int | None:
    """The lesson's minutes once the length of each of its ``scenes`` is known, whether from
    clips rendered, cached or dry-run; None until then."""
    if unknown(scenes, lengths):
        return None
    return minutes_of(sum(lengths[scene] for scene in scenes))


def measured_minutes(
    scenes: Iterable[type[LessonScene]], seconds: Callable[[type[LessonScene]], float]
) -> int:
    """The minutes of a lesson each of whose ``scenes`` lasts ``seconds(scene)``: a dry run,
    silent (:func:`scene_seconds`) or narrated."""
    return minutes_of(sum(seconds(scene) for scene in scenes))


def scene_seconds(scene_class: type[LessonScene], lesson: Lesson, **kwargs: Any) -> float:
    """The length of one scene's clip in seconds, for this lesson, from its (shared) dry run.

    Parameters
    ----------
    scene_class
        The scene to measure.
    lesson
        The lesson it shows.
    **kwargs
        Further keyword arguments for the scene (hashable: results are cached per process),
        such as ``narration=`` to time it to a voice; a title's minutes are
        :data:`MEASURED_WITH` unless given.
    """
    arguments = length_arguments(scene_class, MEASURED_WITH) | kwargs
    return run_dry(scene_class, lesson, **arguments).seconds


@cache
def lesson_minutes(lesson: Lesson) -> int:
    """The whole video's length in whole minutes, summed over the lesson's scenes (silent):
    what a title shows when no ``minutes=`` is given (manim's own command)."""
    if _scenes_of is None:
        raise RuntimeError("scenes.timing: no scene registry (import scenes first)")
    return measured_minutes(_scenes_of(lesson), lambda scene: scene_seconds(scene, lesson))
