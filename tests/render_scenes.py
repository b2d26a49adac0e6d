"""Two tiny scenes for render tests: one that renders in a second, one that always fails."""

from __future__ import annotations

from manim import Circle, Create, config

from scenes import LessonScene


class TinyCircle(LessonScene):
    """A circle, drawn in one short beat."""

    step = 1
    slug = "tiny"
    label = "TINY"
    title = "A circle"

    def construct(self) -> None:
        with self.beat("A circle."):
            self.play(Create(Circle()), run_time=0.5)


class AlwaysFails(LessonScene):
    """Raises halfway through a real render (not a dry run), as a scene with a bug would."""

    step = 2
    slug = "broken"
    label = "BROKEN"
    title = "A scene with a bug"

    def construct(self) -> None:
        with self.beat("This beat never finishes."):
            self.play(Create(Circle()), run_time=0.2)
            if not config.dry_run:
                raise RuntimeError("deliberate failure in AlwaysFails")
