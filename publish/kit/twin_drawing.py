"""The twin's tables drawn as the video draws them: SVG cells, bars and budget bars.

:mod:`publish.kit.twin_layout` hands each table of a kind's twin spec here as rows of keyed
numbers; this lays them out once, as geometry that does not depend on the numbers. Each number
is a slot, drawn by its :attr:`~attention_core.twin_spec.Number.look`: a ``cell`` in its role's
colour (a heat map over a grid), a ``bar`` in its token's colour, a ``share`` as a bar and as a
slice of the budget bar beneath. Its text starts empty; ``static/twin.js`` writes it, and shades
the cell, sizes the bar and slices the budget from the number, animating the change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from attention_core.palette import TOKEN_COLOURS
from attention_core.twin_spec import AXES, Number
from publish.kit.templating import macros
from publish.kit.twin_numbers import Key

__all__ = ["Row", "figure"]

ROW = 30  # a row's height, in the drawing's units (CSS pixels at its natural size)
LABEL = 92  # the names' column
CELL = 48  # a cell's width
BAR = 112  # a bar's or a share's width, its number at its end
HEADING = 22  # the headings' row
BUDGET = 16  # a budget bar's height
PAD = 3  # between slots
NAME_FITS = 14  # the most characters of a small heading the names' column holds


@dataclass(frozen=True)
class Row:
    """One row of a table: its name, the place it is the row of (a token's, ``rival``, or ""
    for a row of no token), and its cells: a number (its key and spec) or a text (``—``)."""

    label: str
    place: str
    cells: Sequence[tuple[Key, Number] | str]


def figure(
    caption: str, header: Sequence[str], columns: Sequence[Number], rows: Sequence[Row]
) -> str:
    """A table drawn: ``header`` a heading per column (the first over the names), ``columns``
    the number each column is drawn as (its cells' width and, for a share, a budget bar)."""
    widths = [CELL if number.look == "cell" else BAR for number in columns]
    lefts = [LABEL + sum(widths[:j]) for j in range(len(widths))]
    width = LABEL + sum(widths)
    top = HEADING if any(header[1:]) else 0
    texts: list[tuple[float, float, str, str, str]] = [
        (lefts[j] + widths[j] / 2, top - 7, h, "middle", "heading")
        for j, h in enumerate(header[1:])
        if h
    ]
    if header and header[0]:
        texts.append((2, top - 7, header[0], "start", "heading"))
    swatches: list[tuple[float, float, str]] = []
    slots: list[dict[str, object]] = []
    for i, row in enumerate(rows):
        y = top + i * ROW
        colour = _colour(row.place)
        texts.append((14 if colour else 2, y + ROW / 2 + 5, row.label, "start", "name"))
        if colour:
            swatches.append((6, y + ROW / 2, colour))
        for j, cell in enumerate(row.cells):
            if isinstance(cell, str):
                if cell:  # a place the number has not: "—"
                    texts.append((lefts[j] + widths[j] / 2, y + ROW / 2 + 5, cell, "middle", ""))
                continue
            k, number = cell
            slots.append(_slot(k, number, lefts[j], y, widths[j], colour))
    segments = []
    bottom = top + len(rows) * ROW
    for j, number in enumerate(columns):
        bar = [(c[0], row.place) for row in rows if not isinstance(c := row.cells[j], str)]
        bar = [(k, place) for k, place in bar if place]
        if number.look != "share" or not bar:
            continue
        y = bottom + 6
        if len(header[j + 1]) <= NAME_FITS:  # else the bar stands for its column unnamed
            texts.append((2, y + BUDGET - 3, header[j + 1], "start", "heading"))
        parts = [(_places(k) | {"of": k[0]}, _colour(place)) for k, place in bar]
        segments.append((LABEL, y, width - LABEL, parts))
        bottom = y + BUDGET + 4
    return str(_PARTS.figure(caption, width, bottom + 2, texts, swatches, slots, segments))


def _slot(k: Key, number: Number, x: float, y: float, w: float, colour: str) -> dict[str, object]:
    """One number's slot: its rect's colour (the role's; a bar's or share's the token's; a
    plain cell's the heat of the video's grids) and where its text sits."""
    if number.role:
        fill = number.role
    elif number.look != "cell":
        fill = colour or "plain"
    else:
        fill = "heat"
    text = x + w / 2 if number.look == "cell" else x + w - PAD - 1
    return {
        "x": x + PAD / 2,
        "y": y + 4,
        "w": w - PAD if number.look == "cell" else w - PAD - 46,
        "h": ROW - 8,
        "look": number.look,
        "fill": fill,
        "text": text,
        "anchor": "middle" if number.look == "cell" else "end",
        "baseline": y + ROW / 2 + 5,
        "quantity": k[0],
        "places": _places(k),
    }


def _places(k: Key) -> dict[str, str]:
    return {name: value for name, value in zip(AXES, k[1:], strict=True) if value != ""}


def _colour(place: str) -> str:
    """The class of a token's colour (``t0`` … ``t5``, as
    :func:`attention_core.palette.token_colour` cycles), ``rival``, or "" for no token."""
    if place == "rival":
        return "rival"
    return f"t{int(place) % len(TOKEN_COLOURS)}" if place.isdigit() else ""


_PARTS = macros("twin_parts.html")
