"""Step 4 · Softmax: each score exponentiated into its pull, then shared out of one budget."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    TAU,
    UP,
    AnimationGroup,
    ChangeDecimalToValue,
    Create,
    CurvedArrow,
    DecimalNumber,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    Point,
    Rectangle,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
    Write,
    rate_functions,
)

from attention_core import SCORE_STEP
from attention_core import formatting as fmt
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import (
    bar_meaning,
    baseline,
    budget_bar,
    column_header,
    fit,
    inline,
    level_with,
    meaning_of,
    power,
    text,
    token_names,
)
from scenes.layout import LOWER, SIDE, STAGE, Region
from scenes.toolkit.figures import Figure, figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.score_table import ScoreTable
from scenes.toolkit.sums import SumLine

__all__ = ["Budget", "Step4Softmax", "budget_box", "budget_frame", "final_budget", "last_budget"]

# Sizes, gaps and ratios only: every place is taken from scenes.layout's regions.
# The table on STAGE: token | score | pull bar and its number, and in SIDE: ÷ total = | share;
# under its rows, the total (the rule of thumb before it, the callout after).
TOKEN_WIDTH = 4.5  # the most a name takes: a longer one gives way to the short names
SCORE_WIDTH = 1.3  # a score such as -3.18 at full size
COLUMN_GAP = 0.25
PULL_SIZE = style.MATH_SIZE * 0.85
PULL_ROOM = 0.5  # the most of the pull column the numbers at the bars' tips take
PULL_BUFF = 0.12  # from a bar's tip to its number
PULL_CLEARANCE = 0.5  # from the longest pull's number to the ÷ after it
DIVIDE_SHARE, SHARE_SHARE = 1.7, 1.4  # SIDE between ÷ total = and the share
SIDE_GAP = 0.1
SHARE_SIZE = style.NUMBER_SIZE
HEADER_GAP = 0.25  # the least room between two column headers
HEADER_DROP = 0.2  # from the headers to the first row
MAX_ROW_HEIGHT = 0.8
TOTAL_HEIGHT = 0.45
TOTAL_GAP = 0.15  # from the last row to the total
CALLOUT_RISE = 0.12  # the callout, in the total's place, keeps clear of what is under it
# The budget in LOWER, across its width: its label over the bar, each share under its slice.
BUDGET_HEIGHT = 0.45
BUDGET_DOWN = 0.35  # the bar's centre, this share of the way down LOWER: its label over it
BUDGET_SIZE = 30  # the budget's label: a number, read at 40 px and more
LABEL_RISE = 0.12  # from the bar's top to the label over it
LABEL_DROP = 0.3  # from the bar's bottom to the labels' top, room for the leader lines
LABEL_GAP = 0.4
LABEL_PITCH = 0.42  # between the baselines of a label's share and its name


class Step4Softmax(LessonScene):
    """Softmax by hand: e^score gives each token its pull; pull ÷ total gives its share."""

    step = 4
    slug = "softmax"
    move = 2

    def construct(self) -> None:
        self.show_heading()
        self.show_scores()
        self.exponentiate_first()
        self.exponentiate_rest()
        self.show_rule_of_thumb()
        self.add_up_pulls()
        self.divide_first()
        self.divide_rest()
        self.fill_budget()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        """The clip opens on step 3's table as it ended; the keys and the working leave, and
        the names and scores slide to where this step needs them as the heading comes in."""
        names = self.lay_out_scores()
        before = ScoreTable(self.worked, key_heading=self.say("score.word.key"))
        self.add(before)
        leaving = VGroup(
            *(before.headers[column] for column in ("key", "dot", "divisor")),
            *before.keys,
            before.dots,
            before.divisors,
        )
        staying = [
            (before.headers["token"], self.headers["token"]),
            (before.headers["score"], self.headers["score"]),
            *zip(before.names, names, strict=True),
            *zip(before.scores, self.score_mobs, strict=True),
        ]
        self.budget_frame = budget_frame()
        self.budget_label = self.budget_word()
        self.budget_label.next_to(self.budget_frame, UP, buff=LABEL_RISE).align_to(
            self.budget_frame, RIGHT
        )
        self.open_with_heading(
            self.caption("softmax.caption.heading"),
            FadeIn(self.budget_frame, self.budget_label),
            FadeOut(leaving),
            *(ReplacementTransform(old, new) for old, new in staying),
        )

    def show_scores(self) -> None:
        scores = self.listed([r.score for r in self.worked.before.rows])
        with self.beat(self.caption("softmax.caption.scores", scores=scores)):
            self.play(
                LaggedStart(
                    *(Indicate(score, color=style.QUERY) for score in self.score_mobs),
                    lag_ratio=0.25,
                )
            )

    def lay_out_scores(self) -> VGroup:
        """The table's headers and, per token, its name and score; returns the names."""
        tokens = self.lesson.tokens
        self.headers = {
            "token": self.header("common.word.token"),
            "score": self.header("common.word.score"),
            "pull": inline(
                self.header("softmax.word.pull"),
                self.pull_is_e_to_the_score(style.MATH_SIZE * 0.7),
                buff=0.15,
            ),
            "divide": self.header("softmax.word.divide"),
            "share": self.header("softmax.word.share"),
        }
        header_height = max(header.height for header in self.headers.values())
        rows_room = STAGE.height - header_height - HEADER_DROP - TOTAL_GAP - TOTAL_HEIGHT
        self.row_height = min(MAX_ROW_HEIGHT, rows_room / len(tokens))
        names = token_names(tokens, width=TOKEN_WIDTH, height=self.row_height * 0.95)
        self.lay_out(names, header_height)
        header_y = self.rows_top + HEADER_DROP + header_height / 2
        columns = self.columns
        self.headers["token"].move_to([columns["token"].left, header_y, 0], aligned_edge=LEFT)
        self.headers["score"].move_to([columns["score"].x, header_y, 0])
        self.headers["pull"].move_to([columns["pull"].left, header_y, 0], aligned_edge=LEFT)
        self.headers["divide"].move_to([columns["divide"].left, header_y, 0], aligned_edge=LEFT)
        self.headers["share"].move_to([columns["share"].right, header_y, 0], aligned_edge=RIGHT)
        # Long headers (in another language) push their neighbours aside rather than shrink.
        row = list(self.headers.values())
        xs = spread(
            [header.get_x() for header in row],
            [header.width for header in row],
            low=STAGE.left,
            high=STAGE.right,
            gap=HEADER_GAP,
        )
        for header, x in zip(row, xs, strict=True):
            header.set_x(x)
        self.score_mobs = []
        for i, name in enumerate(names):
            y = self.row_y(i)
            score = figure(self.worked.before.rows[i].score, bold=True)
            fit(score, SCORE_WIDTH, self.row_height * 0.8).move_to([columns["score"].x, y, 0])
            level_with(name.move_to([columns["token"].left, y, 0], aligned_edge=LEFT), score)
            self.score_mobs.append(score)
        return names

    def lay_out(self, names: VGroup, header_height: float) -> None:
        """Where everything goes. The table (headers, rows, the total) spans STAGE, centred
        between its top and bottom, its names as wide as the widest and the pull bars taking
        the room that leaves, ÷ total and the shares in SIDE; the budget spans LOWER."""
        n = len(self.lesson.tokens)
        table = header_height + HEADER_DROP + n * self.row_height + TOTAL_GAP + TOTAL_HEIGHT
        self.rows_top = STAGE.y + table / 2 - header_height - HEADER_DROP
        self.total_y = self.rows_top - n * self.row_height - TOTAL_GAP - TOTAL_HEIGHT / 2
        left = STAGE.left_of(SIDE.left - PULL_CLEARANCE)
        token_width = max(names.width, self.headers["token"].width)
        token = left.left_of(left.left + token_width)
        score = left.right_of(token.right + COLUMN_GAP).left_of(
            token.right + COLUMN_GAP + SCORE_WIDTH
        )
        pull = left.right_of(score.right + COLUMN_GAP)
        divide, share = SIDE.columns(DIVIDE_SHARE, SHARE_SHARE, gap=SIDE_GAP)
        self.columns: dict[str, Region] = {
            "token": token,
            "score": score,
            "pull": pull,
            "divide": divide,
            "share": share,
        }
        widest = max(self.pull_number(p, PULL_SIZE).width for p in self.attention.pulls)
        self.pull_room = min(widest, PULL_ROOM * pull.width)
        self.bar_room = pull.width - PULL_BUFF - self.pull_room
        self.budget = budget_box()

    def exponentiate_first(self) -> None:
        token = self.lesson.tokens[0]
        self.bars: list[Rectangle] = []
        self.pull_mobs: list[DecimalNumber] = []
        caption = self.caption(
            "softmax.caption.pull_first",
            token=token.short,
            score=self.worked.before.rows[0].score,
            pull=self.worked.before.rows[0].pull,
        )
        score = self.score_mobs[0]
        detail = [score, Point([self.columns["pull"].right, self.row_y(0), 0])]  # and its pull
        with self.beat(caption):
            self.play(FadeIn(self.headers["pull"], shift=DOWN * 0.1), run_time=style.FAST)
            with Focus(self, score, frame=detail):
                self.grow_pulls([0], run_time=style.SLOW * 1.5)

    def exponentiate_rest(self) -> None:
        tokens = self.lesson.tokens
        rows = list(range(1, len(tokens)))
        said = self.said_of_the_rest(
            "softmax.caption.pull_each",
            score=[r.score for r in self.worked.before.rows],
            pull=[r.pull for r in self.worked.before.rows],
        )
        with self.beat(self.caption("softmax.caption.pull_rest", pulls=said)):
            self.grow_pulls(rows, run_time=style.SLOW)

    def show_rule_of_thumb(self) -> None:
        factor, rule = self.worked.factor, self.worked.rule
        size = style.MATH_SIZE * 0.75
        label = text(
            self.say("softmax.word.rule"), size=style.SMALL_SIZE, colour=style.MUTED, bold=True
        )
        self.rule = text(rule, size=style.BODY_SIZE, colour=style.QUERY, bold=True)
        why = inline(
            text(self.say("softmax.word.pull_of"), size=size, colour=style.MUTED),
            self.pull_is_e_to_the_score(size),
        )
        # One line between the table and the budget, clear of the headline, until the total
        # needs the room.
        note = fit(inline(label, self.rule, why, buff=0.4), STAGE.width)
        note.move_to([STAGE.left, self.total_y, 0], aligned_edge=LEFT)
        self.rule_note = note
        pair = self.pair_one_point_apart()
        if pair is None:
            caption = self.caption("softmax.caption.rule", factor=factor)
        else:
            low, high = (self.lesson.tokens[i].short for i in pair)
            caption = self.caption("softmax.caption.rule_pair", factor=factor, low=low, high=high)
        with self.beat(caption):
            self.play(FadeIn(note, shift=LEFT * 0.2))
            self.play(Indicate(self.rule, color=style.QUERY))
            if pair is not None:
                self.show_one_point_apart(*pair)

    def add_up_pulls(self) -> None:
        a = self.attention
        self.sum = SumLine(
            [r.pull for r in self.worked.before.rows],
            self.worked.before.total,
            colours=[style.token_colour(i) for i in range(len(a.pulls))],
        )
        total = text(self.say("softmax.word.total"), size=style.BODY_SIZE)
        is_ = figure("=")
        line = fit(inline(total, is_, self.sum), STAGE.width)
        line.move_to([STAGE.left, self.total_y, 0], aligned_edge=LEFT)
        self.total_line = line
        # The pull bars laid end to end: a line as long as the total, at the bars' own scale.
        widths = [bar.width for bar in self.bars]
        scale = min(1.0, self.budget.width / sum(widths))
        self.line_up = VGroup()
        left = self.budget.left
        for i, width in enumerate(widths):
            piece = self.bar(scale * width, self.budget.height, style.token_colour(i))
            self.line_up.add(piece.move_to([left, self.budget.y, 0], aligned_edge=LEFT))
            left += scale * width
        with self.beat(self.caption("softmax.caption.total", total=self.worked.before.total)):
            self.play(
                Write(total),
                Write(is_),
                FadeOut(self.rule_note),
                run_time=style.FAST,
            )
            self.play(
                *(
                    TransformFromCopy(pull, term)
                    for pull, term in zip(self.pull_mobs, self.sum.terms, strict=True)
                ),
                FadeIn(self.sum.pluses),
                *(
                    TransformFromCopy(bar, piece)
                    for bar, piece in zip(self.bars, self.line_up, strict=True)
                ),
                run_time=style.SLOW,
            )
            self.play(Write(VGroup(self.sum.equals, self.sum.total)), run_time=style.NORMAL)
            self.play(Indicate(self.sum.total, color=style.QUERY))

    def divide_first(self) -> None:
        token = self.lesson.tokens[0]
        self.share_mobs: list[Mobject] = []
        caption = self.caption(
            "softmax.caption.divide_first",
            token=token.short,
            pull=self.worked.before.rows[0].pull,
            total=self.worked.before.total,
            share=self.worked.before.rows[0].share,
        )
        pull, total = self.pull_mobs[0], self.sum.total
        detail = [pull, total, Point([self.columns["share"].right, self.row_y(0), 0])]
        with self.beat(caption):
            self.play(FadeIn(self.headers["divide"]), FadeIn(self.headers["share"]))
            with Focus(self, pull, total, frame=detail):
                self.divide([0], run_time=style.NORMAL)

    def divide_rest(self) -> None:
        tokens = self.lesson.tokens
        rows = list(range(1, len(tokens)))
        said = self.said_of_the_rest(
            "softmax.caption.divide_each", share=[r.share for r in self.worked.before.rows]
        )
        with self.beat(self.caption("softmax.caption.divide_rest", shares=said)):
            self.divide(rows, run_time=style.NORMAL)

    def fill_budget(self) -> None:
        a, tokens = self.attention, self.lesson.tokens
        _, slices, whole, labels, leaders = last_budget(self)  # its frame stands from step 1
        shares = [r.share for r in self.worked.before.rows]
        self.means(meaning_of(bar_meaning([t.short for t in tokens], shares), slices, labels))
        top = max(range(len(tokens)), key=lambda i: a.weights[i])
        callout = text(
            self.say(
                "softmax.line.callout",
                share=self.worked.before.rows[top].share,
                token=tokens[top].short,
            ),
            size=style.BODY_SIZE,
            colour=style.token_colour(top),
            bold=True,
        )
        callout_y = self.total_y + CALLOUT_RISE
        fit(callout, STAGE.width).move_to([STAGE.left, callout_y, 0], aligned_edge=LEFT)
        caption = self.caption(
            "softmax.caption.budget",
            budget=self.worked.budget,
            share=self.worked.before.rows[top].share,
            token=tokens[top].short,
        )
        with self.beat(caption):
            self.play(
                *(
                    piece.animate.become(target)
                    for piece, target in zip(self.line_up, slices, strict=True)
                ),
                FadeIn(whole, shift=LEFT * 0.3),
                FadeOut(self.budget_label),
                run_time=style.SLOW,
            )
            self.play(
                LaggedStart(
                    *(
                        AnimationGroup(Create(leader), FadeIn(label, shift=DOWN * 0.1))
                        for leader, label in zip(leaders, labels, strict=True)
                    ),
                    lag_ratio=0.3,
                )
            )
            self.play(
                Indicate(labels[top], color=style.token_colour(top)),
                Indicate(self.share_mobs[top], color=style.token_colour(top)),
                FadeOut(self.total_line, shift=UP * 0.2),
                FadeIn(callout, shift=UP * 0.2),
            )

    # pieces of beats ---------------------------------------------------------------------

    def grow_pulls(self, rows: Sequence[int], *, run_time: float) -> None:
        """Each score lifts into the exponent of e in the pull column; e^score becomes a number
        that counts up to the pull as its bar grows."""
        a = self.attention
        starts, powers = [], []
        for i in rows:
            y = self.row_y(i)
            height = min(0.3, self.row_height * 0.5)
            bar = self.bar(self.bar_width(a.scores[i]), height, style.token_colour(i))
            bar.move_to([self.columns["pull"].left, y, 0], aligned_edge=LEFT)
            pull = self.pull_number(a.scores[i], self.pull_size(a.pulls[i]))
            pull.next_to(bar, RIGHT, buff=PULL_BUFF)
            self.bars.append(bar)
            self.pull_mobs.append(pull)
            e_to_the_score = power("e", self.worked.before.rows[i].score, size=PULL_SIZE)
            fit(e_to_the_score, self.pull_room, self.row_height * 0.9)
            e_to_the_score.move_to(pull, aligned_edge=LEFT)
            powers.append(e_to_the_score)
            starts += [
                FadeIn(e_to_the_score[0]),
                TransformFromCopy(self.score_mobs[i], e_to_the_score[1]),
            ]
        self.play(*starts, run_time=style.NORMAL)
        self.play(
            *(
                ReplacementTransform(e, self.pull_mobs[i])
                for e, i in zip(powers, rows, strict=True)
            ),
            *(FadeIn(self.bars[i]) for i in rows),
            run_time=style.FAST,
        )
        for i in rows:
            self.bars[i].add_updater(self.follow_pull(i))
        self.play(
            *(ChangeDecimalToValue(self.pull_mobs[i], float(a.pulls[i])) for i in rows),
            run_time=run_time,
            rate_func=rate_functions.ease_in_out_cubic,
        )
        for i in rows:
            self.pull_mobs[i].set_value(float(a.pulls[i]))
            self.bars[i].clear_updaters()
            self.follow_pull(i)(self.bars[i])

    def pull_size(self, pull: float) -> float:
        """A font size at which the final pull fits beside the longest bar, and in its row."""
        final = self.pull_number(pull, PULL_SIZE)
        room = self.pull_room / final.width
        return PULL_SIZE * min(1.0, room, self.row_height * 0.8 / final.height)

    @staticmethod
    def pull_number(value: float, size: float) -> DecimalNumber:
        """A pull as a number that can count: the same places as fmt.pull, no thousands commas."""
        return DecimalNumber(
            value,
            num_decimal_places=fmt.PULL_PLACES,
            mob_class=Digit,  # type: ignore[arg-type]
            group_with_commas=False,
            font_size=size,
            color=style.TEXT,
        )

    def follow_pull(self, row: int):
        """An updater: the bar's width tracks the counting number, which rides on its tip."""

        def update(bar: Mobject) -> None:
            pull = self.pull_mobs[row]
            bar.stretch_to_fit_width(self.bar_width(pull.get_value()))
            bar.move_to([self.columns["pull"].left, self.row_y(row), 0], aligned_edge=LEFT)
            pull.next_to(bar, RIGHT, buff=PULL_BUFF)

        return update

    def pair_one_point_apart(self) -> tuple[int, int] | None:
        """Two tokens whose scores differ by exactly one point, lower score first, if any."""
        scores = self.attention.scores
        for high in range(len(scores)):
            for low in range(len(scores)):
                if abs(scores[high] - scores[low] - SCORE_STEP) < 1e-9:
                    return low, high
        return None

    def show_one_point_apart(self, low: int, high: int) -> None:
        """An arc from one pull to the pull one score point higher, labelled with the factor."""
        passed = range(min(low, high), max(low, high) + 1)  # the pulls the arc passes, too
        x = max(self.pull_mobs[i].get_right()[0] for i in passed) + 0.15
        start = [x, self.row_y(low), 0]
        end = [x, self.row_y(high), 0]
        arc = CurvedArrow(start, end, angle=TAU / 3 if high < low else -TAU / 3, color=style.QUERY)
        factor = text(f"×{self.worked.factor}", size=style.SMALL_SIZE, colour=style.QUERY)
        factor.next_to(arc, RIGHT, buff=0.1)
        self.play(Create(arc), FadeIn(factor, shift=RIGHT * 0.1))
        self.play(
            Indicate(self.pull_mobs[low], color=style.token_colour(low)),
            Indicate(self.pull_mobs[high], color=style.token_colour(high)),
        )
        self.play(FadeOut(arc), FadeOut(factor), run_time=style.FAST)

    def divide(self, rows: Sequence[int], *, run_time: float) -> None:
        """Each row's pull ÷ total: the total comes up from its line, the share appears."""
        divisors, shares = VGroup(), VGroup()
        for i in rows:
            y = self.row_y(i)
            divisor = figure(
                f"÷ {self.worked.before.total} =", size=style.SMALL_SIZE, colour=style.MUTED
            )
            divide, share_column = self.columns["divide"], self.columns["share"]
            fit(divisor, divide.width, self.row_height * 0.8)
            divisors.add(divisor.move_to([divide.left, y, 0], aligned_edge=LEFT))
            share = figure(self.worked.before.rows[i].share, size=SHARE_SIZE, bold=True)
            fit(share, share_column.width, self.row_height * 0.8)
            shares.add(share.move_to([share_column.right, y, 0], aligned_edge=RIGHT))
            self.share_mobs.append(share)
        self.play(
            *(TransformFromCopy(self.sum.total, divisor) for divisor in divisors),
            run_time=run_time,
        )
        self.play(
            LaggedStart(
                *(
                    TransformFromCopy(VGroup(self.pull_mobs[i], divisor), share)
                    for i, divisor, share in zip(rows, divisors, shares, strict=True)
                ),
                lag_ratio=0.2,
            ),
            run_time=run_time,
        )

    def budget_word(self) -> Mobject:
        """The budget over its bar, before the slices fill it: ``100%``."""
        return text(self.worked.budget, size=BUDGET_SIZE, colour=style.MUTED, bold=True)

    # layout ------------------------------------------------------------------------------

    def header(self, name: str) -> Mobject:
        return column_header(self.say(name))

    def pull_is_e_to_the_score(self, size: float) -> VGroup:
        """``= e^score``, the word score in the lesson's language."""
        return power("= e", self.say("softmax.word.score"), size=size, colour=style.MUTED)

    def row_y(self, row: int) -> float:
        return self.rows_top - self.row_height * (row + 0.5)

    def bar_width(self, value: float) -> float:
        """A pull bar's width: the biggest pull spans the room its column leaves beside its
        number; never quite zero."""
        return max(self.bar_room * max(value, 0.0) / float(self.attention.pulls.max()), 1e-3)

    @staticmethod
    def bar(width: float, height: float, colour: str) -> Rectangle:
        return Rectangle(
            width=width, height=height, stroke_width=0, fill_color=colour, fill_opacity=1
        )


