"""The answer's beats for a lesson where every token asks: one cell's share, worked from its row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from manim import (
    DOWN,
    LEFT,
    UP,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Mobject,
    Rectangle,
    TransformFromCopy,
    VGroup,
)

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
from scenes.toolkit.figures import figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.sums import SumLine

__all__ = ["ShareAnswer"]

if TYPE_CHECKING:  # what the mixin is mixed into, for the checker; at run time a plain mixin
    from scenes.base import LessonScene as _AnswerScene
else:
    _AnswerScene = object

LEFT_X, RIGHT_X = -6.6, 6.6
WIDTH = RIGHT_X - LEFT_X
ASKED_Y = 0.2  # the options while the question is open
CARDS_Y = 1.8  # the options once answered, making room for the working
SUM_Y = 0.8
DIVISION_Y = 0.0
BAR_Y = -0.95
BAR_HEIGHT = 0.4
OPEN_BAR_Y = -2.85  # the same row without the mask, under the labels of the first bar
LABEL_DROP = 0.35


class ShareAnswer(_AnswerScene):
    """Beats of the answer step (mixed into it) for a ``ShareQuiz``: how much of one token's
    attention goes to another, read off the row of the grid it was asked of."""

    def reveal_share(self) -> None:
        q, tokens = self.worked.share_quiz, self.lesson.tokens
        self.asker, self.to = self.lesson.share_quiz.asker, self.lesson.share_quiz.to
        self.heading = heading(self.kicker, self.title)
        cards = option_cards(list(q.options), width=WIDTH, height=0.8)
        self.options = cards.move_to((0, ASKED_Y, 0))
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
        """Under each wrong option, the slip of the hand that gives it."""
        q = self.worked.share_quiz
        notes = VGroup()
        for card, slip in zip(self.options, q.slips, strict=True):
            note = balanced_paragraph(
                self.say(f"answer.line.slip_{slip}"), card[0].width - 0.2, colour=style.MUTED
            )
            notes.add(note.next_to(card, DOWN, buff=0.25))
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
            self.play(LaggedStart(*(FadeIn(n, shift=DOWN * 0.1) for n in notes), lag_ratio=0.3))

    def work_share(self) -> None:
        """The asker's pulls added up, then the one asked about divided by their total."""
        asker, to, grid = self.asker, self.to, self.worked.share_quiz.grid
        cells, row = grid.cells[asker], grid.rows[asker]
        colours = [self.colour_of(j) for j in range(len(cells))]
        self.sum = SumLine([c.pull for c in cells], row.total, colours=colours)
        fit(self.sum, WIDTH).move_to((0, SUM_Y, 0))
        names = [token.short for token in self.lesson.tokens]
        pulls = labelled(names, [c.pull for c in cells])
        summed = meaning("describe.line.pulls", row=names[asker], pulls=pulls, total=row.total)
        with_meaning(self.sum, summed)
        pull = figure(cells[to].pull, colour=colours[to])
        share = figure(cells[to].share, colour=style.VALUE)
        self.pull_formula = inline(
            pull, figure("÷"), figure(row.total), figure("="), share, buff=0.2
        )
        self.pull_formula.move_to((0, DIVISION_Y, 0))
        caption = self.caption(
            "answer.caption.share_work",
            asker=self.lesson.tokens[asker].short,
            to=self.lesson.tokens[to].short,
            total=row.total,
            pull=cells[to].pull,
            share=cells[to].share,
        )
        with self.beat(caption):
            self.play(self.options.animate.set_y(CARDS_Y), FadeOut(self.slips), run_time=style.FAST)
            self.play(FadeIn(self.sum, shift=UP * 0.2), run_time=style.NORMAL)
            operands = [self.sum.terms[to], self.sum.total]
            with Focus(self, *operands, frame=[*operands, self.pull_formula]):
                self.play(
                    TransformFromCopy(self.sum.terms[to], pull),
                    TransformFromCopy(self.sum.total, self.pull_formula[2]),
                    FadeIn(VGroup(self.pull_formula[1], self.pull_formula[3])),
                    run_time=style.NORMAL,
                )
                self.play(FadeIn(share, shift=LEFT * 0.2))

    def show_row_budget(self) -> None:
        """The asker's row as one budget bar, the slice asked about lit."""
        asker, to, grid = self.asker, self.to, self.worked.share_quiz.grid
        weights = grid.attention.weights[asker]
        self.bar, self.bar_labels = self.row_bar(weights, grid.cells[asker], BAR_Y)
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
        bar, labels = self.row_bar(weights, w.open_grid.cells[asker], OPEN_BAR_Y)
        tag = text(self.say("answer.line.unmasked"), size=style.SMALL_SIZE, colour=style.MUTED)
        tag.next_to(bar, UP, buff=0.12).align_to(bar, LEFT)
        caption = self.caption(
            "answer.caption.share_open",
            share=w.open_grid.cells[asker][to].share,
            to=self.lesson.tokens[to].short,
        )
        with self.beat(caption):
            self.play(FadeIn(tag), FadeIn(bar), FadeIn(labels, shift=DOWN * 0.1))
            self.play(Indicate(labels[to], color=style.MUTED))

    # pieces --------------------------------------------------------------------------------

    def colour_of(self, j: int) -> str:
        """A key's colour in the asker's row: its token's, or muted where the mask hides it."""
        hidden = self.worked.share_quiz.grid.cells[self.asker][j].hidden
        return style.MUTED if hidden else style.token_colour(j)

    def row_bar(
        self, weights: Matrix, cells: Sequence[Cell], y: float, *, width: float = WIDTH
    ) -> tuple[VGroup, VGroup]:
        """One row's weights as a budget bar, each visible slice's share and name under it."""
        colours = [style.token_colour(j) for j in range(len(cells))]
        bar = budget_bar(weights, colours, width=width, height=BAR_HEIGHT)
        bar.move_to((0, y, 0))
        frame = Rectangle(width=width, height=BAR_HEIGHT, stroke_color=style.MUTED, stroke_width=2)
        labels = VGroup()
        for j, (piece, cell) in enumerate(zip(bar, cells, strict=True)):
            if float(weights[j]) < LABELLED:
                labels.add(VGroup())
                continue
            label = VGroup(
                figure(cell.share, size=style.SMALL_SIZE, colour=colours[j]),
                text(self.lesson.tokens[j].short, size=style.SMALL_SIZE, colour=style.MUTED),
            ).arrange(DOWN, buff=0.08)
            fit(label, max(piece.width - 0.1, 0.1))
            labels.add(label.next_to(piece, DOWN, buff=LABEL_DROP * 0.4))
        names = [token.short for token in self.lesson.tokens]
        self.means(meaning_of(bar_meaning(names, [cell.share for cell in cells]), labels))
        return VGroup(*bar, frame.move_to(bar)), labels

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
