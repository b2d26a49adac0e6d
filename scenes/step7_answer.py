"""Step 7 · The answer: one rival outpulls a crowd of fillers; takeaway and references."""

from __future__ import annotations

import math as pymath
from collections.abc import Sequence
from typing import Any

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    Code,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Mobject,
    Rectangle,
    Text,
    Transform,
    VGroup,
    Wait,
    Write,
    linear,
)

from attention_core import Words, quiz_answer
from attention_core import formatting as fmt
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import (
    balanced_paragraph,
    fit,
    heading,
    inline,
    math,
    option_cards,
    power,
    sentence,
    text,
)

__all__ = ["Step7Answer"]

LEFT_X = -6.6
RIGHT_X = 6.6
WIDTH = RIGHT_X - LEFT_X
CARDS_Y = 1.8
WHY_Y = 0.7
BAR_TOP = -0.05  # top of the rival's pull bar; the crowd of fillers sits under it
CROWD_LEFT = -4.2  # bars start here at the earliest, right of their labels
LABEL_GAP = 0.2  # at least this between a bar's label and the bar
INLINE_GAP = 0.18  # between the pieces of a line of text and formulas, as inline() sets them
CROWD_END_ROOM = 0.3  # room right of the bars for the dashed end mark
ROW_HEIGHT = 0.9  # the tallest either bar may be
ROW_GAP = 0.3
MAX_CELL = 0.7  # a filler square is never bigger than this
MAX_CELLS = 1000  # beyond this many fillers the crowd is drawn as one block
BONUS_GAP = 0.75  # from the crowd's bottom to the middle of the bonus line
CODE_SIZE = 30
PAGE_TOP = 2.2  # where the takeaway and the citation pages start
BOTTOM = -3.7  # nothing goes lower


