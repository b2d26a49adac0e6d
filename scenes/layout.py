"""Where a step's objects go: the frame's title-safe area cut into four regions.

Every step is composed in the same four places, so that a cut between clips keeps the eye where
it was and nothing is placed by a coordinate of its own:

- :data:`HEADING`, the band at the top: the step's label and headline;
- :data:`STAGE`, the middle: what the step works on (a table, a grid, the working);
- :data:`SIDE`, the stage's right-hand column: what the working produces (shares, an output);
- :data:`LOWER`, the band at the bottom, the frame's lower third: what the step carries on
  (the running sum, the budget bar, the output, a verdict).

All four lie inside :data:`SAFE`, the title-safe area (:data:`TITLE_SAFE` of the frame, about
its centre), which the composition measure (:mod:`scenes.composition`) holds every text to. A
region is a box; a step takes positions from it (``STAGE.left``, ``LOWER.y``,
``STAGE.at(0.5, 0.25)``) and boxes within it (``STAGE.columns(3, 1)``, ``LOWER.rows(1, 1)``),
never coordinates of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np
from manim import ORIGIN, Mobject, config

__all__ = ["ACTION_SAFE", "HEADING", "LOWER", "SAFE", "SIDE", "STAGE", "TITLE_SAFE", "Region"]

TITLE_SAFE = 0.90
"""Every text inside this share of the frame's width and height, about its centre."""
ACTION_SAFE = 0.93
"""Every shape inside this share of the frame's width and height."""

M = TypeVar("M", bound=Mobject)

HEADING_HEIGHT = 1.15
"""The label and a headline of one line, with the gap under them."""
LOWER_TOP = -1.35
"""The top of the frame's lower third (its bottom third is below -4/3), a little under it."""
SIDE_WIDTH = 3.2
"""The side column: a column of shares or an output vector of three cells."""
ROUNDING_ROOM = 0.01
"""Kept inside the safe area: a picture 854 pixels wide is 7.994 units tall, not 8."""


@dataclass(frozen=True)
class Region:
    """A box of the frame, in scene units."""

    left: float
    bottom: float
    right: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def y(self) -> float:
        return (self.bottom + self.top) / 2

    def below(self, y: float) -> Region:
        """This region from ``y`` down."""
        return replace(self, top=min(self.top, y))

    def above(self, y: float) -> Region:
        """This region from ``y`` up."""
        return replace(self, bottom=max(self.bottom, y))

    def left_of(self, x: float) -> Region:
        """This region's part left of ``x``."""
        return replace(self, right=min(self.right, x))

    def right_of(self, x: float) -> Region:
        """This region's part right of ``x``."""
        return replace(self, left=max(self.left, x))

    def at(self, across: float, down: float = 0.5) -> np.ndarray:
        """The point ``across`` of the way from left to right and ``down`` from top to bottom."""
        return np.array([self.left + across * self.width, self.top - down * self.height, 0.0])

    def columns(self, *shares: float, gap: float = 0.0) -> tuple[Region, ...]:
        """This region cut left to right into columns whose widths are in ``shares``' ratio,
        ``gap`` apart."""
        room = self.width - gap * (len(shares) - 1)
        total = sum(shares)
        cuts, left = [], self.left
        for share in shares:
            right = left + room * share / total
            cuts.append(replace(self, left=left, right=right))
            left = right + gap
        return tuple(cuts)

    def rows(self, *shares: float, gap: float = 0.0) -> tuple[Region, ...]:
        """This region cut top to bottom into rows whose heights are in ``shares``' ratio."""
        room = self.height - gap * (len(shares) - 1)
        total = sum(shares)
        cuts, top = [], self.top
        for share in shares:
            bottom = top - room * share / total
            cuts.append(replace(self, top=top, bottom=bottom))
            top = bottom - gap
        return tuple(cuts)

    def place(self, mob: M, edge: np.ndarray = ORIGIN) -> M:
        """Put ``mob`` at this region's ``edge`` (``UP + LEFT``: its top-left corner; ``ORIGIN``:
        its centre), the same edge of ``mob`` on it."""
        x = {-1: self.left, 0: self.x, 1: self.right}[int(np.sign(edge[0]))]
        y = {-1: self.bottom, 0: self.y, 1: self.top}[int(np.sign(edge[1]))]
        return mob.move_to([x, y, 0.0], aligned_edge=edge)

    def fit(self, mob: M) -> M:
        """Shrink ``mob`` to fit this region, never enlarging it."""
        factor = min(1.0, self.width / max(mob.width, 1e-6), self.height / max(mob.height, 1e-6))
        return mob.scale(factor)


_half_width = config.frame_width * TITLE_SAFE / 2 - ROUNDING_ROOM
_half_height = config.frame_height * TITLE_SAFE / 2 - ROUNDING_ROOM

SAFE = Region(-_half_width, -_half_height, _half_width, _half_height)
"""The title-safe area: every text inside it."""
HEADING = SAFE.above(SAFE.top - HEADING_HEIGHT)
STAGE = SAFE.below(HEADING.bottom).above(LOWER_TOP)
SIDE = STAGE.right_of(STAGE.right - SIDE_WIDTH)
LOWER = SAFE.below(LOWER_TOP)
