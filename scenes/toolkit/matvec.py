"""A row vector times a matrix, x·W, worked entry by entry: the pairs light, add up and land."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    FadeIn,
    FadeOut,
    Mobject,
    ReplacementTransform,
    Scene,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from attention_core.meaning import meaning
from scenes import style
from scenes.helpers import fit, inline
from scenes.toolkit.figures import Figure, figure
from scenes.toolkit.vectors import CELL_GAP, CELL_HEIGHT, VectorCells

__all__ = ["MatVec", "Terms", "WeightMatrix", "factors"]

SIGN_GAP = 0.25  # between the vector, ·, the matrix, = and the result
TERMS_DROP = 0.5  # from the matrix's foot down to the terms' line
FRAME_BUFF = 0.05


class WeightMatrix(VGroup):
    """A matrix as rows of cells in its role's colour, each cell shaded by its entry's size.

    ``rows[i]`` is row i (a :class:`VectorCells`); ``entry(i, j)`` and ``cell(i, j)`` pick one
    cell's number or whole cell, ``column(j)`` a column's cells. ``texts`` are the entries as
    shown; give ``peak`` to shade it like the vectors around it.
    """

    def __init__(
        self,
        values: Sequence[Sequence[float]],
        colour: str,
        *,
        texts: Sequence[Sequence[str]],
        width: float,
        height: float = CELL_HEIGHT,
        gap: float = CELL_GAP,
        peak: float | None = None,
        size: float = style.NUMBER_SIZE,
    ) -> None:
        top = peak if peak is not None else max(abs(float(v)) for r in values for v in r)
        self.rows = [
            VectorCells(
                row, colour, texts=shown, width=width, height=height, gap=gap, peak=top, size=size
            )
            for row, shown in zip(values, texts, strict=True)
        ]
        super().__init__(*self.rows)
        self.arrange(DOWN, buff=gap)
        rows = "; ".join("[" + ", ".join(shown) + "]" for shown in texts)
        self.meant = meaning("describe.line.matrix", rows=rows)

    def cell(self, i: int, j: int) -> VGroup:
        return cast(VGroup, self.rows[i][j])  # manim's VGroup is not generic: it holds VMobjects

    def entry(self, i: int, j: int) -> Figure:
        return self.rows[i].entry(j)

    def column(self, j: int) -> VGroup:
        return VGroup(*(row[j] for row in self.rows))


class Terms(VGroup):
    """One output entry written out: ``x₁ × w₁ⱼ + x₂ × w₂ⱼ + … = rⱼ``, on one baseline.

    Named parts: ``factors`` (one ``VGroup(x, ×, w)`` per term), ``pluses``, ``equals`` and
    ``total``.
    """

    def __init__(
        self, pairs: Sequence[tuple[str, str]], total: str, *, colour: str, size: float
    ) -> None:
        self.factors = VGroup(
            *(
                inline(
                    figure(x, size=size), figure("×", size=size), figure(w, size=size), buff=0.08
                )
                for x, w in pairs
            )
        )
        self.pluses = VGroup(*(figure("+", size=size) for _ in pairs[1:]))
        self.equals = figure("=", size=size)
        self.total: Figure = figure(total, size=size, colour=colour, bold=True)
        pieces: list[VMobject] = [self.factors[0]]
        for plus, term in zip(self.pluses, self.factors[1:], strict=True):
            pieces += [plus, term]
        super().__init__(*inline(*pieces, self.equals, self.total, buff=0.16))


class MatVec(VGroup):
    """``x · W = r`` laid out on one line, the working of each entry of r on a line under it.

    ``x`` is the vector already on screen (it stays where it is); the matrix, the signs and
    the result are placed to its right. ``pairs[j]`` are column j's terms as shown
    (``("1", "0.5")`` for x₁ × W₁ⱼ) and ``results[j]`` what they add up to; every string is
    the worked lesson's. ``result`` is the product as a :class:`VectorCells` in ``colour``,
    built whole and shown cell by cell. The working is fitted to ``width`` from x's left edge.
    """

    def __init__(
        self,
        x: VectorCells,
        matrix: WeightMatrix,
        pairs: Sequence[Sequence[tuple[str, str]]],
        results: Sequence[str],
        result_values: Iterable[float],
        *,
        colour: str,
        width: float,
        peak: float | None = None,
    ) -> None:
        super().__init__()
        self.x, self.matrix = x, matrix
        self.results = tuple(results)
        size = x.size * x.width / x.natural_width  # as much as x was shrunk
        self.times = figure("·", size=size)
        self.equals = figure("=", size=size)
        self.result = VectorCells(
            result_values,
            colour,
            texts=results,
            width=x.cell_width,
            height=x.cell_height,
            gap=x.gap,
            peak=peak,
            size=x.size,
        )
        self.result.scale(x.width / x.natural_width)
        self.times.next_to(x, RIGHT, buff=SIGN_GAP)
        matrix.next_to(self.times, RIGHT, buff=SIGN_GAP)
        matrix.shift(UP * (x.get_top()[1] - matrix.get_top()[1]))  # hangs from x's line
        self.equals.next_to(matrix, RIGHT, buff=SIGN_GAP).match_y(x)
        self.result.next_to(self.equals, RIGHT, buff=SIGN_GAP).match_y(x)
        self.lines = [
            Terms(p, r, colour=colour, size=size) for p, r in zip(pairs, results, strict=True)
        ]
        self.terms = VGroup(*self.lines)
        floor = min(matrix.get_bottom()[1], x.get_bottom()[1]) - TERMS_DROP
        for line in self.terms:
            fit(line, width)
            line.move_to((x.get_left()[0], floor, 0), aligned_edge=UP + LEFT)
        self.add(self.times, matrix, self.equals, self.result, self.terms)

    @property
    def signs(self) -> VGroup:
        return VGroup(self.times, self.equals)

    def show_entry(self, scene: Scene, j: int, *, run_time: float) -> None:
        """Entry j: x and column j light up pair by pair, each pair's term appearing on the
        line under them; the terms add up, and the total lands in the result's cell j."""
        line = self.lines[j]
        light: Mobject | None = None
        pair_time = run_time / (len(line.factors) + 2)
        for i, term in enumerate(line.factors):
            pair = VGroup(self.x[i], self.matrix.cell(i, j))
            frame = VGroup(*(self._frame(cell) for cell in pair))
            arrive = [
                TransformFromCopy(self.x.entry(i), term[0]),
                FadeIn(term[1]),
                TransformFromCopy(self.matrix.entry(i, j), term[2]),
            ]
            if i:
                arrive.append(FadeIn(line.pluses[i - 1]))
            move_light = FadeIn(frame) if light is None else ReplacementTransform(light, frame)
            scene.play(move_light, *arrive, run_time=pair_time)
            light = frame
        assert light is not None
        scene.play(
            FadeIn(line.equals),
            TransformFromCopy(line.factors, line.total),
            FadeOut(light),
            run_time=pair_time,
        )
        scene.play(TransformFromCopy(line.total, self.result.entry(j)), run_time=pair_time)
        scene.play(
            FadeOut(
                VGroup(*(m for m in line if m is not line.total)), line.total, shift=DOWN * 0.1
            ),
            run_time=style.FAST,
        )

    def show_whole(
        self, scene: Scene, *, columns: Iterable[int] | None = None, run_time: float
    ) -> None:
        """In brief: each column of the matrix (or those in ``columns``), with x, turns at once
        into its result cell."""
        shown = list(range(len(self.result)) if columns is None else columns)
        if not shown:  # a one-column product shown by hand has nothing left to show
            return
        scene.play(
            *(
                TransformFromCopy(
                    VGroup(self.x.entries, self.matrix.column(j)), self.result.entry(j)
                )
                for j in shown
            ),
            run_time=run_time,
        )

    def bring_in(
        self, scene: Scene, source: Mobject | None = None, *also: Animation, run_time: float
    ) -> None:
        """The matrix comes in (from ``source``, where the scene showed it first), with the
        signs, the result's empty cells and whatever else the scene brings (``also``)."""
        arrive = (
            FadeIn(self.matrix, shift=LEFT * 0.2)
            if source is None
            else TransformFromCopy(source, self.matrix)
        )
        scene.play(arrive, FadeIn(self.signs), FadeIn(self.result.boxes), *also, run_time=run_time)

    def _frame(self, cell: Mobject) -> SurroundingRectangle:
        return SurroundingRectangle(cell, color=style.TEXT, buff=FRAME_BUFF, corner_radius=0.06)


def factors(work: Any) -> tuple[tuple[tuple[str, str], ...], ...]:
    """A worked x · W's terms per column as (x, w) pairs: its ``factors``, or its ``pairs``
    (``1×0.5``) split at the sign."""
    if hasattr(work, "factors"):
        given: tuple[tuple[tuple[str, str], ...], ...] = work.factors
        return given
    return tuple(tuple(_split(term) for term in column) for column in work.pairs)


def _split(term: str) -> tuple[str, str]:
    x, _, w = term.partition("×")
    return x, w
