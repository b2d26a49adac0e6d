"""Step 1 · Title: the series, the promise of the lesson and what it needs."""

from __future__ import annotations

from typing import Any

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    FadeIn,
    GrowArrow,
    Indicate,
    LaggedStart,
    RoundedRectangle,
    VGroup,
    Write,
)

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.meaning import meaning
from scenes import layout, style
from scenes.base import LessonScene
from scenes.helpers import baseline, fit, meaning_of, paragraph, text
from scenes.timing import lesson_minutes

__all__ = ["Step1Title"]

# The title card hangs from the top of the title-safe area; the question and the tokens it
# looks at take the lower band, the question at its top and the chips on its foot.
WIDTH = layout.SAFE.width  # the widest any line may be
QUESTION_GAP = 0.45  # at least this far below the line above it
CHIP_HEIGHT = 0.75
CHIP_PAD = 0.45  # label to chip or question frame, each side
MIN_FAN = 1.0  # the shortest the query's arrows may be
ROW_SETTINGS = (  # type size, padding and gap of the token chips, tried in turn
    (style.BODY_SIZE, 0.45, 0.35),
    (style.SMALL_SIZE, 0.45, 0.35),
    (style.SMALL_SIZE, 0.25, 0.2),
)
COLUMN_GAP = 0.15
LIT_OPACITY = 0.9  # the chip the query looks at hardest fills with its colour
UNLIT_OPACITY = 0.12