def budget_box() -> Region:
    """Where the budget bar stands, from its empty frame to the slices step 4 ends on: across
    LOWER's whole width, BUDGET_HEIGHT tall, its centre BUDGET_DOWN of the way down, with room
    over it for its label and under it for each share and name."""
    y = float(LOWER.at(0.5, BUDGET_DOWN)[1])
    return LOWER.below(y + BUDGET_HEIGHT / 2).above(y - BUDGET_HEIGHT / 2)


def final_budget(weights: Iterable[float]) -> VGroup:
    """The budget bar as step 4 leaves it: one slice per token, as wide as its share, in the
    token's colour, filling :func:`budget_box` (for a step that starts from it)."""
    box, weights = budget_box(), [float(w) for w in weights]
    colours = [style.token_colour(i) for i in range(len(weights))]
    return budget_bar(weights, colours, width=box.width, height=box.height).move_to(box.at(0.5))


class Budget(NamedTuple):
    """The budget bar as step 4 leaves it in LOWER (:func:`last_budget`)."""

    frame: Rectangle
    """The budget's outline, from before it is filled, under the slices (:func:`budget_frame`)."""
    slices: VGroup
    line: Mobject
    """Over the slices, at their right: every token gets a slice, and they add up to 100%."""
    labels: VGroup
    """Under each slice, its token's share over its short name (a :class:`VGroup` of two)."""
    leaders: VGroup
    """From each slice down to its label (a sliver cannot hold one)."""


