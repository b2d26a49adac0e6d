"""The causal mask: the cells above the diagonal read −∞, pull 0, and each row splits again."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    UP,
    Brace,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

from scenes import style
from scenes.base import LessonScene
from scenes.helpers import column_header, fit, math, text
from scenes.layout import LOWER
from scenes.steps.all_queries import attention_grid, axis_labels, output_column, value_columns
from scenes.toolkit.figures import Figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.grid import heat

__all__ = ["Mask"]

FUTURE = 0.3  # opacity of what the first token cannot see: words not written yet
NOTE = LOWER.rows(1, 1)[1]  # the rule: the lower band's lower half (the formula goes over it)


class Mask(LessonScene):
    """Why generation hides the future, done to the all-queries grid: −∞, pull 0, new shares."""

    slug = "mask"

    def construct(self) -> None:
        w = self.worked
        self.open, self.masked = w.open_grid, w.grid
        self.grid = attention_grid(self)
        self.means(self.grid)
        self.hidden = [(int(i), int(j)) for i, j in np.argwhere(self.masked.attention.hidden)]
        self.show_heading()
        self.show_future()
        self.state_rule()
        self.back_to_scores()
        self.add_minus_infinity()
        self.pull_nothing()
        self.resplit_first()
        self.resplit_rest()
        self.keep_last()
        self.new_outputs()
        self.explain_why()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        """The clip opens on the all-queries step as it ended: the heat map and the outputs."""
        grid, cells = self.grid, self.open.cells
        weights = self.open.attention.weights
        for i, line in enumerate(cells):
            for j, cell in enumerate(line):
                grid.put(i, j, grid.number(i, j, cell.share))
                grid.boxes[i][j].set_fill(grid.colour, opacity=heat(float(weights[i][j]), 1.0))
        self.axes = axis_labels(self, grid)
        self.output_header, self.outputs = output_column(self, grid, self.open.rows)
        values = VGroup(*value_columns(grid, self.open))
        self.add(grid, self.axes, self.output_header, self.outputs, values)
        # The values make way for what the mask needs under the grid.
        self.open_with_heading(self.caption("mask.caption.heading"), FadeOut(values))

    def show_future(self) -> None:
        """The first token, being written: every later column is a word not there yet."""
        grid, tokens = self.grid, self.lesson.tokens
        later = range(1, len(tokens))
        names = VGroup(*(grid.column_labels[j] for j in later))
        looks = VGroup(*(grid.entry(0, j) for j in later))
        row = SurroundingRectangle(
            VGroup(grid.row_labels[0], grid.row(0)), color=style.token_colour(0), buff=0.1
        )
        columns = VGroup(*(grid.boxes[-1][j] for j in later))
        brace = Brace(columns, DOWN, buff=0.12, color=style.MUTED)
        tag = column_header(self.say("mask.word.future"), colour=style.MUTED)
        fit(tag, 2 * grid.cells.width).next_to(brace, DOWN, buff=0.12)
        self.future = VGroup(row, brace, tag)
        caption = self.caption(
            "mask.caption.future",
            query=tokens[0].short,
            later=self.listed([t.short for t in tokens[1:]]),
        )
        with self.beat(caption):
            self.play(Create(row), Indicate(grid.row_labels[0], color=style.token_colour(0)))
            self.play(
                FadeIn(brace, shift=UP * 0.1),
                FadeIn(tag, shift=UP * 0.2),
                names.animate.set_opacity(FUTURE),
                looks.animate.set_opacity(FUTURE),
            )

    def state_rule(self) -> None:
        grid = self.grid
        rule = text(self.say("mask.line.rule"), size=style.BODY_SIZE)
        NOTE.place(NOTE.fit(rule))
        self.rule = rule
        hidden = VGroup(*(grid.boxes[i][j] for i, j in self.hidden))
        with self.beat(self.caption("mask.caption.rule")):
            later = range(1, len(self.lesson.tokens))
            self.play(
                FadeOut(self.future),
                grid.column_labels.animate.set_opacity(1),
                *(grid.entry(0, j).animate.set_opacity(1) for j in later),
                FadeIn(rule, shift=UP * 0.2),
            )
            self.play(Indicate(hidden, color=style.TEXT, scale_factor=1.05))

    def back_to_scores(self) -> None:
        with self.beat(self.caption("mask.caption.scores")):
            self.swap([[c.score for c in line] for line in self.open.cells], shade=False)

    def add_minus_infinity(self) -> None:
        grid, cells = self.grid, self.masked.cells
        plus_m = math(r"\frac{Q K^{\top}}{\sqrt{d_k}}", "+", "M")
        plus_m[2].set_color(style.RIVAL)
        under = (grid.cells.get_bottom()[1] + self.rule.get_top()[1]) / 2  # between the two
        plus_m.move_to((grid.cells.get_x(), under, 0))
        self.plus_m = plus_m
        new = {
            (i, j): grid.number(i, j, cells[i][j].score, colour=style.MUTED) for i, j in self.hidden
        }
        with self.beat(self.caption("mask.caption.minus")):
            self.play(FadeIn(plus_m, shift=UP * 0.2), run_time=style.FAST)
            self.play(
                *(grid.darken(i, j) for i, j in self.hidden),
                *grid.turn_into(new),
                Indicate(plus_m[2], color=style.RIVAL),
                run_time=style.SLOW,
            )

    def pull_nothing(self) -> None:
        with self.beat(self.caption("mask.caption.pull")):
            self.swap(
                [[c.pull for c in line] for line in self.masked.cells],
                shade=False,
                hidden_too=True,
            )

    def resplit_first(self) -> None:
        caption = self.caption(
            "mask.caption.first",
            query=self.lesson.tokens[0].short,
            share=self.masked.cells[0][0].share,
        )
        grid = self.grid
        row = [grid.row_labels[0], grid.row(0), *(grid.entry(0, j) for j in range(grid.shape[1]))]
        with self.beat(caption), Focus(self, *row, frame=row, marked=[]):
            self.swap(self.shares(), rows=[0], hidden_too=True)

    def resplit_rest(self) -> None:
        tokens, row = self.lesson.tokens, min(1, len(self.lesson.tokens) - 1)
        seen = self.masked.attention.weights[row][: row + 1]
        key = int(np.argmax(seen))
        caption = self.caption(
            "mask.caption.rest",
            query=tokens[row].short,
            key=tokens[key].short,
            share=self.masked.cells[row][key].share,
            before=self.open.cells[row][key].share,
            budget=self.worked.budget,
        )
        with self.beat(caption):
            self.swap(self.shares(), rows=list(range(1, len(tokens))), hidden_too=True)

    def keep_last(self) -> None:
        last = len(self.lesson.tokens) - 1
        caption = self.caption("mask.caption.last", query=self.lesson.tokens[last].short)
        with self.beat(caption):
            self.play(Indicate(self.grid.row(last), color=style.TEXT, scale_factor=1.05))

    def new_outputs(self) -> None:
        _, outputs = output_column(self, self.grid, self.masked.rows)
        row = min(1, len(self.lesson.tokens) - 1)
        caption = self.caption(
            "mask.caption.output",
            query=self.lesson.tokens[row].short,
            output=self.masked.rows[row].output,
            before=self.open.rows[row].output,
        )
        with self.beat(caption):
            self.play(
                *(ReplacementTransform(o, n) for o, n in zip(self.outputs, outputs, strict=True)),
                run_time=style.SLOW,
            )
        self.outputs = outputs

    def explain_why(self) -> None:
        with self.beat(self.caption("mask.caption.why")):
            self.play(Indicate(self.rule, color=style.QUERY))

    # pieces of beats ---------------------------------------------------------------------

    def shares(self) -> list[list[str]]:
        return [[c.share for c in line] for line in self.masked.cells]

    def swap(
        self,
        texts: list[list[str]],
        *,
        rows: list[int] | None = None,
        shade: bool = True,
        hidden_too: bool = False,
    ) -> None:
        """Those rows' visible cells (``hidden_too``: every cell) show the next stage's
        numbers; with ``shade``, each is filled by its masked weight, else goes back to faint."""
        grid, hidden = self.grid, set(self.hidden)
        chosen = range(len(texts)) if rows is None else rows
        places = [(i, j) for i in chosen for j in range(len(texts[i])) if (i, j) not in hidden]
        new: dict[tuple[int, int], Figure] = {
            (i, j): grid.number(i, j, texts[i][j]) for i, j in places
        }
        weights = self.masked.attention.weights
        fills = [
            grid.boxes[i][j].animate.set_fill(
                grid.colour, opacity=heat(float(weights[i][j]) if shade else 0.0, 1.0)
            )
            for i, j in places
        ]
        for i, j in self.hidden if hidden_too else ():  # −∞ stays until its pull, 0, comes
            if i in chosen:
                new[(i, j)] = grid.number(i, j, texts[i][j], colour=style.MUTED)
        self.play(*grid.turn_into(new), *fills, run_time=style.SLOW)
