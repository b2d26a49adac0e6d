"""Reusable visual builders: text in the house type, vectors, headings, bars and tables; the
quick check's options, and their reveal."""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    LaggedStart,
    MathTex,
    Mobject,
    Rectangle,
    RoundedRectangle,
    Scene,
    Text,
    VGroup,
    VMobject,
    Write,
)

from attention_core import Token
from attention_core.meaning import Meaning, meaning
from scenes import layout, style
from scenes.manim_internals import SetText
from scenes.toolkit.figures import Figure
from scenes.typeset import made

__all__ = [
    "balanced_paragraph",
    "bar_meaning",
    "baseline",
    "budget_bar",
    "column_header",
    "fit",
    "heading",
    "inline",
    "labelled",
    "level_with",
    "math",
    "meaning_of",
    "with_meaning",
    "option_cards",
    "paragraph",
    "power",
    "reveal_choice",
    "sentence",
    "text",
    "token_names",
    "vector_mob",
    "whole",
]

M = TypeVar("M", bound=Mobject)  # what fit() or made() is given, it gives back


def text(
    content: str, *, size: float = style.BODY_SIZE, colour: str = style.TEXT, bold: bool = False
) -> Text:
    """Prose in the house sans-serif. Lesson text goes here, never into LaTeX; right-to-left
    text is laid out so that it is drawn whole (:class:`scenes.manim_internals.SetText`)."""
    weight = "BOLD" if bold else "NORMAL"
    return made(SetText, content, font=style.FONT, font_size=size, color=colour, weight=weight)


def math(*tex: str, size: float = style.MATH_SIZE, colour: str = style.TEXT) -> MathTex:
    """A formula typeset by LaTeX; pass pieces separately to colour or move them one by one."""
    return made(MathTex, *tex, font_size=size, color=colour)


class VectorMob(MathTex):
    """A row vector ``[2, 0, 1, 1]`` typeset as one formula whose entries can be picked out."""

    def __init__(self, entries: Sequence[str], colour: str, *, size: float = style.MATH_SIZE):
        pieces = ["["]
        for entry in entries:
            pieces += [entry, ","]
        pieces[-1] = "]"
        super().__init__(*pieces, font_size=size, color=colour)

    @property
    def entries(self) -> VGroup:
        """The entries alone, in order, without brackets or commas."""
        return VGroup(*self[1::2])


def vector_mob(entries: Sequence[str], colour: str, *, size: float = style.MATH_SIZE) -> VectorMob:
    """A row vector in the colour of its role."""
    return made(VectorMob, tuple(entries), colour, size=size)


