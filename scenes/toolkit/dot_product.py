"""The dot product done to vectors: pairs of cells light up, their products add up, ÷ √dₖ."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

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
    config,
)

from attention_core import Token
from attention_core.meaning import meaning
from attention_core.worked import Worked
from scenes import style
from scenes.composition import MIN_NUMBER_PX, number_px
from scenes.helpers import any_baseline, inline, math
from scenes.layout import LOWER
from scenes.probe import CameraFrame, box_of
from scenes.toolkit.figures import Figure, figure
from scenes.toolkit.vectors import CELL_GAP, VectorCells

__all__ = ["WORK_AREA", "DotProduct", "Division", "Pairing", "column_gap", "fit_working"]

LABEL_ROOM = 0.7
"""Left of a working: its q and k labels."""
WORK_AREA = LOWER.right_of(LOWER.left + LABEL_ROOM)
"""Where a step works its dot products out: the lower band, right of their labels."""
FITTING_ROUNDS = 12
"""Halvings of the query's scale :func:`fit_working` tries: to within 0.03 %."""
MARGIN = 0.02
"""How clearly a foreseen span must clear a limit, or break one, for :func:`fit_working` to take
the foresight's word and not build the workings: Pango's widths wobble by some thousandths as
the size changes."""


def fit_working(query: VectorCells, workings: Callable[[], VGroup]) -> None:
    """``query``'s cells as large as lets every dot product :func:`workings` lays out under
    them (the first of them leading) fit :data:`WORK_AREA`, never larger than drawn; then the
    first working about the lower band's middle (as far as the widest lets it), the whole about
    the area's middle height.

    Each product stays under its pair, the workings shrinking as they must, while that leaves
    the numbers :data:`~scenes.composition.MIN_NUMBER_PX` tall at 1080p; where it would not,
    the cells close up and each working breaks its products onto two lines
    (``query.working_lines``), shrunk only as far as those need, if that is less.

    Found by halving, not in proportion: the gaps between lines do not shrink with the type,
    and a division goes beside its sum once the sum is narrow enough. Building the workings is
    most of a score step's dry run, so a round is :func:`foreseen` from the spans built before
    it where that is clear, and built only where it is close; the two scales the halving ends
    between are built, to prove the foresight, and where it was wrong the halving is done again
    building every round (the query is scaled to every scale tried either way, so it rounds as
    it always did).
    """
    work = WORK_AREA
    query.move_to((work.left, work.top, 0.0), aligned_edge=UP + LEFT)
    spans: dict[float, tuple[float, float]] = {}  # built, in the layout tried: width, height

    def resize(scale: float) -> None:
        factor = scale * query.natural_width / query.width
        query.scale(factor, about_point=query.get_corner(UP + LEFT))

    def built(scale: float) -> VGroup:
        """The query at ``scale`` with every working under it."""
        resize(scale)
        span = VGroup(query, workings())
        spans[scale] = (span.width, span.height)
        return span

    def within(span: VGroup) -> bool:
        return bool(span.width <= work.width and span.height <= work.height)

    def fits(scale: float) -> bool:
        return within(built(scale))

    def proven(scale: float, fitting: bool) -> bool:
        """Whether ``scale`` fits, or not, as foreseen; the query left as it was."""
        if scale in spans or scale == 0.0:
            return True
        kept = [member.points.copy() for member in query.get_family()]
        right = fits(scale) == fitting
        for member, points in zip(query.get_family(), kept, strict=True):
            member.points = points
        return right

    def largest(foresee: bool = True) -> float:
        """The largest scale that fits, found by halving (the query left at some scale)."""
        fitting, too_big = 0.0, 1.0
        for _ in range(FITTING_ROUNDS):
            middle = (fitting + too_big) / 2
            fit = foreseen(spans, middle) if foresee else None
            if fit is None:
                fit = fits(middle)
            else:
                resize(middle)  # as building it would: the query rounds as it always did
            fitting, too_big = (middle, too_big) if fit else (fitting, middle)
        if foresee and not (proven(fitting, True) and proven(too_big, False)):
            return largest(foresee=False)
        return fitting

    span = built(1.0)
    if not within(span):
        scale = largest()
        if number_px_at(query, scale) < MIN_NUMBER_PX:
            under_pairs = query.gap
            query.working_lines = 2
            query.close_up(CELL_GAP)
            spans.clear()  # a new layout: what was built in the last foretells nothing of it
            on_two = 1.0 if fits(1.0) else largest()
            if on_two > scale:
                scale = on_two
            else:
                query.working_lines = 1
                query.close_up(under_pairs)
        span = built(scale)
    works = span[1]
    room = work.right - span.get_right()[0]
    across = max(work.left - span.get_left()[0], min(LOWER.x - works[0].get_x(), room))
    query.shift(RIGHT * across + DOWN * (span.get_y() - work.y))


