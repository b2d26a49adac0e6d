"""Projections: each token's embedding becomes its q, k and v, x·W entry by entry, head by head."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    FadeTransform,
    LaggedStart,
    Mobject,
    ReplacementTransform,
    Restore,
    TransformFromCopy,
    VGroup,
)
from numpy.typing import NDArray

from attention_core import Token
from attention_core.worked import MatVec as WorkedProduct
from scenes import style
from scenes.base import LessonScene
from scenes.helpers import column_header, math, token_names
from scenes.layout import HEADING, SAFE
from scenes.toolkit.focus import Focus
from scenes.toolkit.matvec import MatVec, WeightMatrix, factors
from scenes.toolkit.vectors import CELL_GAP, VectorCells, cell_width

__all__ = ["Projections"]

ROOM = SAFE.below(HEADING.bottom)
"""The stage and the lower band as one: the table at the top, the working band under it."""
HEADER_ROOM = 0.35  # the table's column headers' line
MAX_PITCH = 0.6
CELL_SHARE = 0.8  # of a row's pitch, its cells' height
TABLE_GAP = 0.25  # between the table's last row and the working band
INDENT = 0.3  # the working's x, in from the band's left
NAME_WIDTH = 1.3
COLUMN_GAP = 0.45  # between the table's vector columns
LABEL_DROP = 0.4  # from a matrix's label down to its top row
TERMS_ROOM = 0.95  # under the working's matrix: its terms' line
MATRIX_GAP = 0.5
SIGN_ROOM = 0.45  # each of the working's · and = with the gaps either side
DIMMED = 0.7  # how far the rows not being worked fade back
ROLES = ("q", "k", "v")
COLOURS = {"q": style.QUERY, "k": style.KEY, "v": style.VALUE}


class Matrices(VGroup):
    """A head's three matrices, each under its label; ``parts`` holds each matrix by role."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: dict[str, WeightMatrix] = {}


