"""Step 6 · A rival: a lookalike token re-splits the budget; then the quick check."""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    FadeTransform,
    FadeTransformPieces,
    Indicate,
    LaggedStart,
    Mobject,
    ReplacementTransform,
    Text,
    Transform,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_core import Lesson
from attention_core.meaning import meaning
from attention_core.worked import worked
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import (
    balanced_paragraph,
    bar_meaning,
    baseline,
    budget_bar,
    fit,
    labelled,
    math,
    meaning_of,
    option_cards,
    text,
)
from scenes.layout import LOWER, SAFE, STAGE, Region
from scenes.steps.mix import last_picture
from scenes.toolkit.dot_product import DotProduct, column_gap
from scenes.toolkit.figures import FigureVector, figure
from scenes.toolkit.focus import Focus, close_up_holds
from scenes.toolkit.vectors import CELL_HEIGHT, VectorCells, cell_width

__all__ = ["Step6Rival"]

BAR_HEIGHT = 0.6
TAG_GAP = 0.4  # between the row tags' column and the bars, or the output, right of it
ROW_GAP = 0.3  # between the before bar, the rival's line and what comes under them
WORK_GAP = 0.45  # between the rival's line and the working under it
LABEL_GAP = 0.3  # between the working's q and k and their cells
COMPARISON_GAP = 0.3  # between the working and how its score compares, under it
FITTING_ROUNDS = 4
SIZE = style.WORKING_SIZE  # the working's numbers, as step 3 writes them
SHARE_SIZE = 29  # a share inside its slice: 40 px and more at 1080p, its % sign too
ANSWER_SIZE = 30  # the answers under the output's entries, often numbers (4821)
KEY_SIZE = 36  # the rival's key on its line: its entries 40 px and more at 1080p
SCORE_SIZE = 36  # the rival's score on its line, once worked out
LABEL_ROOM = 0.15  # kept free in a slice beside its share label
LINE_BUFF = 0.4  # between the parts of the rival's line
LINE_SPACING = 0.2  # between its two lines, where it takes two
ANSWER_DROP = 0.45  # from the output entries' baseline down to their answers' baseline
VERDICT_GAP = 0.35  # between the output's answers and the verdict under them
COLUMN_GAP, MIN_COLUMN_GAP = 0.5, 0.25  # between the output's answer columns
BRACKET_ROOM = 0.3  # kept for the output vector's brackets at either end


