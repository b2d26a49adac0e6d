"""Step 5 · Mix: each value vector scaled by its weight and summed into the output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    ReplacementTransform,
    Text,
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
from scenes.layout import LOWER, STAGE, Region
from scenes.steps.softmax import last_budget
from scenes.toolkit.figures import FigureVector, figure
from scenes.toolkit.focus import Focus, close_up_holds
from scenes.toolkit.vectors import VectorCells

__all__ = [
    "Ending",
    "OutputRow",
    "Step5Mix",
    "final_output",
    "final_verdict",
    "last_picture",
    "output_chart",
    "verdict",
]

# The table, on the stage: token | weight | × | one column per value slot, headed by the answer
# it stands for; the output row under it, in the lower band. Sizes, gaps and shares only: every
# place comes from scenes.layout's regions.
TOKEN_WIDTH = 4.5  # the most a token's name may take
WEIGHT_WIDTH = 1.2
NAME_GAP = 0.4  # between the names and the weights
TIMES_ROOM = 0.3  # between a weight and its value vector's column, the × in it
BRACKET_ROOM = 0.3
MAX_CELL = 1.45
ENTRY_SIZE = style.WORKING_SIZE
SLOT_SIZE = style.BODY_SIZE  # the answers over the columns: numbers too, where answers are codes
SLOT_GAP = 0.3  # between two value cells
HEADER_BAND = 0.45  # the column headers' row of the table
SLOTS_BAND = 0.6  # the answers' row, between the headers and the tokens
SLOT_LIFT = 0.12  # the answers' baseline over their band's bottom
MAX_ROW_HEIGHT = 1.0  # few tokens spread over the height the table has, not its top half
NAME_ROOM = 2.4
"""The rows' height a token's name is chosen for (its full text on one line or two, else its
short name): what the table's rows had before the stage gave them more, so that every lesson
names its tokens as it did."""
OUTPUT_CELL_HEIGHT = 0.5
EMPTY_OPACITY = 0.45  # the output's cells, outlined before anything is added into them
# The closing chart, on the stage: the output read answer by answer.
CHART_PITCH = 1.0
CHART_LABEL_WIDTH = 3.3
CHART_GAP = 0.3  # between an answer and its track
TRACK_SHARE = 0.5  # of the stage's width: a track's length (half each side when values go negative)
VALUE_GAP = 0.2


class OutputRow(NamedTuple):
    """The output row in the lower band (:meth:`Step5Mix.output_row`): the rule under the
    table, its name and Σ wᵢvᵢ, the output's cells and the piles of scaled bars that add up to
    it, and the cells' empty outlines shown from the first beat."""

    rule: Line
    name: Mobject
    total: Mobject
    cells: VectorCells
    stacks: VGroup
    empty: VGroup


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
        """The clip opens on the budget as step 4 left it in the lower band; each token's
        slice, with its share, becomes that token's weight in the table as the heading comes
        in, and the output row's rule and empty cells take the band the bar leaves."""
        self.lay_out_rows()
        self.output = self.output_row()
        budget = last_budget(self)
        self.add(*budget)
        # Each slice and its share shrink into the weight, which grows out of them in its row
        # (a fade each way: the weight keeps its place among the scene's objects).
        carried = []
        for piece, label, row in zip(budget.slices, budget.labels, self.rows, strict=True):
            share, weight = VGroup(piece, label[0]), row["weight"]
            carried.append(
                AnimationGroup(
                    FadeIn(row["name"], shift=RIGHT * 0.2),
                    FadeOut(share, target_position=weight, scale=weight.width / share.width),
                    FadeIn(weight, target_position=label[0], scale=label[0].height / weight.height),
                )
            )
        self.open_with_heading(
            self.caption("mix.caption.heading"),
            FadeIn(self.headers),
            FadeOut(
                budget.frame, budget.line, budget.leaders, *(label[1] for label in budget.labels)
            ),
            Create(self.output.rule),
            FadeIn(self.output.empty),
            LaggedStart(*carried, lag_ratio=0.2),
        )

    def lay_out_rows(self) -> None:
        """Per token: its name, its weight, a × and its value vector with a bar per slot."""
        a = self.attention
        header_y = self.header_band.y
        self.value_header = self.header("mix.word.value", colour=style.VALUE)
        self.value_header.move_to([self.vector_left, header_y, 0], aligned_edge=LEFT)
        self.headers = VGroup(self.token_header, self.header("mix.word.weight"))
        self.headers[0].move_to([self.token_left, header_y, 0], aligned_edge=LEFT)
        self.headers[1].move_to([self.weight_x, header_y, 0])
        self.rows: list[dict[str, Mobject]] = []
        for i, name in enumerate(self.names):
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
        slots_y = self.slots_band.y
        for j, answer in enumerate(answers):
            label = text(answer, size=SLOT_SIZE, colour=style.VALUE, bold=True)
            fit(label, self.cell - 0.1, self.slots_band.height).move_to(
                [self.slot_x(j), slots_y, 0]
            )
            # One baseline for all answers, nearer the cells they head than the header above.
            label.shift(UP * (self.slots_band.bottom + SLOT_LIFT - baseline(label)))
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
        fit(self.note, self.table_right - self.token_left, self.note_band.height).move_to(
            [self.token_left, self.note_band.y, 0], aligned_edge=LEFT
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
        shown, framed = self.close_up(row)
        with self.beat(caption), Focus(self, *shown, frame=framed, marked=marked):
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
        m = len(self.lesson.answers)
        out = self.output
        moves = [
            TransformFromCopy(self.rows[i]["bars"][j], out.stacks[i][j])
            for i in range(len(self.rows))
            for j in range(m)
        ]
        sums = [
            ReplacementTransform(
                VGroup(*(row["vector"].entries[j].copy() for row in self.rows)),
                out.cells.entries[j],
            )
            for j in range(m)
        ]
        boxes = out.cells.boxes
        with self.beat(self.caption("mix.caption.add_up", output=self.worked.before.output)):
            self.play(FadeOut(self.note), FadeIn(out.name), FadeIn(out.total))
            self.play(*moves, *sums, ReplacementTransform(out.empty, boxes), run_time=style.SLOW)
            self.remove(*out.cells.entries, boxes)
            self.add(out.cells)
            self.play(Indicate(out.cells, color=style.VALUE))
        self.output_mob = out.cells
        self.table = VGroup(
            *(mob for row in self.rows for mob in row.values()),
            self.slot_labels,
            self.headers,
            self.value_header,
            out.rule,
            out.name,
            out.total,
            out.stacks,
        )

    def read_by_answer(self) -> None:
        answers = self.lesson.answers
        out_line = final_output(self)
        chart = output_chart(self)
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
        line = final_verdict(self)
        with self.beat(verdict(self)):
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

    def output_row(self) -> OutputRow:
        """The output row, in the lower band's first row under the table's rule: its name, Σ wᵢvᵢ
        under the weights, the output's cells under the value columns and, under them, where
        each row's scaled bars land. Built with the table, none of it on screen: the first beat
        shows the rule and ``empty``, the cells' outlines; :meth:`add_up` fills them."""
        a, y = self.attention, self.output_band.y
        rule = Line(
            [self.token_left, self.output_band.top, 0],
            [self.table_right, self.output_band.top, 0],
            color=style.MUTED,
            stroke_width=2,
        )
        name = text(self.say("common.word.output"), size=style.SMALL_SIZE, bold=True)
        name.move_to([self.token_left, y, 0], aligned_edge=LEFT)
        total = math(r"\Sigma\, w_i v_i", size=ENTRY_SIZE, colour=style.MUTED)
        fit(total, WEIGHT_WIDTH).move_to([self.weight_x, y, 0])
        cells = self.grid_vector(a.output, list(self.worked.before.entries), y)
        empty = VGroup(
            *(
                box.copy().set_fill(opacity=0).set_stroke(opacity=EMPTY_OPACITY)
                for box in cells.boxes
            )
        )
        return OutputRow(rule, name, total, cells, self.stacks(y - self.bar_drop), empty)

    def close_up(self, row: dict[str, Mobject]) -> tuple[list[Mobject], list[Mobject]]:
        """What is in focus for one row, and what the camera comes in on: all of the row where
        a closer picture holds it inside its title-safe area, else its working, weight × value
        (the name steps out); where none does (many slots), the whole row, in place."""
        whole = list(row.values())
        working = [mob for key, mob in row.items() if key != "name"]
        for shown in (whole, working):
            if close_up_holds(shown):
                return shown, shown
        return whole, []

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

    # layout ------------------------------------------------------------------------------

    def layout(self) -> None:
        a, tokens, m = self.attention, self.lesson.tokens, len(self.lesson.answers)
        n = len(tokens)
        self.row_height = min(MAX_ROW_HEIGHT, (STAGE.height - HEADER_BAND - SLOTS_BAND) / n)
        # The table's bands (headers, answers, a row per token) on the stage, centred on its
        # height when few tokens leave room over; the output and a note in the lower band.
        height = HEADER_BAND + SLOTS_BAND + n * self.row_height
        table = STAGE.below(STAGE.y + height / 2).above(STAGE.y - height / 2)
        self.header_band, self.slots_band, self.rows_band = table.rows(
            HEADER_BAND, SLOTS_BAND, n * self.row_height
        )
        self.output_band, self.note_band = lower_bands()
        name_height = min(MAX_ROW_HEIGHT, NAME_ROOM / n) * 0.95
        self.names = token_names(tokens, width=TOKEN_WIDTH, height=name_height)
        self.token_header = self.header("common.word.token")
        name_width = max(self.token_header.width, *(name.width for name in self.names))
        fixed = name_width + NAME_GAP + WEIGHT_WIDTH + TIMES_ROOM + 2 * BRACKET_ROOM
        self.cell = min(MAX_CELL, (STAGE.width - fixed) / m)
        self.negative = bool((a.values < 0).any())
        self.biggest = biggest_value(self)
        reach = (self.cell - 0.4) / (2 if self.negative else 1)
        self.unit = reach / self.biggest if self.biggest else 0.0
        self.bar_drop = min(0.27, self.row_height * 0.38)
        # One type size for every entry of every vector in the grid: the longest must fit a cell.
        run = self.worked.before
        shown = {x for r in run.rows for x in (*r.values, *r.scaled_entries)} | set(run.entries)
        longest = sorted(shown, key=lambda entry: (len(entry), entry))[-3:]  # deterministic
        widest = max(figure(entry, size=ENTRY_SIZE).width for entry in longest)
        self.entry_size = ENTRY_SIZE * min(1.0, (self.cell - SLOT_GAP - 0.2) / widest)
        # The table as wide as its columns, centred across the stage.
        width = fixed + m * self.cell
        self.token_left = STAGE.x - width / 2
        self.weight_x = self.token_left + name_width + NAME_GAP + WEIGHT_WIDTH / 2
        self.vector_left = self.weight_x + WEIGHT_WIDTH / 2 + TIMES_ROOM
        self.table_right = self.token_left + width

    def header(self, name: str, colour: str = style.MUTED) -> Mobject:
        return column_header(self.say(name), colour=colour)

    def row_y(self, row: int) -> float:
        return self.rows_band.top - self.row_height * (row + 0.5)

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


def lower_bands() -> tuple[Region, Region]:
    """The lower band's two rows: the output's, then the note's (and the verdict's)."""
    output, note = LOWER.rows(1, 1)
    return output, note


def biggest_value(scene: LessonScene) -> float:
    """The biggest value entry, in size: it shades fullest, and the chart's tracks are as
    long as it (the most an answer could get)."""
    return float(np.abs(scene.attention.values).max())


class Ending(NamedTuple):
    """What step 5 ends on (:func:`last_picture`)."""

    output: VGroup
    """``output = [entries]`` in the lower band's first row (:func:`final_output`)."""
    chart: dict[str, VGroup]
    """The output read answer by answer on the stage (:func:`output_chart`)."""
    verdict: Text
    """The closing line under the output (:func:`final_verdict`)."""


def last_picture(scene: LessonScene) -> Ending:
    """Step 5's last picture for ``scene``'s lesson, as step 5 builds it: for a step that
    starts from it."""
    return Ending(final_output(scene), output_chart(scene), final_verdict(scene))


def final_output(scene: LessonScene) -> VGroup:
    """The output line step 5 reads the answers from and ends on, centred in the lower band's
    first row: its word, then the output vector (a :class:`FigureVector`)."""
    line = inline(
        text(scene.say("mix.word.output"), size=style.BODY_SIZE, colour=style.MUTED),
        FigureVector(list(scene.worked.before.entries), colour=style.VALUE),
        buff=0.2,
    )
    band = lower_bands()[0]
    return band.place(band.fit(line))


def final_verdict(scene: LessonScene) -> Text:
    """The verdict as step 5 closes on it, centred in the lower band's second row."""
    line = text(verdict(scene), size=style.BODY_SIZE, bold=True)
    band = lower_bands()[1]
    return band.place(band.fit(line))


def output_chart(scene: LessonScene) -> dict[str, VGroup]:
    """One bar per answer, against a faint track as long as the biggest value entry: the
    answers, tracks and values centred on the stage."""
    a, answers = scene.attention, scene.lesson.answers
    m, biggest = len(answers), biggest_value(scene)
    pitch = min(CHART_PITCH, STAGE.height / m)
    top = STAGE.y + pitch * m / 2  # centred in the space
    negative = bool((a.output < 0).any())
    length = STAGE.width * TRACK_SHARE / (2 if negative else 1)
    # Against the biggest value entry (the most an answer could get), unless one outlier
    # would leave every bar a sliver; then against the biggest output.
    reach = float(np.abs(a.output).max())
    full = biggest if reach >= biggest / 4 else reach
    scale = length / full if full else 0.0
    chart = {name: VGroup() for name in ("labels", "tracks", "bars", "values")}
    for j, answer in enumerate(answers):
        label = text(answer, size=style.BODY_SIZE, colour=style.TEXT, bold=j == a.winner)
        chart["labels"].add(fit(label, CHART_LABEL_WIDTH, pitch * 0.8))
        value = figure(scene.worked.before.entries[j], colour=style.VALUE)
        chart["values"].add(fit(value, 2.0, pitch * 0.8))
    track_width = length * (2 if negative else 1)
    label_width = max(label.width for label in chart["labels"])
    value_width = max(value.width for value in chart["values"])
    width = label_width + CHART_GAP + track_width + VALUE_GAP + value_width
    label_right = STAGE.x - width / 2 + label_width
    track_left = label_right + CHART_GAP
    zero = track_left + (length if negative else 0)
    for j, (label, value, x) in enumerate(
        zip(chart["labels"], chart["values"], a.output, strict=True)
    ):
        y = top - pitch * (j + 0.5)
        label.move_to([label_right, y, 0], aligned_edge=RIGHT)
        height = min(0.4, pitch * 0.55)
        track = Rectangle(
            width=track_width,
            height=height,
            stroke_width=0,
            fill_color=style.MUTED,
            fill_opacity=0.15,
        )
        chart["tracks"].add(track.move_to([track_left, y, 0], aligned_edge=LEFT))
        bar = Rectangle(
            width=max(abs(float(x)) * scale, 1e-3),
            height=height,
            stroke_width=0,
            fill_color=style.VALUE,
            fill_opacity=1,
        )
        bar.move_to([zero, y, 0], aligned_edge=RIGHT if x < 0 else LEFT)
        chart["bars"].add(bar)
        value.next_to(track, RIGHT, buff=VALUE_GAP)
        level_with(label, value)
    return chart


def verdict(scene: LessonScene) -> str:
    """The closing line, worded from the output so that it never claims more than it shows."""
    a, answers = scene.attention, scene.lesson.answers
    win = a.winner
    top = scene.worked.before.entries[win]
    if len(answers) == 1:
        return scene.say("mix.line.verdict_only", answer=answers[0], value=top)
    order = [int(j) for j in np.argsort(-a.output, kind="stable")]
    tied = [answers[j] for j in scene.worked.before.leaning]
    if len(tied) > 1:
        return scene.say("mix.line.verdict_tie", answers=scene.listed(tied), value=top)
    if a.output[win] <= 0:
        return scene.say("mix.line.verdict_negative", answer=answers[win])
    runner, lead = order[1], float(a.output[win])
    ahead = lead / float(a.output[runner]) if a.output[runner] > 0 else float("inf")
    most = float(a.values[:, win].max())  # what the slot would hold with all the weight
    if lead < most / 4:
        return scene.say("mix.line.verdict_weak", answer=answers[win], value=top)
    if ahead >= 2 and lead >= most / 2:
        return scene.say("mix.line.verdict_hard", answer=answers[win])
    strength = "leans" if ahead >= 1.5 else "just"
    return scene.say(f"mix.line.verdict_{strength}", answer=answers[win], runner=answers[runner])
