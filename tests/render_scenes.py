"""Tiny scenes for render tests: two that render in a second, one that always fails."""

from __future__ import annotations

from manim import Circle, Create, Square, config

from attention_core import Lesson
from scenes import LessonScene


class OutsideScene(LessonScene):
    """A scene outside the lesson: its headline is its own, not an entry of the words."""

    headline_text = ""

    @classmethod
    def headline(cls, lesson: Lesson) -> str:
        return cls.headline_text


class TinyCircle(OutsideScene):
    """A circle, drawn in one short beat."""

    step = 1
    slug = "tiny"
    headline_text = "A circle"

    def construct(self) -> None:
        with self.beat("A circle."):
            self.play(Create(Circle()), run_time=0.5)


class AlwaysFails(OutsideScene):
    """Raises halfway through a real render (not a dry run), as a scene with a bug would."""

    step = 2
    slug = "broken"
    headline_text = "A scene with a bug"

    def construct(self) -> None:
        with self.beat("This beat never finishes."):
            self.play(Create(Circle()), run_time=0.2)
            if not config.dry_run:
                raise RuntimeError("deliberate failure in AlwaysFails")


class TinySquare(OutsideScene):
    """A square, drawn in one short beat."""

    step = 2
    slug = "square"
    headline_text = "A square"

    def construct(self) -> None:
        with self.beat("A square."):
            self.play(Create(Square()), run_time=0.5)
