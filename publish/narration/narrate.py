"""Time a scene to its narrator: its beats' words, their speech, and the scene's ``Narration``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_core import Lesson

from .script import lines
from .voices import Narrator, seconds

if TYPE_CHECKING:
    from scenes import LessonScene
    from scenes.beat import Narration

__all__ = ["narration_for"]


def narration_for(
    scene: type[LessonScene], lesson: Lesson, kwargs: dict[str, Any], narrator: Narrator
) -> tuple[Narration, dict[str, Path]]:
    """The scene's narration (seconds of speech per beat) and each beat's speech file.

    The beats' ids and words come from the scene's silent dry run: narration changes how long
    a beat holds, never what it says.
    """
    from scenes.beat import Narration
    from scenes.probe import run_dry

    beats = run_dry(scene, lesson, **kwargs).beats
    files = narrator.speak(lines(beats, lesson.words))
    narration = Narration(tuple((beat.id, seconds(files[beat.id])) for beat in beats))
    return narration, files
