"""Every token asks: the score grid QKᵀ cell by cell, ÷ √dₖ, row-wise softmax, one output a row."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass

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

from attention_core import Token
from attention_core.meaning import meaning
from attention_core.worked import Grid, GridRow
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import column_header, fit, inline, labelled, math, meaning_of
from scenes.layout import LOWER, STAGE
from scenes.toolkit.dot_product import WORK_AREA, DotProduct, column_gap, fit_working
from scenes.toolkit.figures import FigureVector, figure
from scenes.toolkit.focus import Focus
from scenes.toolkit.grid import CellGrid, heat
from scenes.toolkit.vectors import VectorCells, cell_width

__all__ = [
    "AllQueries",
    "Pair",
    "attention_grid",
    "axis_labels",
    "output_column",
    "shown_grid",
    "value_columns",
]

HEADING_GAP = 0.3  # between the heading and the axis names over the grid
AXIS_ROOM = 0.4  # above the grid's names: which way it reads (QUERY, KEY)
AXIS_GAP = 0.15
GRID_WIDTH = 8.4  # the most the grid takes; the outputs get what it leaves
OUTPUT_GAP = 0.5  # the grid's last column to the outputs
WORK_CELL_HEIGHT = 0.55
VALUE_GAP = 0.35  # the grid's last row to the values under it
VALUE_CELL = 0.45  # the tallest a value's cell may be
VALUE_CELL_GAP = 0.06
VALUE_WIDTH = 0.7  # of a grid cell's width, the most a value's cell takes


@dataclass(frozen=True)
class Pair:
    """One cell's q · k as step 3's DotProduct reads a row: the key's token and entries, each
    product, the dot product (and its score)."""

    of: Token
    key_entries: tuple[str, ...]
    factors: tuple[str, ...]
    dot: str
    score: str


def shown_grid(scene: LessonScene) -> Grid:
    """The grid before any mask: what the all-queries step works out and the mask starts from."""
    return scene.worked.open_grid if "mask" in scene.lesson.steps else scene.worked.grid


def attention_grid(scene: LessonScene) -> CellGrid:
    """The lesson's grid of cells, laid out for every number the all-queries and mask steps
    put in it, in the stage under its axis names; the grid and the outputs right of it are
    centred across the stage. Both steps build it alike, so the mask opens where all-queries
    ended."""
    grid, masked = scene.worked.open_grid, scene.worked.grid
    tokens = scene.lesson.tokens
    widest = [
        s
        for g in (grid, masked)
        for line in g.cells
        for c in line
        for s in (c.dot, c.score, c.share, c.pull)
    ]
    colours = [style.token_colour(i) for i in range(len(tokens))]
    names = [t.short for t in tokens]
    top = STAGE.top - HEADING_GAP - AXIS_ROOM
    cells = CellGrid(
        names,
        names,
        colour=style.QUERY,
        widest=widest,
        corner=(STAGE.left, top),
        width=min(GRID_WIDTH, STAGE.width),
        height=top - STAGE.bottom,
        row_colours=colours,
        column_colours=colours,
    )
    outputs = [output_vectors(cells, g.rows) for g in (grid, masked)]
    right = max(v.get_right()[0] for vectors in outputs for v in vectors)
    across = max(0.0, (STAGE.right - right) / 2)
    return cells.shift(RIGHT * across + DOWN * (cells.get_bottom()[1] - STAGE.bottom) / 2)


def axis_labels(scene: LessonScene, grid: CellGrid) -> VGroup:
    """``QUERY`` over the row names, ``KEY`` over the columns: which way the grid reads."""
    rows = column_header(scene.say("all_queries.word.query"), colour=style.QUERY)
    columns = column_header(scene.say("all_queries.word.key"), colour=style.KEY)
    top = grid.column_labels.get_top()[1] + AXIS_GAP
    columns.move_to((grid.cells.get_left()[0], top, 0), aligned_edge=DOWN + LEFT)
    rows.move_to((grid.cells.get_left()[0] - AXIS_GAP, top, 0), aligned_edge=DOWN + RIGHT)
    if rows.get_left()[0] < STAGE.left:  # short names, a long word: both slide right to fit
        rows.shift(RIGHT * (STAGE.left - rows.get_left()[0]))
        columns.shift(RIGHT * max(0.0, rows.get_right()[0] + 2 * AXIS_GAP - columns.get_left()[0]))
    return VGroup(rows, columns)


def output_vectors(grid: CellGrid, rows: Sequence[GridRow]) -> VGroup:
    """Each row's output as a vector, right of the grid, level with its row."""
    left = grid.cells.get_right()[0] + OUTPUT_GAP
    outputs = VGroup()
    for i, row in enumerate(rows):
        vector = FigureVector(row.output_entries, colour=style.VALUE)
        fit(vector, STAGE.right - left, grid.cell_height * 0.7)
        outputs.add(vector.move_to((left, grid.boxes[i][0].get_y(), 0), aligned_edge=LEFT))
    return outputs


