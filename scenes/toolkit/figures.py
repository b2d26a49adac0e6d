"""Numbers as the viewer reads them: Inter with tabular figures, so columns of digits align."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np
from manim import MarkupText, VGroup

from scenes import style
from scenes.typeset import made

__all__ = ["Figure", "FigureVector", "figure"]


class Figure(MarkupText):
    """A number (or a sign between numbers) in the house type, every digit as wide as any other.

    Pango sets the tabular figures (OpenType ``tnum``) through markup; ``original_text`` is
    the plain string shown, so whatever reads the screen reads the number, not the markup.
    """

    def __init__(
        self, content: str, *, size: float, colour: str = style.TEXT, bold: bool = False
    ) -> None:
        markup = f'<span font_features="tnum">{escape(content)}</span>'
        super().__init__(
            markup,
            font=style.FONT,
            font_size=size,
            color=colour,
            weight="BOLD" if bold else "NORMAL",
        )
        self.original_text = content
        self.size = size
        self._natural_height = self.height  # fit() may scale it; the sign's rise scales too

    @property
    def baseline(self) -> float:
        """The y its digits sit on; a lone sign (``+``, ``=``, ``÷``) knows where they would."""
        glyphs = zip(
            [c for c in self.original_text if not c.isspace()], self.submobjects, strict=False
        )
        bottoms = [glyph.get_bottom()[1] for char, glyph in glyphs if char.isdigit()]
        if bottoms:
            return float(np.median(bottoms))
        return float(
            self.get_center()[1] - SIGN_AXIS * self.size * self.height / self._natural_height
        )


SIGN_AXIS = 0.00505
"""How far above the baseline Inter centres + − × ÷ =, per unit of font size (half a digit)."""


def figure(
    content: str, *, size: float = style.NUMBER_SIZE, colour: str = style.TEXT, bold: bool = False
) -> Figure:
    """A number as the viewer reads it in a table, a bar, a sum or a share (typeset once:
    :func:`scenes.typeset.made`)."""
    return made(Figure, content, size=size, colour=colour, bold=bold)


class FigureVector(Figure):
    """A vector written out, ``[0.84, 0.11, 0.00]``, as one line of figures whose parts can be
    picked by name: ``entries`` (one group of glyphs each), ``commas`` and ``brackets``."""

    def __init__(
        self, entries: Sequence[str], *, size: float = style.NUMBER_SIZE, colour: str = style.TEXT
    ) -> None:
        super().__init__("[" + ", ".join(entries) + "]", size=size, colour=colour)
        glyphs = list(self.submobjects)  # one per character that is not a space
        self.entries, self.commas = VGroup(), VGroup()
        at = 1  # after the opening bracket
        for entry in entries:
            length = len(entry.replace(" ", ""))
            self.entries.add(VGroup(*glyphs[at : at + length]))
            at += length
            if at < len(glyphs) - 1:
                self.commas.add(glyphs[at])
                at += 1
        self.brackets = VGroup(glyphs[0], glyphs[-1])
