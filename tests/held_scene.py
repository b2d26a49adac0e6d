"""A scene for the beat-reuse tests: it keeps what it read where a beat's key cannot see it by
its reads alone (an attribute, a local of ``construct``, a worked part read again later)."""

from __future__ import annotations

from manim import FadeIn, FadeOut, Square

from scenes.base import LessonScene
from scenes.helpers import text


class Held(LessonScene):
    """Six beats. The first reads three fields and shows none of them: the first token's text
    is kept in ``self.held`` (shown in beat 3), the question in a local (beat 4), and the query
    is read through the worked lesson and not kept (read again and shown in beat 5). Both kept
    values are let go before beat 6, which shows nothing of the lesson."""

    slug = "held"

    def construct(self) -> None:
        kept = self.lesson.question
        with self.beat("One."):
            self.held = self.lesson.tokens[0].text
            self.worked.query  # noqa: B018 (read, not kept)
            self.play(FadeIn(Square(side_length=1.0)))
        with self.beat("Two."):
            self.wait(0.2)
        with self.beat("Three."):
            self.show(self.held)
        with self.beat("Four."):
            self.show(kept)
        with self.beat("Five."):
            self.show(self.worked.query)
        self.forget("held")
        del kept
        with self.beat("Six."):
            self.wait(0.2)

    def show(self, words: str) -> None:
        shown = text(words).move_to([0, -2, 0])
        self.play(FadeIn(shown))
        self.play(FadeOut(shown))