class Projections(LessonScene):
    """Where q, k and v come from: each is the token's embedding times a head's matrix."""

    slug = "projections"
    # set by lay_out(), replaced as the heads change: declared for the methods read before it
    cells: dict[str, list[VectorCells]]
    matrices: Matrices
    head_tag: Mobject

    def construct(self) -> None:
        self.lay_out()
        self.show_embeddings()
        self.show_matrices(0)
        newest = len(self.lesson.tokens) - 1
        self.project_in_full(newest, 0)
        self.project_the_rest(0, skip=newest)
        for h in range(1, len(self.lesson.heads)):
            self.switch_head(h)

    # beats -------------------------------------------------------------------------------

    def show_embeddings(self) -> None:
        """The heading comes in with the tokens and their embeddings."""
        rows = [VGroup(n, x) for n, x in zip(self.names, self.embeddings, strict=True)]
        self.table = VGroup(self.headers["token"], self.headers["x"], *rows)
        # Alone, the table sits in the middle of the room; it rises when the matrices come.
        self.table_drop = max(0.0, self.table.get_y() - ROOM.y)
        self.table.shift(DOWN * self.table_drop)
        caption = self.caption("projections.caption.embeddings")
        self.open_with_heading(
            caption,
            FadeIn(VGroup(self.headers["token"], self.headers["x"])),
            LaggedStart(*(FadeIn(r, shift=RIGHT * 0.2) for r in rows), lag_ratio=0.2),
        )

    def show_matrices(self, h: int) -> None:
        """Head h's three matrices come in along the band, labelled."""
        caption = self.caption(
            "projections.caption.matrices",
            head=self.heads[h].number,
        )
        with self.beat(caption):
            self.play(self.table.animate.shift(UP * self.table_drop), run_time=style.FAST)
            self.play(
                FadeIn(self.matrices, shift=UP * 0.2),
                FadeIn(VGroup(*(self.headers[r] for r in ROLES)), self.head_tag),
            )

    def project_in_full(self, t: int, h: int) -> None:
        """Token t's q worked entry by entry, then its k and v entry by entry, quicker; each
        result travels into its row of the table."""
        token = self.lesson.tokens[t].text
        self.play_dim(t)
        product = self.product(t, h, "q")
        with self.beat(self.caption("projections.caption.token", token=token)):
            product.bring_in(
                self,
                self.matrices.parts["q"],
                TransformFromCopy(self.embeddings[t], product.x),
                run_time=style.SLOW,
            )
        first = product.results[0]
        caption = self.caption("projections.caption.first", entry=first)
        # In close-up, the line x · W = r (its terms' line, gone by the rest, left out of the
        # picture's middle): the matrix's foot stays in the picture's lower third.
        framed = [product.x, product.matrix, product.result]
        with self.beat(caption), Focus(self, product, frame=framed, marked=[]):
            product.show_entry(self, 0, run_time=2 * style.SLOW)
        if len(product.results) > 1:
            caption = self.caption(
                "projections.caption.rest", token=token, query=self.vector(h, t, "q")
            )
            with self.beat(caption):
                for j in range(1, len(product.results)):
                    product.show_entry(self, j, run_time=style.SLOW)
        self.land(product, t, "q")
        for role, name in (("k", "key"), ("v", "value")):
            product = self.product(t, h, role, x=product.x)
            caption = self.caption(f"projections.caption.{name}", **{name: self.vector(h, t, role)})
            with self.beat(caption):
                product.bring_in(self, self.matrices.parts[role], run_time=style.FAST)
                for j in range(len(product.results)):
                    product.show_entry(self, j, run_time=style.NORMAL)
            self.land(product, t, role, last=role == "v")

    def project_the_rest(self, h: int, *, skip: int) -> None:
        """Every other token's q, k and v, each straight from its embedding and the matrix."""
        others = [t for t in range(len(self.lesson.tokens)) if t != skip]
        with self.beat(self.caption("projections.caption.others")):
            self.play(*(Restore(row) for row in self.dimmed), run_time=style.FAST)
            self.play(
                LaggedStart(
                    *(
                        TransformFromCopy(
                            VGroup(self.embeddings[t].entries, self.matrices.parts[r]),
                            self.cells[r][t],
                        )
                        for t in others
                        for r in ROLES
                    ),
                    lag_ratio=0.15,
                ),
                run_time=2 * style.SLOW,
            )

    def switch_head(self, h: int) -> None:
        """Another head: its matrices take the band, its q, k and v the table."""
        matrices = self.head_matrices(h)
        cells = self.head_cells(h)
        tag = self.tag(h)
        caption = self.caption("projections.caption.other_head", head=self.heads[h].number)
        with self.beat(caption):
            self.play(
                FadeTransform(self.matrices, matrices),
                FadeTransform(self.head_tag, tag),
                run_time=style.NORMAL,
            )
            self.play(
                *(
                    FadeTransform(self.cells[r][t], cells[r][t])
                    for r in ROLES
                    for t in range(len(self.lesson.tokens))
                ),
                run_time=style.SLOW,
            )
        self.matrices, self.cells, self.head_tag = matrices, cells, tag

    # moves -------------------------------------------------------------------------------

    def play_dim(self, t: int) -> None:
        """Every row but token t's fades back, so the eye stays on the one being worked."""
        self.dimmed = [
            VGroup(n, x)
            for i, (n, x) in enumerate(zip(self.names, self.embeddings, strict=True))
            if i != t
        ]
        for row in self.dimmed:
            row.save_state()
        self.play(*(row.animate.fade(DIMMED) for row in self.dimmed), run_time=style.FAST)

    def land(self, product: MatVec, t: int, role: str, *, last: bool = False) -> None:
        """The product's result flies into the table; the working clears (x stays for the
        next product, unless this was the last)."""
        result = product.result
        self.remove(result.boxes, *result.entries)  # shown piece by piece; now one vector
        self.add(result)
        self.play(ReplacementTransform(result, self.cells[role][t]), run_time=style.FAST)
        leaving: list[Mobject] = [product.matrix, product.signs]
        if last:
            leaving.append(product.x)
        self.play(*(FadeOut(m) for m in leaving), run_time=style.FAST)

    # layout ------------------------------------------------------------------------------

    def lay_out(self) -> None:
        lesson, w = self.lesson, self.worked
        self.heads = w.heads
        n = len(lesson.tokens)
        widths = [lesson.heads[0].w_q[0], lesson.heads[0].w_k[0], lesson.heads[0].w_v[0]]
        counts = [len(embedding_of(lesson.tokens[0])), *(len(c) for c in widths)]
        texts = [e for t in range(n) for e in self.embedding(t)]
        texts += [
            e
            for h in range(len(self.heads))
            for r in ROLES
            for t in range(n)
            for e in self.entries(h, t, r)
        ]
        natural = cell_width(texts)
        self.headers = {
            "token": column_header(self.say("common.word.token")),
            "x": column_header(self.say("projections.word.embedding")),
            **{r: math(r, colour=COLOURS[r]) for r in ROLES},
        }
        least = [self.headers[c].width + CELL_GAP for c in ("x", *ROLES)]  # a header's room
        room = ROOM.width - NAME_WIDTH - COLUMN_GAP * len(counts)
        self.pitch = min(natural + CELL_GAP, room / sum(counts))
        narrow = [c * self.pitch < h for c, h in zip(counts, least, strict=True)]
        if sum(max(c * self.pitch, h) for c, h in zip(counts, least, strict=True)) > room:
            rest = sum(c for c, n in zip(counts, narrow, strict=True) if not n)
            held = sum(h for h, n in zip(least, narrow, strict=True) if n)
            self.pitch = (room - held) / rest
        columns = [max(c * self.pitch, h) for c, h in zip(counts, least, strict=True)]
        spare = room - sum(columns)  # widens the gaps, up to a cell's width each
        gap = COLUMN_GAP + min(self.pitch, spare / len(counts))
        # The rows and the band's matrix (d_model rows of the same cells) share the room's
        # height, so that the band needs no shrinking to fit under the table.
        d_model = counts[0]
        fixed = HEADER_ROOM + TABLE_GAP + LABEL_DROP + TERMS_ROOM + d_model * CELL_GAP
        self.row_pitch = min(MAX_PITCH, (ROOM.height - fixed) / (n + CELL_SHARE * d_model))
        self.cell_height = self.row_pitch * CELL_SHARE
        self.rows_top = ROOM.top - HEADER_ROOM
        self.band = ROOM.below(self.rows_top - n * self.row_pitch - TABLE_GAP)
        lefts, x = [], ROOM.left + NAME_WIDTH + gap
        for column in columns:
            lefts.append(x)
            x += column + gap
        self.lefts = dict(zip(("x", *ROLES), lefts, strict=True))
        self.peak = max(
            abs(v)
            for t in lesson.tokens
            for v in embedding_of(t)  # every vector shades alike
        )
        self.embeddings = [
            self.cells_at(embedding_of(lesson.tokens[t]), self.embedding(t), style.TEXT, "x", t)
            for t in range(n)
        ]
        self.names = token_names(lesson.tokens, width=NAME_WIDTH, height=self.row_pitch * 0.9)
        for i, name in enumerate(self.names):
            name.move_to((ROOM.left, self.row_y(i), 0), aligned_edge=LEFT)
        header_y = ROOM.top - HEADER_ROOM / 2
        self.headers["token"].move_to((ROOM.left, header_y, 0), aligned_edge=LEFT)
        for part in ("x", *ROLES):
            self.headers[part].move_to((self.lefts[part], header_y, 0), aligned_edge=LEFT)
        self.cells = self.head_cells(0)
        self.band_scale = self.fitting_band(counts)
        # The band's matrices and working, in the middle of the band where it has room left.
        tall = LABEL_DROP + d_model * (self.cell_height + CELL_GAP) * self.band_scale + TERMS_ROOM
        self.band_top = self.band.top - max(0.0, self.band.height - tall) / 2
        self.matrices = self.head_matrices(0)
        self.head_tag = self.tag(0)

    def fitting_band(self, counts: Sequence[int]) -> float:
        """How much the band's matrices and working shrink so that the working (x · W = r)
        and the three matrices fit side by side, and a matrix with its terms' line fits
        in the band."""
        d_model, columns = counts[0], counts[1:]
        gap = len(ROLES) * MATRIX_GAP + 4 * SIGN_ROOM
        wide = (d_model + 2 * max(columns) + sum(columns)) * self.pitch
        tall = d_model * (self.cell_height + CELL_GAP)
        high = self.band.height - LABEL_DROP - TERMS_ROOM
        return min(1.0, (ROOM.width - INDENT - gap) / wide, high / tall)

    def head_cells(self, h: int) -> dict[str, list[VectorCells]]:
        """Head h's q, k and v of every token, each in its place in the table."""
        return {
            r: [
                self.cells_at(self.values(h, t, r), self.entries(h, t, r), COLOURS[r], r, t)
                for t in range(len(self.lesson.tokens))
            ]
            for r in ROLES
        }

    def cells_at(
        self, values: Iterable[float], texts: Sequence[str], colour: str, column: str, row: int
    ) -> VectorCells:
        cells = VectorCells(
            values,
            colour,
            texts=texts,
            width=self.pitch - CELL_GAP,
            height=self.cell_height,
            peak=self.peak_of(column),
        )
        return cells.move_to((self.lefts[column], self.row_y(row), 0), aligned_edge=LEFT)

    def head_matrices(self, h: int) -> Matrices:
        """Head h's W_Q, W_K and W_V along the band's right, each under its label."""
        matrices = Matrices()
        for r in ROLES:
            matrix = self.matrix(h, r)
            label = math(f"W_{r.upper()}", colour=COLOURS[r])
            label.next_to(matrix, UP, buff=LABEL_DROP - label.height)
            matrices.add(VGroup(label, matrix))
            matrices.parts[r] = matrix
        matrices.arrange(RIGHT, buff=MATRIX_GAP, aligned_edge=UP)
        matrices.move_to((ROOM.right, self.band_top, 0), aligned_edge=UP + RIGHT)
        return matrices

    def tag(self, h: int) -> Mobject:
        """``HEAD 1``, left of the labels over its matrices."""
        tag = column_header(self.say("projections.word.head", number=self.heads[h].number))
        first = self.matrices[0][0]  # W_Q's label
        return tag.next_to(first, LEFT, buff=MATRIX_GAP).match_y(first)

    def matrix(self, h: int, role: str) -> WeightMatrix:
        """Head h's matrix for ``role``, at the band's scale."""
        values = getattr(self.lesson.heads[h], f"w_{role}")
        matrix = WeightMatrix(
            values,
            COLOURS[role],
            texts=getattr(self.heads[h], f"w_{role}"),
            width=self.pitch - CELL_GAP,
            height=self.cell_height,
        )
        return matrix.scale(self.band_scale)

    def product(self, t: int, h: int, role: str, *, x: VectorCells | None = None) -> MatVec:
        """x · W for token t in head h, laid out at the band's left."""
        if x is None:
            x = self.cells_at(
                embedding_of(self.lesson.tokens[t]), self.embedding(t), style.TEXT, "x", t
            )
            x.scale(self.band_scale)
            x.move_to((ROOM.left + INDENT, self.band_top - LABEL_DROP, 0), aligned_edge=UP + LEFT)
        matrix = self.matrix(h, role)
        room = self.matrices.get_left()[0] - MATRIX_GAP - x.get_left()[0]
        return MatVec(
            x,
            matrix,
            self.pairs(h, t, role),
            self.entries(h, t, role),
            self.values(h, t, role),
            colour=COLOURS[role],
            width=room,
            peak=self.peak_of(role),
        )

    def row_y(self, row: int) -> float:
        return self.rows_top - self.row_pitch * (row + 0.5)

    def peak_of(self, column: str) -> float:
        """The size that shades fullest in a column: the embeddings', or the role's."""
        if column == "x":
            return self.peak
        return float(
            max(
                abs(v)
                for h in range(len(self.heads))
                for t in range(len(self.lesson.tokens))
                for v in self.values(h, t, column)
            )
        )

    # the worked numbers ------------------------------------------------------------------

    def embedding(self, t: int) -> tuple[str, ...]:
        """Token t's embedding, as shown."""
        return self.heads[0].projections[t].embedding

    def entries(self, h: int, t: int, role: str) -> tuple[str, ...]:
        """Token t's q, k or v in head h, as shown."""
        return self.work(h, t, role).entries

    def pairs(self, h: int, t: int, role: str) -> Sequence[Sequence[tuple[str, str]]]:
        """Each column's terms of x · W: (xᵢ, Wᵢⱼ) as shown."""
        return factors(self.work(h, t, role))

    def values(self, h: int, t: int, role: str) -> NDArray[np.float64]:
        a = self.heads[h].grid.attention
        row: NDArray[np.float64] = {"q": a.queries, "k": a.keys, "v": a.values}[role][t]
        return row

    def vector(self, h: int, t: int, role: str) -> str:
        return self.work(h, t, role).vector

    def work(self, h: int, t: int, role: str) -> WorkedProduct:
        """The worked x · W of token t through head h's matrix for ``role``."""
        product: WorkedProduct = getattr(self.heads[h].projections[t], role)
        return product


def embedding_of(token: Token) -> tuple[float, ...]:
    """A token's embedding: validation gives every token one in a lesson with heads."""
    embedding = token.embedding
    assert embedding is not None
    return embedding
