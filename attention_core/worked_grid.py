"""The worked attention matrix: every token asking, each cell's numbers as the grid shows them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import formatting as fmt
from .matrix import GridAttention
from .model import Token

__all__ = ["Cell", "Grid", "GridRow", "worked_grid"]


@dataclass(frozen=True)
class Cell:
    """Query i against key j: one cell of the score grid and of the heat map, as shown."""

    hidden: bool
    """Whether the mask hides key j from query i (j > i under the causal mask)."""
    factors: tuple[str, ...]
    """Each entry of q_i ⊙ k_j as a term of the sum: ``4``, ``(-1)``."""
    products: str
    """The dot product written out: ``2×2 + 0×0 + 1×1 + 1×1``."""
    dot: str
    """q_i · k_j, masked or not (the mask acts on the score): ``6``."""
    score: str
    """q_i · k_j ÷ √dₖ: ``3``; ``−∞`` where hidden."""
    pull: str
    """e^score: ``20.09``; ``0`` where hidden."""
    share: str
    """Its share of row i's budget: ``84.4%``; ``0.0%`` where hidden."""
    weight: str
    """The same share as a multiplier: ``0.844``."""
    short_weight: str
    """The same in the compact form of a heat-map cell: ``.84``."""


@dataclass(frozen=True)
class GridRow:
    """Token i asking: its vectors, its row's total and its output, as shown."""

    of: Token
    """The token itself: its text is read from it when shown (so only then recorded)."""
    query: str
    """Its query as a vector: ``[2, 0, 1, 1]``."""
    query_entries: tuple[str, ...]
    key: str
    key_entries: tuple[str, ...]
    value: str
    values: tuple[str, ...]
    """Its value's entries: ``1``, ``0``."""
    scores: str
    """Its row of scores as a vector: ``[3, 1, −∞]``."""
    short_weights: str
    """Its row of weights in the compact form: ``[.84, .16, .00]``."""
    total: str
    """Its row's pulls added up: ``23.80``."""
    output: str
    """Its output, its row of weights times the values: ``[0.84, 0.11, 0.00]``."""
    output_entries: tuple[str, ...]
    """The output's entries, one per answer: ``0.84``."""

    @property
    def token(self) -> str:
        """The token's text."""
        return self.of.text


@dataclass(frozen=True)
class Grid:
    """softmax(QKᵀ/√dₖ + M)V worked out: the numbers, and each as shown."""

    attention: GridAttention
    cells: tuple[tuple[Cell, ...], ...]
    """``cells[i][j]``: query i (a row) against key j (a column)."""
    rows: tuple[GridRow, ...]
    d_k: str
    root_d_k: str
    """√dₖ, to two places: ``2``, ``1.73``."""
    visible: tuple[str, ...]
    """How many tokens each row sees: ``1``, ``2``, ``3`` under the causal mask."""


def worked_grid(attention: GridAttention, tokens: Sequence[Token]) -> Grid:
    """Every number of ``attention`` as the grid shows it, row by row.

    Parameters
    ----------
    attention
        The maths, one row per token of ``tokens``.
    tokens
        The tokens asking (the rows) and answering (the columns), in order.

    Returns
    -------
    Grid
        The strings, each formatted once.
    """
    a = attention
    n = len(tokens)
    cells = tuple(tuple(_cell(a, i, j) for j in range(n)) for i in range(n))
    rows = tuple(
        GridRow(
            of=token,
            query=fmt.vector(a.queries[i]),
            query_entries=tuple(fmt.number(x) for x in a.queries[i]),
            key=fmt.vector(a.keys[i]),
            key_entries=tuple(fmt.number(x) for x in a.keys[i]),
            value=fmt.vector(a.values[i]),
            values=tuple(fmt.number(x) for x in a.values[i]),
            scores="[" + ", ".join(cell.score for cell in cells[i]) + "]",
            short_weights=fmt.short_weights(a.weights[i]),
            total=fmt.pull(a.totals[i]),
            output=fmt.output(a.outputs[i]),
            output_entries=tuple(fmt.output_entry(x) for x in a.outputs[i]),
        )
        for i, token in enumerate(tokens)
    )
    return Grid(
        attention=a,
        cells=cells,
        rows=rows,
        d_k=fmt.number(a.d_k),
        root_d_k=fmt.number(a.root_d_k),
        visible=tuple(fmt.number(n - int(row.sum())) for row in a.hidden),
    )


def _cell(a: GridAttention, i: int, j: int) -> Cell:
    pairs = zip(a.queries[i], a.keys[j], strict=True)
    return Cell(
        hidden=bool(a.hidden[i, j]),
        factors=tuple(fmt.factor(p) for p in a.products[i, j]),
        products=" + ".join(f"{fmt.factor(q)}×{fmt.factor(k)}" for q, k in pairs),
        dot=fmt.number(a.dots[i, j]),
        score=fmt.score(a.scores[i, j]),
        pull=fmt.grid_pull(a.pulls[i, j]),
        share=fmt.share(a.weights[i, j]),
        weight=fmt.weight(a.weights[i, j]),
        short_weight=fmt.short_weight(a.weights[i, j]),
    )
