"""Multi-head attention: each head projects the embeddings, attends, and the heads are joined."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .matrix import GridAttention, Matrix, attend_all, project
from .model import Head, Lesson
from .sums import times

__all__ = [
    "HeadAttention",
    "MultiHead",
    "attend_head",
    "attend_heads",
    "embeddings_of",
    "join",
    "mix",
]


@dataclass(frozen=True)
class HeadAttention:
    """One head: the embeddings through its projections, then attention over those."""

    embeddings: Matrix
    """n × d_model, one token per row: what the projections multiply."""
    w_q: Matrix
    """d_model × dₖ."""
    w_k: Matrix
    """d_model × dₖ."""
    w_v: Matrix
    """d_model × d_v."""
    grid: GridAttention
    """Its attention: its queries (x·W_Q), keys (x·W_K) and values (x·W_V), one row per token,
    and the lesson's mask applied."""


@dataclass(frozen=True)
class MultiHead:
    """MultiHead(Q, K, V) = Concat(head₁, …, head_h)·W_O (Vaswani et al. 2017, §3.2.2)."""

    embeddings: Matrix
    """n × d_model, one token per row."""
    heads: tuple[HeadAttention, ...]
    joined: Matrix
    """n × (heads · d_v): each token's outputs of every head, side by side, head 1 first."""
    w_o: Matrix | None
    """(heads · d_v) × d_out, or None when the lesson has none."""
    mixed: Matrix
    """joined · W_O; the joined outputs themselves when the lesson has no W_O."""


def attend_head(embeddings: Matrix, head: Head, mask: str | None) -> HeadAttention:
    """One head's projections of ``embeddings`` and its attention over them.

    Parameters
    ----------
    embeddings
        n × d_model.
    head
        Its learned W_Q, W_K and W_V.
    mask
        The lesson's mask, or None.

    Returns
    -------
    HeadAttention
        Its matrices and its attention.
    """
    w_q, w_k, w_v = (_matrix(w) for w in (head.w_q, head.w_k, head.w_v))
    grid = attend_all(
        project(embeddings, w_q), project(embeddings, w_k), project(embeddings, w_v), mask
    )
    return HeadAttention(embeddings=embeddings, w_q=w_q, w_k=w_k, w_v=w_v, grid=grid)


def attend_heads(lesson: Lesson) -> MultiHead:
    """Every head of ``lesson`` over its tokens' embeddings, joined, then × W_O.

    Parameters
    ----------
    lesson
        A lesson with ``[[heads]]`` (so every token has an embedding).

    Returns
    -------
    MultiHead
        Each head's attention, the joined outputs and the mixed ones.
    """
    if not lesson.heads:
        raise ValueError("heads: missing")
    embeddings = embeddings_of(lesson)
    heads = tuple(attend_head(embeddings, head, lesson.mask) for head in lesson.heads)
    joined = join(heads)
    w_o = _matrix(lesson.w_o) if lesson.w_o is not None else None
    return MultiHead(
        embeddings=embeddings, heads=heads, joined=joined, w_o=w_o, mixed=mix(joined, w_o)
    )


def embeddings_of(lesson: Lesson) -> Matrix:
    """The lesson's embeddings, one token per row (n × d_model)."""
    rows = []
    for i, token in enumerate(lesson.tokens):
        if token.embedding is None:
            raise ValueError(f"tokens[{i}].embedding: missing: the heads project it")
        rows.append(token.embedding)
    return _matrix(rows)


def join(heads: tuple[HeadAttention, ...]) -> Matrix:
    """Concat(head₁, …, head_h): each token's outputs of every head, side by side."""
    joined = np.concatenate([head.grid.outputs for head in heads], axis=1)
    joined.setflags(write=False)
    return joined


def mix(joined: Matrix, w_o: Matrix | None) -> Matrix:
    """The joined outputs × W_O; the joined outputs themselves when there is no W_O."""
    if w_o is None:
        return joined
    mixed = times(joined, w_o)
    mixed.setflags(write=False)
    return mixed


def _matrix(rows: tuple[tuple[float, ...], ...] | list[tuple[float, ...]]) -> Matrix:
    array = np.array(rows, dtype=np.float64)
    array.setflags(write=False)
    return array