def output_column(
    scene: LessonScene, grid: CellGrid, rows: Sequence[GridRow]
) -> tuple[VGroup, VGroup]:
    """The ``OUTPUT`` header and each row's output, right of the grid: ``(header, outputs)``."""
    header = column_header(scene.say("common.word.output"), colour=style.VALUE)
    outputs = output_vectors(grid, rows)
    header.move_to((outputs.get_left()[0], grid.column_labels.get_y(), 0), aligned_edge=LEFT)
    names = [str(label.original_text) for label in grid.row_labels]
    vectors = [str(vector.original_text) for vector in outputs]
    said = meaning("describe.line.outputs", rows=labelled(names, vectors))
    scene.means(meaning_of(said, header, outputs))
    return VGroup(header), outputs


def value_columns(grid: CellGrid, data: Grid) -> tuple[VGroup, VMobject]:
    """Each token's value as a column of cells under its column of the grid, and a ``V``:
    a row of weights times these is that row's output (AV). Returns ``(columns, letter)``."""
    values, rows = data.attention.values, data.rows
    peak = float(abs(values).max())
    top = grid.cells.get_bottom()[1] - VALUE_GAP
    slots = len(rows[0].values)
    height = min(VALUE_CELL, (top - LOWER.bottom) / slots - VALUE_CELL_GAP)
    columns = VGroup()
    for j, row in enumerate(rows):
        cells = VectorCells(
            values[j],
            style.VALUE,
            texts=row.values,
            width=min(grid.cell_width * VALUE_WIDTH, cell_width(row.values)),
            height=height,
            peak=peak,
        )
        cells.arrange(DOWN, buff=VALUE_CELL_GAP)
        columns.add(cells.move_to((grid.boxes[0][j].get_x(), top, 0), aligned_edge=UP))
    letter = math("V", colour=style.VALUE).next_to(columns, LEFT, buff=0.3)
    letter.set_x(grid.row_labels.get_x())
    return columns, letter


