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
    TransformFromCopy,
    VGroup,
    VMobject,
)

from attention_core import SCALING_SECTION
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import balanced_paragraph, fit, inline, math, text
from scenes.layout import LOWER, STAGE, Region
from scenes.toolkit.dot_product import WORK_AREA, DotProduct, column_gap, fit_working
from scenes.toolkit.figures import figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.score_table import ScoreTable
from scenes.toolkit.vectors import VectorCells, cell_width

__all__ = ["Step3Score"]

QUESTION_GAP = 0.6  # between the question and the query beside it
QUESTION_ROOM = 0.35  # of the stage's width, the least a question wrapped beside the query gets
LINE_GAP = 0.06  # between the question and the query under it, and the query and the table
WORK_CELL_HEIGHT = 0.62


class Step3Score(LessonScene):
    """How well does each token match the query? Dot product, then divide by √dₖ."""

    step = 3
    slug = "score"
    move = 1

    def construct(self) -> None:
        self.table = ScoreTable(self.worked, key_heading=self.say("score.word.key"))
        self.means(self.table)
        self.show_heading()
        self.lay_out_query()
        self.point_at_keys()
        self.dot_key(0, run_time=style.SLOW)
        for row in range(1, len(self.lesson.tokens)):
            self.dot_key(row, run_time=style.NORMAL)
        self.explain_root_dk()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        """The heading comes in with the question, the query and the toy setup's caveat."""
        line = self.question_line(STAGE.above(self.table.get_top()[1] + LINE_GAP))
        self.caveat = balanced_paragraph(
            self.say("score.line.caveat", d_k=self.worked.d_k),
            LOWER.width,
            colour=style.MUTED,
        )
        LOWER.place(self.caveat)
        table = self.table
        rows = [VGroup(name, key) for name, key in zip(table.names, table.keys, strict=True)]
        self.open_with_heading(
            self.caption("score.caption.heading"),
            FadeIn(line, shift=DOWN * 0.2),
            FadeIn(VGroup(*table.headers.values())),
            LaggedStart(*(FadeIn(row, shift=RIGHT * 0.2) for row in rows), lag_ratio=0.25),
            FadeIn(self.caveat, shift=UP * 0.2),
        )

    def lay_out_query(self) -> None:
        """The query unfolds into cells where the dot products will be worked out."""
        a, w = self.attention, self.worked
        keys = (r.key_entries for r in w.before.rows)
        width = max(WORK_CELL_HEIGHT, cell_width(w.query_entries, *keys, size=style.WORKING_SIZE))
        products = [p for row in self.worked.before.rows for p in row.factors]
        self.query = VectorCells(
            a.query,
            style.QUERY,
            texts=w.query_entries,
            width=width,
            height=WORK_CELL_HEIGHT,
            gap=column_gap(width, products, size=style.WORKING_SIZE),
            peak=self.peak,
            size=style.WORKING_SIZE,
        )
        self.k_label = math("k", colour=style.KEY)
        fit_working(self.query, self.workings)
        q_label = math("q", colour=style.QUERY).next_to(self.query, LEFT, buff=0.3)
        caption = self.caption(
            "score.caption.query",
            question=self.lesson.question,
            query=self.worked.query,
            d_k=self.worked.d_k,
        )
        with self.beat(caption):
            self.play(
                FadeOut(self.caveat, shift=DOWN * 0.2),
                TransformFromCopy(self.query_text, self.query),
                FadeIn(q_label),
                run_time=style.SLOW,
            )

    def point_at_keys(self) -> None:
        keys = self.table.keys
        with self.beat(self.caption("score.caption.keys")):
            self.play(LaggedStart(*(Indicate(key, color=style.KEY) for key in keys), lag_ratio=0.2))

    def dot_key(self, row: int, *, run_time: float) -> None:
        """q · k for one token, done to the vectors; the result travels into the table."""
        w, table = self.worked, self.table
        detail = self.detail(row)
        work = detail[1]
        caption = self.caption(
            "score.caption.dot",
            token=self.lesson.tokens[row].text,
            dot=w.before.rows[row].dot,
            root=w.root_d_k,
            score=w.before.rows[row].score,
        )
        scored = [table.score(done) for done in range(row)]
        with self.beat(caption):
            if row == 0:
                self.play(FadeIn(self.k_label), run_time=style.FAST)
            with Focus(self, *detail, results=scored, frame=detail, marked=[self.query]):
                work.play(self, table.keys[row], run_time=run_time)
            self.play(
                TransformFromCopy(work.dot, table.dots[row]),
                TransformFromCopy(work.division.over_root_d_k, table.divisors[row]),
                TransformFromCopy(work.score, table.score(row)),
                run_time=run_time,
            )
            self.play(Indicate(table.score(row), color=style.QUERY), run_time=style.FAST)
            self.play(FadeOut(work), run_time=style.FAST)

    def explain_root_dk(self) -> None:
        why = VGroup(
            text(
                self.say("score.line.why_title"),
                size=style.SMALL_SIZE,
                colour=style.QUERY,
                bold=True,
            ),
            balanced_paragraph(self.say("score.line.why"), LOWER.width, colour=style.TEXT),
            text(
                self.say("score.line.why_source", section=SCALING_SECTION),
                size=style.SMALL_SIZE,
                colour=style.MUTED,
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        LOWER.place(LOWER.fit(why))
        work_area = [m for m in self.mobjects if m.get_top()[1] < LOWER.top + 0.05]
        with self.beat(self.caption("score.caption.why")):
            self.play(*(FadeOut(m) for m in work_area), run_time=style.FAST)
            self.play(FadeIn(why, shift=UP * 0.2))

    # layout ------------------------------------------------------------------------------

    def question_line(self, band: Region) -> VGroup:
        """The question and the query with its dₖ, in ``band``: side by side where the question
        fits beside the query (wrapped if need be), else the question on one line over the
        query. The query keeps its size: only the question gives way to it."""
        question: VMobject = text(self.lesson.question, size=style.BODY_SIZE)
        self.query_text = figure(self.worked.query, colour=style.QUERY)
        d_k = inline(
            math(r"d_k =", colour=style.MUTED), figure(self.worked.d_k, colour=style.MUTED)
        )
        query_line = inline(math("q =", colour=style.QUERY), self.query_text, d_k, buff=0.25)
        d_k.shift(RIGHT * 0.3)
        room = band.width - QUESTION_GAP - query_line.width
        if question.width > room and room >= QUESTION_ROOM * band.width:
            question = balanced_paragraph(self.lesson.question, room, size=style.SMALL_SIZE)
        if question.width <= room and question.height <= band.height:
            return VGroup(band.place(question, LEFT), band.place(query_line, RIGHT))
        fit(query_line, band.width)
        question = text(self.lesson.question, size=style.SMALL_SIZE)
        fit(question, band.width, band.height - query_line.height - LINE_GAP)
        line = VGroup(question, query_line).arrange(DOWN, aligned_edge=LEFT, buff=LINE_GAP)
        return band.place(line, LEFT)

    def detail(self, row: int) -> tuple[VectorCells, DotProduct, VMobject]:
        """What a close-up of row ``row``'s working shows: the query, the working, ``k``."""
        work = self.working(row)
        self.k_label.next_to(work.key, LEFT, buff=0.3).set_x(self.query.get_left()[0] - 0.45)
        return self.query, work, self.k_label

    def workings(self) -> VGroup:
        """Every row's dot product, laid out under the query where it stands now."""
        rows = range(len(self.lesson.tokens))
        return VGroup(*(self.working(row) for row in rows))

    def working(self, row: int) -> DotProduct:
        return DotProduct(
            self.query,
            self.worked,
            self.worked.before.rows[row],
            width=WORK_AREA.width,
        )

    @property
    def peak(self) -> float:
        """The largest query or key entry: it shades fullest, in every vector of the step."""
        a = self.attention
        return float(max(abs(x) for v in (a.query, *a.keys) for x in v))
