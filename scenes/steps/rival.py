"""Step 6 · A rival: a lookalike token re-splits the budget; then the quick check."""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    FadeTransform,
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
from scenes.toolkit.dot_product import DotProduct, column_gap
from scenes.toolkit.figures import FigureVector, figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.vectors import CELL_HEIGHT, VectorCells, cell_width

__all__ = ["Step6Rival"]

LEFT_X = -6.6  # row labels start here
BAR_LEFT = -4.7  # bars and the output start here, right of the row labels
RIGHT_X = 6.6
BAR_HEIGHT = 0.6
BEFORE_Y = 1.85
RIVAL_Y = 1.05  # the new token, its key and (once worked out) its score
WORK_TOP = 0.55  # q · k for the rival: the query's cells, the key's under them, the working
WORK_LEFT = -6.0  # right of the q and k labels
FLOOR = -3.7  # the working's lowest line (how the score compares) stays above this
FITTING_ROUNDS = 4
AFTER_Y = -0.2  # the re-split bar, where the working was
OUTPUT_Y = -1.7
OUTPUT_ROOM = 0.35  # kept free above the output's middle
VERDICT_Y = -3.0
QUESTION_TOP = 1.9
CARDS_Y = -1.2
WIDTH = RIGHT_X - LEFT_X
ANSWER_DROP = 0.45  # from the output entries' baseline down to their answers' baseline
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
        """The heading comes in with the budget as step 4 left it and the output of step 5."""
        a, w, lesson = self.before, self.worked, self.lesson
        colours = [style.token_colour(i) for i in range(len(lesson.tokens))]
        # A zero-width rival slice at the end lets this bar turn into the "after" bar.
        self.before_bar = self.bar([*a.weights, 0.0], [*colours, style.RIVAL], BEFORE_Y)
        before_tag = row_tag(self.say("rival.word.before"), BEFORE_Y)
        self.output_tag = row_tag(self.say("common.word.output"), OUTPUT_Y)
        self.output_columns = OutputColumns(
            [w.before.entries, w.after.entries],
            lesson.answers,
            left=BAR_LEFT,
            right=RIGHT_X,
            y=OUTPUT_Y,
        )
        self.output_mob, self.answer_mobs = self.output_columns.build(w.before.entries)
        self.means(self.output_columns.meant(w.before.entries, self.output_mob, self.answer_mobs))
        self.open_with_heading(
            self.caption("rival.caption.heading"),
            FadeIn(before_tag),
            FadeIn(self.before_bar, shift=RIGHT * 0.3),
            FadeIn(self.output_tag),
            FadeIn(self.output_mob, shift=UP * 0.2),
            FadeIn(self.answer_mobs),
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
            rival.key, style.KEY, texts=self.worked.rival.key_entries, peak=self.peak
        )
        key = VGroup(math("k =", colour=style.KEY), self.rival_key).arrange(RIGHT, buff=0.2)
        # The score is worked out in the next beat; its place on this line is kept for it.
        self.score_tag = VGroup(
            text(self.say("rival.word.score"), size=style.SMALL_SIZE, colour=style.MUTED),
            figure(self.quiz.rival, colour=style.RIVAL, bold=True),
        ).arrange(RIGHT, buff=0.2)
        line = VGroup(tag, name, key, self.score_tag).arrange(RIGHT, buff=0.4)
        self.score_tag[0].shift(UP * (baseline(tag) - baseline(self.score_tag[0])))
        fit(line, WIDTH).move_to([LEFT_X + line.width / 2, RIVAL_Y, 0])
        with self.beat(
            self.caption("rival.caption.arrives", token=rival.text, key=self.worked.rival.key)
        ):
            self.play(FadeIn(VGroup(tag, name), shift=LEFT * 0.6))
            self.play(FadeIn(key, shift=UP * 0.2))

    def score_rival(self) -> None:
        """q · k for the rival, as in step 3 and with the same working: pairs of cells, their
        products, the sum, then ÷ √dₖ. The output steps aside for it and comes back after."""
        a = self.after
        w = self.worked
        entries = (w.query_entries, w.rival.key_entries)
        width = max(CELL_HEIGHT, cell_width(*entries, size=style.WORKING_SIZE))
        products = list(self.worked.rival.factors)
        self.query = VectorCells(
            a.query,
            style.QUERY,
            texts=w.query_entries,
            width=width,
            gap=column_gap(width, products, size=style.WORKING_SIZE),
            peak=self.peak,
            size=style.WORKING_SIZE,
        )
        self.query.move_to([WORK_LEFT, WORK_TOP, 0], aligned_edge=UP + LEFT)
        comparison = text(self.score_comparison(), size=style.SMALL_SIZE, colour=style.MUTED)
        for _ in range(FITTING_ROUNDS):  # the gaps between lines do not shrink with the type
            work = self.working()
            comparison.next_to(work, DOWN, buff=0.3).align_to(self.query, LEFT)
            span = VGroup(self.query, work, comparison)
            factor = min(1.0, (WORK_TOP - FLOOR) / span.height, (RIGHT_X - WORK_LEFT) / span.width)
            if factor == 1.0:
                break
            self.query.scale(factor * 0.98, about_point=self.query.get_corner(UP + LEFT))
            comparison.scale(factor * 0.98)
        work = self.working()
        comparison.next_to(work, DOWN, buff=0.3).align_to(self.query, LEFT)
        labels = VGroup(
            math("q", colour=style.QUERY).next_to(self.query, LEFT, buff=0.3),
            math("k", colour=style.KEY).next_to(work.key, LEFT, buff=0.3),
        )
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
            detail = [self.query, work, labels]
            with Focus(self, *detail, frame=[*detail, comparison], marked=[self.query]):
                work.play(self, self.rival_key, run_time=style.SLOW)
                self.play(FadeIn(comparison, shift=LEFT * 0.2), run_time=style.FAST)
            self.play(TransformFromCopy(work.score, self.score_tag[1]), FadeIn(self.score_tag[0]))
        self.work = VGroup(self.query, labels, work, comparison)

    def resplit_budget(self) -> None:
        b, lesson = self.after, self.lesson
        top = self.outcome.top_token
        rival = len(lesson.tokens)
        colours = [style.token_colour(i) for i in range(rival)] + [style.RIVAL]
        after_bar = self.bar(b.weights, colours, AFTER_Y)
        names = [t.short for t in lesson.tokens] + [lesson.rival.short]
        shares = [r.share for r in self.worked.after.rows]
        after_labels = share_labels(after_bar, shares, names)
        after_tag = row_tag(self.say("rival.word.after"), AFTER_Y)
        # First the old split comes down unchanged; then the rival's slice pushes in.
        moving_bar = self.before_bar.copy()
        moving_labels = [m.copy() if m else None for m in self.before_labels]
        drop = DOWN * (BEFORE_Y - AFTER_Y)
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
        verdict = balanced_paragraph(self.worked.verdict, WIDTH, size=style.BODY_SIZE)
        verdict.move_to([0, VERDICT_Y, 0]).set_x(LEFT_X + verdict.width / 2)
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
        question = balanced_paragraph(self.question(), WIDTH - 0.4, size=style.BODY_SIZE)
        block = VGroup(tag, question).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        block.move_to([LEFT_X + block.width / 2, QUESTION_TOP - block.height / 2, 0])
        cards = option_cards(list(q.options), width=WIDTH)
        cards.move_to([0, CARDS_Y, 0])
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

    def working(self) -> DotProduct:
        """The rival's dot product under the query, where the query stands now."""
        work = DotProduct(
            self.query,
            self.worked,
            self.worked.rival,
            width=RIGHT_X - WORK_LEFT,
            score_colour=style.RIVAL,
        )
        return work

    def lesson_query_source(self) -> VectorCells:
        """The query as step 3 showed it, unfolding into the working's cells."""
        return VectorCells(
            self.lesson.query, style.QUERY, texts=self.worked.query_entries, peak=self.peak
        ).move_to([0, WORK_TOP, 0])

    @property
    def peak(self) -> float:
        """The largest query or key entry: it shades fullest, as in step 3."""
        a = self.after
        return float(max(abs(x) for v in (a.query, *a.keys) for x in v))

    def bar(self, weights: Sequence[float], colours: Sequence[str], y: float) -> VGroup:
        bar = budget_bar(weights, colours, width=RIGHT_X - BAR_LEFT, height=BAR_HEIGHT)
        return bar.move_to([(BAR_LEFT + RIGHT_X) / 2, y, 0])


def row_tag(content: str, y: float) -> Text:
    tag = text(content, size=style.SMALL_SIZE, colour=style.MUTED, bold=True)
    return tag.move_to([LEFT_X + tag.width / 2, y, 0])


def share_labels(bar: VGroup, shares: Sequence[str], names: Sequence[str]) -> list[Text | None]:
    """A label inside each slice wide enough to hold one: "84.4% · river", or just "84.4%"."""
    labels: list[Text | None] = []
    for piece, share, name in zip(bar, shares, names, strict=False):
        label = None
        for content in (f"{share} · {name}", share):
            candidate = text(content, size=style.SMALL_SIZE, colour=style.BACKGROUND, bold=True)
            if candidate.width <= piece.width - 0.25:
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
        names = [text(answer, size=style.SMALL_SIZE, colour=style.MUTED) for answer in answers]
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
            *(text(answer, size=style.SMALL_SIZE, colour=style.MUTED) for answer in self.answers)
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