class AllQueries(LessonScene):
    """Every token asks its own question: the whole score grid, its softmax, and the outputs."""

    slug = "all_queries"

    def construct(self) -> None:
        self.data = shown_grid(self)
        self.grid = attention_grid(self)
        self.means(self.grid)
        self.show_heading()
        self.dot_first()
        self.dot_first_row()
        self.dot_rest()
        self.divide()
        self.softmax_first()
        self.softmax_rest()
        self.output_first()
        self.output_rest()

    # beats -------------------------------------------------------------------------------

    def show_heading(self) -> None:
        grid = self.grid
        self.axes = axis_labels(self, grid)
        self.open_with_heading(
            self.caption("all_queries.caption.heading"),
            FadeIn(grid.cells),
            LaggedStart(*(FadeIn(m, shift=RIGHT * 0.2) for m in grid.row_labels), lag_ratio=0.2),
            LaggedStart(*(FadeIn(m, shift=DOWN * 0.2) for m in grid.column_labels), lag_ratio=0.2),
            FadeIn(self.axes),
        )

    def dot_first(self) -> None:
        """Cell (0, 0) worked out under the grid, as step 3 works one key."""
        self.lay_out_query(0)
        q_label = math("q", colour=style.QUERY).next_to(self.query, LEFT, buff=0.3)
        work = self.working(0, 0)
        self.k_label = math("k", colour=style.KEY).next_to(work.key, LEFT, buff=0.3)
        self.k_label.set_x(q_label.get_x())
        self.labels = VGroup(q_label, self.k_label)
        cell = self.data.cells[0][0]
        caption = self.caption(
            "all_queries.caption.first",
            query=self.name(0),
            key=self.name(0),
            dot=cell.dot,
        )
        with self.beat(caption):
            self.play(
                TransformFromCopy(self.grid.row_labels[0], self.query),
                FadeIn(self.labels),
                run_time=style.NORMAL,
            )
            self.work_cell(work, 0, 0, run_time=style.SLOW, close_up=True)

    def dot_first_row(self) -> None:
        dots = self.listed([c.dot for c in self.data.cells[0][1:]])
        caption = self.caption("all_queries.caption.row", query=self.name(0), dots=dots)
        with self.beat(caption):
            for j in range(1, len(self.data.cells)):
                self.work_cell(self.working(0, j), 0, j, run_time=style.FAST)
            self.play(FadeOut(self.query), FadeOut(self.labels), run_time=style.FAST)

    def dot_rest(self) -> None:
        grid, cells = self.grid, self.data.cells
        size = len(cells)
        entries = grid.numbers([[c.dot for c in line] for line in cells])
        with self.beat(self.caption("all_queries.caption.rest")):
            for i in range(1, size):
                for j in range(size):
                    grid.put(i, j, entries[i][j])
                self.play(
                    Indicate(grid.row_labels[i], color=style.QUERY),
                    LaggedStart(
                        *(FadeIn(entries[i][j], scale=0.6) for j in range(size)), lag_ratio=0.3
                    ),
                    run_time=style.NORMAL,
                )

    def divide(self) -> None:
        data, grid, cells = self.data, self.grid, self.data.cells
        over = inline(math(r"\div \sqrt{d_k}", colour=style.MUTED), figure(f"= {data.root_d_k}"))
        grid.framed(over)
        caption = self.caption("all_queries.caption.divide", d_k=data.d_k, root=data.root_d_k)
        with self.beat(caption):
            self.play(FadeIn(over, shift=UP * 0.2), run_time=style.FAST)
            self.swap([[c.score for c in line] for line in cells], run_time=style.SLOW)
            self.play(FadeOut(over), run_time=style.FAST)

    def softmax_first(self) -> None:
        cells = self.data.cells[0]
        caption = self.caption(
            "all_queries.caption.softmax_first",
            query=self.name(0),
            scores=self.listed([c.score for c in cells]),
            shares=self.listed([c.share for c in cells]),
            budget=self.worked.budget,
        )
        self.budgets = VGroup()
        row = [self.grid.row_labels[0], self.grid.row(0), self.row_entries(0)]
        budgets = self.budget_marks([0])
        with self.beat(caption), Focus(self, *row, frame=[*row, *budgets], marked=[]):
            self.spread([0], budgets)

    def softmax_rest(self) -> None:
        caption = self.caption("all_queries.caption.softmax_rest", budget=self.worked.budget)
        rows = list(range(1, len(self.data.cells)))
        with self.beat(caption):
            self.spread(rows, self.budget_marks(rows))

    def output_first(self) -> None:
        rows = self.data.rows
        self.output_header, self.outputs = output_column(self, self.grid, rows)
        header = self.output_header
        caption = self.caption(
            "all_queries.caption.output_first", query=self.name(0), output=rows[0].output
        )
        self.values, self.v_letter = value_columns(self.grid, self.data)
        with self.beat(caption):
            self.play(
                FadeOut(self.budgets),
                FadeIn(header),
                FadeIn(self.v_letter),
                LaggedStart(
                    *(
                        TransformFromCopy(label, value)
                        for label, value in zip(self.grid.column_labels, self.values, strict=True)
                    ),
                    lag_ratio=0.2,
                ),
                run_time=style.NORMAL,
            )
            operands = [self.row_entries(0), *self.values]
            with Focus(self, *operands, frame=[*operands, self.outputs[0]], marked=operands[:1]):
                self.play(
                    TransformFromCopy(VGroup(*operands), self.outputs[0]), run_time=style.SLOW
                )

    def output_rest(self) -> None:
        with self.beat(self.caption("all_queries.caption.output_rest")):
            self.play(
                LaggedStart(
                    *(
                        TransformFromCopy(self.row_entries(i), self.outputs[i])
                        for i in range(1, len(self.outputs))
                    ),
                    lag_ratio=0.3,
                ),
                run_time=style.SLOW,
            )

    # pieces of beats ---------------------------------------------------------------------

    def work_cell(
        self, work: DotProduct, i: int, j: int, *, run_time: float, close_up: bool = False
    ) -> None:
        """One cell's q · k under the grid (``close_up``: in focus, the camera on the working);
        its dot product flies into the cell."""
        self.k_label.next_to(work.key, LEFT, buff=0.3).set_x(self.labels[0].get_x())
        detail = [self.query, work, self.labels]
        with Focus(self, *detail, frame=detail, marked=[self.query]) if close_up else nullcontext():
            work.play(self, self.grid.column_labels[j], run_time=run_time, divide=False)
        entry = self.grid.number(i, j, self.data.cells[i][j].dot)
        self.grid.put(i, j, entry)
        self.play(TransformFromCopy(work.dot, entry), run_time=run_time / 2)
        self.play(FadeOut(work.summed), run_time=style.FAST / 2)

    def swap(self, texts: list[list[str]], *, run_time: float) -> None:
        """Every cell's number turns into the next stage's."""
        grid = self.grid
        new = grid.numbers(texts)
        cells = {(i, j): entry for i, line in enumerate(new) for j, entry in enumerate(line)}
        self.play(*grid.turn_into(cells), run_time=run_time)

    def budget_marks(self, rows: list[int]) -> list[VMobject]:
        """Each row's total of 100%, beside it."""
        grid = self.grid
        budgets = [grid.beside(figure(self.worked.budget, colour=style.MUTED), i) for i in rows]
        return [fit(b, 1.2, grid.cell_height * 0.7) for b in budgets]

    def spread(self, rows: list[int], fit_all: list[VMobject]) -> None:
        """Those rows' scores become their shares, each cell shaded by its weight; each row's
        total of 100% (``fit_all``) appears beside it."""
        grid, data = self.grid, self.data
        weights = data.attention.weights
        new = {
            (i, j): grid.number(i, j, data.cells[i][j].share)
            for i in rows
            for j in range(len(weights))
        }
        self.play(
            *grid.turn_into(new),
            *(
                grid.boxes[i][j].animate.set_fill(
                    grid.colour, opacity=heat(float(weights[i][j]), 1.0)
                )
                for i, j in new
            ),
            run_time=style.SLOW,
        )
        self.play(*(FadeIn(b, shift=LEFT * 0.2) for b in fit_all), run_time=style.FAST)
        self.budgets.add(*fit_all)

    def row_entries(self, i: int) -> VGroup:
        return VGroup(*(self.grid.entry(i, j) for j in range(len(self.data.cells))))

    # layout ------------------------------------------------------------------------------

    def lay_out_query(self, i: int) -> None:
        """Row ``i``'s query as cells under the grid, sized so every cell's working fits."""
        data = self.data
        rows = data.rows
        entries = [r.key_entries for r in rows]
        width = max(
            WORK_CELL_HEIGHT,
            cell_width(rows[i].query_entries, *entries, size=style.WORKING_SIZE),
        )
        products = [p for c in data.cells[i] for p in c.factors]
        self.query = VectorCells(
            data.attention.queries[i],
            style.QUERY,
            texts=rows[i].query_entries,
            width=width,
            height=WORK_CELL_HEIGHT,
            gap=column_gap(width, products, size=style.WORKING_SIZE),
            peak=self.peak,
            size=style.WORKING_SIZE,
        )
        fit_working(self.query, lambda: VGroup(*(self.working(i, j) for j in range(len(rows)))))

    def working(self, i: int, j: int) -> DotProduct:
        data = self.data
        cell, key = data.cells[i][j], data.rows[j]
        pair = Pair(key.of, key.key_entries, cell.factors, cell.dot, cell.score)
        return DotProduct(self.query, self.worked, pair, width=WORK_AREA.width)

    def name(self, i: int) -> str:
        return self.lesson.tokens[i].short

    @property
    def peak(self) -> float:
        """The largest query or key entry: it shades fullest."""
        a = self.data.attention
        return float(max(abs(a.queries).max(), abs(a.keys).max()))