def last_budget(scene: LessonScene) -> Budget:
    """The budget bar, its line and its labels as step 4 ends on them, for ``scene``'s lesson:
    step 4 fills its budget with these, and a step that starts from it opens on them."""
    worked = scene.worked
    slices = final_budget(scene.attention.weights)
    line = text(
        scene.say("softmax.line.slices", budget=worked.budget),
        size=style.SMALL_SIZE,
        colour=style.MUTED,
        bold=True,
    )
    fit(line, slices.width).next_to(slices, UP, buff=LABEL_RISE).align_to(slices, RIGHT)
    shares = [row.share for row in worked.before.rows]
    names = [token.short for token in scene.lesson.tokens]
    labels, leaders = budget_labels(slices, shares, names)
    return Budget(budget_frame(), slices, line, labels, leaders)


def budget_frame() -> Rectangle:
    """The budget's empty outline, across :func:`budget_box`, that the slices fill."""
    box = budget_box()
    return Rectangle(
        width=box.width, height=box.height, stroke_color=style.MUTED, stroke_width=2
    ).move_to(box.at(0.5))


def label_pairs(shares: Sequence[str], names: Sequence[str], *, narrow: bool = False) -> VGroup:
    """Per token, its share over its short name, not yet placed; ``narrow``, each name no
    wider than its share."""
    labels = VGroup()
    for i, (shown, short) in enumerate(zip(shares, names, strict=True)):
        share = figure(shown, size=SHARE_SIZE, colour=style.token_colour(i), bold=True)
        name = text(short, size=style.SMALL_SIZE, colour=style.MUTED)
        if narrow:
            fit(name, share.width)
        # Two lines on fixed baselines, so that "open" and "closed" sit level.
        name.move_to(share).shift(UP * (share.baseline - LABEL_PITCH - baseline(name)))
        labels.add(VGroup(share, name))
    return labels


