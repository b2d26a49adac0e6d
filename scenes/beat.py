"""A beat: what its caption shows, what the narrator says, and how long it holds.

A scene marks each beat once (``with self.beat(caption):``). The beat starts its animations and
its words together; it lasts as long as the narrator's speech plus a breath, or as long as its
animations if they run longer. A silent beat (no speech measured for it) holds until its caption
has been read. Every beat leaves a :class:`BeatTiming`, from which the clip's captions, the
narration's placement and the slide breaks all come.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from scenes import style

__all__ = [
    "SEAMLESS",
    "SILENT",
    "BeatTiming",
    "Boundary",
    "Caption",
    "Narration",
    "Timed",
    "beat_id",
    "reading_time",
]


@dataclass(frozen=True)
class Caption:
    """A beat's words: the caption shown, and what the narrator says (where a symbol is read
    aloud differently, ``÷ √dₖ`` as "divided by root d k")."""

    text: str
    said: str

    @classmethod
    def plain(cls, text: str) -> Caption:
        """A caption said exactly as it is shown."""
        return cls(text, text)

    def followed_by(self, sentence: str) -> Caption:
        """This caption with ``sentence`` after it, shown and said."""
        return Caption(f"{self.text} {sentence}", f"{self.said} {sentence}")


class Narration(Protocol):
    """Who says a scene's beats. Its answer decides how long each beat holds."""

    def speech(self, beat: str, said: str) -> float | None:
        """Seconds of speech for ``beat``, whose words are ``said``; None when not narrated."""


@dataclass(frozen=True)
class Timed:
    """Narration of known lengths, by beat id (empty: a silent clip, paced for reading)."""

    seconds: tuple[tuple[str, float], ...] = ()

    def speech(self, beat: str, said: str) -> float | None:
        return dict(self.seconds).get(beat)


SILENT = Timed()


@dataclass(frozen=True)
class BeatTiming:
    """One beat as it played: its id, words and place in the clip, in seconds."""

    id: str
    """``03_score-02``: the clip's name and the beat's number in it, from 1. A lecturer's own
    recording of this beat is named after it (``03_score-02.wav``)."""
    caption: Caption
    start: float
    end: float
    speech: float | None
    """Seconds the narrator speaks from ``start``; None for a silent beat."""

    @property
    def cue_end(self) -> float:
        """Where the beat's caption cue ends: with its spoken words, or with the beat."""
        # No speech at all (None, or 0.0 from a silent recording) keeps the cue for the beat:
        # a cue ending where it starts is dropped by manim's subtitle writer.
        return self.end if not self.speech else min(self.end, self.start + self.speech)


class Boundary(Protocol):
    """Told where each beat of a scene begins and ends: the seams a clip can be cut at, so
    that it can be rendered, cached and re-rendered a beat at a time.

    ``begin`` comes before anything of the beat is spoken or played (its caption's words are
    already read from the lesson); ``end`` after its hold, its :class:`BeatTiming` complete.
    The scene's state (its mobjects, its clock ``scene.time``) at ``end`` is where the next
    beat starts from.
    """

    def begin(self, scene: Any, number: int) -> None:
        """Beat ``number`` (from 1) of ``scene`` is about to start."""

    def end(self, scene: Any, timing: BeatTiming) -> None:
        """The beat ``timing`` describes has ended."""


class _Seamless:
    """No seams: the whole scene is one piece (manim's own command, dry runs)."""

    def begin(self, scene: Any, number: int) -> None:
        return None

    def end(self, scene: Any, timing: BeatTiming) -> None:
        return None


SEAMLESS: Boundary = _Seamless()


def beat_id(step: int, slug: str, number: int) -> str:
    """The id of a scene's ``number``-th beat (from 1): ``03_score-02``."""
    return f"{step:02d}_{slug}-{number:02d}"


def reading_time(caption: str) -> float:
    """How long a silent beat must stay on screen for its caption to be read."""
    return style.SECONDS_PER_BEAT + style.SECONDS_PER_WORD * len(caption.split())


def hold(caption: Caption, speech: float | None) -> float:
    """How long a beat must last at least: its speech and a breath, or its reading time."""
    if speech is None:
        return reading_time(caption.text)
    return speech + style.BREATH