class Step6Rival(LessonScene):
    """Step 6 · A rival: a lookalike token re-splits the budget; then the quick check."""

    step = 6
    slug = "rival"
    move = None

    @classmethod
    def headline(cls, lesson: Lesson) -> str:
        """The headline carries its number: what is left of the top token's share."""
        return lesson.words.say("rival.heading.title", share=worked(lesson).left)

    def construct(self) -> None:
        self.before = self.attention
        self.after = self.worked.after.attention
        self.outcome = self.worked.outcome
        self.quiz = self.worked.quiz
        self.show_heading()
        self.show_before()
        self.rival_arrives()
        self.score_rival()
        self.resplit_budget()
        self.update_output()
        self.ask_quick_check()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        """The clip opens on step 5's last picture: its output moves into this step's output
        row and the chart's answers under their entries, the rest of it leaves, and the budget
        as step 4 left it comes in with the heading."""
        a, w, lesson = self.before, self.worked, self.lesson
        colours = [style.token_colour(i) for i in range(len(lesson.tokens))]
        before_tag = row_tag(self.say("rival.word.before"))
        self.after_tag = row_tag(self.say("rival.word.after"))
        self.output_tag = row_tag(self.say("common.word.output"))
        # The row tags make a column at the stage's left; the bars and the output fill the rest.
        tags = (before_tag, self.after_tag, self.output_tag)
        self.bars = STAGE.right_of(STAGE.left + max(t.width for t in tags) + TAG_GAP)
        # A zero-width rival slice at the end lets this bar turn into the "after" bar.
        self.before_bar = self.bar([*a.weights, 0.0], [*colours, style.RIVAL])
        self.before_bar.set_y(STAGE.top - BAR_HEIGHT / 2)
        level(before_tag, self.before_bar)
        self.output_columns = OutputColumns(
            [w.before.entries, w.after.entries],
            lesson.answers,
            left=self.bars.left,
            right=self.bars.right,
            y=LOWER.y,
        )
        # The output and, once said, the verdict under it stand together in the lower band's
        # middle: the output keeps the place it will have then.
        self.verdict = balanced_paragraph(w.verdict, LOWER.width, size=style.BODY_SIZE)
        trial = VGroup(*self.output_columns.build(w.before.entries))
        # (a verdict of two lines closes up to them, to keep the pair inside the band)
        self.verdict_gap = min(VERDICT_GAP, LOWER.height - trial.height - self.verdict.height)
        stack = trial.height + self.verdict_gap + self.verdict.height
        self.output_columns.y += LOWER.y + stack / 2 - trial.get_top()[1]
        self.output_mob, self.answer_mobs = self.output_columns.build(w.before.entries)
        level(self.output_tag, self.output_mob)
        self.means(self.output_columns.meant(w.before.entries, self.output_mob, self.answer_mobs))
        mix = last_picture(self)
        chart = mix.chart
        self.add(mix.output, *chart.values(), mix.verdict)
        word, output = mix.output
        self.open_with_heading(
            self.caption("rival.caption.heading"),
            FadeIn(before_tag),
            FadeIn(self.before_bar, shift=RIGHT * 0.3),
            # (fades each way, which leave these in their places among the scene's objects)
            FadeTransform(word, self.output_tag, stretch=False),
            FadeTransformPieces(output, self.output_mob, stretch=False),
            *(
                FadeTransform(label, answer, stretch=False)
                for label, answer in zip(chart["labels"], self.answer_mobs, strict=True)
            ),
            FadeOut(chart["tracks"], chart["bars"], chart["values"], mix.verdict),
        )
        self.heading = self.heading_mob

    def show_before(self) -> None:
        lesson = self.lesson
        top = self.outcome.top_token
        names = [t.short for t in lesson.tokens]
        shares = [r.share for r in self.worked.before.rows]
        self.before_labels = share_labels(self.before_bar, shares, names)
        self.means(meaning_of(bar_meaning(names, shares), self.before_bar, *self.before_labels))
        caption = self.caption(
            "rival.caption.before",
            token=lesson.tokens[top].text,
            share=self.worked.before.rows[top].share,
            output=self.worked.before.output,
        )
        with self.beat(caption):
            self.play(LaggedStart(*(FadeIn(m) for m in self.before_labels if m), lag_ratio=0.2))
            self.play(Indicate(self.output_mob, color=style.VALUE, scale_factor=1.05))

    def rival_arrives(self) -> None:
        rival = self.lesson.rival
        tag = text(
            self.say("rival.word.new_token"), size=style.SMALL_SIZE, colour=style.RIVAL, bold=True
        )
        name = text(rival.text, size=style.BODY_SIZE, colour=style.RIVAL)
        name.shift(UP * (baseline(tag) - baseline(name)))
        self.rival_key = VectorCells(
            rival.key,
            style.KEY,
            texts=self.worked.rival.key_entries,
            peak=self.peak,
            size=KEY_SIZE,
        )
        key = VGroup(math("k =", colour=style.KEY), self.rival_key).arrange(RIGHT, buff=0.2)
        # The score is worked out in the next beat; its place on this line is kept for it.
        score = figure(self.quiz.rival, size=SCORE_SIZE, colour=style.RIVAL, bold=True)
        self.score_tag = VGroup(
            text(self.say("rival.word.score"), size=style.SMALL_SIZE, colour=style.MUTED), score
        ).arrange(RIGHT, buff=0.2)
        line = VGroup(tag, name, key, self.score_tag).arrange(RIGHT, buff=LINE_BUFF)
        self.score_tag[0].shift(UP * (baseline(tag) - baseline(self.score_tag[0])))
        if line.width > STAGE.width:
            # Too long for one line: the rival's words on one, its key and score under them.
            words = VGroup(tag, name).arrange(RIGHT, buff=LINE_BUFF)
            tag.shift(UP * (baseline(name) - baseline(tag)))
            numbers = VGroup(key, self.score_tag).arrange(RIGHT, buff=LINE_BUFF)
            self.score_tag[0].shift(UP * (score.baseline - baseline(self.score_tag[0])))
            numbers.next_to(words, DOWN, buff=LINE_SPACING).align_to(name, LEFT)
        fit(line, STAGE.width)
        line.next_to(self.before_bar, DOWN, buff=ROW_GAP).set_x(STAGE.left + line.width / 2)
        self.rival_line = line
        with self.beat(
            self.caption("rival.caption.arrives", token=rival.text, key=self.worked.rival.key)
        ):
            self.play(FadeIn(VGroup(tag, name), shift=LEFT * 0.6))
            self.play(FadeIn(key, shift=UP * 0.2))

    def score_rival(self) -> None:
        """q · k for the rival, as in step 3 and with the same working: pairs of cells, their
        products, the sum, then ÷ √dₖ. The output steps aside for it and comes back after."""
        labels = VGroup(math("q", colour=style.QUERY), math("k", colour=style.KEY))
        # The working takes the room under the rival's line, the output's too (it steps aside),
        # its q and k labels left of it.
        room = SAFE.below(self.rival_line.get_bottom()[1] - WORK_GAP)
        room = room.right_of(room.left + labels.width + LABEL_GAP)
        # The division follows the sum on its line where the camera can still come closer to
        # the working and hold it whole in its title-safe area; else it goes under the sum.
        for beside in (True, False):
            self.query, work, comparison = self.lay_out_working(room, beside=beside)
            labels[0].next_to(self.query, LEFT, buff=LABEL_GAP)
            labels[1].next_to(work.key, LEFT, buff=LABEL_GAP)
            if close_up_holds([self.query, work, labels]):
                break
        # Left over across, the working stands in the middle of the stage.
        block = VGroup(labels, self.query, work, comparison)
        block.shift(RIGHT * (STAGE.x - block.get_x()))
        output = VGroup(self.output_tag, self.output_mob, self.answer_mobs)
        caption = self.caption(
            "rival.caption.score",
            dot=self.worked.rival.dot,
            root=self.worked.root_d_k,
            comparison=self.score_comparison(),
        )
        with self.beat(caption):
            self.play(
                FadeOut(output),
                TransformFromCopy(self.lesson_query_source(), self.query),
                FadeIn(labels),
                run_time=style.NORMAL,
            )
            # The camera comes in on the working alone; how the score compares, a line as wide
            # as the stage, is read with the picture back.
            detail = [self.query, work, labels]
            with Focus(self, *detail, frame=detail, marked=[self.query]):
                work.play(self, self.rival_key, run_time=style.SLOW)
            self.play(FadeIn(comparison, shift=LEFT * 0.2), run_time=style.FAST)
            self.play(TransformFromCopy(work.score, self.score_tag[1]), FadeIn(self.score_tag[0]))
        self.work = VGroup(self.query, labels, work, comparison)

    def resplit_budget(self) -> None:
        b, lesson = self.after, self.lesson
        top = self.outcome.top_token
        rival = len(lesson.tokens)
        colours = [style.token_colour(i) for i in range(rival)] + [style.RIVAL]
        after_bar = self.bar(b.weights, colours)
        # Where the working was: the middle of the stage under the rival's line.
        after_bar.set_y(STAGE.below(self.rival_line.get_bottom()[1] - ROW_GAP).y)
        names = [t.short for t in lesson.tokens] + [lesson.rival.short]
        shares = [r.share for r in self.worked.after.rows]
        after_labels = share_labels(after_bar, shares, names)
        after_tag = level(self.after_tag, after_bar)
        # First the old split comes down unchanged; then the rival's slice pushes in.
        moving_bar = self.before_bar.copy()
        moving_labels = [m.copy() if m else None for m in self.before_labels]
        drop = DOWN * (self.before_bar.get_y() - after_bar.get_y())
        self.means(meaning_of(bar_meaning(names, shares), moving_bar, *after_labels))
        caption = self.caption(
            "rival.caption.resplit",
            token=lesson.tokens[top].short,
            before=self.worked.before.rows[top].share,
            after=self.worked.after.rows[top].share,
            rival=self.worked.rival.share,
        )
        with self.beat(caption):
            self.play(FadeOut(self.work), run_time=style.FAST)
            self.play(
                FadeIn(VGroup(self.output_tag, self.output_mob, self.answer_mobs)),
                FadeIn(after_tag),
                moving_bar.animate.shift(drop),
                *(m.animate.shift(drop) for m in moving_labels if m),
            )
            # Labels that have no room after the split leave first; the others ride along
            # with their slices, cross-fading to the new share; new ones arrive last.
            pairs = list(zip([*moving_labels, None], after_labels, strict=True))
            leaving = [old for old, new in pairs if old and not new]
            if leaving:
                self.play(*(FadeOut(old) for old in leaving), run_time=style.FAST)
            self.play(
                Transform(moving_bar, after_bar),
                *(FadeTransform(old, new) for old, new in pairs if old and new),
                run_time=style.SLOW,
            )
            arriving = [new for old, new in pairs if new and not old]
            if arriving:
                self.play(*(FadeIn(new, scale=0.8) for new in arriving), run_time=style.FAST)
            self.play(Indicate(moving_bar[rival], color=style.RIVAL, scale_factor=1.05))

    def update_output(self) -> None:
        outcome = self.outcome
        new_output, _ = self.output_columns.build(self.worked.after.entries)
        self.means(
            self.output_columns.meant(self.worked.after.entries, new_output, self.answer_mobs)
        )
        verdict = self.verdict.next_to(self.answer_mobs, DOWN, buff=self.verdict_gap)
        verdict.set_x(LOWER.left + verdict.width / 2)
        marked = [outcome.leader]
        if outcome.challenger is not None and outcome.kind in ("tie", "overturns"):
            marked.append(outcome.challenger)
        # The answers the verdict names turn yellow: their entries and their labels.
        named = VGroup(*(VGroup(new_output.entries[j], self.answer_mobs[j]) for j in marked))
        caption = self.caption(
            "rival.caption.output",
            before=self.worked.before.output,
            after=self.worked.after.output,
            verdict=self.worked.verdict,
        )
        with self.beat(caption):
            self.play(ReplacementTransform(self.output_mob, new_output), run_time=style.SLOW)
            self.play(*(Indicate(column, color=style.QUERY, scale_factor=1.15) for column in named))
            self.play(named.animate.set_color(style.QUERY), run_time=style.FAST)
            self.play(FadeIn(verdict, shift=UP * 0.2))

    def ask_quick_check(self) -> None:
        q = self.quiz
        everything = [m for m in self.mobjects if m is not self.heading]
        tag = text(
            self.say("rival.word.quick_check"), size=style.SMALL_SIZE, colour=style.QUERY, bold=True
        )
        question = balanced_paragraph(self.question(), STAGE.width, size=style.BODY_SIZE)
        block = VGroup(tag, question).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        STAGE.place(block, LEFT)  # the question on the stage, the options in the lower band
        cards = LOWER.place(option_cards(list(q.options), width=LOWER.width), ORIGIN)
        caption = self.caption(
            "rival.caption.quick_check",
            filler=q.filler,
            rival=q.rival,
        )
        with self.beat(caption):
            self.play(*(FadeOut(m) for m in everything))
            self.play(FadeIn(tag, shift=DOWN * 0.2), Write(question), run_time=style.SLOW)
            for card in cards:
                self.play(FadeIn(card, shift=UP * 0.2), run_time=style.FAST)

    # words from the data ----------------------------------------------------------------

    def score_comparison(self) -> str:
        outcome, lesson = self.outcome, self.lesson
        top = lesson.tokens[outcome.top_token]
        top_score = self.worked.before.rows[outcome.top_token].score
        relation = {0: "same_as", -1: "below", 1: "above"}[outcome.rival_vs_top]
        return self.say(
            f"rival.line.{relation}",
            score=self.quiz.rival,
            top=top.text,
            top_score=top_score,
        )

    def question(self) -> str:
        q = self.quiz
        return self.say(
            "rival.line.question",
            filler=q.filler,
            rival=q.rival,
        )

    # layout ------------------------------------------------------------------------------

    def lay_out_working(
        self, room: Region, *, beside: bool
    ) -> tuple[VectorCells, DotProduct, Text]:
        """The query's cells at ``room``'s top left, the rival's dot product under them and
        how its score compares under that, all shrunk as one to fit ``room``; the division
        ``beside`` the sum where it fits there."""
        w = self.worked
        width = max(CELL_HEIGHT, cell_width(w.query_entries, w.rival.key_entries, size=SIZE))
        query = VectorCells(
            self.after.query,
            style.QUERY,
            texts=w.query_entries,
            width=width,
            gap=column_gap(width, list(w.rival.factors), size=SIZE),
            peak=self.peak,
            size=SIZE,
        )
        query.move_to([room.left, room.top, 0], aligned_edge=UP + LEFT)
        comparison = text(self.score_comparison(), size=style.SMALL_SIZE, colour=style.MUTED)
        for _ in range(FITTING_ROUNDS):  # the gaps between lines do not shrink with the type
            work = self.working(query, room, beside=beside)
            comparison.next_to(work, DOWN, buff=COMPARISON_GAP).align_to(query, LEFT)
            span = VGroup(query, work, comparison)
            factor = min(1.0, room.height / span.height, room.width / span.width)
            if factor == 1.0:
                break
            query.scale(factor * 0.98, about_point=query.get_corner(UP + LEFT))
            comparison.scale(factor * 0.98)
        work = self.working(query, room, beside=beside)
        comparison.next_to(work, DOWN, buff=COMPARISON_GAP).align_to(query, LEFT)
        return query, work, comparison

    def working(self, query: VectorCells, room: Region, *, beside: bool) -> DotProduct:
        """The rival's dot product under ``query``, the division beside the sum where asked
        and ``room`` lets it be (else under it)."""
        return DotProduct(
            query,
            self.worked,
            self.worked.rival,
            width=room.right - query.get_left()[0] if beside else 0.0,
            score_colour=style.RIVAL,
        )

    def lesson_query_source(self) -> VectorCells:
        """The query as step 3 showed it, unfolding into the working's cells."""
        return VectorCells(
            self.lesson.query, style.QUERY, texts=self.worked.query_entries, peak=self.peak
        ).move_to([STAGE.x, self.query.get_top()[1], 0])

    @property
    def peak(self) -> float:
        """The largest query or key entry: it shades fullest, as in step 3."""
        a = self.after
        return float(max(abs(x) for v in (a.query, *a.keys) for x in v))

    def bar(self, weights: Sequence[float], colours: Sequence[str]) -> VGroup:
        """A budget bar across the bars' column (its height is set by the caller)."""
        bar = budget_bar(weights, colours, width=self.bars.width, height=BAR_HEIGHT)
        return bar.set_x(self.bars.x)