class Step7Answer(LessonScene):
    """Step 7 · The answer: one rival outpulls a crowd of fillers; takeaway and references."""

    step = 7
    slug = "answer"
    move = None

    def construct(self) -> None:
        self.quiz = quiz_answer(self.lesson)
        self.reveal_answer()
        self.explain_pull()
        self.count_fillers()
        self.bonus()
        self.show_takeaway()
        self.check_in_code()
        self.cite_and_refer()

    # beats -------------------------------------------------------------------------------

    def reveal_answer(self) -> None:
        q = self.quiz
        self.heading = heading(self.kicker, self.title)
        roughly = self.lesson.words["common.word.about"]
        cards = option_cards([fmt.option(x, roughly) for x in q.options], width=WIDTH, height=0.8)
        cards.move_to([0, CARDS_Y, 0])
        right = cards[q.correct]
        others = [card for i, card in enumerate(cards) if i != q.correct]
        letter = right[1].original_text
        caption = self.caption(
            "answer.caption.reveal", letter=letter, option=fmt.option(q.fillers_needed, roughly)
        )
        with self.beat(caption):
            self.play(FadeIn(self.heading, shift=DOWN * 0.2))
            self.play(LaggedStart(*(FadeIn(c, shift=UP * 0.2) for c in cards), lag_ratio=0.15))
            self.play(
                right[0].animate.set_stroke(style.VALUE, width=4).set_fill(style.VALUE, 0.15),
                *(card.animate.fade(0.7) for card in others),
            )

    def explain_pull(self) -> None:
        q = self.quiz
        rival_pull = rf"e^{{{fmt.number(q.rival_score)}}}"
        filler_pull = rf"e^{{{fmt.number(q.filler_score)}}}"
        formula = math(rival_pull, r"\div", filler_pull, "=", fmt.ratio(q.fillers_needed))
        formula[0].set_color(style.RIVAL)
        formula[2].set_color(style.MUTED)
        formula[4].set_color(style.QUERY)
        pull = power("e", self.say("answer.word.score"))
        line = sentence(
            self.lesson.words["answer.line.pull"], {"pull": pull, "ratio": formula}, width=WIDTH
        )
        fit(line, WIDTH).move_to([0, WHY_Y, 0])
        caption = self.caption(
            "answer.caption.pull",
            rival=fmt.number(q.rival_score),
            filler=fmt.number(q.filler_score),
            ratio=fmt.ratio(q.fillers_needed),
        )
        # The words before the formula come first; the formula is written as the rest fades in.
        pieces = [piece for row in line for piece in row]
        split = pieces.index(formula)
        before, after = VGroup(*pieces[:split]), VGroup(*pieces[split + 1 :])
        with self.beat(caption):
            if len(before):
                self.play(FadeIn(before, shift=UP * 0.2))
            self.play(Write(formula), *([FadeIn(after)] if len(after) else []))

    def count_fillers(self) -> None:
        q = self.quiz
        rival_label = text(
            self.say("answer.word.one_rival"), size=style.SMALL_SIZE, colour=style.RIVAL, bold=True
        )
        # The bars start right of the widest label they will have (longer in some languages).
        ends = (filler_count(q.fillers_needed), filler_count(q.bonus_fillers_needed))
        labels = [rival_label, *(count_label(self.lesson.words, n, 0) for n in ends)]
        self.crowd_left = max(CROWD_LEFT, LEFT_X + max(m.width for m in labels) + LABEL_GAP)
        width = RIGHT_X - CROWD_END_ROOM - self.crowd_left
        rows, side = crowd_shape(q.fillers_needed, width, ROW_HEIGHT, MAX_CELL)
        bar_width, bar_height = q.fillers_needed * side / rows, rows * side
        self.rival_bar = Rectangle(
            width=bar_width, height=bar_height, stroke_width=0, fill_color=style.RIVAL
        ).set_fill(opacity=1)
        self.rival_bar.move_to([self.crowd_left + bar_width / 2, BAR_TOP - bar_height / 2, 0])
        self.crowd_top = self.rival_bar.get_bottom()[1] - ROW_GAP
        self.crowd = crowd(q.fillers_needed, rows, side, side, self.crowd_left, self.crowd_top)
        crowd_y = self.crowd_top - bar_height / 2
        self.crowd_bottom = self.crowd_top - bar_height
        rival_label.move_to([LEFT_X + rival_label.width / 2, self.rival_bar.get_y(), 0])
        self.counter = VGroup(count_label(self.lesson.words, 0, crowd_y))
        self.counter_y = crowd_y
        end = self.rival_bar.get_right()[0]
        self.match_line = DashedLine(
            [end, BAR_TOP + 0.1, 0],
            [end, self.crowd_top - bar_height - 0.1, 0],
            color=style.TEXT,
            stroke_width=2,
        )
        with self.beat(self.caption("answer.caption.count", count=fmt.rounded(q.fillers_needed))):
            self.play(FadeIn(rival_label), GrowFromEdge(self.rival_bar, LEFT))
            self.add(self.counter)
            self.play(
                grow_crowd(self.crowd),
                CountUp(
                    self.counter, self.lesson.words, 0, filler_count(q.fillers_needed), crowd_y
                ),
                run_time=style.SLOW * 2,
                rate_func=linear,
            )
            self.play(Write(self.match_line))

    def bonus(self) -> None:
        q = self.quiz
        bar = self.rival_bar
        n = q.bonus_fillers_needed
        rows = max(1, round(pymath.sqrt(n * bar.height / bar.width)))
        cell_width, cell_height = bar.width * rows / n, bar.height / rows
        new_crowd = crowd(n, rows, cell_width, cell_height, self.crowd_left, self.crowd_top)
        pull = math(
            rf"e^{{{fmt.number(q.bonus_gap)}}}", r"\approx", fmt.rounded(q.bonus_fillers_needed)
        )
        tag = text(self.say("answer.word.bonus"), colour=style.QUERY, bold=True)
        words = sentence(
            self.lesson.words["answer.line.bonus"],
            {"score": fmt.number(q.bonus_filler_score), "pull": pull},
            width=WIDTH - tag.width - INLINE_GAP,
        )
        line = inline(tag, words)
        fit(line, WIDTH).move_to([0, self.crowd_bottom - BONUS_GAP, 0])
        old = self.crowd
        kept = min(len(old), len(new_crowd))
        # The old fillers shrink into the first new places; any extra ones vanish.
        target = VGroup(
            *(cell.copy() for cell in new_crowd[:kept]),
            *(cell.copy().scale(0.01).set_opacity(0) for cell in old[kept:]),
        )
        caption = self.caption(
            "answer.caption.bonus",
            score=fmt.number(q.bonus_filler_score),
            gap=fmt.number(q.bonus_gap),
            count=fmt.rounded(q.bonus_fillers_needed),
        )
        with self.beat(caption):
            self.play(FadeIn(line, shift=UP * 0.2))
            self.play(Transform(old, target))
            self.remove(old)
            self.add(*new_crowd[:kept])
            self.play(
                grow_crowd(new_crowd[kept:]) if len(new_crowd) > kept else Wait(),
                CountUp(
                    self.counter,
                    self.lesson.words,
                    filler_count(q.fillers_needed),
                    filler_count(n),
                    self.counter_y,
                ),
                run_time=style.SLOW * 2,
                rate_func=linear,
            )

    def show_takeaway(self) -> None:
        tag = text(
            self.say("answer.word.takeaway"), size=style.SMALL_SIZE, colour=style.QUERY, bold=True
        )
        words = balanced_paragraph(self.lesson.takeaway, WIDTH, size=style.BODY_SIZE)
        self.takeaway = stack(tag, words, top=PAGE_TOP)
        with self.beat(self.lesson.takeaway):
            self.play(*(FadeOut(m) for m in self.mobjects if m is not self.heading))
            self.play(FadeIn(tag), Write(words), run_time=style.SLOW)

    def check_in_code(self) -> None:
        a = self.attention
        lines = fmt.torch_check(a.scores, a.dots, a.d_k)
        typed, run = listing(lines[:-1]), listing(lines)
        tag = text(
            self.say("answer.word.check"), size=style.SMALL_SIZE, colour=style.KEY, bold=True
        )
        tag.next_to(self.takeaway, DOWN, buff=0.6).set_x(LEFT_X + tag.width / 2)
        # Both listings share one scale, so the typed lines land exactly on the finished ones.
        scale = min(1.0, WIDTH / run.width, (tag.get_bottom()[1] - BOTTOM - 0.25) / run.height)
        for code in (typed, run):
            code.scale(scale).next_to(tag, DOWN, buff=0.25, aligned_edge=LEFT)
        run.code_lines[-1].set_color(style.VALUE)
        with self.beat(self.caption("answer.caption.check", printed=lines[-1].removeprefix("# "))):
            self.play(FadeIn(tag), FadeIn(typed, shift=UP * 0.2))
            self.play(
                Transform(typed.background, run.background),
                FadeIn(run.code_lines[-1], shift=RIGHT * 0.3),
            )
            # The typed lines already sit where the finished listing's do: swap in the whole.
            self.remove(typed, run.code_lines[-1])
            self.add(run)

    def cite_and_refer(self) -> None:
        lesson = self.lesson
        citation = lesson.citation
        cited = stack(
            text(
                self.say("answer.line.where"), size=style.SMALL_SIZE, colour=style.QUERY, bold=True
            ),
            VGroup(
                text(citation.source, size=style.BODY_SIZE, bold=True),
                balanced_paragraph(citation.finding, WIDTH, size=style.BODY_SIZE),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.2),
            top=PAGE_TOP,
        )
        caption = self.caption(
            "answer.caption.cite", source=citation.source, finding=citation.finding
        )
        with self.beat(caption):
            self.play(*(FadeOut(m) for m in self.mobjects if m is not self.heading))
            self.play(FadeIn(cited[0]), Write(cited[1]), run_time=style.SLOW)
        if not lesson.references:
            return
        references = VGroup(*(reference(r.text, r.where) for r in lesson.references))
        references.arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        tag = text(
            self.say("answer.word.references"), size=style.SMALL_SIZE, colour=style.KEY, bold=True
        )
        block = stack(tag, references, top=cited.get_bottom()[1] - 0.6)
        turn_page = block.get_bottom()[1] < BOTTOM
        if turn_page:  # too many to fit under the citation: they get a page of their own
            block = stack(tag, references, top=PAGE_TOP)
            fit(block, WIDTH, PAGE_TOP - BOTTOM)
            block.move_to([LEFT_X + block.width / 2, PAGE_TOP - block.height / 2, 0])
        with self.beat(self.caption("answer.caption.references")):
            if turn_page:
                self.play(FadeOut(cited))
            self.play(FadeIn(block[0]))
            self.play(LaggedStart(*(FadeIn(r, shift=UP * 0.2) for r in references), lag_ratio=0.3))


