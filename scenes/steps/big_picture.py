"""Step 2 · The big picture: softmax(QKᵀ/√dₖ)V as three moves, score, normalise, mix."""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    ReplacementTransform,
    RoundedRectangle,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    VMobject,
    Write,
)

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.maths import HEADS_SECTION, MASK_SECTION
from scenes import style
from scenes.base import LessonScene
from scenes.beat import Caption
from scenes.helpers import fit, heading, inline, math, paragraph, text, vector_mob
from scenes.layout import LOWER, STAGE, Region

__all__ = ["Step2BigPicture"]

# The formula in pieces, so that each letter and each move can be coloured and lit on its own.
# Its name is the lesson's word, set in text() beside it.
FORMULA = (
    "(",
    "Q",
    ",",
    "K",
    ",",
    "V",
    ")",
    "=",
    r"\mathrm{softmax}\left(",
    r"\frac{",
    "Q",
    r"K^{\top}",
    r"}{\sqrt{d_k}}",
    r"\right)",
    "V",
)
ROLE_PIECES = {"Q": (1, 10), "K": (3, 11), "V": (5, 14)}
MOVE_PIECES = ((10, 11, 12), (8, 13), (14,))  # score QKᵀ/√dₖ, normalise softmax( ), mix V
# A masked lesson adds the mask to the scores: softmax(QKᵀ/√dₖ + M)V.
MASKED_FORMULA = (*FORMULA[:13], "+", "M", *FORMULA[13:])
MASKED_ROLE_PIECES = {"Q": (1, 10), "K": (3, 11), "V": (5, 16), "M": (14,)}
MASKED_MOVE_PIECES = ((10, 11, 12, 13, 14), (8, 15), (16,))
# A heads lesson: each head's own projections, then the heads joined (Eq. of §3.2.2).
HEAD_FORMULA = (
    r"\mathrm{head}_i",
    "=",
    r"\mathrm{softmax}\left(",
    r"\frac{",
    r"Q W^Q_i",
    r"(K W^K_i)^{\top}",
    r"}{\sqrt{d_k}}",
    r"\right)",
    r"V W^V_i",
)
HEAD_ROLE_PIECES = {"Q": (4,), "K": (5,), "V": (8,)}
HEAD_MOVE_PIECES = ((4, 5, 6), (2, 7), (8,))
MASKED_HEAD_FORMULA = (*HEAD_FORMULA[:7], "+", "M", *HEAD_FORMULA[7:])
MASKED_HEAD_ROLE_PIECES = {"Q": (4,), "K": (5,), "V": (10,), "M": (8,)}
MASKED_HEAD_MOVE_PIECES = ((4, 5, 6, 7, 8), (2, 9), (10,))


def multi_head() -> tuple[str, ...]:
    """MultiHead(Q, K, V) = Concat(head₁, …, head_h)W^O in pieces, as the paper writes it."""
    first = fmt.number(1)
    return (
        r"\mathrm{MultiHead}(Q, K, V)",
        "=",
        rf"\mathrm{{Concat}}(\mathrm{{head}}_{first}, \dots, \mathrm{{head}}_h)",
        "W^O",
    )


@dataclass(frozen=True)
class Formula:
    """The lesson's own formula in pieces: which pieces each role's letter is, and each move."""

    pieces: tuple[str, ...]
    roles: dict[str, tuple[int, ...]]
    moves: tuple[tuple[int, ...], ...]
    named: bool
    """Whether the lesson's word for it (``Attention``) stands in front; a head's is notation."""
    section: str | None = None
    """The paper's section cited for it, when it is not the paper's Eq. 1."""


