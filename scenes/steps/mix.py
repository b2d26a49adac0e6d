"""Step 5 · Mix: each value vector scaled by its weight and summed into the output."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    ReplacementTransform,
    Transform,
    TransformFromCopy,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LessonScene
from scenes.helpers import (
    baseline,
    column_header,
    fit,
    inline,
    level_with,
    math,
    text,
    token_names,
)
from scenes.toolkit.figures import FigureVector, figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.vectors import VectorCells

__all__ = ["Step5Mix"]

# The table: token | weight | one column per value slot, headed by the answer it stands for.
TOKEN_LEFT = -6.6
TOKEN_WIDTH = 4.5
WEIGHT_X = -1.45
WEIGHT_WIDTH = 1.2
VECTOR_LEFT = -0.55
VECTOR_RIGHT = 6.7
BRACKET_ROOM = 0.3
MAX_CELL = 1.45
ENTRY_SIZE = style.WORKING_SIZE
SLOT_GAP = 0.3  # between two value cells
HEADER_Y = 2.2
SLOTS_Y = 1.75
ROWS_TOP = 1.45
ROWS_BOTTOM = -0.95
MAX_ROW_HEIGHT = 1.0  # few tokens spread over the height the table has, not its top half
SUM_LINE_Y = -1.12
OUTPUT_Y = -1.62
OUTPUT_CELL_HEIGHT = 0.5
NOTE_Y = -2.75
# The closing chart: the output read answer by answer.
CHART_OUTPUT_Y = 1.85
CHART_TOP = 1.2
CHART_BOTTOM = -2.1
CHART_LABEL_RIGHT = -3.3
VERDICT_Y = -2.95


class Step5Mix(LessonScene):
    """Mixing by hand: every value vector shrinks by its weight, then they add into the output."""

    step = 5
    slug = "mix"
    move = 3

    def construct(self) -> None:
        self.layout()
        self.show_heading()
        self.show_weights_and_values()
        self.map_slots_to_answers()
        self.scale_first()
        self.scale_rest()
        self.add_up()
        self.read_by_answer()
        self.conclude()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        """The heading comes in with each token and the weight the softmax gave it."""
        self.lay_out_rows()
        self.open_with_heading(
            self.caption("mix.caption.heading"),
            FadeIn(self.headers),
            LaggedStart(
                *(
                    FadeIn(VGroup(row["name"], row["weight"]), shift=RIGHT * 0.2)
                    for row in self.rows
                ),
                lag_ratio=0.2,
            ),
        )

    def lay_out_rows(self) -> None:
        """Per token: its name, its weight, a × and its value vector with a bar per slot."""
        a, tokens = self.attention, self.lesson.tokens
        self.value_header = self.header("mix.word.value", colour=style.VALUE)
        self.value_header.move_to([self.vector_left, HEADER_Y, 0], aligned_edge=LEFT)
        self.headers = VGroup(
            self.header("common.word.token").move_to(
                [self.token_left, HEADER_Y, 0], aligned_edge=LEFT
            ),
            self.header("mix.word.weight").move_to([self.weight_x, HEADER_Y, 0]),
        )
        self.rows: list[dict[str, Mobject]] = []
        names = token_names(tokens, width=TOKEN_WIDTH, height=self.row_height * 0.95)
        for i, name in enumerate(names):
            y = self.row_y(i)
            weight = figure(self.worked.before.rows[i].weight, size=ENTRY_SIZE, bold=True)
            fit(weight, WEIGHT_WIDTH, self.row_height * 0.8)
            weight.move_to([self.weight_x, self.entry_y(i), 0])
            level_with(name.move_to([self.token_left, y, 0], aligned_edge=LEFT), weight)
            vector = self.grid_vector(a.values[i], list(self.worked.before.rows[i].values), i)
            bars = VGroup(
                *(
                    self.slot_bar(v, j, self.bar_y(i), style.VALUE)
                    for j, v in enumerate(a.values[i])
                )
            )
            times = figure("×", size=ENTRY_SIZE, colour=style.MUTED)
            times.move_to([(weight.get_right()[0] + vector[0].get_left()[0]) / 2, y, 0])
            times.set_y(vector.entries[0].get_center()[1])
            self.rows.append(
                {"name": name, "weight": weight, "times": times, "vector": vector, "bars": bars}
            )

    def show_weights_and_values(self) -> None:
        weights = self.listed([r.weight for r in self.worked.before.rows])
        with self.beat(self.caption("mix.caption.weights", weights=weights)):
            self.play(FadeIn(self.value_header), *(FadeIn(row["times"]) for row in self.rows))
            self.play(
                LaggedStart(
                    *(FadeIn(VGroup(row["vector"], row["bars"])) for row in self.rows),
                    lag_ratio=0.2,
                )
            )

    def map_slots_to_answers(self) -> None:
        answers = self.lesson.answers
        self.slot_labels = VGroup()
        for j, answer in enumerate(answers):
            label = text(answer, size=style.SMALL_SIZE, colour=style.VALUE, bold=True)
            fit(label, self.cell - 0.1).move_to([self.slot_x(j), SLOTS_Y, 0])
            label.shift(UP * (SLOTS_Y - 0.1 - baseline(label)))  # one baseline for all answers
            self.slot_labels.add(label)
        silent = [
            t.short
            for t, v in zip(self.lesson.tokens, self.attention.values, strict=True)
            if not v.any()
        ]
        lines = [self.say("mix.line.slots")]
        if silent:
            many = "many" if len(silent) > 1 else "one"
            lines.append(self.say(f"mix.line.silent_{many}", tokens=self.listed(silent)))
        self.note = VGroup(
            text(lines[0], size=style.SMALL_SIZE, colour=style.VALUE, bold=True),
            *(text(line, size=style.SMALL_SIZE, colour=style.MUTED) for line in lines[1:]),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        fit(self.note, self.table_right - self.token_left).move_to(
            [self.token_left, NOTE_Y, 0], aligned_edge=LEFT
        )
        if len(answers) == 1:
            caption = self.caption("mix.caption.one_slot", answer=answers[0])
        else:
            caption = self.caption("mix.caption.slots", answers=self.listed(answers))
        if silent:
            caption = caption.followed_by(lines[1])
        with self.beat(caption):
            self.play(
                LaggedStart(
                    *(FadeIn(label, shift=DOWN * 0.15) for label in self.slot_labels), lag_ratio=0.2
                )
            )
            self.play(
                *(
                    Indicate(
                        VGroup(*(row["vector"].entries[j] for row in self.rows)), color=style.VALUE
                    )
                    for j in range(len(answers))
                ),
                FadeIn(self.note, shift=UP * 0.1),
            )

    def scale_first(self) -> None:
        caption = self.caption(
            "mix.caption.scale_first",
            weight=self.worked.before.rows[0].weight,
            value=self.worked.before.rows[0].value,
            scaled=self.worked.before.rows[0].scaled,
        )
        row = self.rows[0]
        marked = [row["weight"], row["vector"]]
        with self.beat(caption), Focus(self, *row.values(), frame=[*row.values()], marked=marked):
            self.scale_rows([0], run_time=style.SLOW)

    def scale_rest(self) -> None:
        tokens = self.lesson.tokens
        rows = list(range(1, len(tokens)))
        weights = self.said_of_the_rest(
            "mix.caption.scale_each", weight=[r.weight for r in self.worked.before.rows]
        )
        weighted = self.header("mix.word.weighted", colour=style.VALUE)
        weighted.move_to(self.value_header, aligned_edge=LEFT)
        with self.beat(self.caption("mix.caption.scale_rest", weights=weights)):
            self.scale_rows(rows, run_time=style.NORMAL)
            self.play(ReplacementTransform(self.value_header, weighted), run_time=style.FAST)
        self.value_header = weighted

    def add_up(self) -> None:
        a = self.attention
        m = len(self.lesson.answers)
        rule = Line(
            [self.token_left, SUM_LINE_Y, 0],
            [self.table_right, SUM_LINE_Y, 0],
            color=style.MUTED,
            stroke_width=2,
        )
        name = text(self.say("common.word.output"), size=style.SMALL_SIZE, bold=True)
        name.move_to([self.token_left, OUTPUT_Y, 0], aligned_edge=LEFT)
        total = math(r"\Sigma\, w_i v_i", size=ENTRY_SIZE, colour=style.MUTED)
        fit(total, WEIGHT_WIDTH).move_to([self.weight_x, OUTPUT_Y, 0])
        self.output_mob = self.grid_vector(a.output, list(self.worked.before.entries), OUTPUT_Y)
        stacks = self.stacks(OUTPUT_Y - self.bar_drop)
        moves = [
            TransformFromCopy(self.rows[i]["bars"][j], stacks[i][j])
            for i in range(len(self.rows))
            for j in range(m)
        ]
        sums = [
            ReplacementTransform(
                VGroup(*(row["vector"].entries[j].copy() for row in self.rows)),
                self.output_mob.entries[j],
            )
            for j in range(m)
        ]
        boxes = self.output_mob.boxes
        with self.beat(self.caption("mix.caption.add_up", output=self.worked.before.output)):
            self.play(FadeOut(self.note), Create(rule), FadeIn(name), FadeIn(total))
            self.play(*moves, *sums, FadeIn(boxes), run_time=style.SLOW)
            self.remove(*self.output_mob.entries, boxes)
            self.add(self.output_mob)
            self.play(Indicate(self.output_mob, color=style.VALUE))
        self.table = VGroup(
            *(mob for row in self.rows for mob in row.values()),
            self.slot_labels,
            self.headers,
            self.value_header,
            rule,
            name,
            total,
            stacks,
        )

    def read_by_answer(self) -> None:
        answers = self.lesson.answers
        out_line = inline(
            text(self.say("mix.word.output"), size=style.BODY_SIZE, colour=style.MUTED),
            FigureVector(list(self.worked.before.entries), colour=style.VALUE),
            buff=0.2,
        )
        fit(out_line, VECTOR_RIGHT - TOKEN_LEFT).move_to(
            [TOKEN_LEFT, CHART_OUTPUT_Y, 0], aligned_edge=LEFT
        )
        chart = self.output_chart()
        said = self.listed(
            [
                self.say("mix.caption.read_each", answer=answer, value=entry)
                for answer, entry in zip(answers, self.worked.before.entries, strict=True)
            ]
        )
        with self.beat(self.caption("mix.caption.read", values=said)):
            self.play(
                FadeOut(self.table),
                ReplacementTransform(self.output_mob, out_line[1]),
                run_time=style.NORMAL,
            )
            self.play(
                FadeIn(out_line[0], shift=RIGHT * 0.2),
                LaggedStart(
                    *(
                        FadeIn(VGroup(label, track))
                        for label, track in zip(chart["labels"], chart["tracks"], strict=True)
                    ),
                    lag_ratio=0.15,
                ),
            )
            self.play(
                *(
                    TransformFromCopy(out_line[1].entries[j], chart["values"][j])
                    for j in range(len(answers))
                ),
                *(FadeIn(bar, shift=RIGHT * 0.2) for bar in chart["bars"]),
                run_time=style.SLOW,
            )

    def conclude(self) -> None:
        verdict = self.verdict()
        line = text(verdict, size=style.BODY_SIZE, bold=True)
        fit(line, VECTOR_RIGHT - TOKEN_LEFT).move_to([0, VERDICT_Y, 0])
        with self.beat(verdict):
            self.play(Write(line))

    # pieces of beats ---------------------------------------------------------------------

    def scale_rows(self, rows: Sequence[int], *, run_time: float) -> None:
        """The weight flies into its value vector; the entries become w·v and the bars shrink."""
        a = self.attention
        flights = [
            self.rows[i]["weight"].copy().animate.move_to(entry).set_opacity(0)
            for i in rows
            for entry in self.rows[i]["vector"].entries
        ]
        self.play(*flights, run_time=style.NORMAL)
        changes = []
        for i in rows:
            row = self.rows[i]
            scaled = self.grid_vector(
                a.weighted_values[i], list(self.worked.before.rows[i].scaled_entries), i
            )
            colour = style.token_colour(i)
            changes.append(ReplacementTransform(row["vector"], scaled))
            changes += [
                Transform(bar, self.slot_bar(x, j, self.bar_y(i), colour))
                for j, (bar, x) in enumerate(zip(row["bars"], a.weighted_values[i], strict=True))
            ]
            row["vector"] = scaled
            # The weight is spent: its × goes, and it steps back.
            changes += [FadeOut(row.pop("times")), row["weight"].animate.set_color(style.MUTED)]
        self.play(*changes, run_time=run_time)

    def stacks(self, y: float) -> VGroup:
        """Where each row's scaled bars land in the output row: end to end, one pile per slot."""
        a = self.attention
        piles = VGroup(*(VGroup() for _ in self.rows))
        for j in range(len(self.lesson.answers)):
            up = down = self.anchor(j)
            for i in range(len(self.rows)):
                x = float(a.weighted_values[i][j])
                bar = self.bar(abs(x) * self.unit, style.token_colour(i))
                if x >= 0:
                    bar.move_to([up, y, 0], aligned_edge=LEFT)
                    up += bar.width if x > 0 else 0
                else:
                    bar.move_to([down, y, 0], aligned_edge=RIGHT)
                    down -= bar.width
                piles[i].add(bar)
        return piles

    def output_chart(self) -> dict[str, VGroup]:
        """One bar per answer, against a faint track as long as the biggest value entry."""
        a, answers = self.attention, self.lesson.answers
        m = len(answers)
        pitch = min(0.8, (CHART_TOP - CHART_BOTTOM) / m)
        top = (CHART_TOP + CHART_BOTTOM) / 2 + pitch * m / 2  # centred in the space
        negative = bool((a.output < 0).any())
        zero = 1.3 if negative else CHART_LABEL_RIGHT + 0.3
        length = 3.2 if negative else 6.4
        # Against the biggest value entry (the most an answer could get), unless one outlier
        # would leave every bar a sliver; then against the biggest output.
        reach = float(np.abs(a.output).max())
        full = self.biggest if reach >= self.biggest / 4 else reach
        scale = length / full if full else 0.0
        chart = {name: VGroup() for name in ("labels", "tracks", "bars", "values")}
        for j, (answer, x) in enumerate(zip(answers, a.output, strict=True)):
            y = top - pitch * (j + 0.5)
            label = text(answer, size=style.BODY_SIZE, colour=style.TEXT, bold=j == a.winner)
            fit(label, CHART_LABEL_RIGHT - TOKEN_LEFT, pitch * 0.8)
            chart["labels"].add(label.move_to([CHART_LABEL_RIGHT, y, 0], aligned_edge=RIGHT))
            height = min(0.4, pitch * 0.55)
            track = Rectangle(
                width=length * (2 if negative else 1),
                height=height,
                stroke_width=0,
                fill_color=style.MUTED,
                fill_opacity=0.15,
            )
            chart["tracks"].add(
                track.move_to([zero - (length if negative else 0), y, 0], aligned_edge=LEFT)
            )
            bar = Rectangle(
                width=max(abs(float(x)) * scale, 1e-3),
                height=height,
                stroke_width=0,
                fill_color=style.VALUE,
                fill_opacity=1,
            )
            bar.move_to([zero, y, 0], aligned_edge=RIGHT if x < 0 else LEFT)
            chart["bars"].add(bar)
            value = figure(self.worked.before.entries[j], colour=style.VALUE)
            fit(value, 2.0, pitch * 0.8)
            value.next_to(track, RIGHT, buff=0.2)
            chart["values"].add(value)
            level_with(label, value)
        return chart

    def verdict(self) -> str:
        """The closing line, worded from the output so that it never claims more than it shows."""
        a, answers = self.attention, self.lesson.answers
        win = a.winner
        top = self.worked.before.entries[win]
        if len(answers) == 1:
            return self.say("mix.line.verdict_only", answer=answers[0], value=top)
        order = [int(j) for j in np.argsort(-a.output, kind="stable")]
        tied = [answers[j] for j in self.worked.before.leaning]
        if len(tied) > 1:
            return self.say("mix.line.verdict_tie", answers=self.listed(tied), value=top)
        if a.output[win] <= 0:
            return self.say("mix.line.verdict_negative", answer=answers[win])
        runner, lead = order[1], float(a.output[win])
        ahead = lead / float(a.output[runner]) if a.output[runner] > 0 else float("inf")
        most = float(a.values[:, win].max())  # what the slot would hold with all the weight
        if lead < most / 4:
            return self.say("mix.line.verdict_weak", answer=answers[win], value=top)
        if ahead >= 2 and lead >= most / 2:
            return self.say("mix.line.verdict_hard", answer=answers[win])
        strength = "leans" if ahead >= 1.5 else "just"
        return self.say(f"mix.line.verdict_{strength}", answer=answers[win], runner=answers[runner])

    # layout ------------------------------------------------------------------------------

    def layout(self) -> None:
        a, m = self.attention, len(self.lesson.answers)
        self.row_height = min(MAX_ROW_HEIGHT, (ROWS_TOP - ROWS_BOTTOM) / len(self.lesson.tokens))
        self.cell = min(MAX_CELL, (VECTOR_RIGHT - VECTOR_LEFT - 2 * BRACKET_ROOM) / m)
        self.negative = bool((a.values < 0).any())
        self.biggest = float(np.abs(a.values).max())
        reach = (self.cell - 0.4) / (2 if self.negative else 1)
        self.unit = reach / self.biggest if self.biggest else 0.0
        self.bar_drop = min(0.27, self.row_height * 0.38)
        # One type size for every entry of every vector in the grid: the longest must fit a cell.
        run = self.worked.before
        shown = {x for r in run.rows for x in (*r.values, *r.scaled_entries)} | set(run.entries)
        longest = sorted(shown, key=lambda entry: (len(entry), entry))[-3:]  # deterministic
        widest = max(figure(entry, size=ENTRY_SIZE).width for entry in longest)
        self.entry_size = ENTRY_SIZE * min(1.0, (self.cell - SLOT_GAP - 0.2) / widest)
        # Few slots leave the table narrow: centre it on the frame rather than hug the left.
        width = VECTOR_LEFT + 2 * BRACKET_ROOM + m * self.cell - TOKEN_LEFT
        dx = max(0.0, (VECTOR_RIGHT - TOKEN_LEFT - width) / 2)
        self.token_left, self.weight_x = TOKEN_LEFT + dx, WEIGHT_X + dx
        self.vector_left, self.table_right = VECTOR_LEFT + dx, TOKEN_LEFT + dx + width

    def header(self, name: str, colour: str = style.MUTED) -> Mobject:
        return column_header(self.say(name), colour=colour)

    def row_y(self, row: int) -> float:
        return ROWS_TOP - self.row_height * (row + 0.5)

    def entry_y(self, row: int) -> float:
        return self.row_y(row) + min(0.06, self.row_height * 0.1)

    def bar_y(self, row: int) -> float:
        return self.row_y(row) - self.bar_drop

    def slot_x(self, slot: int) -> float:
        return self.vector_left + BRACKET_ROOM + self.cell * (slot + 0.5)

    def anchor(self, slot: int) -> float:
        """Where a slot's bars start: the cell's left, or its middle when values go negative."""
        return self.slot_x(slot) - (0 if self.negative else (self.cell - 0.4) / 2)

    def bar(self, width: float, colour: str) -> Rectangle:
        return Rectangle(
            width=max(width, 1e-3),
            height=min(0.12, self.row_height * 0.16),
            stroke_width=0,
            fill_color=colour,
            fill_opacity=1,
        )

    def slot_bar(self, value: float, slot: int, y: float, colour: str) -> Rectangle:
        bar = self.bar(abs(float(value)) * self.unit, colour)
        return bar.move_to([self.anchor(slot), y, 0], aligned_edge=RIGHT if value < 0 else LEFT)

    def grid_vector(
        self, values: Sequence[float], texts: Sequence[str], row: int | float
    ) -> VectorCells:
        """A vector as cells, one in each slot's column, shaded against the biggest value entry:
        a scaled vector fades with its weight. ``row`` is a table row, or a y of its own."""
        y = self.entry_y(row) if isinstance(row, int) else row
        height = self.row_height * 0.58 if isinstance(row, int) else OUTPUT_CELL_HEIGHT
        cells = VectorCells(
            values,
            style.VALUE,
            width=self.cell - SLOT_GAP,
            height=height,
            peak=self.biggest,
            size=self.entry_size,
            texts=texts,
        )
        for j, cell in enumerate(cells):
            cell.move_to([self.slot_x(j), y, 0])
        return cells