class Step1Title(LessonScene):
    """The lesson's title and promise, and a first look: a query spreading attention over tokens."""

    step = 1
    slug = "title"
    move = None
    shows_length = True

    def __init__(
        self, lesson: Lesson | None = None, minutes: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(lesson=lesson, **kwargs)
        self.minutes = minutes
        """The lesson's length as a render passes it; None (manim's own command) measures it."""

    def construct(self) -> None:
        self.show_title()
        self.show_question_and_tokens()
        self.look_at_tokens()
        self.show_what_it_takes()

    # beats -------------------------------------------------------------------------------

    def show_title(self) -> None:
        lesson = self.lesson
        series = fit(
            text(lesson.series, size=style.SMALL_SIZE, colour=style.QUERY, bold=True), WIDTH
        )
        title = fit(text(lesson.title, size=style.TITLE_SIZE, bold=True), WIDTH)
        promise = paragraph(
            lesson.promise, WIDTH * 0.85, size=style.BODY_SIZE, colour=style.MUTED, centred=True
        )
        self.title_block = VGroup(series, title, promise).arrange(DOWN, buff=0.4)
        layout.SAFE.place(self.title_block, UP)
        # Laid out now, shown last: the question below must clear it.
        self.meta = self.meta_line().next_to(self.title_block, DOWN, buff=0.4)
        # Alone, the title card sits in the middle of the frame; it rises when the question comes.
        self.title_top = self.title_block.get_center()
        layout.SAFE.place(self.title_block)
        with self.beat(
            self.caption("title.caption.promise", title=lesson.title, promise=lesson.promise)
        ):
            # The title is drawn from the first frame: the video never opens on an empty one.
            self.play(
                LaggedStart(
                    AnimationGroup(Write(title), FadeIn(series, shift=DOWN * 0.2)),
                    FadeIn(promise, shift=UP * 0.2),
                    lag_ratio=0.5,
                ),
                run_time=style.SLOW * 2,
            )

    def show_question_and_tokens(self) -> None:
        self.lay_out_question_and_tokens()
        tokens = self.listed([token.short for token in self.lesson.tokens])
        asked = meaning("describe.line.question", question=self.lesson.question, tokens=tokens)
        self.means(meaning_of(asked, self.query_mob, self.chips))
        with self.beat(self.caption("title.caption.question")):
            self.play(
                self.title_block.animate.move_to(self.title_top),
                FadeIn(self.query_mob, shift=UP * 0.2),
                run_time=style.NORMAL,
            )
            self.play(
                LaggedStart(*(FadeIn(chip, shift=UP * 0.2) for chip in self.chips), lag_ratio=0.2)
            )

    def look_at_tokens(self) -> None:
        weights = self.attention.weights
        strength = weights / weights.max()
        arrows = VGroup(
            *(
                Arrow(
                    self.fan_start,
                    self.fan_end(chip),
                    buff=0.12,
                    color=style.QUERY,
                    stroke_width=2 + 8 * s,
                    tip_length=0.14 + 0.12 * s,
                    max_stroke_width_to_length_ratio=20,
                    max_tip_length_to_length_ratio=0.5,
                ).set_opacity(0.3 + 0.7 * s)
                for chip, s in zip(self.chips, strength, strict=True)
            )
        )
        # Every token with the top share lights up: a tie is shown as a tie.
        shares = [row.share for row in self.worked.before.rows]
        top = shares[int(weights.argmax())]
        hardest = [c for c, share in zip(self.chips, shares, strict=True) if share == top]
        with self.beat(self.caption("title.caption.look")):
            self.play(LaggedStart(*(GrowArrow(a) for a in arrows), lag_ratio=0.15))
            self.play(
                *(box.animate.set_fill(opacity=LIT_OPACITY) for box, _ in hardest),
                *(label.animate.set_color(style.BACKGROUND) for _, label in hardest),
                run_time=style.NORMAL,
            )
            self.play(*(Indicate(chip, color=None, scale_factor=1.1) for chip in hardest))

    def show_what_it_takes(self) -> None:
        steps, minutes = self.steps_and_minutes()
        with self.beat(self.caption("title.caption.needs", steps=steps, minutes=minutes)):
            self.play(FadeIn(self.meta, shift=UP * 0.2))

    # layout ------------------------------------------------------------------------------

    def steps_and_minutes(self) -> tuple[str, str]:
        minutes = self.minutes if self.minutes is not None else lesson_minutes(self.lesson)
        return fmt.number(len(self.lesson.steps)), fmt.number(minutes)

    def meta_line(self) -> VGroup:
        """What the lesson takes: its steps, its minutes and the one bit of maths."""
        steps, minutes = self.steps_and_minutes()
        words = self.say("title.line.meta", steps=steps, minutes=minutes)
        line = text(words, size=style.SMALL_SIZE, colour=style.MUTED, bold=True)
        if line.width <= WIDTH:
            return VGroup(line)
        return paragraph(
            words, WIDTH, size=style.SMALL_SIZE, colour=style.MUTED, bold=True, centred=True
        )

    def lay_out_question_and_tokens(self) -> None:
        """The question above a row of token chips or, when the row is too wide, left of a column.

        Sets ``query_mob``, ``chips``, ``fan_start`` and ``fan_end``: where the arrows run.
        """
        top = self.meta.get_bottom()[1] - QUESTION_GAP
        bottom = layout.SAFE.bottom
        row = self.chip_row()
        if row is not None:
            self.query_mob = self.question_box(WIDTH * 0.8)
            question_y = min(layout.LOWER.top, top - self.query_mob.height / 2)
            self.query_mob.move_to([layout.SAFE.x, question_y, 0])
            self.chips = row.move_to([layout.SAFE.x, bottom + CHIP_HEIGHT / 2, 0])
            self.fan_start = self.query_mob.get_bottom()
            self.fan_end = lambda chip: chip.get_top()
            return
        count = len(self.lesson.tokens)
        height = min(CHIP_HEIGHT, (top - bottom - (count - 1) * COLUMN_GAP) / count)
        widest = max(self.chip(i, style.SMALL_SIZE).width for i in range(count))
        column = VGroup(
            *(self.chip(i, style.SMALL_SIZE, height=height, width=widest) for i in range(count))
        )
        column.arrange(DOWN, buff=COLUMN_GAP, aligned_edge=LEFT)
        fit(column, WIDTH / 2 - MIN_FAN, top - bottom)
        self.chips = column.move_to(
            [layout.SAFE.x + MIN_FAN / 2, (top + bottom) / 2, 0], aligned_edge=LEFT
        )
        self.query_mob = fit(self.question_box(WIDTH / 2 - MIN_FAN), WIDTH / 2, top - bottom)
        half = self.query_mob.height / 2  # level with the chips, inside the room they share
        y = min(max(self.chips.get_y(), bottom + half), top - half)
        self.query_mob.move_to([layout.SAFE.x - MIN_FAN / 2, y, 0], aligned_edge=RIGHT)
        self.fan_start = self.query_mob.get_right()
        self.fan_end = lambda chip: chip.get_left()

    def question_box(self, width: float) -> VGroup:
        """The question, the query, in a yellow frame."""
        question = paragraph(
            self.lesson.question,
            width - 2 * CHIP_PAD,
            size=style.BODY_SIZE,
            colour=style.QUERY,
            centred=True,
        )
        frame = RoundedRectangle(
            width=question.width + 2 * CHIP_PAD,
            height=question.height + 0.45,
            corner_radius=0.15,
            stroke_color=style.QUERY,
            stroke_width=3,
            fill_color=style.QUERY,
            fill_opacity=UNLIT_OPACITY,
        ).move_to(question)
        return VGroup(frame, question)

    def chip_row(self) -> VGroup | None:
        """One chip per token side by side, in the largest type that fits; None if none does."""
        for size, pad, gap in ROW_SETTINGS:
            chips = VGroup(*(self.chip(i, size, pad=pad) for i in range(len(self.lesson.tokens))))
            if chips.arrange(RIGHT, buff=gap).width <= WIDTH:
                return chips
        return None

    def chip(
        self,
        index: int,
        size: float,
        *,
        pad: float = CHIP_PAD,
        height: float = CHIP_HEIGHT,
        width: float = 0.0,
    ) -> VGroup:
        """A token's short name in a frame of its colour, at least ``width`` wide."""
        colour = style.token_colour(index)
        label = text(self.lesson.tokens[index].short, size=size, colour=colour, bold=True)
        box = RoundedRectangle(
            width=max(width, label.width + 2 * pad),
            height=height,
            corner_radius=0.15,
            stroke_color=colour,
            stroke_width=3,
            fill_color=colour,
            fill_opacity=UNLIT_OPACITY,
        )
        # Centre the capitals, not the ink: a descender must not lift one label above another.
        cap_height = text("H", size=size, bold=True).height
        label.move_to(box).shift(UP * (box.get_y() - cap_height / 2 - baseline(label)))
        return VGroup(box, label)