def heading(kicker: str, title: str) -> VGroup:
    """The step's label and headline, in the heading band (:data:`scenes.layout.HEADING`)."""
    group = VGroup(
        text(kicker, size=style.SMALL_SIZE, colour=style.MUTED, bold=True),
        text(title, size=style.HEADING_SIZE, bold=True),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
    return layout.HEADING.place(layout.HEADING.fit(group), UP + LEFT)


def column_header(content: str, *, colour: str = style.MUTED) -> Text:
    """A table column's header: small and bold, muted unless the column has a role's colour."""
    return text(content, size=style.SMALL_SIZE, colour=colour, bold=True)


def fit(mob: M, width: float, height: float | None = None) -> M:
    """Shrink a mobject to fit a box, never enlarging it."""
    factor = min(1.0, width / max(mob.width, 1e-6))
    if height is not None:
        factor = min(factor, height / max(mob.height, 1e-6))
    return mob.scale(factor)


def budget_bar(
    weights: Iterable[float], colours: Sequence[str], *, width: float, height: float = 0.5
) -> VGroup:
    """One bar split into slices proportional to the weights: the 100% attention budget."""
    slices = VGroup(
        *(
            Rectangle(
                width=max(width * float(w), 1e-3),
                height=height,
                stroke_width=0,
                fill_color=colour,
                fill_opacity=1,
            )
            for w, colour in zip(weights, colours, strict=True)
        )
    ).arrange(RIGHT, buff=0)
    return slices


# Latin, Greek and Cyrillic letters that hang below the baseline.
_DESCENDERS = set("gjpqyQβγζημξρςφχψдруфцщ")


def baseline(line: Text) -> float:
    """The y of a line of text's baseline: where letters without a descender sit."""
    bottoms = [
        glyph.get_bottom()[1]
        for char, glyph in zip(line.text, line.submobjects, strict=False)
        if char.isalnum() and char not in _DESCENDERS
    ]
    return float(np.median(bottoms)) if bottoms else float(line.get_bottom()[1])


def level_with(line: Mobject, number: Mobject) -> Mobject:
    """Move a line of text up or down to sit on a number's baseline, descenders or not; a name
    broken over two lines (not one ``Text``) keeps its place."""
    if isinstance(line, Text):
        line.shift(UP * (number.get_bottom()[1] - baseline(line)))
    return line


def paragraph(
    content: str,
    width: float,
    *,
    size: float = style.SMALL_SIZE,
    colour: str = style.TEXT,
    bold: bool = False,
    centred: bool = False,
) -> VGroup:
    """Prose wrapped to a width: one text() per line, on evenly spaced baselines."""
    words = content.split()
    lines = [words[0]]
    for word in words[1:]:
        trial = f"{lines[-1]} {word}"
        if text(trial, size=size, bold=bold).width <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    texts = [text(line, size=size, colour=colour, bold=bold) for line in lines]
    group = whole(VGroup(*texts), content)
    pitch = size * PARAGRAPH_PITCH
    for i, line in enumerate(texts):
        line.shift(UP * (-i * pitch - baseline(line)))
        if not centred:
            line.align_to(group[0], LEFT)
    return fit(group, width)


def meaning_of(meant: Meaning, *parts: VMobject | None) -> VGroup:
    """``parts`` (None: a label with no room, left out) grouped as one thing that means
    ``meant``: not to be shown, but for a scene's :meth:`~scenes.base.LessonScene.means`,
    where a scene shows the parts one by one."""
    return with_meaning(VGroup(*(part for part in parts if part is not None)), meant)


def with_meaning(mob: M, meant: Meaning) -> M:
    """``mob``, which shows ``meant``: whoever reads the screen (``scenes.probe``) reads it."""
    vars(mob)["meant"] = meant  # an attribute of ours, which manim's types do not declare
    return mob


def labelled(names: Sequence[str], numbers: Sequence[str]) -> str:
    """Each number beside what it is, as a description lists them: ``river 84.4%; lamp 11.4%``."""
    return "; ".join(f"{name} {number}" for name, number in zip(names, numbers, strict=True))


def bar_meaning(names: Sequence[str], shares: Sequence[str]) -> Meaning:
    """A budget bar as a description says it: each token's share."""
    return meaning("describe.line.bar", slices=labelled(names, shares))


def whole(group: M, content: str) -> M:
    """``group``, the lines of ``content`` laid out, marked as one text: whoever reads the
    screen (``scenes.probe``) reads the paragraph, not a line cut at its end."""
    said = " ".join(content.split())
    for part in group.get_family():  # a piece shown on its own still reads as the whole
        if isinstance(part, Text | MathTex) or part is group:
            vars(part)["whole_text"] = said  # ours, as ``with_meaning``'s
    return group


def _as_read(part: Mobject) -> str:
    """What a piece of a sentence shows: its text, its formula's TeX, or its pieces'."""
    shown = getattr(part, "original_text", None) or getattr(part, "tex_string", None)
    if shown is not None:
        return str(shown)
    return " ".join(filter(None, (_as_read(sub) for sub in part.submobjects)))


PARAGRAPH_PITCH = 0.019
"""Distance between baselines per unit of font size (about 1.4 lines)."""


def option_cards(
    options: Sequence[str], *, width: float, height: float = 0.9, gap: float = 0.3
) -> VGroup:
    """The quick check's options as a row of cards lettered A, B, C…, spanning ``width``.

    Each card is ``VGroup(box, letter, value)``, so a scene can recolour the box or dim a card.
    """
    card_width = (width - gap * (len(options) - 1)) / len(options)
    cards = VGroup()
    for i, content in enumerate(options):
        letter = text(chr(ord("A") + i), size=style.BODY_SIZE, colour=style.QUERY, bold=True)
        value = text(content, size=style.BODY_SIZE)
        value.next_to(letter, RIGHT, buff=0.3)
        value.shift(UP * (baseline(letter) - baseline(value)))
        inner = fit(VGroup(letter, value), card_width - 0.4, height - 0.2)
        box = RoundedRectangle(
            corner_radius=0.12,
            width=card_width,
            height=height,
            stroke_color=style.MUTED,
            stroke_width=2,
        )
        inner.move_to(box)
        cards.add(VGroup(box, letter, value))
    listed = "; ".join(
        f"{card[1].original_text}, {content}" for card, content in zip(cards, options, strict=True)
    )
    for card in cards:  # a scene may show them one by one: each stands for them all
        with_meaning(card, meaning("describe.line.options", options=listed))
    return cards.arrange(RIGHT, buff=gap)


def reveal_choice(scene: Scene, heading: VMobject, cards: VGroup, correct: int) -> None:
    """The quick check answered, in its step's first beat: the heading and the
    :func:`option_cards` come in together (drawn from the first frame, so the cut from the last
    step never lands on an empty one); then the ``correct`` card lights and the others fade."""
    others = [card for i, card in enumerate(cards) if i != correct]
    scene.play(
        FadeIn(heading, shift=DOWN * 0.2),
        LaggedStart(*(Write(c) for c in cards), lag_ratio=0.15),
    )
    scene.play(
        cards[correct][0].animate.set_stroke(style.VALUE, width=4).set_fill(style.VALUE, 0.15),
        *(card.animate.fade(0.7) for card in others),
    )


def token_names(tokens: Sequence[Token], *, width: float, height: float) -> VGroup:
    """Every token's name in its colour for a table column, all at full size: the full texts
    when each fits (on one line, or two when the row is tall enough), else every short name."""
    colours = [style.token_colour(i) for i in range(len(tokens))]
    full = [
        _unshrunk_name(token.text, colour, width, height)
        for token, colour in zip(tokens, colours, strict=True)
    ]
    fitting = [name for name in full if name is not None]
    if len(fitting) == len(full):
        return VGroup(*fitting)
    return VGroup(
        *(
            fit(text(token.short, size=style.SMALL_SIZE, colour=colour), width, height)
            for token, colour in zip(tokens, colours, strict=True)
        )
    )


def _unshrunk_name(content: str, colour: str, width: float, height: float) -> VMobject | None:
    line = text(content, size=style.SMALL_SIZE, colour=colour)
    if line.width <= width and line.height <= height:
        return line
    words = content.split()
    if len(words) > 1 and height >= 2.4 * line.height:
        # Break at the space that leaves the two halves closest in length.
        cut = min(
            range(1, len(words)),
            key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
        )
        halves = (" ".join(words[:cut]), " ".join(words[cut:]))
        two = VGroup(*(text(half, size=style.SMALL_SIZE, colour=colour) for half in halves))
        two.arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        if two.width <= width and two.height <= height:
            return two
    return None


def balanced_paragraph(
    content: str,
    width: float,
    *,
    size: float = style.SMALL_SIZE,
    colour: str = style.TEXT,
    bold: bool = False,
) -> VGroup:
    """Prose in as few lines as fit ``width``, but evened out: no lone word on the last line.

    Words are measured once and lines summed from them, so this stays quick for long texts.
    """
    words = content.split()
    widths = [text(word, size=size, bold=bold).width for word in words]
    space = text("a a", size=size, bold=bold).width - text("aa", size=size, bold=bold).width

    def wrap(limit: float) -> list[list[str]]:
        lines, used = [[words[0]]], widths[0]
        for word, word_width in zip(words[1:], widths[1:], strict=True):
            if used + space + word_width <= limit:
                lines[-1].append(word)
                used += space + word_width
            else:
                lines.append([word])
                used = word_width
        return lines

    count = len(wrap(width))
    low, high = max(widths), width
    for _ in range(20):  # the narrowest width that still needs no more lines
        middle = (low + high) / 2
        if len(wrap(middle)) > count:
            low = middle
        else:
            high = middle
    texts = [text(" ".join(line), size=size, colour=colour, bold=bold) for line in wrap(high)]
    group = whole(VGroup(*texts), content)
    for i, line in enumerate(texts):
        line.shift(UP * (-i * size * PARAGRAPH_PITCH - baseline(line)))
        line.align_to(group[0], LEFT)
    return fit(group, width)


def power(
    base: str, exponent: str, *, size: float = style.MATH_SIZE, colour: str = style.TEXT
) -> VGroup:
    """A symbol raised to a word, such as e to the score: the symbol typeset by LaTeX, the word
    (the lesson's, so never TeX's) in the house type, raised as an exponent."""
    low = math(base, size=size, colour=colour)
    high = text(exponent, size=size * EXPONENT_SCALE, colour=colour)
    high.next_to(low, RIGHT, buff=0.04)
    high.shift(UP * (low.get_bottom()[1] + low.height * EXPONENT_RISE - baseline(high)))
    return VGroup(low, high)


EXPONENT_SCALE = 0.7
EXPONENT_RISE = 0.75  # the exponent's baseline, in heights of the symbol above its baseline


def sentence(
    template: str,
    parts: Mapping[str, VMobject | str],
    *,
    width: float,
    size: float = style.BODY_SIZE,
    colour: str = style.TEXT,
) -> VGroup:
    """A template's words in text() with its ``{named}`` formulas set in their places.

    A part given as a string is words too; the template's order of parts is kept, so a
    translation may put the formulas wherever its grammar wants them. One line when it fits
    ``width`` at style.SMALL_SIZE or more; else words and formulas flow onto as many lines as
    they need. Returns the lines,
    each a group of its pieces in reading order.
    """
    runs: list[VMobject | str] = []
    words = ""  # the run of words since the last formula
    for literal, field, _, _ in string.Formatter().parse(template):
        part = parts[field] if field is not None else ""
        words += literal
        if isinstance(part, str):
            words += part
        else:
            runs += [words, part]
            words = ""
    runs.append(words)
    content = " ".join(run if isinstance(run, str) else _as_read(run) for run in runs)
    line = inline(*_pieces(runs, size, colour))
    if line.width * style.SMALL_SIZE / size <= width:  # the caller may fit() it to ``width``
        return whole(VGroup(line), content)
    items: list[VMobject | str] = []
    for run in runs:
        items += run.split() if isinstance(run, str) else [run]
    space = text("a a", size=size).width - text("aa", size=size).width
    lines: list[list[VMobject | str]] = [[]]
    used = 0.0
    for item in items:
        item_width = text(item, size=size).width if isinstance(item, str) else item.width
        if lines[-1] and used + space + item_width > width:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0.0) + item_width
        lines[-1].append(item)
    rows = VGroup(*(inline(*_pieces(_joined(row), size, colour)) for row in lines))
    for i, row in enumerate(rows):
        row.shift(UP * (-i * size * PARAGRAPH_PITCH - any_baseline(row[0])))
        row.align_to(rows[0], LEFT)
    return fit(whole(rows, content), width)


