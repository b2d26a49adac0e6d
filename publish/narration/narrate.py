"""A scene narrated as it is constructed: each beat's words spoken as the beat begins, so that
the beat can hold for them. No silent run first to learn the words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .script import spoken
from .voices import Narrator, seconds

if TYPE_CHECKING:
    from scenes.beat import BeatTiming

__all__ = ["Speaking"]


@dataclass(eq=False)
class Speaking:
    """A scene's :class:`scenes.beat.Narration` by ``narrator``, in the lesson's ``words``
    (which say its symbols aloud). Keeps each beat's speech file, for the clip's sound."""

    narrator: Narrator
    words: Mapping[str, str]
    files: dict[str, Path] = field(default_factory=dict)
    """Each narrated beat's stored speech, by beat id."""

    def speech(self, beat: str, said: str) -> float:
        """Seconds the narrator takes to say ``said`` for ``beat``, speaking it if need be."""
        self.files[beat] = self.narrator.say(beat, spoken(said, self.words), len(said))
        return seconds(self.files[beat])

    def placed(self, beats: Sequence[BeatTiming]) -> tuple[tuple[float, Path], ...]:
        """Each spoken beat's start in the clip, with its speech: the clip's sound."""
        return tuple((beat.start, self.files[beat.id]) for beat in beats if beat.id in self.files)
