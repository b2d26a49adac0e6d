"""LessonScene: a step of the lesson that knows its data, its maths and how to pace a beat."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from manim import Scene

from attention_core import Attention, Lesson, attend, default_lesson

from . import style

__all__ = ["LessonScene", "reading_time"]


def reading_time(caption: str) -> float:
    """How long a beat must stay on screen for its caption to be read."""
    return style.SECONDS_PER_BEAT + style.SECONDS_PER_WORD * len(caption.split())


class LessonScene(Scene):
    """One step of the lesson. Subclasses set ``step``, ``slug``, ``label`` and ``title``."""

    step: ClassVar[int]
    """Position in the video, from 1."""
    slug: ClassVar[str]
    """File-name part: ``03_score.mp4``."""
    label: ClassVar[str]
    """The short name above the headline: ``SCORE``."""
    title: ClassVar[str]
    """The headline, as the slide words it."""
    move: ClassVar[int | None] = None
    """Which of the formula's three moves (score, normalise, mix) the step teaches."""

    def __init__(self, lesson: Lesson | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lesson = lesson if lesson is not None else default_lesson()
        self.attention: Attention = attend(self.lesson)
        self.captions: list[str] = []

    @property
    def kicker(self) -> str:
        """The line above the headline: ``STEP 1 · SCORE``."""
        return f"STEP {self.move} · {self.label}" if self.move else self.label

    def setup(self) -> None:
        self.camera.background_color = style.BACKGROUND

    @contextmanager
    def beat(self, caption: str) -> Iterator[None]:
        """Play one beat: the animations inside, then hold until its caption has been read."""
        start = self.time
        yield
        shortfall = reading_time(caption) - (self.time - start)
        if shortfall > 0:
            self.wait(shortfall)
        self.add_subcaption(caption, duration=self.time - start, offset=start - self.time)
        self.captions.append(caption)