# builders ------------------------------------------------------------------------------


def reference(title: str, where: str) -> Mobject:
    """One reference on a line, ``title · where``; if that is too long, where goes below."""
    line = text(f"{title} · {where}", size=style.SMALL_SIZE, colour=style.MUTED)
    if line.width <= WIDTH:
        return line
    return VGroup(
        balanced_paragraph(title, WIDTH, colour=style.MUTED),
        fit(text(where, size=style.SMALL_SIZE, colour=style.MUTED), WIDTH),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)


def stack(tag: Mobject, body: Mobject, *, top: float) -> VGroup:
    """A small tag over a block, left-aligned at the margin, starting at ``top``."""
    group = VGroup(tag, body).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
    return group.move_to([LEFT_X + group.width / 2, top - group.height / 2, 0])


def listing(lines: Sequence[str]) -> Code:
    """Python code in the house monospace, on a panel a shade lighter than the page."""
    return Code(
        code_string="\n".join(lines),
        language="python",
        formatter_style="one-dark",
        add_line_numbers=False,
        background="rectangle",
        background_config={"stroke_color": style.MUTED, "stroke_width": 1, "buff": 0.25},
        paragraph_config={"font": style.MONO, "font_size": CODE_SIZE, "line_spacing": 0.8},
    )


class CountUp(Animation):
    """A crowd's count label counting from one number to another, redrawn every frame."""

    def __init__(
        self, holder: VGroup, words: Words, start: float, end: float, y: float, **kwargs: Any
    ):
        self.words, self.start, self.end, self.y = words, start, end, y
        super().__init__(holder, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        # The holder's one child is replaced, so what it shows is always a fresh text().
        value = self.start + (self.end - self.start) * self.rate_func(alpha)
        self.mobject.submobjects = [count_label(self.words, value, self.y)]


def count_label(words: Words, count: float, y: float) -> Text:
    """The crowd's running count: ``20 fillers``."""
    name = "answer.word.filler_one" if round(count) == 1 else "answer.word.filler_many"
    label = text(
        words.say(name, count=fmt.rounded(count)), size=style.SMALL_SIZE, colour=style.MUTED
    )
    return label.move_to([LEFT_X + label.width / 2, y, 0])


def filler_count(n: float) -> int:
    """How many whole filler squares stand for n fillers' pull."""
    return max(1, round(n))


def crowd_shape(n: float, width: float, height: float, largest: float) -> tuple[int, float]:
    """Rows and square size that fit round(n) filler squares (and an n-wide bar) in a box."""
    count = filler_count(n)
    best_rows, best_side = 1, 0.0
    rows = 1
    while height / rows > best_side:
        columns = -(-count // rows)
        side = min(largest, width / max(columns, n / rows), height / rows)
        if side > best_side + 1e-9:
            best_rows, best_side = rows, side
        rows += 1
    return best_rows, best_side


def crowd(
    n: float, rows: int, cell_width: float, cell_height: float, left: float, top: float
) -> VGroup:
    """round(n) filler squares filling column by column from the left, each one filler's pull.

    Too many to draw one by one, they become a single block of the same footprint.
    """
    count = filler_count(n)
    gap = min(0.06, 0.15 * min(cell_width, cell_height))
    if count > MAX_CELLS:
        columns = -(-count // rows)
        block = Rectangle(
            width=columns * cell_width, height=rows * cell_height, stroke_width=0
        ).set_fill(style.MUTED, 1)
        return VGroup(block.move_to([left + block.width / 2, top - block.height / 2, 0]))
    cells = VGroup()
    for i in range(count):
        column, row = divmod(i, rows)
        cell = Rectangle(width=cell_width - gap, height=cell_height - gap, stroke_width=0).set_fill(
            style.MUTED, 1
        )
        cell.move_to([left + (column + 0.5) * cell_width, top - (row + 0.5) * cell_height, 0])
        cells.add(cell)
    return cells


def grow_crowd(cells: VGroup) -> LaggedStart:
    """Fillers popping in one after another, left to right."""
    return LaggedStart(*(FadeIn(cell, scale=0.5) for cell in cells), lag_ratio=0.6)
