"""Heads: several heads attend side by side, each to its own tokens; joined, then × W_O."""

from __future__ import annotations

import numpy as np
from manim import (
    LEFT,
    UP,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Mobject,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from scenes import style
from scenes.base import LessonScene
from scenes.helpers import column_header, fit, math
from scenes.layout import HEADING, LOWER, SAFE
from scenes.toolkit.focus import Focus
from scenes.toolkit.grid import CellGrid, heat
from scenes.toolkit.matvec import MatVec, WeightMatrix
from scenes.toolkit.vectors import CELL_GAP, VectorCells, cell_width

__all__ = ["Heads"]

# The heads' grids side by side, each under its tag, fill the stage and reach into the lower
# band's top, so that the newest token's row, whose output comes out of it, sits in the lower
# third; under them each head's output for the newest token, then the vector they join into.
# Once the grids have made way, the W_O product takes the stage and the lower band together.
GRIDS_FOOT, OUTPUTS, JOINED = LOWER.rows(1, 2, 2)
GRIDS = SAFE.below(HEADING.bottom).above(GRIDS_FOOT.bottom)
TAG_ROOM = 0.45  # the tag above each grid's column names
GRID_GAP = 0.4  # between two heads' grids
MAX_CELL = 0.85
WORK = SAFE.below(HEADING.bottom)
"""Where the W_O product is worked, once the grids have made way."""
LABEL_ROOM = 0.5  # above the product's x: the joined vector's label
GROWTH = 1.4  # how much larger than the joined vector the product may be drawn, room allowing
TERMS_ROOM = 0.95  # under the product's matrix: its terms' line
LABEL_GAP = 0.3  # between a vector and its label
SIGN_ROOM = 0.45  # each of the product's · and = with the gaps either side


class Heads(LessonScene):
    """Several heads over the same tokens: each its own shares, its own output; then joined."""

    slug = "heads"

    def construct(self) -> None:
        self.lay_out()
        self.show_grids()
        if self.lesson.mask is not None:
            self.show_mask()
        for h in range(len(self.heads)):
            self.fill(h)
        self.compare()
        self.show_outputs()
        self.join()
        if self.lesson.w_o is not None:
            self.mix()

    # beats -------------------------------------------------------------------------------

    def show_grids(self) -> None:
        """The heading comes in with one empty grid per head, each under its tag."""
        caption = self.caption("heads.caption.grids", budget=self.worked.budget)
        self.open_with_heading(
            caption,
            LaggedStart(*(FadeIn(g, shift=UP * 0.2) for g in self.grids), lag_ratio=0.3),
            FadeIn(self.tags),
        )

    def show_mask(self) -> None:
        hidden = [
            grid.darken(i, j)
            for h, grid in enumerate(self.grids)
            for i, line in enumerate(self.heads[h].grid.cells)
            for j, cell in enumerate(line)
            if cell.hidden
        ]
        with self.beat(self.caption("heads.caption.masked")):
            self.play(*hidden, run_time=style.NORMAL)

    def fill(self, h: int) -> None:
        """Head h's shares come in, cell by cell, row after row; the cells shade by share; the
        newest token's strongest look is framed."""
        grid, cells = self.grids[h], self.heads[h].grid.cells
        top = self.top(h)
        caption = self.caption(
            "heads.caption.fill",
            head=self.heads[h].number,
            token=self.newest.text,
            share=cells[-1][top].share,
            top=self.lesson.tokens[top].text,
        )
        shown = [
            (i, j, grid.number(i, j, cell.share))
            for i, line in enumerate(cells)
            for j, cell in enumerate(line)
            if not cell.hidden
        ]
        weights = self.heads[h].grid.attention.weights
        with self.beat(caption), Focus(self, grid, frame=[grid], marked=[]):
            for i, j, entry in shown:
                grid.put(i, j, entry)
            self.play(
                LaggedStart(*(FadeIn(entry) for _, _, entry in shown), lag_ratio=0.05),
                *(
                    grid.boxes[i][j].animate.set_fill(grid.colour, opacity=heat(weights[i][j], 1))
                    for i, j, _ in shown
                ),
                run_time=style.SLOW,
            )
            self.play(FadeIn(self.frames[h]), run_time=style.FAST)

    def compare(self) -> None:
        """The newest token's strongest look in each head, side by side."""
        tops = [self.top(h) for h in range(len(self.heads))]
        tokens = self.lesson.tokens
        if tops[0] != tops[1]:
            caption = self.caption(
                "heads.caption.differ",
                token=self.newest.text,
                first=tokens[tops[0]].text,
                one=self.heads[0].number,
                second=tokens[tops[1]].text,
                two=self.heads[1].number,
            )
        else:
            caption = self.caption(
                "heads.caption.agree", token=self.newest.text, top=tokens[tops[0]].text
            )
        with self.beat(caption):
            self.play(
                *(Indicate(f, color=style.TEXT, scale_factor=1.15) for f in self.frames),
                run_time=style.SLOW,
            )

    def show_outputs(self) -> None:
        """Each head's output for the newest token comes out of its grid's last row."""
        each = [
            self.say("heads.caption.output_each", head=head.number, output=row.output)
            for head, row in zip(self.heads, self.newest_rows, strict=True)
        ]
        caption = self.caption(
            "heads.caption.outputs", token=self.newest.text, outputs=self.listed(each)
        )
        with self.beat(caption):
            self.play(
                *(
                    TransformFromCopy(grid.row(len(self.lesson.tokens) - 1), output)
                    for grid, output in zip(self.grids, self.outputs, strict=True)
                ),
                FadeIn(self.output_labels),
                run_time=style.SLOW,
            )

    def join(self) -> None:
        """The heads' outputs slide together into one vector."""
        joined = self.listed(self.worked.joined[-1])
        caption = self.caption("heads.caption.join", joined=joined)
        with self.beat(caption):
            self.play(
                *(
                    TransformFromCopy(output, part)
                    for output, part in zip(self.outputs, self.joined_parts, strict=True)
                ),
                FadeIn(self.joined_label),
                run_time=style.SLOW,
            )

    def mix(self) -> None:
        """The grids make way; the joined vector times W_O, its first entry by hand, then the
        rest, gives the layer's output."""
        product = self.output_product()
        keep = [self.joined, self.joined_label]
        leaving = [m for m in self.mobjects if m is not self.heading_mob and m not in keep]
        with self.beat(self.caption("heads.caption.mix")):
            self.play(*(FadeOut(m) for m in leaving), run_time=style.FAST)
            self.play(
                ReplacementTransform(self.joined, product.x),
                self.joined_label.animate.next_to(product.x, UP, buff=0.2).align_to(
                    product.x, LEFT
                ),
                run_time=style.NORMAL,
            )
            product.bring_in(self, None, FadeIn(self.w_o_label(product)), run_time=style.NORMAL)
            product.show_entry(self, 0, run_time=2 * style.SLOW)
        mixed = self.listed(self.worked.mixed[-1])
        caption = self.caption("heads.caption.mixed", mixed=mixed, token=self.newest.text)
        with self.beat(caption):
            product.show_whole(self, columns=range(1, len(product.results)), run_time=style.SLOW)
            self.play(Indicate(product.result, color=style.VALUE), run_time=style.NORMAL)

    # layout ------------------------------------------------------------------------------

    def lay_out(self) -> None:
        w, lesson = self.worked, self.lesson
        self.heads = w.heads
        self.newest = lesson.tokens[-1]
        self.newest_rows = [head.grid.rows[-1] for head in self.heads]
        count = len(self.heads)
        columns = GRIDS.columns(*[1] * count, gap=GRID_GAP)
        names = [t.short for t in lesson.tokens]
        colours = [style.token_colour(i) for i in range(len(names))]
        self.grids, self.tags, self.frames = [], VGroup(), VGroup()
        for h, (head, column) in enumerate(zip(self.heads, columns, strict=True)):
            grid = CellGrid(
                names,
                names,
                colour=style.QUERY,
                widest=[c.share for line in head.grid.cells for c in line],
                corner=(column.left, column.top - TAG_ROOM),
                width=column.width,
                height=column.height - TAG_ROOM,
                row_colours=colours,
                column_colours=colours,
                max_cell=MAX_CELL,
            )
            self.grids.append(grid)
            self.means(grid)
            tag = column_header(self.say("heads.word.head", number=head.number))
            tag.move_to((grid.cells.get_left()[0], column.top, 0), aligned_edge=UP + LEFT)
            self.tags.add(tag)
            box = grid.boxes[-1][self.top(h)]
            self.frames.add(
                SurroundingRectangle(box, color=style.TEXT, buff=0.05, corner_radius=0.08)
            )
        self.lay_out_outputs()

    def lay_out_outputs(self) -> None:
        """Each head's output under its grid, and the joined vector they make, centred."""
        rows = self.newest_rows
        texts = [e for row in rows for e in row.output_entries]
        width = cell_width(texts)
        values = [self.heads[h].grid.attention.outputs[-1] for h in range(len(self.heads))]
        peak = max(abs(float(v)) for vector in values for v in vector)
        self.outputs = []
        self.output_labels = VGroup()
        for h, (row, grid) in enumerate(zip(rows, self.grids, strict=True)):
            output = VectorCells(
                values[h], style.VALUE, texts=row.output_entries, width=width, peak=peak
            )
            label = column_header(
                self.say("heads.word.head", number=self.heads[h].number), colour=style.VALUE
            )
            label.next_to(output, LEFT, buff=0.25)
            pair = fit(VGroup(label, output), grid.width)  # under its own grid, whatever d_v
            pair.move_to((grid.get_x(), OUTPUTS.y, 0))
            self.outputs.append(output)
            self.output_labels.add(label)
        self.joined = VectorCells(
            [v for vector in values for v in vector],
            style.VALUE,
            texts=self.worked.joined[-1],
            width=width,
            peak=peak,
        )
        self.joined_label = column_header(self.say("heads.word.joined"), colour=style.VALUE)
        fit(self.joined, JOINED.width - self.joined_label.width - LABEL_GAP)
        self.joined_label.next_to(self.joined, LEFT, buff=LABEL_GAP)
        JOINED.place(VGroup(self.joined_label, self.joined))  # the two, centred in their row
        self.joined_parts = []
        at = 0
        for output in self.outputs:
            self.joined_parts.append(VGroup(*self.joined[at : at + len(output)]))
            at += len(output)

    def output_product(self) -> MatVec:
        """joined · W_O, in the middle of the room the grids have left."""
        w, w_o = self.worked, self.lesson.w_o
        assert w_o is not None
        x = self.joined.copy()
        shown = w.w_o
        assert shown is not None
        matrix = WeightMatrix(
            w_o,
            style.VALUE,
            texts=shown,
            width=self.joined.cell_width,
            height=self.joined.cell_height,
        )
        # x, W_O and the result side by side, W_O above the terms' line: all inside the room
        room = WORK.below(WORK.top - LABEL_ROOM)
        result = len(w_o[0]) * (self.joined.cell_width + CELL_GAP)
        cells = x.width + matrix.width + result
        factor = min(
            GROWTH,
            (room.width - 4 * SIGN_ROOM) / cells,
            (room.height - TERMS_ROOM) / matrix.height,
        )
        x.scale(factor)
        matrix.scale(factor)
        # In the room's middle: the line and W_O under it, which the rest shows (the terms' line
        # under W_O comes and goes), as long as the terms' line still fits under them.
        wide = cells * factor + 4 * SIGN_ROOM
        high = max(matrix.height, x.height)
        top = max(room.bottom + high + TERMS_ROOM, room.top - (room.height - high) / 2)
        x.move_to((room.left + (room.width - wide) / 2, top, 0), aligned_edge=UP + LEFT)
        joined_entries, w_o_entries = w.joined[-1], w.w_o
        assert w_o_entries is not None
        pairs = [
            [(x, row[c]) for x, row in zip(joined_entries, w_o_entries, strict=True)]
            for c in range(len(w_o[0]))
        ]
        joined = np.concatenate([h.grid.attention.outputs[-1] for h in self.heads])
        return MatVec(
            x,
            matrix,
            pairs,
            w.mixed[-1],
            joined @ np.array(w_o),  # shades its cells only: the numbers are w.mixed's
            colour=style.VALUE,
            width=room.right - x.get_left()[0],
        )

    def w_o_label(self, product: MatVec) -> Mobject:
        """``W_O`` over the product's matrix."""
        label = math("W_O", colour=style.VALUE)
        return label.next_to(product.matrix, UP, buff=0.2)

    def top(self, h: int) -> int:
        """The token the newest token looks at hardest in head h (the first, on a tie)."""
        weights = self.heads[h].grid.attention.weights[-1]
        return int(max(range(len(weights)), key=lambda j: (weights[j], -j)))
