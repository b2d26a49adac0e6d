"""The worked attention: one query's run over the tokens, or every token asking (the grid), each
pair of a query and a key formatted once, by one rule, as a :class:`Match`.

A run's :class:`Row` and a grid's :class:`Cell` are the same match (the newest token's row of a
grid is the run of its query) with what each place shows beside it. Only
:class:`~attention_core.worked.Worked` builds them: every grid is reached from ``worked()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import formatting as fmt
from .maths import Attention
from .matrix import GridAttention
from .model import Token

__all__ = ["Cell", "Grid", "GridRow", "Match", "Row", "Run", "grid_of", "run_of"]


@dataclass(frozen=True, kw_only=True)
class Match:
    """One query against one key, each number as shown."""

    factors: tuple[str, ...]
    """Each entry of q ⊙ k as a term of the sum: ``4``, ``(-1)``."""
    terms: str
    """The dot product written out: ``2×2 + 0×0 + 1×1 + 1×1``."""
    dot: str
    """q · k, masked or not (the mask acts on the score): ``6``."""
    score: str
    """q · k ÷ √dₖ: ``3``; ``−∞`` where the mask hides the key."""
    pull: str
    """e^score: ``20.09``; ``0`` where hidden."""
    share: str
    """Its share of the query's budget: ``84.4%``; ``0.0%`` where hidden."""
    weight: str
    """The same share as a multiplier: ``0.844``."""
    short_weight: str
    """The same in the compact form of an overview or a heat-map cell: ``.84``."""


@dataclass(frozen=True, kw_only=True)
class Row(Match):
    """One token's line of a run: its match with the query, its key and its value, as shown."""

    of: Token
    """The token itself: its text is read from it when shown (so only then recorded)."""
    key: str
    key_entries: tuple[str, ...]
    """The key's entries, each in its cell: ``2``, ``0``."""
    value: str
    values: tuple[str, ...]
    """The value vector's entries: ``1``, ``0``."""
    scaled: str
    """Its value vector scaled by its weight: ``[0.84, 0.00, 0.00]``."""
    scaled_entries: tuple[str, ...]
    """The same, entry by entry: ``0.84``."""

    @property
    def token(self) -> str:
        """The token's text."""
        return self.of.text

    @property
    def products(self) -> str:
        """The dot product written out, as the score scene writes it:
        ``2×2 + 0×0 + 1×1 + 1×1 = 4 + 0 + 1 + 1``."""
        return f"{self.terms} = {' + '.join(self.factors)}"


@dataclass(frozen=True)
class Run:
    """One query attending over a set of tokens: the numbers, and each as shown."""

    attention: Attention
    rows: tuple[Row, ...]
    scores: str
    """The scores as a vector: ``[3, 1, 0]``."""
    short_weights: str
    """The weights in the overview's compact form: ``[.84, .11, .04]``."""
    total: str
    """The pulls added up: ``23.80``."""
    output: str
    """The blended output: ``[0.84, 0.11, 0.00]``."""
    entries: tuple[str, ...]
    """The output's entries, one per answer: ``0.84``."""
    leaning: tuple[int, ...]
    """The answers the output leans to as the viewer reads it: the top entry's, then any other
    entry shown the same (a tie), highest first (as step 5 names them)."""


@dataclass(frozen=True, kw_only=True)
class Cell(Match):
    """Query i against key j: one cell of the score grid and of the heat map, as shown."""

    hidden: bool
    """Whether the mask hides key j from query i (j > i under the causal mask)."""

    @property
    def products(self) -> str:
        """The dot product written out: ``2×2 + 0×0 + 1×1 + 1×1``."""
        return self.terms


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


def _match(
    query: NDArray[np.float64],
    key: NDArray[np.float64],
    products: NDArray[np.float64],
    dot: float,
    score: float,
    pull: float,
    weight: float,
) -> dict[str, Any]:
    """A :class:`Match`'s fields, each number as shown (a masked score, −∞, and its pull, 0, as
    such), for a :class:`Row` or a :class:`Cell` to be made of."""
    pairs = zip(query, key, strict=True)
    return vars(
        Match(
            factors=tuple(fmt.factor(p) for p in products),
            terms=" + ".join(f"{fmt.factor(q)}×{fmt.factor(k)}" for q, k in pairs),
            dot=fmt.number(dot),
            score=fmt.score(score),
            pull=fmt.grid_pull(pull),
            share=fmt.share(weight),
            weight=fmt.weight(weight),
            short_weight=fmt.short_weight(weight),
        )
    )


def run_of(attention: Attention, tokens: Sequence[Token]) -> Run:
    """Every number of ``attention`` (one query over ``tokens``) as the steps show it."""
    a = attention
    rows = tuple(
        Row(
            **_match(a.query, a.keys[i], a.products[i], a.dots[i], a.scores[i], a.pulls[i], w),
            of=token,
            key=fmt.vector(token.key),
            key_entries=tuple(fmt.number(x) for x in token.key),
            value=fmt.vector(a.values[i]),
            values=tuple(fmt.number(v) for v in a.values[i]),
            scaled=fmt.output(a.weighted_values[i]),
            scaled_entries=tuple(fmt.output_entry(x) for x in a.weighted_values[i]),
        )
        for i, (token, w) in enumerate(zip(tokens, a.weights, strict=True))
    )
    entries = tuple(fmt.output_entry(x) for x in a.output)
    order = sorted(range(len(entries)), key=lambda j: -a.output[j])  # stable: ties keep order
    leaning = tuple(j for j in order if entries[j] == entries[a.winner])
    return Run(
        attention=a,
        rows=rows,
        scores=fmt.vector(a.scores),
        short_weights=fmt.short_weights(a.weights),
        total=fmt.pull(a.total),
        output=fmt.output(a.output),
        entries=entries,
        leaning=leaning,
    )


def grid_of(attention: GridAttention, tokens: Sequence[Token]) -> Grid:
    """Every number of ``attention`` (each of ``tokens`` asking, in order) as the grid shows it,
    row by row."""
    a = attention
    n = len(tokens)
    cells = tuple(
        tuple(
            Cell(
                **_match(
                    a.queries[i],
                    a.keys[j],
                    a.products[i, j],
                    a.dots[i, j],
                    a.scores[i, j],
                    a.pulls[i, j],
                    a.weights[i, j],
                ),
                hidden=bool(a.hidden[i, j]),
            )
            for j in range(n)
        )
        for i in range(n)
    )
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