def foreseen(spans: Mapping[float, tuple[float, float]], scale: float) -> bool | None:
    """Whether the workings fit :data:`WORK_AREA` at ``scale``, foreseen from the ``spans``
    (width, height) built below it; None where that is not clear by :data:`MARGIN`.

    A span's width and height are the widest of pieces that grow with the scale from a gap
    that does not, so from the span built nearest below, the span at ``scale`` is at most
    that one grown in proportion (its gaps too), and at least on the line through the two
    nearest. Grown in proportion, it fits: no division, reaching less far than the span, drops
    under its sum. On the line, it does not: or a division passing the area's width drops under
    its sum, which in every shipped lesson costs more height than the area has.
    """
    below = sorted(s for s in spans if s < scale)[-2:]
    if not below:
        return None
    limits = (WORK_AREA.width, WORK_AREA.height)
    grown = (x * scale / below[-1] for x in spans[below[-1]])
    if all(x < limit - MARGIN for x, limit in zip(grown, limits, strict=True)):
        return True
    if len(below) < 2:
        return None
    a, b = below
    along = (scale - a) / (b - a)
    lined = (x + along * (y - x) for x, y in zip(spans[a], spans[b], strict=True))
    if any(x > limit + MARGIN for x, limit in zip(lined, limits, strict=True)):
        return False
    return None


def number_px_at(query: VectorCells, scale: float) -> float:
    """How tall the least of ``query``'s entries would be at ``scale`` of its drawn size, in
    pixels of a 1080-line picture of the whole frame."""
    whole = CameraFrame(0.0, 0.0, config.frame_width, config.frame_height)
    now = min(number_px(box_of(entry), whole) for entry in query.entries)
    return now * scale * query.natural_width / query.width


ROW_GAP = 0.12  # between the query's cells and the key's under them
PRODUCT_DROP = 0.55  # from the key's cells down to the products' middle
SIGN_ROOM = 0.16  # either side of a + between two products
LINE_GAP = 0.45  # between the products' line and the division when it goes underneath
TERM_GAP = 0.2  # either side of a sign in a line of products, and before the sum
DIVISION_GAP = 0.5  # between ``= dot`` and the division beside it
WRAP_GAP = 0.18  # between the key and the products' first line, and that and the second,
# when they take two


def column_gap(cell_width: float, products: Sequence[str], *, size: float) -> float:
    """The gap between cells that leaves each product room under its pair, a + between them."""
    widest = max(figure(p, size=size).width for p in products)
    plus = figure("+", size=size).width
    return max(CELL_GAP, widest + plus + 2 * SIGN_ROOM - cell_width)


class Pairing(Protocol):
    """What the working reads of one query–key pair: a worked lesson's ``Row`` (step 3), or a
    grid cell with its key's row (``scenes.steps.all_queries.Pair``)."""

    @property
    def of(self) -> Token: ...
    @property
    def key_entries(self) -> tuple[str, ...]: ...
    @property
    def factors(self) -> tuple[str, ...]: ...
    @property
    def dot(self) -> str: ...
    @property
    def score(self) -> str: ...