def formula_for(lesson: Lesson) -> Formula:
    """Day 004's softmax(QKᵀ/√dₖ)V; with the mask, + M inside; with heads, a head's formula."""
    if lesson.heads:
        if lesson.mask:
            return Formula(
                MASKED_HEAD_FORMULA,
                MASKED_HEAD_ROLE_PIECES,
                MASKED_HEAD_MOVE_PIECES,
                False,
                HEADS_SECTION,
            )
        return Formula(HEAD_FORMULA, HEAD_ROLE_PIECES, HEAD_MOVE_PIECES, False, HEADS_SECTION)
    if lesson.mask:
        return Formula(MASKED_FORMULA, MASKED_ROLE_PIECES, MASKED_MOVE_PIECES, True, MASK_SECTION)
    return Formula(FORMULA, ROLE_PIECES, MOVE_PIECES, True)


PAPER_EQUATION = 1  # the formula is Eq. 1 of the paper that introduced the transformer

FORMULA_SIZE = 50
HEADS_LINE = 0.8  # the heads joined, a size under the head's formula it is made of
HEADS_GAP = 0.3
HEADS_SCALE = 0.85
# The formula, risen, hangs from the stage's top; alone at first, it sits in the stage's middle.
# The lower band's foot holds, over each other, the legend tucked away (the footer) and the
# formula's source; the legend's lines, then the move cards, sit between the formula and them.
_, FOOTER, SOURCE = LOWER.rows(2, 1, 1)
BLOCK_GAP = 0.3  # between the formula and the legend or the cards under it
CARD_WIDTH = 4.2
CARD_GAP = 0.25
CARD_PAD = 0.24
TITLE_GAP = 0.2  # card title to its meaning
GLYPH_GAP = 0.3  # meaning to the move in symbols
GLYPH_SIZE = 36
LEGEND_PITCH = 0.9
MASK_PITCH = 0.75  # four lines (the mask's too, or under a head's two lines of formula)
DIM = 0.25  # opacity of the formula's other pieces while one move is lit


@dataclass(frozen=True)
class Role:
    """One of the three matrices: its letter, its colour, and the name of its words."""

    letter: str
    name: str
    colour: str


ROLES = (
    Role("Q", "query", style.QUERY),
    Role("K", "key", style.KEY),
    Role("V", "value", style.VALUE),
)
MASK = Role("M", "mask", style.RIVAL)
MOVES = ("score", "normalise", "mix")