def _joined(items: Sequence[VMobject | str]) -> list[VMobject | str]:
    """Neighbouring words joined into one run of text."""
    runs: list[VMobject | str] = []
    for item in items:
        if isinstance(item, str) and runs and isinstance(runs[-1], str):
            runs[-1] = f"{runs[-1]} {item}"
        else:
            runs.append(item)
    return runs


def _pieces(runs: Sequence[VMobject | str], size: float, colour: str) -> list[VMobject]:
    return [
        text(run.strip(), size=size, colour=colour) if isinstance(run, str) else run
        for run in runs
        if not isinstance(run, str) or run.strip()
    ]


def inline(*pieces: VMobject, buff: float = 0.18) -> VGroup:
    """Text and formulas on one line, their baselines level.

    A text that starts with punctuation hugs the piece before it, as a comma would.
    """
    line = VGroup(pieces[0])
    for piece in pieces[1:]:
        hug = isinstance(piece, Text) and piece.original_text[:1] in ",.;:"
        piece.next_to(line, RIGHT, buff=0.05 if hug else buff)
        line.add(piece)
    for piece in pieces[1:]:
        piece.shift(UP * (any_baseline(pieces[0]) - any_baseline(piece)))
    return line


def any_baseline(piece: Mobject) -> float:
    """The baseline of a text, a figure, a formula or a group of them (that of its first part)."""
    if isinstance(piece, Figure):
        return piece.baseline
    if isinstance(piece, Text):
        return baseline(piece)
    if isinstance(piece, VGroup) and not isinstance(piece, MathTex) and len(piece):
        return any_baseline(piece[0])
    # A formula's baseline: where most of its glyphs end (digits and most letters sit on it;
    # signs such as = and + float above it, exponents higher still).
    bottoms = Counter(
        round(float(glyph.get_bottom()[1]), 2) for glyph in piece.family_members_with_points()
    )
    most = max(bottoms.values())
    return min(y for y, count in bottoms.items() if count == most)