def budget_labels(
    slices: VGroup, shares: Sequence[str], names: Sequence[str]
) -> tuple[VGroup, VGroup]:
    """Share and short name under each slice, pushed apart so that none overlap,
    each tied to its slice by a leader line (a sliver cannot hold a label)."""
    box = budget_box()
    labels = label_pairs(shares, names)
    room = box.width - LABEL_GAP * (len(labels) - 1)  # the gaps do not shrink
    if sum(label.width for label in labels) > room:  # long names give way before the shares
        labels = label_pairs(shares, names, narrow=True)
    needed = sum(label.width for label in labels)
    if needed > room:
        labels.scale(room / needed)
    xs = spread(
        [piece.get_center()[0] for piece in slices],
        [label.width for label in labels],
        low=box.left,
        high=box.right,
        gap=LABEL_GAP,
    )
    top = slices.get_bottom()[1] - LABEL_DROP
    leaders = VGroup()
    for i, (label, x) in enumerate(zip(labels, xs, strict=True)):
        label.move_to([x, top, 0], aligned_edge=UP)
        start = [slices[i].get_center()[0], slices.get_bottom()[1] - 0.04, 0]
        leaders.add(Line(start, [x, top + 0.05, 0], color=style.token_colour(i), stroke_width=2))
    return labels, leaders


def spread(
    wanted: Sequence[float], widths: Sequence[float], *, low: float, high: float, gap: float
) -> list[float]:
    """Centres as close to ``wanted`` as possible with ``gap`` between neighbours, in bounds."""
    xs = list(wanted)
    for i in range(len(xs)):
        floor = low + widths[i] / 2 if i == 0 else xs[i - 1] + (widths[i - 1] + widths[i]) / 2 + gap
        xs[i] = max(xs[i], floor)
    for i in reversed(range(len(xs))):
        ceiling = (
            high - widths[i] / 2
            if i == len(xs) - 1
            else xs[i + 1] - (widths[i + 1] + widths[i]) / 2 - gap
        )
        xs[i] = min(xs[i], ceiling)
    return xs


class Digit(Figure):
    """One character of a counting pull, in the house figures (DecimalNumber builds each)."""

    def __init__(self, content: str, **_: object) -> None:
        super().__init__(content, size=style.NUMBER_SIZE)
