"""The answer's beats for a lesson where every token asks: one cell's share, worked from its row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Mobject,
    MoveToTarget,
    Rectangle,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from attention_core import Token
from attention_core.matrix import Matrix
from attention_core.meaning import meaning
from attention_core.worked import Cell, Quiz
from scenes import style
from scenes.helpers import (
    balanced_paragraph,
    bar_meaning,
    budget_bar,
    fit,
    heading,
    inline,
    labelled,
    meaning_of,
    option_cards,
    reveal_choice,
    text,
    with_meaning,
)
from scenes.layout import HEADING, SAFE, STAGE, Region
from scenes.toolkit.figures import figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.sums import SumLine

__all__ = ["BODY", "ShareAnswer", "ask", "to_row"]

if TYPE_CHECKING:  # what the mixin is mixed into, for the checker; at run time a plain mixin
    from scenes.base import LessonScene as _AnswerScene
else:
    _AnswerScene = object

BODY = SAFE.below(HEADING.bottom)
"""Everything under the heading, the stage and the lower band together: the open question's
options and the cited finding, each centred in it."""
WIDTH = SAFE.width
OPTION_GAP = 0.3  # between two option cards
ASKED_SCALE = 1.4  # the options while the question is open, in a grid, this much larger
NOTE_MARGIN = 0.2  # between two slips' notes
GAP = 0.3  # between the rows of the working
BAR_HEIGHT = 0.4
LABEL_DROP = 0.35
LABEL_MARGIN = 0.04  # a slice's label is at most its width less this
LABEL_SIZE = 30  # a slice's share and name: its digits 40 px or more at 1080p
TAG_DROP = 0.12  # a bar's tag to the bar


def ask(cards: VGroup) -> VGroup:
    """The options while the question is open: in a grid, larger, centred under the heading."""
    cards.arrange_in_grid(cols=2, buff=OPTION_GAP).scale(ASKED_SCALE)
    return BODY.place(BODY.fit(cards))


def to_row(cards: VGroup, region: Region, edge: np.ndarray = UP, *, asked: bool = True) -> VMobject:
    """The cards' target once answered: in a row at ``region``'s ``edge`` (its top: the working
    goes under them), back at their own size where they were ``asked`` (:func:`ask`'s grid)."""
    cards.generate_target()
    row = cards.target
    row.scale(1 / ASKED_SCALE if asked else 1).arrange(RIGHT, buff=OPTION_GAP)
    region.place(region.fit(row), edge)
    return row


class ShareAnswer(_AnswerScene):
    """Beats of the answer step (mixed into it) for a ``ShareQuiz``: how much of one token's
    attention goes to another, read off the row of the grid it was asked of."""

    def reveal_share(self) -> None:
        q, tokens = self.worked.share_quiz, self.lesson.tokens
        self.asker, self.to = self.lesson.share_quiz.asker, self.lesson.share_quiz.to
        self.heading = heading(self.kicker, self.title)
        cards = option_cards(list(q.options), width=WIDTH, height=0.8, gap=OPTION_GAP)
        self.options = ask(cards)
        caption = self.caption(
            "answer.caption.share_reveal",
            asker=tokens[self.asker].short,
            to=tokens[self.to].short,
            letter=q.letter,
            option=q.answer,
        )
        with self.beat(caption):
            reveal_choice(self, self.heading, cards, q.numbers.correct)

    def explain_slips(self) -> None:
        """Under each wrong option, the slip of the hand that gives it: the options fall into a
        row, each card over its note, the whole centred under the heading."""
        q = self.worked.share_quiz
        row = to_row(self.options, BODY, ORIGIN)
        notes = VGroup()
        for card, slip in zip(row, q.slips, strict=True):
            note = balanced_paragraph(  # as wide as the card's share of the row, less a margin
                self.say(f"answer.line.slip_{slip}"),
                card[0].width + OPTION_GAP - NOTE_MARGIN,
                colour=style.MUTED,
            )
            notes.add(note.next_to(card, DOWN, buff=0.25))
        BODY.place(VGroup(row, notes))
        for shown in notes:  # the outer notes, a little wider than their cards, kept inside
            shown.shift(RIGHT * max(0.0, SAFE.left - shown.get_left()[0]))
            shown.shift(LEFT * max(0.0, shown.get_right()[0] - SAFE.right))
        self.slips = notes
        wrong = [
            self.say(
                "answer.caption.share_slip",
                letter=Quiz.letter_of(i),
                slip=self.say(f"answer.line.slip_{slip}"),
            )
            for i, slip in enumerate(q.slips)
            if slip != "right"
        ]
        with self.beat(self.caption("answer.caption.share_slips", slips=self.listed(wrong))):
            self.play(MoveToTarget(self.options), run_time=style.FAST)
            self.play(LaggedStart(*(FadeIn(n, shift=DOWN * 0.1) for n in notes), lag_ratio=0.3))

    def work_share(self) -> None:
        """The asker's pulls added up, then the one asked about divided by their total."""
        asker, to, grid = self.asker, self.to, self.worked.share_quiz.grid
        cells, row = grid.cells[asker], grid.rows[asker]
        colours = [self.colour_of(j) for j in range(len(cells))]
        self.sum = SumLine([c.pull for c in cells], row.total, colours=colours)
        fit(self.sum, WIDTH)
        names = [token.short for token in self.lesson.tokens]
        pulls = labelled(names, [c.pull for c in cells])
        summed = meaning("describe.line.pulls", row=names[asker], pulls=pulls, total=row.total)
        with_meaning(self.sum, summed)
        pull = figure(cells[to].pull, colour=colours[to])
        share = figure(cells[to].share, colour=style.VALUE)
        self.pull_formula = inline(
            pull, figure("÷"), figure(row.total), figure("="), share, buff=0.2
        )
        # The options go up to the top of the stage; under them, evenly apart down to the foot
        # of the frame, the working (the sum over the division), the row's budget bar and,
        # where the mask is compared, the same row unmasked.
        top = to_row(self.options, STAGE, UP, asked=False)
        room = SAFE.below(top.get_bottom()[1] - GAP)
        working = VGroup(self.sum, self.pull_formula).arrange(DOWN, buff=GAP)
        blocks = [working.height, self.bar_height()]
        if self.compares:
            blocks.append(self.bar_height() + self.unmasked_tag().height + TAG_DROP)
        tops = spaced(blocks, room)
        working.set_x(room.x).shift(UP * (tops[0] - working.get_top()[1]))
        self.bar_tops = tops[1:]
        caption = self.caption(
            "answer.caption.share_work",
            asker=self.lesson.tokens[asker].short,
            to=self.lesson.tokens[to].short,
            total=row.total,
            pull=cells[to].pull,
            share=cells[to].share,
        )
        with self.beat(caption):
            self.play(MoveToTarget(self.options), FadeOut(self.slips), run_time=style.FAST)
            self.play(FadeIn(self.sum, shift=UP * 0.2), run_time=style.NORMAL)
            operands = [self.sum.terms[to], self.sum.total]
            # The close-up holds the whole sum, not only the two terms it divides: a term cut
            # off at the frame's edge left its "+" behind, and the line read "+ 7.39 ...".
            with Focus(self, *operands, frame=[self.sum, self.pull_formula]):
                self.play(
                    TransformFromCopy(self.sum.terms[to], pull),
                    TransformFromCopy(self.sum.total, self.pull_formula[2]),
                    FadeIn(VGroup(self.pull_formula[1], self.pull_formula[3])),
                    run_time=style.NORMAL,
                )
                self.play(FadeIn(share, shift=LEFT * 0.2))

    @property
    def compares(self) -> bool:
        """Whether the answer shows the asker's row unmasked too (:meth:`compare_open`)."""
        return bool(self.lesson.mask) and not self.lesson.heads

    def show_row_budget(self) -> None:
        """The asker's row as one budget bar, the slice asked about lit."""
        asker, to, grid = self.asker, self.to, self.worked.share_quiz.grid
        weights = grid.attention.weights[asker]
        self.bar, self.bar_labels = self.row_bar(weights, grid.cells[asker], self.bar_tops[0])
        caption = self.caption(
            "answer.caption.share_budget",
            to=self.lesson.tokens[to].short,
            share=grid.cells[asker][to].share,
            budget=self.worked.budget,
        )
        with self.beat(caption):
            self.play(FadeIn(self.bar), FadeIn(self.bar_labels, shift=DOWN * 0.1))
            self.play(Indicate(self.bar[to], color=style.VALUE))

    def compare_open(self) -> None:
        """The same row without the mask: the share the future would have taken."""
        asker, to, w = self.asker, self.to, self.worked
        weights = w.open_grid.attention.weights[asker]
        tag = self.unmasked_tag()
        top = self.bar_tops[1] - tag.height - TAG_DROP
        bar, labels = self.row_bar(weights, w.open_grid.cells[asker], top)
        tag.next_to(bar, UP, buff=TAG_DROP).align_to(bar, LEFT)
        caption = self.caption(
            "answer.caption.share_open",
            share=w.open_grid.cells[asker][to].share,
            to=self.lesson.tokens[to].short,
        )
        with self.beat(caption):
            self.play(FadeIn(tag), FadeIn(bar), FadeIn(labels, shift=DOWN * 0.1))
            self.play(Indicate(labels[to], color=style.MUTED))

    # pieces --------------------------------------------------------------------------------

    def unmasked_tag(self) -> VMobject:
        """The open row's tag: the same row, without the mask."""
        return text(self.say("answer.line.unmasked"), size=style.SMALL_SIZE, colour=style.MUTED)

    def bar_height(self) -> float:
        """How tall the asker's row bar stands with its labels, measured on a bar not shown."""
        grid = self.worked.share_quiz.grid
        bar, labels = bar_and_labels(
            grid.attention.weights[self.asker], grid.cells[self.asker], self.lesson.tokens, WIDTH
        )
        return VGroup(*bar, *labels).height

    def colour_of(self, j: int) -> str:
        """A key's colour in the asker's row: its token's, or muted where the mask hides it."""
        hidden = self.worked.share_quiz.grid.cells[self.asker][j].hidden
        return style.MUTED if hidden else style.token_colour(j)

    def row_bar(
        self, weights: Matrix, cells: Sequence[Cell], top: float, *, width: float = WIDTH
    ) -> tuple[VGroup, VGroup]:
        """One row's weights as a budget bar, its top at ``top``, centred across the frame,
        each visible slice's share and name under it."""
        bar, labels = bar_and_labels(weights, cells, self.lesson.tokens, width)
        VGroup(bar, labels).shift(UP * (top - bar.get_top()[1]))
        names = [token.short for token in self.lesson.tokens]
        self.means(meaning_of(bar_meaning(names, [cell.share for cell in cells]), labels))
        return bar, labels

    def card_moves(self) -> list[list[Mobject]]:
        """The card's three moves with the asker's own numbers: scores, shares, output."""
        grid = self.worked.share_quiz.grid
        cells, row = grid.cells[self.asker], grid.rows[self.asker]
        colours = [self.colour_of(j) for j in range(len(cells))]
        return [
            [text(c.score, colour=k, bold=True) for c, k in zip(cells, colours, strict=True)],
            [text(c.share, colour=k, bold=True) for c, k in zip(cells, colours, strict=True)],
            [text(e, colour=style.VALUE, bold=True) for e in row.output_entries],
        ]


LABELLED = 0.08  # a slice narrower than this share of the bar is too thin for its label


def bar_and_labels(
    weights: Matrix, cells: Sequence[Cell], tokens: Sequence[Token], width: float
) -> tuple[VGroup, VGroup]:
    """A row's budget bar in its frame, centred on the origin, and under each slice wide
    enough its share and its token's name (an empty group under the others)."""
    colours = [style.token_colour(j) for j in range(len(cells))]
    slices = budget_bar(weights, colours, width=width, height=BAR_HEIGHT).move_to(ORIGIN)
    frame = Rectangle(width=width, height=BAR_HEIGHT, stroke_color=style.MUTED, stroke_width=2)
    labels = VGroup()
    for j, (piece, cell) in enumerate(zip(slices, cells, strict=True)):
        if float(weights[j]) < LABELLED:
            labels.add(VGroup())
            continue
        label = VGroup(
            figure(cell.share, size=LABEL_SIZE, colour=colours[j]),
            text(tokens[j].short, size=LABEL_SIZE, colour=style.MUTED),
        ).arrange(DOWN, buff=0.08)
        labels.add(label.next_to(piece, DOWN, buff=LABEL_DROP * 0.4))
    # A label wider than its slice may take the room its neighbours' labels leave (never past
    # the bar's ends): centred under its slice where that fits, else pushed inwards; shrunk
    # only where even that is too narrow.
    natural = [label.width for label in labels]

    def spare(k: int) -> float:
        if not 0 <= k < len(slices) or not natural[k]:
            return 0.0
        return max(0.0, (slices[k].width - natural[k]) / 2 - LABEL_MARGIN)

    for j, (piece, placed) in enumerate(zip(slices, labels, strict=True)):
        if not natural[j]:
            continue
        left = piece.get_left()[0] - spare(j - 1)
        right = piece.get_right()[0] + spare(j + 1)
        fit(placed, max(right - left - LABEL_MARGIN, LABEL_MARGIN))
        half = placed.width / 2
        placed.set_x(min(max(piece.get_x(), left + half), right - half))
    return VGroup(*slices, frame.move_to(slices)), labels


def spaced(heights: Sequence[float], room: Region) -> list[float]:
    """The tops of blocks ``heights`` tall, stacked down ``room`` with even space above,
    between and below them (none when they fill it)."""
    gap = max(0.0, (room.height - sum(heights)) / (len(heights) + 1))
    tops, y = [], room.top - gap
    for height in heights:
        tops.append(y)
        y -= height + gap
    return tops
