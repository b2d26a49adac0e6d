"""Attention in matrix form: every token asks at once, S = QKᵀ/√dₖ, an optional causal mask."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .exponential import exp_each
from .maths import softmax
from .model import Lesson
from .sums import added, times

__all__ = [
    "MASKS",
    "PROJECTION_PLACES",
    "GridAttention",
    "attend_all",
    "attend_grid",
    "hidden_by",
    "project",
]

Matrix = NDArray[np.float64]
A = TypeVar("A", bound=NDArray[Any])

PROJECTION_PLACES = 2
"""Decimal places of a projection x·W: exact, since an embedding's and a learned matrix's
entries have at most one place each (the lesson's limits), so rounding to two only removes
float noise (0.1 × 0.3 = 0.030000000000000002) and a head's q, k and v are the numbers shown."""

MASKS = ("causal",)
"""The masks a lesson may name: ``causal``, token i sees tokens 0…i only (the decoder's mask,
Vaswani et al. 2017, §3.2.3). Each leaves every row at least its own token, so every row of
weights still adds up to the whole budget."""


@dataclass(frozen=True)
class GridAttention:
    """Every token's query attending over every token's key, with every intermediate quantity.

    Row i is token i asking; column j is token j answering.
    """

    queries: Matrix
    """n × dₖ, one query per row."""
    keys: Matrix
    """n × dₖ, one key per row."""
    values: Matrix
    """n × d_v, one value per row."""
    products: Matrix
    """n × n × dₖ: the element-wise products q_i ⊙ k_j behind each dot product."""
    dots: Matrix
    """n × n: QKᵀ, every query against every key."""
    d_k: int
    root_d_k: float
    scores: Matrix
    """n × n: QKᵀ/√dₖ, and −∞ where the mask hides a key."""
    hidden: NDArray[np.bool_]
    """n × n: True where the mask hides key j from query i."""
    pulls: Matrix
    """n × n: e^score, 0 where hidden (e^−∞ = 0)."""
    totals: Matrix
    """n: each row's pulls added up."""
    weights: Matrix
    """n × n: the row-wise softmax, each row adding up to 1, 0 where hidden."""
    outputs: Matrix
    """n × d_v: AV, each token's blend of the values it sees."""


def hidden_by(mask: str | None, n: int) -> NDArray[np.bool_]:
    """Where ``mask`` hides key j from query i (True), for n tokens.

    Parameters
    ----------
    mask
        One of :data:`MASKS`, or None for no mask.
    n
        The number of tokens.

    Returns
    -------
    numpy.ndarray
        n × n booleans; all False without a mask, above the diagonal for ``causal``.
    """
    if mask is None:
        return _frozen(np.zeros((n, n), dtype=np.bool_))
    if mask == "causal":
        return _frozen(np.triu(np.ones((n, n), dtype=np.bool_), k=1))
    raise ValueError(f"unknown mask {mask!r} (known: {', '.join(MASKS)})")


def attend_all(
    queries: ArrayLike, keys: ArrayLike, values: ArrayLike, mask: str | None = None
) -> GridAttention:
    """softmax(QKᵀ/√dₖ + M)V, with every intermediate quantity.

    Parameters
    ----------
    queries, keys
        n × dₖ: one row per token.
    values
        n × d_v: one row per token.
    mask
        One of :data:`MASKS`, or None: M is −∞ where the mask hides a key, else 0.

    Returns
    -------
    GridAttention
        Read-only arrays, one row per asking token.
    """
    q = np.array(queries, dtype=np.float64)
    k = np.array(keys, dtype=np.float64)
    v = np.array(values, dtype=np.float64)
    n, d_k = q.shape
    hidden = hidden_by(mask, n)
    products = q[:, None, :] * k[None, :, :]
    dots = added(products)
    root_d_k = math.sqrt(d_k)
    scores = np.where(hidden, -np.inf, dots / root_d_k)
    pulls = exp_each(scores)  # e^−∞ is exactly 0; validation keeps every score within ±12
    weights = softmax(scores)  # the one query's softmax, row by row: the same digits
    return GridAttention(
        queries=_frozen(q),
        keys=_frozen(k),
        values=_frozen(v),
        products=_frozen(products),
        dots=_frozen(dots),
        d_k=d_k,
        root_d_k=root_d_k,
        scores=_frozen(scores),
        hidden=hidden,
        pulls=_frozen(pulls),
        totals=_frozen(added(pulls)),
        weights=weights,
        outputs=_frozen(times(weights, v)),
    )


def attend_grid(lesson: Lesson, *, masked: bool = True) -> GridAttention:
    """Every token of ``lesson`` asking with its own query (head 1's, in a heads lesson).

    Parameters
    ----------
    lesson
        A lesson whose tokens have their own queries (:attr:`Lesson.asks`).
    masked
        Whether to apply the lesson's mask (its ``mask``; False: the open grid).

    Returns
    -------
    GridAttention
        The lesson's attention matrix and everything behind it.
    """
    queries = []
    for i, token in enumerate(lesson.tokens):
        if token.query is None:
            raise ValueError(f"tokens[{i}].query: missing: every token must ask")
        queries.append(token.query)
    keys = [token.key for token in lesson.tokens]
    values = [token.value for token in lesson.tokens]
    return attend_all(queries, keys, values, lesson.mask if masked else None)


def project(x: ArrayLike, w: ArrayLike) -> Matrix:
    """x·W: each row of x (an embedding) through a head's W_Q, W_K or W_V.

    Parameters
    ----------
    x
        n × d_model embeddings (or one, d_model), entries with at most one decimal place.
    w
        d_model × d, entries with at most one decimal place.

    Returns
    -------
    numpy.ndarray
        n × d (or d), read-only, rounded to :data:`PROJECTION_PLACES` (exact for such inputs).
    """
    product = times(x, w)
    return _frozen(np.round(product, PROJECTION_PLACES) + 0.0)  # + 0.0: no -0.0


def _frozen(array: A) -> A:
    array.setflags(write=False)
    return array
