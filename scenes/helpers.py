"""Reusable visual builders: text in the house type, vectors, headings, bars and tables."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    MathTex,
    Mobject,
    Rectangle,
    Text,
    VGroup,
    config,
)

from . import style

__all__ = [
    "budget_bar",
    "fit",
    "heading",
    "math",
    "text",
    "vector_mob",
]


def text(
    content: str, *, size: float = style.BODY_SIZE, colour: str = style.TEXT, bold: bool = False
) -> Text:
    """Prose in the house sans-serif. Lesson text goes here, never into LaTeX."""
    return Text(
        content, font=style.FONT, font_size=size, color=colour, weight="BOLD" if bold else "NORMAL"
    )


def math(*tex: str, size: float = style.MATH_SIZE, colour: str = style.TEXT) -> MathTex:
    """A formula typeset by LaTeX; pass pieces separately to colour or move them one by one."""
    return MathTex(*tex, font_size=size, color=colour)


class VectorMob(MathTex):
    """A row vector ``[2, 0, 1, 1]`` typeset as one formula whose entries can be picked out."""

    def __init__(self, entries: Sequence[str], colour: str, *, size: float = style.MATH_SIZE):
        pieces = ["["]
        for entry in entries:
            pieces += [entry, ","]
        pieces[-1] = "]"
        super().__init__(*pieces, font_size=size, color=colour)

    @property
    def entries(self) -> VGroup:
        """The entries alone, in order, without brackets or commas."""
        return VGroup(*self[1::2])


def vector_mob(entries: Sequence[str], colour: str, *, size: float = style.MATH_SIZE) -> VectorMob:
    """A row vector in the colour of its role."""
    return VectorMob(entries, colour, size=size)


def heading(kicker: str, title: str) -> VGroup:
    """The step's label and headline, pinned to the top of the frame."""
    group = VGroup(
        text(kicker, size=style.SMALL_SIZE, colour=style.MUTED, bold=True),
        text(title, size=style.HEADING_SIZE, bold=True),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
    fit(group, config.frame_width - 2 * style.MARGIN)
    return group.to_corner(UP + LEFT, buff=style.MARGIN + 0.1)


def fit(mob: Mobject, width: float, height: float | None = None) -> Mobject:
    """Shrink a mobject to fit a box, never enlarging it."""
    factor = min(1.0, width / max(mob.width, 1e-6))
    if height is not None:
        factor = min(factor, height / max(mob.height, 1e-6))
    return mob.scale(factor)


def budget_bar(
    weights: Sequence[float], colours: Sequence[str], *, width: float, height: float = 0.5
) -> VGroup:
    """One bar split into slices proportional to the weights: the 100% attention budget."""
    slices = VGroup(
        *(
            Rectangle(
                width=max(width * float(w), 1e-3),
                height=height,
                stroke_width=0,
                fill_color=colour,
                fill_opacity=1,
            )
            for w, colour in zip(weights, colours, strict=True)
        )
    ).arrange(RIGHT, buff=0)
    return slices


def column_positions(widths: Sequence[float], left: float) -> np.ndarray:
    """The x of each column's left edge for columns of the given widths."""
    return left + np.concatenate([[0.0], np.cumsum(widths)[:-1]])