class Step2BigPicture(LessonScene):
    """The whole formula, softmax(QKᵀ/√dₖ)V, read as three moves: score, normalise, mix."""

    step = 2
    slug = "big_picture"
    move = None

    def construct(self) -> None:
        self.shape = formula_for(self.lesson)
        self.roles = (*ROLES, MASK) if self.lesson.mask else ROLES
        self.show_formula()
        if self.lesson.heads:
            self.explain_heads()
        for role in self.roles:
            self.explain_role(role)
        self.tuck_legend_away()
        self.light_score()
        self.light_normalise()
        self.light_mix()
        self.sum_up()

    # beats -------------------------------------------------------------------------------

    def show_formula(self) -> None:
        shape = self.shape
        self.formula = math(*shape.pieces, size=FORMULA_SIZE)
        for role in self.roles:
            for piece in shape.roles[role.letter]:
                self.formula[piece].set_color(role.colour)
        if shape.named:
            self.formula_name = text(self.say("big_picture.word.attention"), size=FORMULA_SIZE)
            whole = inline(self.formula_name, self.formula, buff=0.06)
        else:  # a head's formula under the heads joined: MultiHead(Q, K, V) = Concat(…)W^O
            self.formula_name = math(*multi_head(), size=FORMULA_SIZE * HEADS_LINE)
            whole = VGroup(self.formula_name, self.formula).arrange(DOWN, buff=HEADS_GAP)
            whole.scale(HEADS_SCALE)
        STAGE.place(fit(whole, CARD_WIDTH * 3), UP)
        self.formula_block = VGroup(whole)
        # Under the formula: the room the legend takes (over the citation), then the cards (over
        # the legend tucked away, which in a heads lesson takes the citation's row as it goes).
        top = whole.get_bottom()[1] - BLOCK_GAP
        self.foot = SOURCE if self.lesson.heads else FOOTER
        self.legend_room = Region(STAGE.left, SOURCE.top, STAGE.right, top)
        self.cards_room = Region(STAGE.left, self.foot.top, STAGE.right, top)
        # Where the formula is said, at the foot of the frame.
        citation = formula_source(self.lesson, self.shape)
        if citation is not None:
            source = text(citation, size=style.SMALL_SIZE, colour=style.MUTED)
            SOURCE.place(fit(source, CARD_WIDTH * 3))
            self.formula_block.add(source)
        self.rise = max(0.0, whole.get_y() - STAGE.y)  # alone, mid-stage; it rises for the legend
        whole.shift(DOWN * self.rise)
        first = "formula_heads" if self.lesson.heads else "formula"
        with self.beat(self.caption(f"big_picture.caption.{first}")):
            self.play(
                FadeIn(heading(self.kicker, self.title), shift=DOWN * 0.2),
                Write(whole),
                run_time=style.SLOW,
            )
            if len(self.formula_block) > 1:
                self.play(FadeIn(self.formula_block[1]))

    def explain_heads(self) -> None:
        """Several heads: the line of heads joined is lit, then each head's formula."""
        with self.beat(self.caption("big_picture.caption.heads")):
            self.play(
                self.formula_block[0].animate.shift(UP * self.rise),
                run_time=style.FAST,
            )
            self.play(Indicate(self.formula_name, color=style.TEXT, scale_factor=1.1))
            self.play(Indicate(self.formula, color=style.TEXT, scale_factor=1.1))

    def explain_role(self, role: Role) -> None:
        if not hasattr(self, "legend"):
            self.legend = self.legend_lines()
        index = self.roles.index(role)
        letter, words = self.legend[index]
        pieces = [self.formula[i] for i in self.shape.roles[role.letter]]
        with self.beat(self.caption(f"big_picture.caption.{role.name}")):
            if role is self.roles[0] and not self.lesson.heads:  # room for the legend
                self.play(
                    self.formula_block[0].animate.shift(UP * self.rise),
                    run_time=style.FAST,
                )
            self.play(*(Indicate(p, color=role.colour, scale_factor=1.3) for p in pieces))
            self.play(
                TransformFromCopy(pieces[0], letter),
                FadeIn(words, shift=RIGHT * 0.2),
                run_time=style.NORMAL,
            )

    def tuck_legend_away(self) -> None:
        footer = VGroup()
        for role in self.roles:
            footer.add(
                VGroup(
                    math(role.letter, size=style.MATH_SIZE * 0.8, colour=role.colour),
                    text(
                        self.say(f"big_picture.word.{role.name}"),
                        size=style.SMALL_SIZE,
                        colour=role.colour,
                    ),
                ).arrange(RIGHT, buff=0.15)
            )
        self.foot.place(self.foot.fit(footer.arrange(RIGHT, buff=0.7)))
        # In a heads lesson the citation, read by now, goes as the legend is tucked away.
        leaving = (
            [FadeOut(self.formula_block[1])]
            if self.lesson.heads and len(self.formula_block) > 1
            else []
        )
        self.cards = self.move_cards()
        with self.beat(self.caption("big_picture.caption.moves")):
            self.play(
                *(
                    ReplacementTransform(old[0], new[0])
                    for old, new in zip(self.legend, footer, strict=True)
                ),
                *(FadeOut(old[1], shift=DOWN * 0.3) for old in self.legend),
                *(FadeIn(new[1], shift=DOWN * 0.3) for new in footer),
                *leaving,
                run_time=style.NORMAL,
            )
            moves = [VGroup(*(self.formula[i] for i in pieces)) for pieces in self.shape.moves]
            self.play(
                LaggedStart(
                    *(Circumscribe(move, color=style.TEXT, buff=0.1) for move in moves),
                    lag_ratio=0.6,
                ),
                run_time=style.SLOW * 2,
            )

    def light_score(self) -> None:
        self.light(0, self.shape.moves[0], self.caption("big_picture.caption.score"))

    def light_normalise(self) -> None:
        run = self.worked.before
        caption = self.caption(
            "big_picture.caption.normalise", scores=run.scores, weights=run.short_weights
        )
        self.light(1, self.shape.moves[1], caption)

    def light_mix(self) -> None:
        self.light(2, self.shape.moves[2], self.caption("big_picture.caption.mix"))

    def sum_up(self) -> None:
        # The steps after it do one move each (Day 004), or all three for every token at once.
        one_by_one = {"score", "softmax", "mix"} <= set(self.lesson.steps)
        name = "sum_up" if one_by_one else "sum_up_all"
        with self.beat(self.caption(f"big_picture.caption.{name}")):
            self.play(
                FadeOut(self.box),
                self.formula.animate.set_opacity(1),
                self.formula_name.animate.set_opacity(1),
                self.cards[-1][0].animate.set_stroke(style.MUTED),
                run_time=style.NORMAL,
            )
            self.play(
                LaggedStart(
                    *(Indicate(card[1], color=style.TEXT, scale_factor=1.1) for card in self.cards),
                    lag_ratio=0.3,
                )
            )

    # the three moves -----------------------------------------------------------------------

    def light(self, move: int, pieces: tuple[int, ...], caption: Caption) -> None:
        """Box one move's pieces of the formula, dim the rest, and bring in its card."""
        lit = VGroup(*(self.formula[i] for i in pieces))
        box = SurroundingRectangle(lit, color=style.TEXT, buff=0.1, corner_radius=0.1)
        dims = [
            part.animate.set_opacity(1 if i in pieces else DIM)
            for i, part in enumerate(self.formula)
        ]
        dims.append(self.formula_name.animate.set_opacity(DIM))
        card = self.cards[move]
        with self.beat(caption):
            if move == 0:
                self.play(*dims, FadeIn(box), run_time=style.NORMAL)
            else:
                previous = self.cards[move - 1][0]
                self.play(
                    *dims,
                    ReplacementTransform(self.box, box),
                    previous.animate.set_stroke(style.MUTED),
                    run_time=style.NORMAL,
                )
            self.box = box
            self.play(FadeIn(card[0]), FadeIn(card[1], shift=DOWN * 0.15), run_time=style.FAST)
            self.play(FadeIn(card[2], shift=UP * 0.15), run_time=style.NORMAL)
            self.play(Write(card[3]), run_time=style.NORMAL)

    # layout ------------------------------------------------------------------------------

    def legend_lines(self) -> VGroup:
        """Q, K and V each with what it holds, in its colour, as a block under the formula."""
        # Four lines (the mask's too), or a head's under its two lines of formula, sit closer.
        pitch = LEGEND_PITCH
        if self.lesson.heads or len(self.roles) > len(ROLES):
            pitch = MASK_PITCH
        lines = VGroup()
        for role in self.roles:
            letter = math(role.letter, size=style.MATH_SIZE, colour=role.colour)
            words = text(
                self.say(f"big_picture.line.{role.name}"), size=style.BODY_SIZE, colour=role.colour
            )
            lines.add(VGroup(letter, words).arrange(RIGHT, buff=0.35))
        for i, line in enumerate(lines):
            line.move_to(DOWN * i * pitch, aligned_edge=LEFT)
        for line in lines:
            line[1].align_to(lines[0][1], LEFT)
        return self.legend_room.place(self.legend_room.fit(lines))

    def move_cards(self) -> list[VGroup]:
        """One card per move: frame, name, meaning, and the move in symbols."""
        q_dot_k = math("q", r"\cdot", "k", r"\div", r"\sqrt{d_k}", size=GLYPH_SIZE)
        q_dot_k[0].set_color(style.QUERY)
        q_dot_k[2].set_color(style.KEY)
        mix = math(r"\textstyle\sum_i", "w_i", r"\cdot", "v_i", size=GLYPH_SIZE)
        mix[3].set_color(style.VALUE)
        glyphs: list[VMobject] = [q_dot_k, self.mini_example(), mix]
        inner = CARD_WIDTH - 2 * CARD_PAD
        cards = []
        for number, (move, glyph) in enumerate(zip(MOVES, glyphs, strict=True), 1):
            name = self.say(f"big_picture.word.{move}", number=fmt.number(number))
            # A long name (in another language) steps down to the small size rather than shrink.
            title = text(name, size=style.BODY_SIZE, bold=True)
            if title.width > inner:
                title = fit(text(name, size=style.SMALL_SIZE, bold=True), inner)
            meaning = self.say(f"big_picture.line.{move}")
            words = paragraph(meaning, inner, size=style.SMALL_SIZE, colour=style.MUTED)
            fit(glyph, inner)
            cards.append(VGroup(title, words, glyph))
        glyph_height = max(card[2].height for card in cards)
        words_height = max(card[1].height for card in cards)
        height = (
            2 * CARD_PAD + cards[0][0].height + TITLE_GAP + words_height + GLYPH_GAP + glyph_height
        )
        left = -(3 * CARD_WIDTH + 2 * CARD_GAP) / 2
        framed = []
        for i, (title, words, glyph) in enumerate(cards):
            frame = RoundedRectangle(
                width=CARD_WIDTH,
                height=height,
                corner_radius=0.15,
                stroke_color=style.TEXT,
                stroke_width=2,
                fill_color=style.TEXT,
                fill_opacity=0.04,
            )
            frame.move_to([left + i * (CARD_WIDTH + CARD_GAP) + CARD_WIDTH / 2, 0, 0])
            title.move_to(
                frame.get_corner(UP + LEFT) + [CARD_PAD, -CARD_PAD, 0], aligned_edge=UP + LEFT
            )
            words.next_to(title, DOWN, buff=TITLE_GAP, aligned_edge=LEFT)
            glyph_centre = frame.get_bottom()[1] + CARD_PAD + glyph_height / 2
            glyph.move_to([frame.get_x(), glyph_centre, 0])
            framed.append(VGroup(frame, title, words, glyph))
        self.cards_room.place(self.cards_room.fit(VGroup(*framed)))  # the three, moved as one
        return framed

    def mini_example(self) -> VGroup:
        """Scores → weights, each entry in its token's colour, on one line if it fits."""
        rows = self.worked.before.rows
        colours = [style.token_colour(i) for i in range(len(rows))]
        before = vector_mob([r.score for r in rows], style.TEXT, size=GLYPH_SIZE)
        after = vector_mob([r.short_weight for r in rows], style.TEXT, size=GLYPH_SIZE)
        for vector in (before, after):
            for entry, colour in zip(vector.entries, colours, strict=True):
                entry.set_color(colour)
        arrow = math(r"\rightarrow", size=GLYPH_SIZE, colour=style.MUTED)
        example = VGroup(before, arrow, after).arrange(RIGHT, buff=0.2)
        if example.width > CARD_WIDTH - 2 * CARD_PAD:
            example = VGroup(before, VGroup(arrow, after).arrange(RIGHT, buff=0.2))
            example.arrange(DOWN, buff=0.15)
        return example


def formula_source(lesson: Lesson, shape: Formula | None = None) -> str | None:
    """Where the formula comes from, worded by the lesson's own reference to the paper: its
    Eq. 1, or the section that adds the mask or the heads."""
    words = lesson.words
    for reference in lesson.references:
        if words["big_picture.line.paper"] in reference.text:
            if shape is not None and shape.section is not None:
                return words.say(
                    "big_picture.line.section", reference=reference.text, section=shape.section
                )
            equation = fmt.number(PAPER_EQUATION)
            return words.say("big_picture.line.source", reference=reference.text, equation=equation)
    return None
