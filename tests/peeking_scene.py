"""A scene that reads the lesson only while it draws: the parts of its clip, shared out between
processes, disagree on what its first beat read (``publish.render.split``)."""

from __future__ import annotations

from manim import DOWN, FadeIn, Mobject

from scenes.base import LessonScene
from scenes.helpers import text


class Peeking(LessonScene):
    """Two beats. The first shows the question, which an updater watches: on every frame
    drawn, and on none skipped, it reads the first token's text."""

    slug = "peeking"

    def construct(self) -> None:
        def peek(mob: Mobject, dt: float) -> None:
            # a function, not a bound method: a mobject's copy shares it, scene and all
            if not self.renderer.skip_animations:
                self.lesson.tokens[0].text  # noqa: B018 (read, not kept)

        with self.beat("One."):
            question = text(self.lesson.question)
            question.add_updater(peek)
            self.play(FadeIn(question))
        with self.beat("Two."):
            self.play(question.animate.shift(DOWN))