class Division(VGroup):
    """``6 ÷ √4 = 6 ÷ 2 = 3``: a dot product over √dₖ, worked out. Its parts by name."""

    def __init__(
        self, dot: str, d_k: str, root: str, score: str, *, score_colour: str, size: float
    ) -> None:
        def number(content: str, **kwargs: str | bool) -> Figure:
            return figure(content, size=size, **kwargs)  # type: ignore[arg-type]

        self.dot = number(dot)
        root_d_k = math(rf"\sqrt{{{d_k}}}", size=size * style.MATH_SIZE / style.NUMBER_SIZE)
        self.over_root_d_k = VGroup(number("÷"), root_d_k)
        self.root = number(root)
        self.score = number(score, colour=score_colour, bold=True)
        self.meant = meaning("describe.line.division", dot=dot, d_k=d_k, root=root, score=score)
        super().__init__(
            *inline(
                self.dot,
                *self.over_root_d_k,
                number("="),
                number(dot),
                number("÷"),
                self.root,
                number("="),
                self.score,
                buff=0.14,
            )
        )


class DotProduct(VGroup):
    """q · k for one key, laid out under the query's cells: the key's cells under them, each
    pair's product under the pair, ``+`` between, ``= dot``, then ``÷ √dₖ`` into the score.

    Built from one row of the worked lesson, its numbers as shown; ``play`` animates it. The
    division follows the sum on its line when the whole fits ``width``, else goes under it.
    """

    def __init__(
        self,
        query: VectorCells,
        worked: Worked,
        row: Pairing,
        *,
        width: float,
        score_colour: str = style.QUERY,
    ) -> None:
        super().__init__()
        self.query = query
        self.key = VectorCells(
            row.of.key,
            style.KEY,
            texts=row.key_entries,
            width=query.cell_width,
            height=query.cell_height,
            gap=query.gap,
            peak=query.peak,
            size=query.size,
        )
        self.key.scale(query.width / query.natural_width)  # as much as the query was shrunk
        self.key.next_to(query, DOWN, buff=ROW_GAP).align_to(query, LEFT)
        y = self.key.get_bottom()[1] - PRODUCT_DROP
        size = query.size * query.width / query.natural_width
        self.products = VGroup(*(figure(p, size=size) for p in row.factors))
        self.pluses = VGroup(*(figure("+", size=size) for _ in row.factors[1:]))
        self.equals = figure("=", size=size)
        self.dot = figure(row.dot, size=size, bold=True)
        self.division = Division(
            row.dot, worked.d_k, worked.root_d_k, row.score, score_colour=score_colour, size=size
        )
        if query.working_lines == 1 or len(self.products) == 1:
            self.under_pairs(y, width)
        else:
            self.on_two_lines(width)
        self.add(self.key, self.products, self.pluses, self.equals, self.dot, self.division)
        products = [
            f"{query.entry(j).original_text} × {k} = {p}"
            for j, (k, p) in enumerate(zip(row.key_entries, row.factors, strict=True))
        ]
        self.meant = meaning("describe.line.products", products="; ".join(products), dot=row.dot)

    def under_pairs(self, y: float, width: float) -> None:
        """Each product under its pair at ``y``, ``+`` between the pairs, ``= dot`` after the
        last; the division beside the sum where the whole fits ``width``, else under it."""
        for product, cell in zip(self.products, self.key, strict=True):
            product.move_to((cell.get_x(), y, 0))
        for plus, left, right_cell in zip(self.pluses, self.key[:-1], self.key[1:], strict=True):
            plus.move_to(((left.get_right()[0] + right_cell.get_left()[0]) / 2, y, 0))
        inline(self.products[-1], self.equals, self.dot, buff=TERM_GAP)
        for piece in (*self.products, *self.pluses):
            piece.shift(UP * (self.products[0].baseline - piece.baseline))
        if self.beside + self.division.width - self.query.get_left()[0] <= width:
            self.put_division_beside()
        else:
            self.division.next_to(self.products, DOWN, buff=LINE_GAP, aligned_edge=LEFT)

    def on_two_lines(self, width: float) -> None:
        """The products in a line of their own under the key, broken after a ``+`` into two
        lines, the second indented by a sign's room and ending ``= dot``: where the two, the
        division beside the second, are narrowest within ``width``; else where the two alone
        are narrowest, the division under them."""
        left, top = self.key.get_left()[0], self.key.get_bottom()[1] - WRAP_GAP
        n = len(self.products)

        def lay_out(first: int, beside: bool) -> float:
            """The products before ``first`` on the first line, the rest on the second; how far
            the working then reaches right of the query's left edge."""
            one = [piece for j in range(first) for piece in (self.products[j], self.pluses[j])]
            two = [
                piece for j in range(first, n - 1) for piece in (self.products[j], self.pluses[j])
            ]
            lines = (
                inline(*one, buff=TERM_GAP),
                inline(*two, self.products[-1], self.equals, self.dot, buff=TERM_GAP),
            )
            lines[0].shift(
                RIGHT * (left - lines[0].get_left()[0]) + UP * (top - lines[0].get_top()[1])
            )
            drop = max(p.height for p in self.products) + WRAP_GAP
            lines[1].shift(
                RIGHT * (left + self.pluses[0].width + 2 * TERM_GAP - lines[1].get_left()[0])
                + UP * (any_baseline(self.products[0]) - drop - any_baseline(lines[1]))
            )
            if beside:
                self.put_division_beside()
            else:
                self.division.next_to(VGroup(*lines), DOWN, buff=LINE_GAP)
                self.division.align_to(lines[0], LEFT)
            reach = VGroup(*lines, self.division).get_right()[0]
            return float(reach - self.query.get_left()[0])

        breaks = range(1, n)
        beside = [(lay_out(first, True), first) for first in breaks]
        fitting = [(reach, first) for reach, first in beside if reach <= width]
        if fitting:
            lay_out(min(fitting)[1], True)
        else:
            lay_out(min((lay_out(first, False), first) for first in breaks)[1], False)

    @property
    def beside(self) -> float:
        """Where the division starts on the sum's line: a gap after ``= dot``."""
        return float(self.dot.get_right()[0] + DIVISION_GAP)

    def put_division_beside(self) -> None:
        """The division on the sum's line, after ``= dot``."""
        self.division.shift(
            RIGHT * (self.beside - self.division.get_left()[0])
            + UP * (self.dot.baseline - self.division.dot.baseline)
        )

    def meant_parts(self) -> list[Mobject]:
        """What its meaning stands for: the query's cells above it too, whose entries it names."""
        return [self.query, self]

    @property
    def score(self) -> Figure:
        """The score the working ends on, ready to travel into a table."""
        return self.division.score

    @property
    def summed(self) -> VGroup:
        """What the working shows before the division: the key, the products and their sum."""
        return VGroup(self.key, self.products, self.pluses, self.equals, self.dot)

    def play(
        self, scene: Scene, key_source: Mobject, *, run_time: float, divide: bool = True
    ) -> None:
        """The key comes down under the query; pair by pair the cells light up and their
        product appears under them; the products add up to the dot product, which is divided
        by √dₖ into the score (unless not ``divide``: a grid divides every cell at once)."""
        means = getattr(scene, "means", None)
        if means is not None:  # a lesson's scene: its description says what the working is
            means(self)
        scene.play(TransformFromCopy(key_source, self.key), run_time=run_time / 2)
        light: Mobject | None = None
        pair_time = run_time / max(2, len(self.products))
        for j, product in enumerate(self.products):
            pair = VGroup(self.query[j], self.key[j])
            frame = SurroundingRectangle(pair, color=style.TEXT, buff=0.06, corner_radius=0.08)
            entries = VGroup(self.query.entry(j), self.key.entry(j))
            arrive: list[Animation] = [TransformFromCopy(entries, product)]
            if j:
                arrive.append(FadeIn(self.pluses[j - 1]))
            move_light = FadeIn(frame) if light is None else ReplacementTransform(light, frame)
            scene.play(move_light, *arrive, run_time=pair_time)
            light = frame
        assert light is not None
        scene.play(
            FadeOut(light),
            FadeIn(self.equals),
            TransformFromCopy(self.products, self.dot),
            run_time=run_time / 2,
        )
        if not divide:
            return
        if means is not None:
            means(self.division)
        rest = [piece for piece in self.division if piece is not self.division.dot]
        scene.play(
            TransformFromCopy(self.dot, self.division.dot),
            FadeIn(VGroup(*rest), shift=RIGHT * 0.2),
            run_time=run_time / 2,
        )