def row_tag(content: str) -> Text:
    """A row's tag, in the column at the stage's left (:func:`level` gives it its row)."""
    tag = text(content, size=style.SMALL_SIZE, colour=style.MUTED, bold=True)
    return tag.set_x(STAGE.left + tag.width / 2)


def level(tag: Mobject, row: Mobject) -> Mobject:
    """A row tag beside its row, level with its middle."""
    return tag.set_y(row.get_y())


def share_labels(bar: VGroup, shares: Sequence[str], names: Sequence[str]) -> list[Text | None]:
    """A label inside each slice wide enough to hold one: "84.4% · river", or just "84.4%"."""
    labels: list[Text | None] = []
    for piece, share, name in zip(bar, shares, names, strict=False):
        label = None
        for content in (f"{share} · {name}", share):
            candidate = text(content, size=SHARE_SIZE, colour=style.BACKGROUND, bold=True)
            if candidate.width <= piece.width - LABEL_ROOM:
                label = candidate.move_to(piece)
                break
        labels.append(label)
    return labels


class OutputColumns:
    """Output vectors laid out one answer per column, so each entry sits over its answer."""

    def __init__(
        self,
        outputs: Sequence[Sequence[str]],
        answers: Sequence[str],
        *,
        left: float,
        right: float,
        y: float,
    ) -> None:
        self.answers = answers
        self.y = y
        samples = [self.vector(out) for out in outputs]
        names = [text(answer, size=ANSWER_SIZE, colour=style.MUTED) for answer in answers]
        natural = [
            max(n.width, *(s.entries[j].width for s in samples)) for j, n in enumerate(names)
        ]
        room = right - left - 2 * BRACKET_ROOM
        # Columns close up before anything shrinks; long answers in every slot may still
        # need a little scaling to fit.
        gap = min(COLUMN_GAP, max(MIN_COLUMN_GAP, (room - sum(natural)) / len(natural)))
        self.scale = min(1.0, room / (sum(natural) + gap * len(natural)))
        self.centres: list[float] = []
        x = left + BRACKET_ROOM
        for width in natural:
            step = (width + gap) * self.scale
            self.centres.append(x + step / 2)
            x += step

    def meant(self, entries: Sequence[str], vector: Mobject, names: Mobject) -> VGroup:
        """The output ``vector`` over its answers' ``names``, as a description says it."""
        slots = labelled(self.answers, entries)
        return meaning_of(meaning("describe.line.output", slots=slots), vector, names)

    @staticmethod
    def vector(entries: Sequence[str]) -> FigureVector:
        return FigureVector(list(entries), colour=style.VALUE)

    def build(self, entries: Sequence[str]) -> tuple[FigureVector, VGroup]:
        vector = self.vector(entries)
        vector.scale(self.scale).move_to([0, self.y, 0])
        spread(vector, self.centres)
        names = VGroup(
            *(text(answer, size=ANSWER_SIZE, colour=style.MUTED) for answer in self.answers)
        ).scale(self.scale)
        level = vector.entries[0].get_bottom()[1] - ANSWER_DROP * self.scale
        for name, x in zip(names, self.centres, strict=True):
            name.set_x(x).shift(UP * (level - baseline(name)))
        return vector, names


def spread(vector: FigureVector, centres: Sequence[float]) -> Mobject:
    """Move a vector's entries to the given x positions, commas and brackets following."""
    entries = vector.entries
    for entry, x in zip(entries, centres, strict=True):
        entry.set_x(x)
    for entry, comma in zip(entries, vector.commas, strict=False):
        comma.set_x(entry.get_right()[0] + 0.05 + comma.width / 2)
    opening, closing = vector.brackets
    opening.set_x(entries[0].get_left()[0] - 0.12 - opening.width / 2)
    closing.set_x(entries[-1].get_right()[0] + 0.12 + closing.width / 2)
    return vector
