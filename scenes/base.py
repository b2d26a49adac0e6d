"""LessonScene: a step of the lesson that knows its data, its maths and how to pace a beat."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from manim import DOWN, Animation, FadeIn, MovingCameraScene, config

from attention_core import Attention, Lesson, default_lesson
from attention_core import formatting as fmt
from attention_core.worked import Worked, worked
from scenes import style
from scenes.beat import SEAMLESS, SILENT, BeatTiming, Boundary, Caption, Narration, beat_id, hold
from scenes.helpers import heading

__all__ = ["LessonScene"]


FRAME_SLACK = 1e-6
"""Of a frame: a hold this near a whole number of frames is that number (the clock is a sum of
frames, so a hold of exactly 7 frames can come out as 6.9999999)."""


def still_frames(seconds: float) -> float:
    """How long to wait to hold for ``seconds`` in the whole frames it holds (a frame at least),
    as manim draws a still wait: ``int(duration / dt)`` frames. The wait asks for half a frame
    more than it means, so no rounding can flip the count."""
    frames = max(1, int(seconds * config.frame_rate + FRAME_SLACK))
    return (frames + 0.5) / config.frame_rate


class LessonScene(MovingCameraScene):
    """One kind of step. Subclasses set ``slug`` (the kind's name, ``attention_core.steps``)
    and, for Day 004's seven, ``step``; their words (the label above the headline, the headline,
    every caption) are the lesson's, named after ``slug``. A lesson places each kind at its
    own position (``scenes.scenes_for``). Its camera can move (``self.camera.frame``), on
    whichever renderer draws it (``scenes.manim_internals``)."""

    step: ClassVar[int] = 0
    """Position in the video, from 1: its place in Day 004 (0 for a kind not in it), or in
    the lesson that lists it, for the class ``scenes.placed`` makes."""
    slug: ClassVar[str]
    """The kind's name; file-name part: ``03_score.mp4``; the prefix of every word's name."""
    move: ClassVar[int | None] = None
    """Which of the formula's three moves (score, normalise, mix) the step teaches."""
    shows_length: ClassVar[bool] = False
    """Whether the scene shows the lesson's length, and so takes ``minutes=``: it renders
    once every other clip's length is known."""

    def __init__(
        self,
        lesson: Lesson | None = None,
        narration: Narration = SILENT,
        boundary: Boundary = SEAMLESS,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.lesson = lesson if lesson is not None else default_lesson()
        self.worked: Worked = worked(self.lesson)
        self.narration = narration
        self.boundary = boundary
        self.beats: list[BeatTiming] = []
        self.hold_until = 0.0
        """When the beat playing now has said its words (or been read): a focus rests in
        close-up only while there is time (``scenes.toolkit.focus``)."""
        self.meaningful: list[Any] = []
        """Objects whose meaning a description says though the scene shows them in parts
        (``scenes.probe``): a grid whose cells, labels and numbers come in one by one."""
        self.framework = frozenset(vars(self)) | {"framework"}
        """What the scene holds before its code runs: not the step's state
        (``publish.beats.state``)."""

    @property
    def attention(self) -> Attention:
        """The lesson's attention, worked out once (:attr:`worked` holds it as shown)."""
        return self.worked.before.attention

    @property
    def captions(self) -> list[str]:
        """Every beat's caption as shown, in order."""
        return [beat.caption.text for beat in self.beats]

    @classmethod
    def headline(cls, lesson: Lesson) -> str:
        """The step's headline in the lesson's words: the heading and the chapter title."""
        return lesson.words[f"{cls.slug}.heading.title"]

    @property
    def title(self) -> str:
        return self.headline(self.lesson)

    @property
    def kicker(self) -> str:
        """The line above the headline: ``STEP 1 · SCORE``."""
        label = self.say(f"{self.slug}.heading.label")
        if not self.move:
            return label
        return self.say("common.heading.step", number=fmt.number(self.move), label=label)

    def means(self, *objects: Any) -> None:
        """Let whoever reads the screen read what ``objects`` mean (each a ``meant``
        attribute) whenever any part of them is on screen, added whole or not."""
        self.meaningful += objects

    def say(self, name: str, **values: str) -> str:
        """The lesson's words for entry ``name``, its placeholders filled with ``values``."""
        return self.lesson.words.say(name, **values)

    def caption(self, name: str, **values: str) -> Caption:
        """Caption entry ``name`` filled with ``values``, with what the narrator says for it."""
        words = self.lesson.words
        return Caption(words.say(name, **values), words.said(name, **values))

    def listed(self, items: Sequence[str]) -> str:
        """Items as the narrator lists them, in the lesson's words: ``3, 1 and 0``."""
        return self.lesson.words.join(items)

    def said_of_the_rest(self, name: str, **values: Sequence[str]) -> str:
        """Entry ``name`` said of every token after the first, listed: its ``{token}`` is the
        token's short name, each other placeholder the token's item of ``values``."""
        tokens = self.lesson.tokens
        return self.listed(
            [
                self.say(name, token=tokens[i].short, **{k: v[i] for k, v in values.items()})
                for i in range(1, len(tokens))
            ]
        )

    def forget(self, *names: str) -> None:
        """Let go of what the scene held for the beats so far (``self.crowd``, once the crowd
        has left the screen): nothing later may read it, so the later beats' keys no longer
        cover what it was made from (``publish.beats.state``). Names it does not hold are
        passed over."""
        for name in names:
            self.__dict__.pop(name, None)

    def setup(self) -> None:
        self.camera.background_color = style.BACKGROUND

    def open_with_heading(self, caption: Caption, *first: Animation) -> None:
        """The first beat: the heading comes in together with the step's first content, so it
        is never alone on screen. The heading stays as ``self.heading_mob``."""
        self.heading_mob = heading(self.kicker, self.title)
        with self.beat(caption):
            self.play(FadeIn(self.heading_mob, shift=DOWN * 0.2), *first)

    @contextmanager
    def beat(self, caption: Caption | str) -> Iterator[None]:
        """Play one beat: its words and the animations inside start together; then hold until
        the words are said (and a breath taken) or, silent, until the caption has been read.

        A plain string is said as it is shown; ``self.caption(name, ...)`` gives the catalogue's
        spoken form where it has one.
        """
        if isinstance(caption, str):
            caption = Caption.plain(caption)
        self.boundary.begin(self, len(self.beats) + 1)
        number = beat_id(self.step, self.slug, len(self.beats) + 1)
        speech = self.narration.speech(number, caption.said)
        start = self.time
        self.hold_until = start + hold(caption, speech)
        yield
        shortfall = self.hold_until - self.time
        if shortfall > 0:
            self.wait(still_frames(shortfall))
        timing = BeatTiming(number, caption, start, self.time, speech)
        self.add_subcaption(caption.text, duration=timing.cue_end - start, offset=start - self.time)
        self.beats.append(timing)
        self.boundary.end(self, timing)
