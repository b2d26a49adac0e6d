"""Vectors drawn as vectors: a row of cells coloured by role and shaded by value."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from manim import LEFT, RIGHT, UP, RoundedRectangle, VGroup

from attention_core.palette import FAINTEST, FULLEST
from scenes import style
from scenes.helpers import fit
from scenes.toolkit.figures import Figure, figure

__all__ = ["CELL_GAP", "CELL_HEIGHT", "VectorCells", "cell_width"]

CELL_HEIGHT = 0.5
CELL_GAP = 0.08
CELL_PADDING = 0.2  # room left and right of the widest entry


def cell_width(*vectors: Sequence[str], size: float = style.NUMBER_SIZE) -> float:
    """One width for the cells of every vector given (its entries as shown), so that their
    entries line up."""
    widest = max(figure(x, size=size).width for v in vectors for x in v)
    return max(CELL_HEIGHT, widest + CELL_PADDING)


class VectorCells(VGroup):
    """A vector as a row of cells in its role's colour, each shaded by its entry's size.

    ``texts`` are the entries as shown (the worked lesson's), ``values`` what shades them.
    ``peak`` is the size that shades fullest: give every vector in sight the same, so their
    shades compare. ``cells[j]`` is ``VGroup(box, entry)``; ``boxes`` and ``entries`` hold
    them by kind, so a scene can light up a cell, shrink it, or fly its number elsewhere.
    """

    def __init__(
        self,
        values: Iterable[float],
        colour: str,
        *,
        texts: Sequence[str],
        width: float | None = None,
        height: float = CELL_HEIGHT,
        gap: float = CELL_GAP,
        peak: float | None = None,
        size: float = style.NUMBER_SIZE,
    ) -> None:
        super().__init__()
        self.values = [float(v) for v in values]
        self.colour = colour
        self.cell_width = width if width is not None else cell_width(texts, size=size)
        self.gap = gap
        self.cell_height = height
        self.size = size
        self.peak = peak if peak is not None else max((abs(v) for v in self.values), default=0.0)
        self.boxes, self.entries = VGroup(), VGroup()
        for value, content in zip(self.values, texts, strict=True):
            box = RoundedRectangle(
                corner_radius=0.06,
                width=self.cell_width,
                height=height,
                stroke_color=colour,
                stroke_width=2,
                fill_color=colour,
                fill_opacity=shade(value, self.peak),
            )
            entry = figure(content, size=size)
            fit(entry, self.cell_width - CELL_PADDING / 2, height * 0.8).move_to(box)
            self.boxes.add(box)
            self.entries.add(entry)
            self.add(VGroup(box, entry))
        self.arrange(RIGHT, buff=gap)
        self.natural_width = self.width  # fit() may shrink it; what goes with it shrinks too
        self.working_lines = 1
        """The lines a dot product worked under these cells puts its products on: one, each
        under its pair, or two once :func:`scenes.toolkit.dot_product.fit_working` has closed
        the cells up for a working too wide for its band."""

    def close_up(self, gap: float) -> None:
        """Its cells ``gap`` apart (at the size they were drawn), the top-left corner kept."""
        corner = self.get_corner(UP + LEFT)
        scale = self.width / self.natural_width
        self.arrange(RIGHT, buff=gap * scale)
        self.move_to(corner, aligned_edge=UP + LEFT)
        self.gap = gap
        self.natural_width = self.width / scale

    def entry(self, j: int) -> Figure:
        """The number in cell ``j``."""
        return cast(Figure, self.entries[j])  # manim's VGroup is not generic: it holds VMobjects


def shade(value: float, largest: float) -> float:
    """A cell's fill opacity: faint for zero, fullest for the largest entry in sight."""
    if largest <= 0:
        return FAINTEST
    return FAINTEST + (FULLEST - FAINTEST) * min(1.0, abs(value) / largest)
