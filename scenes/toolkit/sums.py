"""A sum written out in the house figures: ``20.09 + 2.72 + 1.00 = 23.80``, its parts by name."""

from __future__ import annotations

from collections.abc import Sequence

from manim import VGroup

from scenes import style
from scenes.helpers import inline
from scenes.toolkit.figures import Figure, figure

__all__ = ["SumLine"]


class SumLine(VGroup):
    """Terms with ``+`` between them, ``=`` and the total, on one baseline.

    Named parts: ``terms``, ``pluses``, ``equals`` and ``total``; each term in its colour.
    """

    def __init__(
        self,
        terms: Sequence[str],
        total: str,
        *,
        colours: Sequence[str],
        size: float = style.NUMBER_SIZE,
    ) -> None:
        self.terms = VGroup(
            *(figure(t, size=size, colour=c) for t, c in zip(terms, colours, strict=True))
        )
        self.pluses = VGroup(*(figure("+", size=size) for _ in terms[1:]))
        self.equals = figure("=", size=size)
        self.total: Figure = figure(total, size=size, bold=True)
        pieces = [self.terms[0]]
        for plus, term in zip(self.pluses, self.terms[1:], strict=True):
            pieces += [plus, term]
        super().__init__(*inline(*pieces, self.equals, self.total, buff=0.16))
