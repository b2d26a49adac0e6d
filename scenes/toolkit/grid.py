"""A matrix drawn as cells: tokens down the side and across the top, a number in each cell."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from manim import DOWN, LEFT, RIGHT, UP, Mobject, ReplacementTransform, RoundedRectangle, VGroup

from attention_core.meaning import Meaning, meaning
from attention_core.palette import DARK, FAINTEST, FULLEST
from scenes import style
from scenes.helpers import fit, text
from scenes.toolkit.figures import Figure, figure

if TYPE_CHECKING:
    from scenes.manim_internals import Playable

__all__ = ["DARK", "CellGrid"]

CELL_GAP = 0.08
LABEL_GAP = 0.2  # between a label and the cells it names
PADDING = 0.2  # left and right of the widest number a cell will hold
ENTRY_HEIGHT = 0.62  # of a cell's height, the most its number takes
MASKED_STROKE = 0.35  # a masked cell's outline: there, but faint

M = TypeVar("M", bound=Mobject)  # what is placed by the grid is given back


class CellGrid(VGroup):
    """Rows × columns of number cells, each row and column named by a token in its colour.

    The grid is laid out once, for the widest number any of its stages will show
    (``widest``), inside a ``width`` × ``height`` box whose top left is ``corner``; then
    scenes put numbers in (``numbers``/``put``), shade cells by value (``shade``), or switch
    cells off (``darken``). Named parts: ``boxes[i][j]``, ``entries[i][j]`` (the number each
    cell shows now, or None while empty), ``row_labels``, ``column_labels``, ``axis_labels``.
    """

    def __init__(
        self,
        row_names: Sequence[str],
        column_names: Sequence[str],
        *,
        colour: str,
        widest: Sequence[str],
        corner: Sequence[float],
        width: float,
        height: float,
        row_colours: Sequence[str],
        column_colours: Sequence[str],
        max_cell: float = 0.75,
        size: float = style.NUMBER_SIZE,
    ) -> None:
        super().__init__()
        self.colour, self.size = colour, size
        rows, columns = len(row_names), len(column_names)
        self.row_labels = names(row_names, row_colours)
        self.column_labels = names(column_names, column_colours)
        label_width = max(m.width for m in self.row_labels) + LABEL_GAP
        label_height = max(m.height for m in self.column_labels) + LABEL_GAP
        # Wide enough for the widest number and the widest name over it, if the box has room.
        natural = max(
            max(figure(t, size=size).width for t in widest) + 2 * PADDING,
            max(m.width for m in self.column_labels),
        )
        pitch_x = min(natural + CELL_GAP, (width - label_width) / columns)
        pitch_y = min(max_cell + CELL_GAP, (height - label_height) / rows)
        self.cell_width, self.cell_height = pitch_x - CELL_GAP, pitch_y - CELL_GAP
        left = corner[0] + label_width
        top = corner[1] - label_height
        self.boxes: list[list[RoundedRectangle]] = []
        for i in range(rows):
            line = []
            for j in range(columns):
                box = RoundedRectangle(
                    corner_radius=0.06,
                    width=self.cell_width,
                    height=self.cell_height,
                    stroke_color=colour,
                    stroke_width=2,
                    fill_color=colour,
                    fill_opacity=FAINTEST,
                )
                box.move_to((left + (j + 0.5) * pitch_x, top - (i + 0.5) * pitch_y, 0))
                line.append(box)
            self.boxes.append(line)
        for i, label in enumerate(self.row_labels):
            fit(label, label_width - LABEL_GAP, self.cell_height)
            label.next_to(self.boxes[i][0], LEFT, buff=LABEL_GAP)
        for j, label in enumerate(self.column_labels):
            fit(label, self.cell_width, label_height - LABEL_GAP)
            label.next_to(self.boxes[0][j], UP, buff=LABEL_GAP)
        self.entries: list[list[Figure | None]] = [[None] * columns for _ in range(rows)]
        self.cells = VGroup(*(box for line in self.boxes for box in line))
        self.add(self.cells, self.row_labels, self.column_labels)

    def meant(self) -> Meaning | None:
        """The grid as a sentence says it now: each row, each number it shows beside the token
        of its column (a masked cell, empty, is left out); None while it shows no number."""
        rows = []
        for i, label in enumerate(self.row_labels):
            cells = [
                f"{self.column_labels[j].original_text} {entry.original_text}"
                for j, entry in enumerate(self.entries[i])
                if entry is not None and _seen(entry)
            ]
            if cells:
                rows.append(f"{label.original_text}: {', '.join(cells)}")
        return meaning("describe.line.grid", rows="; ".join(rows)) if rows else None

    def meant_parts(self) -> list[Mobject]:
        """What :meth:`meant` stands for: the labels and the numbers the cells show now (a
        number swapped in is the grid's though the scene, not the grid, holds it)."""
        entries = [entry for line in self.entries for entry in line if entry is not None]
        return [self.row_labels, self.column_labels, *entries]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.boxes), len(self.boxes[0])

    def row(self, i: int) -> VGroup:
        """Row ``i``'s boxes."""
        return VGroup(*self.boxes[i])

    def column(self, j: int) -> VGroup:
        """Column ``j``'s boxes."""
        return VGroup(*(line[j] for line in self.boxes))

    def number(self, i: int, j: int, content: str, *, colour: str = style.TEXT) -> Figure:
        """``content`` set to fit cell (i, j), in its middle (not yet in the grid)."""
        entry = figure(content, size=self.size, colour=colour)
        fit(entry, self.cell_width - PADDING / 2, self.cell_height * ENTRY_HEIGHT)
        # Above the boxes whatever order they are animated in (a box animated is drawn last).
        return entry.move_to(self.boxes[i][j]).set_z_index(1)

    def numbers(
        self, texts: Sequence[Sequence[str]], *, colour: str = style.TEXT
    ) -> list[list[Figure]]:
        """A number for every cell, each fitted to its cell (not yet in the grid)."""
        return [
            [self.number(i, j, t, colour=colour) for j, t in enumerate(line)]
            for i, line in enumerate(texts)
        ]

    def put(self, i: int, j: int, entry: Figure) -> None:
        """Make ``entry`` the number cell (i, j) shows (the scene animates it in or out)."""
        old = self.entries[i][j]
        if old is not None:
            self.remove(old)
        self.entries[i][j] = entry
        self.add(entry)

    def turn_into(self, new: Mapping[tuple[int, int], Figure]) -> list[Playable]:
        """Each cell (i, j) of ``new`` shows its new number from now on (what the grid means is
        the new numbers, as the beat ends): the animations that turn the old into the new."""
        old = {place: self.entry(*place) for place in new}
        for (i, j), entry in new.items():
            self.entries[i][j] = entry
        return [ReplacementTransform(old[place], entry) for place, entry in new.items()]

    def entry(self, i: int, j: int) -> Figure:
        """The number cell (i, j) shows now."""
        shown = self.entries[i][j]
        assert shown is not None  # put() a number in first
        return shown

    def shade(self, values: Sequence[Sequence[float]], *, peak: float = 1.0) -> list[Playable]:
        """Each cell filled by its value's size (``peak`` fills fullest): a heat map."""
        return [
            self.boxes[i][j].animate.set_fill(self.colour, opacity=heat(v, peak))
            for i, line in enumerate(values)
            for j, v in enumerate(line)
        ]

    def darken(self, i: int, j: int) -> Playable:
        """Cell (i, j) switched off: dark, its outline faint (a masked cell)."""
        box = self.boxes[i][j].animate.set_fill(DARK, opacity=1)
        return box.set_stroke(style.MUTED, opacity=MASKED_STROKE)

    def framed(self, mob: M) -> M:
        """``mob`` placed under the grid's last row, left-aligned with its cells."""
        return mob.next_to(self.cells, DOWN, buff=LABEL_GAP).align_to(self.cells, LEFT)

    def beside(self, mob: M, i: int, *, buff: float = 0.3) -> M:
        """``mob`` placed right of row ``i``."""
        return mob.next_to(self.boxes[i][-1], RIGHT, buff=buff)


def _seen(mob: Mobject) -> bool:
    return any(m.get_fill_opacity() > 0.05 for m in mob.family_members_with_points())


def heat(value: float, peak: float) -> float:
    """A heat-map cell's fill opacity: faint for nothing, fullest at ``peak``."""
    if peak <= 0:
        return FAINTEST
    return FAINTEST + (FULLEST - FAINTEST) * min(1.0, max(0.0, value) / peak)


def names(labels: Sequence[str], colours: Sequence[str]) -> VGroup:
    """Tokens' names for an axis, each in its colour."""
    return VGroup(
        *(text(n, size=style.SMALL_SIZE, colour=c) for n, c in zip(labels, colours, strict=True))
    )
