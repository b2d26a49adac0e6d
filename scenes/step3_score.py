"""Step 3 · Score: the query dotted with every key, then divided by √dₖ."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_core import formatting as fmt
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import (
    balanced_paragraph,
    column_header,
    column_positions,
    dot_working,
    fit,
    heading,
    math,
    root_dk_working,
    text,
    vector_mob,
)

__all__ = ["Step3Score"]

COLUMNS = (4.9, 3.7, 1.5, 1.5, 1.3)  # token, key, q·k, ÷√dₖ, score
TABLE_LEFT = -6.6
TABLE_TOP = 0.95
TABLE_BOTTOM = -2.2
WORK_Y = -3.1
QUERY_LINE_WIDTH = 13.2  # the question, then q and dₖ, under the heading
QUERY_LINE_TOP = 2.45  # just under the heading's descenders
QUERY_LINE_HEIGHT = 0.75  # two lines of small type, clear of the table's header
QUESTION_GAP = 0.6


class Step3Score(LessonScene):
    """How well does each token match the query? Dot product, then divide by √dₖ."""

    step = 3
    slug = "score"
    move = 1

    def construct(self) -> None:
        self.show_heading()
        self.show_query()
        self.list_keys()
        self.dot_key(0, run_time=style.NORMAL)
        for row in range(1, len(self.lesson.tokens)):
            self.dot_key(row, run_time=style.FAST)
        self.explain_root_dk()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        with self.beat(self.caption("score.caption.heading")):
            self.play(FadeIn(heading(self.kicker, self.title), shift=DOWN * 0.2))

    def show_query(self) -> None:
        lesson = self.lesson
        question = text(lesson.question, size=style.BODY_SIZE)
        self.query_mob = vector_mob([fmt.number(x) for x in lesson.query], style.QUERY)
        query_line = VGroup(
            math("q =", colour=style.QUERY),
            self.query_mob,
            math(r"d_k =", fmt.number(lesson.d_k), colour=style.MUTED),
        )
        query_line.arrange(RIGHT, buff=0.25)
        query_line[2].shift(RIGHT * 0.3)
        room = QUERY_LINE_WIDTH - QUESTION_GAP - query_line.width
        if question.width > room:  # a long question wraps rather than shrinking the query
            question = balanced_paragraph(lesson.question, room, size=style.SMALL_SIZE)
        line = VGroup(question, query_line).arrange(RIGHT, buff=QUESTION_GAP)
        fit(line, QUERY_LINE_WIDTH, QUERY_LINE_HEIGHT).to_edge(LEFT, buff=0.6)
        line.shift(UP * (QUERY_LINE_TOP - line.get_top()[1]))
        caption = self.caption(
            "score.caption.query",
            question=lesson.question,
            query=fmt.vector(lesson.query),
            d_k=fmt.number(lesson.d_k),
        )
        with self.beat(caption):
            self.play(Write(question))
            self.play(FadeIn(query_line, shift=UP * 0.2))

    def list_keys(self) -> None:
        tokens = self.lesson.tokens
        x = column_positions(COLUMNS, TABLE_LEFT)
        self.row_height = min(0.75, (TABLE_TOP - TABLE_BOTTOM) / len(tokens))
        header = VGroup(
            column_header(self.say("common.word.token")),
            column_header(self.say("score.word.key"), colour=style.KEY),
            math(r"q \cdot k", size=style.MATH_SIZE * 0.8, colour=style.MUTED),
            math(r"\div \sqrt{d_k}", size=style.MATH_SIZE * 0.8, colour=style.MUTED),
            column_header(self.say("common.word.score")),
        )
        for column, cell in enumerate(header):
            cell.move_to([x[column] + 0.1, TABLE_TOP + 0.45, 0], aligned_edge=LEFT)
        self.key_mobs = []
        rows = VGroup()
        for i, token in enumerate(tokens):
            y = self.row_y(i)
            name = text(token.text, size=style.SMALL_SIZE, colour=style.token_colour(i))
            fit(name, COLUMNS[0] - 0.2).move_to([x[0] + 0.1, y, 0], aligned_edge=LEFT)
            key = vector_mob([fmt.number(k) for k in token.key], style.KEY)
            fit(key, COLUMNS[1] - 0.2, self.row_height * 0.9)
            key.move_to([x[1] + 0.1, y, 0], aligned_edge=LEFT)
            self.key_mobs.append(key)
            rows.add(VGroup(name, key))
        with self.beat(self.caption("score.caption.keys")):
            self.play(FadeIn(header))
            self.play(
                LaggedStart(*(FadeIn(row, shift=RIGHT * 0.2) for row in rows), lag_ratio=0.25)
            )

    def dot_key(self, row: int, *, run_time: float) -> None:
        """Animate q · k for one token: products one by one, their sum, then ÷ √dₖ."""
        a = self.attention
        products = dot_working(
            [fmt.factor(q) for q in a.query],
            [fmt.factor(k) for k in a.keys[row]],
            " + ".join(fmt.factor(p) for p in a.products[row]),
            "=",
            fmt.number(a.dots[row]),
        )
        scaled = root_dk_working(
            fmt.number(a.dots[row]),
            fmt.number(a.d_k),
            fmt.number(a.root_d_k),
            fmt.number(a.scores[row]),
        )
        work = VGroup(products, scaled).arrange(RIGHT, buff=0.6)
        fit(work, 13.4).move_to([0, WORK_Y, 0])
        marker = SurroundingRectangle(VGroup(self.key_mobs[row]), color=style.KEY, buff=0.08)
        token = self.lesson.tokens[row]
        caption = self.caption(
            "score.caption.dot",
            token=token.text,
            dot=fmt.number(a.dots[row]),
            root=fmt.number(a.root_d_k),
            score=fmt.number(a.scores[row]),
        )
        with self.beat(caption):
            self.play(FadeIn(marker), run_time=run_time / 2)
            for j in range(a.d_k):
                self.play(
                    TransformFromCopy(self.query_mob.entries[j], products[4 * j]),
                    TransformFromCopy(self.key_mobs[row].entries[j], products[4 * j + 2]),
                    FadeIn(products[4 * j + 1]),
                    run_time=run_time / 2 if row == 0 else run_time / a.d_k,
                )
                self.add(products[4 * j + 3])
            self.play(Write(products[4 * a.d_k :]), run_time=run_time)
            self.play(Write(scaled), run_time=run_time)
            self.fill_row(row, products[-1], scaled[6], scaled[-1], run_time=run_time)
            self.play(FadeOut(work), FadeOut(marker), run_time=run_time / 2)

    def fill_row(self, row, dot_mob, root_mob, score_mob, *, run_time: float) -> None:
        a = self.attention
        x = column_positions(COLUMNS, TABLE_LEFT)
        y = self.row_y(row)
        cells = VGroup(
            math(fmt.number(a.dots[row])),
            math(r"\div", fmt.number(a.root_d_k), colour=style.MUTED),
            math(fmt.number(a.scores[row])),
        )
        for column, cell in zip((2, 3, 4), cells, strict=True):
            fit(cell, COLUMNS[column] - 0.2, self.row_height * 0.8)
            cell.move_to([x[column] + 0.1, y, 0], aligned_edge=LEFT)
        self.play(
            TransformFromCopy(dot_mob, cells[0]),
            TransformFromCopy(root_mob, cells[1]),
            TransformFromCopy(score_mob, cells[2]),
            run_time=run_time,
        )
        self.play(Indicate(cells[2], color=style.QUERY), run_time=run_time)

    def explain_root_dk(self) -> None:
        why = VGroup(
            text(
                self.say("score.line.why_title"),
                size=style.SMALL_SIZE,
                colour=style.QUERY,
                bold=True,
            ),
            balanced_paragraph(self.say("score.line.why"), 13.4, colour=style.MUTED),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        fit(why, 13.4).move_to([0, WORK_Y, 0])
        with self.beat(self.caption("score.caption.why")):
            self.play(FadeIn(why, shift=UP * 0.2))

    # layout ------------------------------------------------------------------------------

    def row_y(self, row: int) -> float:
        return TABLE_TOP - self.row_height * (row + 0.5)
