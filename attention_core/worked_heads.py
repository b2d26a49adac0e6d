"""The worked heads: each head's projections written out, its attention, and the heads joined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import formatting as fmt
from .heads import HeadAttention
from .matrix import Matrix
from .model import Token
from .worked_attention import Grid, grid_of

__all__ = ["HeadWork", "MatVec", "Projection", "entries", "worked_head"]


@dataclass(frozen=True)
class MatVec:
    """x·W for one token: each output entry as the sum the viewer does by hand, and its result.

    Column c of W gives entry c: x₁·W[1][c] + x₂·W[2][c] + …, read down the column.
    """

    entries: tuple[str, ...]
    """The result, entry by entry: ``0.5``, ``1``."""
    vector: str
    """The result as a vector: ``[0.5, 1]``."""
    pairs: tuple[tuple[str, ...], ...]
    """``pairs[c]``: the products summed for entry c, one per row of W: ``1×0.5``, ``0×1``."""
    terms: tuple[str, ...]
    """``terms[c]``: those products as one sum: ``1×0.5 + 0×1 + (-1)×0``."""


@dataclass(frozen=True)
class Projection:
    """One token's embedding through one head's W_Q, W_K and W_V."""

    of: Token
    """The token itself: its text is read from it when shown (so only then recorded)."""
    embedding: tuple[str, ...]
    """x, entry by entry: ``1``, ``0.5``."""
    q: MatVec
    """x·W_Q."""
    k: MatVec
    """x·W_K."""
    v: MatVec
    """x·W_V."""


@dataclass(frozen=True)
class HeadWork:
    """One head worked out: its matrices, every token's projections, and its attention grid."""

    attention: HeadAttention
    number: str
    """Its number as named on screen, from 1: ``1``."""
    w_q: tuple[tuple[str, ...], ...]
    """W_Q, row by row, each entry as shown."""
    w_k: tuple[tuple[str, ...], ...]
    w_v: tuple[tuple[str, ...], ...]
    projections: tuple[Projection, ...]
    """``projections[t]``: token t's q, k and v in this head."""
    grid: Grid
    """Its attention, the lesson's mask applied."""


def entries(matrix: Matrix) -> tuple[tuple[str, ...], ...]:
    """A matrix's entries as shown, row by row: ``(("1", "0"), ("0.5", "-0.5"))``.

    Parameters
    ----------
    matrix
        Any 2-D array of lesson numbers or of results shown to two places.

    Returns
    -------
    tuple of tuple of str
        Each entry through :func:`attention_core.formatting.number`.
    """
    return tuple(tuple(fmt.number(x) for x in row) for row in matrix)


def worked_head(attention: HeadAttention, place: int, tokens: Sequence[Token]) -> HeadWork:
    """One head's numbers, each formatted once.

    Parameters
    ----------
    attention
        The head's maths (:func:`attention_core.heads.attend_head`).
    place
        Its place in the lesson's ``heads``, from 0.
    tokens
        The lesson's tokens, in order.

    Returns
    -------
    HeadWork
        Its strings.
    """
    a = attention
    embeddings = a.embeddings
    projections = tuple(
        Projection(
            of=token,
            embedding=tuple(fmt.number(x) for x in embeddings[t]),
            q=_matvec(embeddings[t], a.w_q, a.grid.queries[t]),
            k=_matvec(embeddings[t], a.w_k, a.grid.keys[t]),
            v=_matvec(embeddings[t], a.w_v, a.grid.values[t]),
        )
        for t, token in enumerate(tokens)
    )
    return HeadWork(
        attention=a,
        number=fmt.number(place + 1),
        w_q=entries(a.w_q),
        w_k=entries(a.w_k),
        w_v=entries(a.w_v),
        projections=projections,
        grid=grid_of(a.grid, tokens),
    )


def _matvec(x: Matrix, w: Matrix, result: Matrix) -> MatVec:
    pairs = tuple(
        tuple(f"{fmt.factor(xi)}×{fmt.factor(wi)}" for xi, wi in zip(x, column, strict=True))
        for column in w.T
    )
    return MatVec(
        entries=tuple(fmt.number(r) for r in result),
        vector=fmt.vector(result),
        pairs=pairs,
        terms=tuple(" + ".join(column) for column in pairs),
    )
