"""Builders for cards that fill the frame: tagged blocks, flowing number rows, the three moves."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, LEFT, RIGHT, UP, RoundedRectangle, VGroup, VMobject

from scenes import style
from scenes.helpers import fit, math, text

__all__ = ["flow", "moves_strip", "rows_between", "tag", "tagged"]

TAG_GAP = 0.15  # a block's tag to its body
BOX_PAD = 0.22  # inside a move's box
ARROW_ROOM = 0.6  # between two moves' boxes, for the arrow
NUMBER_GAP = 0.25  # between two numbers of a move's row


def tag(words: str, *, colour: str = style.QUERY) -> VMobject:
    """A block's label: small, bold, in the colour of what it labels."""
    return text(words, size=style.SMALL_SIZE, colour=colour, bold=True)


def tagged(words: str, body: VMobject, *, colour: str = style.QUERY) -> VGroup:
    """A tag over a block, both left-aligned: ``VGroup(tag, body)``."""
    return VGroup(tag(words, colour=colour), body).arrange(DOWN, aligned_edge=LEFT, buff=TAG_GAP)


def flow(items: Sequence[VMobject], width: float, *, gap: float = NUMBER_GAP) -> VGroup:
    """Items left to right, wrapping onto a new row when the next would pass ``width``; each
    row centred. Returns the rows."""
    rows: list[list[VMobject]] = [[]]
    used = 0.0
    for item in items:
        if rows[-1] and used + gap + item.width > width:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0.0) + item.width
        rows[-1].append(item)
    lines = VGroup(*(VGroup(*row).arrange(RIGHT, buff=gap) for row in rows))
    return fit(lines.arrange(DOWN, buff=TAG_GAP), width)


def moves_strip(moves: Sequence[tuple[str, Sequence[VMobject]]], width: float) -> VGroup:
    """The moves side by side, each a box with its name over its numbers, arrows between.

    Each box is as wide as its numbers on one row, the space left shared out evenly; when they
    cannot all have one row, the boxes are equal and the numbers wrap. Returns
    ``VGroup(boxes, arrows)``; each box is ``VGroup(frame, name, numbers)``.
    """
    room = width - ARROW_ROOM * (len(moves) - 1) - 2 * BOX_PAD * len(moves)
    names = [text(name, size=style.BODY_SIZE, bold=True) for name, _ in moves]
    natural = [
        max(name.width, sum(n.width for n in numbers) + NUMBER_GAP * (len(numbers) - 1))
        for name, (_, numbers) in zip(names, moves, strict=True)
    ]
    spare = room - sum(natural)
    if spare >= 0:
        inners = [w + spare / len(moves) for w in natural]
    else:
        inners = [room / len(moves)] * len(moves)
    contents = [
        (fit(name, inner), flow(numbers, inner))
        for name, (_, numbers), inner in zip(names, moves, inners, strict=True)
    ]
    height = max(n.height + TAG_GAP + v.height for n, v in contents) + 2 * BOX_PAD
    boxes = VGroup()
    left = -width / 2
    for inner, (name, numbers) in zip(inners, contents, strict=True):
        frame = RoundedRectangle(
            width=inner + 2 * BOX_PAD,
            height=height,
            corner_radius=0.15,
            stroke_color=style.MUTED,
            stroke_width=2,
            fill_color=style.TEXT,
            fill_opacity=0.04,
        )
        frame.move_to((left + frame.width / 2, 0, 0))
        left += frame.width + ARROW_ROOM
        name.move_to(frame.get_top() + DOWN * (BOX_PAD + name.height / 2))
        numbers.next_to(name, DOWN, buff=TAG_GAP)
        boxes.add(VGroup(frame, name, numbers))
    arrows = VGroup(
        *(
            math(r"\rightarrow", colour=style.MUTED).move_to(
                (before[0].get_right() + after[0].get_left()) / 2
            )
            for before, after in zip(boxes, boxes[1:], strict=False)
        )
    )
    return VGroup(boxes, arrows)


def rows_between(rows: Sequence[VMobject], top: float, bottom: float) -> VGroup:
    """Rows stacked from ``top`` down to ``bottom``, the space left over shared out evenly
    between them; shrunk (never below what fits) when they are taller than the space."""
    total = sum(row.height for row in rows)
    if total > top - bottom:
        for row in rows:
            row.scale((top - bottom) / total)
        total = top - bottom
    gap = (top - bottom - total) / (len(rows) - 1) if len(rows) > 1 else 0.0
    y = top
    for row in rows:
        row.shift(UP * (y - row.get_top()[1]))
        y -= row.height + gap
    return VGroup(*rows)
