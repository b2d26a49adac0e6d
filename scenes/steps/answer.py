"""Step 7 · The answer: one rival outpulls a crowd of fillers; the lesson closes on one card."""

from __future__ import annotations

import math as pymath
from collections.abc import Sequence
from typing import Any

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Code,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Mobject,
    MoveToTarget,
    Rectangle,
    Text,
    Transform,
    VGroup,
    Wait,
    Write,
    linear,
)

from attention_core import Lesson, QuizAnswer, Reference, ShareQuiz, Words
from attention_core import formatting as fmt
from attention_core.meaning import meaning
from scenes import style
from scenes.base import LessonScene
from scenes.cards import moves_strip, rows_between, tag, tagged
from scenes.helpers import (
    balanced_paragraph,
    fit,
    heading,
    inline,
    labelled,
    math,
    option_cards,
    power,
    reveal_choice,
    sentence,
    text,
    with_meaning,
)
from scenes.layout import LOWER, SAFE, STAGE
from scenes.share_answer import BODY, OPTION_GAP, ShareAnswer, ask, to_row
from scenes.toolkit.focus import Focus, framing

__all__ = ["Step7Answer"]

WIDTH = SAFE.width
LABEL_SHARE = 0.18  # the bars start this share of the way across at the earliest, right of labels
LABEL_GAP = 0.2  # at least this between a bar's label and the bar
INLINE_GAP = 0.18  # between the pieces of a line of text and formulas, as inline() sets them
CROWD_END_ROOM = 0.3  # room right of the bars for the dashed end mark
ROW_HEIGHT = 0.9  # the tallest either bar may be
ROW_GAP = 0.3
MAX_CELL = 0.7  # a filler square is never bigger than this
MAX_CELLS = 1000  # beyond this many fillers the crowd is drawn as one block
CODE_SIZE = 30
CARD_GAP = 0.4  # between the card's columns
CARD_ROW_GAP = 0.35  # at most this between the card's rows, the room left over in its middle
SQUEEZE = 0.95  # a reference this much smaller than the width stays on one line, shrunk to fit
CARD_HOLD = 4.0  # the finished card stays this much longer than its caption needs: pause here
WORKING, BONUS = LOWER.rows(1, 1)
"""The lower band's two lines: the pull's working, which the bars above it then show, and the
bonus under it."""


class Step7Answer(ShareAnswer, LessonScene):
    """Step 7 · The answer: one rival outpulls a crowd of fillers (or, where every token asks,
    one token's share of another's attention); takeaway and references."""

    step = 7
    slug = "answer"
    move = None

    @classmethod
    def headline(cls, lesson: Lesson) -> str:
        quiz = lesson.quiz
        if isinstance(quiz, ShareQuiz):
            tokens = lesson.tokens
            return lesson.words.say(
                "answer.heading.share", asker=tokens[quiz.asker].short, to=tokens[quiz.to].short
            )
        return super().headline(lesson)

    def construct(self) -> None:
        if isinstance(self.lesson.quiz, ShareQuiz):
            self.reveal_share()
            self.explain_slips()
            self.work_share()
            self.show_row_budget()
            if self.lesson.mask and not self.lesson.heads:  # the same row, unmasked
                self.compare_open()
        else:
            self.reveal_answer()
            self.explain_pull()
            self.count_fillers()
            self.bonus()
        self.cite()
        # The closing card: built whole, shown part by part, and held to pause on.
        self.lay_out_card()
        self.recap_moves()
        self.show_takeaway()
        if self.coded:
            self.check_in_code()
        self.refer()

    @property
    def quiz(self) -> QuizAnswer:
        """The quiz's numbers, read anew each time: a beat that uses them has them in its key."""
        return self.worked.quiz.numbers

    # beats -------------------------------------------------------------------------------

    def reveal_answer(self) -> None:
        q = self.quiz
        self.heading = heading(self.kicker, self.title)
        cards = option_cards(
            list(self.worked.quiz.options), width=WIDTH, height=0.8, gap=OPTION_GAP
        )
        self.chosen = cards[q.correct].copy()  # as the card will show it, before any move
        self.options = ask(cards)
        letter = cards[q.correct][1].original_text
        caption = self.caption(
            "answer.caption.reveal", letter=letter, option=self.worked.quiz.answer
        )
        with self.beat(caption):
            reveal_choice(self, self.heading, cards, q.correct)

    def explain_pull(self) -> None:
        q = self.worked.quiz
        rival_pull = rf"e^{{{q.rival}}}"
        filler_pull = rf"e^{{{q.filler}}}"
        formula = math(rival_pull, r"\div", filler_pull, "=", q.ratio)
        formula[0].set_color(style.RIVAL)
        formula[2].set_color(style.MUTED)
        formula[4].set_color(style.QUERY)
        pull = power("e", self.say("answer.word.score"))
        line = sentence(
            self.lesson.words["answer.line.pull"], {"pull": pull, "ratio": formula}, width=WIDTH
        )
        WORKING.place(WORKING.fit(line))
        self.working, self.pull_formula = line, formula
        to_row(self.options, STAGE, UP)  # the options go up; the bars will come between
        caption = self.caption(
            "answer.caption.pull",
            rival=q.rival,
            filler=q.filler,
            ratio=q.ratio,
        )
        # The words before the formula come first; then the formula, all but its ratio, as the
        # rest fades in; the ratio comes in close-up. (Written whole in close-up, the frame went
        # black as the camera came in: nothing else on screen stays in so close a picture.)
        pieces = [piece for row in line for piece in row]
        split = pieces.index(formula)
        before, after = VGroup(*pieces[:split]), VGroup(*pieces[split + 1 :])
        ratio = formula[4].set_opacity(0)  # a part of the formula: it shows as the formula's
        # The close-up takes in what is written with the formula, where that still comes closer.
        frame = [formula, *after] if framing([formula, *after]).closer else [formula]
        # In the time the formula took when it was written whole in close-up: a beat past its
        # words leaves the close-up without a rest.
        with self.beat(caption):
            self.play(
                MoveToTarget(self.options),
                *([FadeIn(before, shift=UP * 0.2)] if len(before) else []),
            )
            self.play(Write(formula), *([FadeIn(after)] if len(after) else []), run_time=style.FAST)
            with Focus(self, formula, frame=frame, marked=[ratio]):
                self.play(ratio.animate.set_opacity(1), run_time=style.FAST)

    def count_fillers(self) -> None:
        q = self.quiz
        rival_label = text(
            self.say("answer.word.one_rival"), size=style.SMALL_SIZE, colour=style.RIVAL, bold=True
        )
        # The bars fill the stage between the options and the working, their labels at its
        # left; they start right of the widest label they will have (longer in some languages).
        room = STAGE.below(self.options.get_bottom()[1] - ROW_GAP)
        self.labels_left = room.left
        ends = (filler_count(q.fillers_needed), filler_count(q.bonus_fillers_needed))
        labels = [rival_label, *(count_label(self.lesson.words, n, room.left, 0) for n in ends)]
        self.crowd_left = max(
            room.left + LABEL_SHARE * room.width,
            room.left + max(m.width for m in labels) + LABEL_GAP,
        )
        width = room.right - CROWD_END_ROOM - self.crowd_left
        height = min(ROW_HEIGHT, (room.height - ROW_GAP) / 2)
        rows, side = crowd_shape(q.fillers_needed, width, height, MAX_CELL)
        bar_width, bar_height = q.fillers_needed * side / rows, rows * side
        bar_top = room.y + bar_height + ROW_GAP / 2  # the two bars centred in the room
        self.rival_bar = Rectangle(
            width=bar_width, height=bar_height, stroke_width=0, fill_color=style.RIVAL
        ).set_fill(opacity=1)
        self.rival_bar.move_to([self.crowd_left + bar_width / 2, bar_top - bar_height / 2, 0])
        self.crowd_top = self.rival_bar.get_bottom()[1] - ROW_GAP
        self.crowd = crowd(q.fillers_needed, rows, side, side, self.crowd_left, self.crowd_top)
        crowd_y = self.crowd_top - bar_height / 2
        self.crowd_bottom = self.crowd_top - bar_height
        rival_label.move_to([room.left + rival_label.width / 2, self.rival_bar.get_y(), 0])
        self.counter = VGroup(count_label(self.lesson.words, 0, room.left, crowd_y))
        self.counter_y = crowd_y
        end = self.rival_bar.get_right()[0]
        self.match_line = DashedLine(
            [end, bar_top + 0.1, 0],
            [end, self.crowd_bottom - 0.1, 0],
            color=style.TEXT,
            stroke_width=2,
        )
        with self.beat(self.caption("answer.caption.count", count=self.worked.quiz.count)):
            self.play(FadeIn(rival_label), GrowFromEdge(self.rival_bar, LEFT))
            self.add(self.counter)
            self.play(
                grow_crowd(self.crowd),
                CountUp(
                    self.counter,
                    self.lesson.words,
                    0,
                    filler_count(q.fillers_needed),
                    room.left,
                    crowd_y,
                ),
                run_time=style.SLOW * 2,
                rate_func=linear,
            )
            self.play(Write(self.match_line))

    def bonus(self) -> None:
        q = self.quiz
        bar = self.rival_bar
        n = q.bonus_fillers_needed
        rows = max(1, round(pymath.sqrt(n * bar.height / bar.width)))
        cell_width, cell_height = bar.width * rows / n, bar.height / rows
        new_crowd = crowd(n, rows, cell_width, cell_height, self.crowd_left, self.crowd_top)
        pull = math(
            rf"e^{{{self.worked.quiz.bonus_gap}}}", r"\approx", self.worked.quiz.bonus_count
        )
        tag = text(self.say("answer.word.bonus"), colour=style.QUERY, bold=True)
        words = sentence(
            self.lesson.words["answer.line.bonus"],
            {"score": self.worked.quiz.bonus_filler, "pull": pull},
            width=WIDTH - tag.width - INLINE_GAP,
        )
        line = inline(tag, words)
        BONUS.place(BONUS.fit(line))
        old = self.crowd
        kept = min(len(old), len(new_crowd))
        # The old fillers shrink into the first new places; any extra ones vanish.
        target = VGroup(
            *(cell.copy() for cell in new_crowd[:kept]),
            *(cell.copy().scale(0.01).set_opacity(0) for cell in old[kept:]),
        )
        caption = self.caption(
            "answer.caption.bonus",
            score=self.worked.quiz.bonus_filler,
            gap=self.worked.quiz.bonus_gap,
            count=self.worked.quiz.bonus_count,
        )
        with self.beat(caption):
            self.play(FadeIn(line, shift=UP * 0.2))
            self.play(Transform(old, target))
            self.remove(old)
            self.add(*new_crowd[:kept])
            self.play(
                grow_crowd(new_crowd[kept:]) if len(new_crowd) > kept else Wait(),
                CountUp(
                    self.counter,
                    self.lesson.words,
                    filler_count(q.fillers_needed),
                    filler_count(n),
                    self.labels_left,
                    self.counter_y,
                ),
                run_time=style.SLOW * 2,
                rate_func=linear,
            )

    def cite(self) -> None:
        """Where this shows up, centred under the heading."""
        citation = self.lesson.citation
        body = VGroup(
            text(citation.source, size=style.HEADING_SIZE, bold=True),
            balanced_paragraph(citation.finding, WIDTH, size=style.BODY_SIZE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        self.cited = tagged(self.say("answer.line.where"), body)
        BODY.place(self.cited)
        caption = self.caption(
            "answer.caption.cite", source=citation.source, finding=citation.finding
        )
        with self.beat(caption):
            # The page turns as a cross-fade: the frame is never left empty in between.
            self.play(
                LaggedStart(
                    AnimationGroup(*(FadeOut(m) for m in self.mobjects if m is not self.heading)),
                    AnimationGroup(FadeIn(self.cited[0]), Write(body)),
                    lag_ratio=0.5,
                ),
                run_time=style.SLOW * 2,
            )
        # The options and the bars are gone for good: the card's beats hold nothing of them (its
        # answer is a copy of the chosen card, kept from the start).
        self.forget("options", *BARS)

    def lay_out_card(self) -> None:
        """The closing card, from the top of the frame to the bottom: the three moves with this
        lesson's numbers; the takeaway; the code check beside the quiz's answer; the references."""
        lesson = self.lesson
        moves = self.card_moves()
        names = [
            self.say(f"big_picture.word.{move}", number=fmt.number(i))
            for i, move in enumerate(("score", "normalise", "mix"), 1)
        ]
        self.moves = moves_strip(list(zip(names, moves, strict=True)), WIDTH)
        for box, name, numbers, labels in zip(
            self.moves[0], names, moves, self.card_labels(), strict=True
        ):  # each move says its numbers, each beside the token or answer it belongs to
            shown = [str(getattr(number, "original_text", "")) for number in numbers]
            with_meaning(
                box, meaning("describe.line.move", move=name, numbers=labelled(labels, shown))
            )
        # The takeaway's tag sits beside it, not above: the card's rows need the height.
        label = tag(self.say("answer.word.takeaway"))
        words = balanced_paragraph(lesson.takeaway, WIDTH - label.width - CARD_GAP)
        words.next_to(label, RIGHT, buff=CARD_GAP, aligned_edge=UP)
        self.takeaway = VGroup(label, words)
        answer = self.answer_block()
        self.answer = answer
        # Day 004's code check types its one query's scores; a grid lesson's answer is read off
        # another row (the asker's), which worked() has no listing of yet: none is shown.
        self.coded = not isinstance(lesson.quiz, ShareQuiz)
        if self.coded:
            lines = self.worked.code
            self.typed, self.run = listing(lines[:-1]), listing(lines)
            scores, shares = self.worked.code_said  # what it types and prints, said in numbers
            for code in (self.typed, self.run):
                with_meaning(code, meaning("describe.line.code", scores=scores, shares=shares))
            code_width = WIDTH - answer.width - CARD_GAP
            # Both listings share one scale, so the typed lines land on the finished ones.
            scale = min(style.SMALL_SIZE / CODE_SIZE, code_width / self.run.width)
            for code in (self.typed, self.run):
                code.scale(scale)
            self.run.code_lines[-1].set_color(style.VALUE)
            self.code = tagged(self.say("answer.word.check"), self.run, colour=style.KEY)
            middle = VGroup(self.code, answer).arrange(RIGHT, buff=CARD_GAP, aligned_edge=DOWN)
        else:  # the asker's row as a budget bar, carried from the working, beside the answer
            grid, asker = self.worked.share_quiz.grid, self.asker
            bar, labels = self.row_bar(
                grid.attention.weights[asker],
                grid.cells[asker],
                0,
                width=WIDTH - answer.width - CARD_GAP,
            )
            self.card_bar = VGroup(bar, labels)
            middle = VGroup(answer, self.card_bar).arrange(RIGHT, buff=CARD_GAP, aligned_edge=DOWN)
        rows = [self.moves, self.takeaway, middle]
        if lesson.references:
            refs = VGroup(*(reference(r) for r in lesson.references))
            titles = "; ".join(r.named for r in lesson.references)
            for line in refs:  # each comes in on its own; on screen together, said as one
                with_meaning(line, meaning("describe.line.references", references=titles))
            self.references = tagged(
                self.say("answer.word.references"),
                refs.arrange(DOWN, aligned_edge=LEFT, buff=0.12),
                colour=style.KEY,
            )
            rows.append(self.references)
        for row in rows[1:]:
            row.set_x(SAFE.left + row.width / 2)
        # The moves and the takeaway from the top down; the answer (with the code) and the
        # references from the foot up, so that the answer stands in the lower third from the
        # first; what room is left, between the two.
        total = sum(row.height for row in rows)
        if total > SAFE.height:
            for row in rows:
                row.scale(SAFE.height / total)
            total = SAFE.height
        gap = min(CARD_ROW_GAP, (SAFE.height - total) / (len(rows) - 1))
        upper, lower = rows[:2], rows[2:]
        rows_between(upper, SAFE.top, SAFE.top - sum(r.height for r in upper) - gap)
        rows_between(
            lower, SAFE.bottom + sum(r.height for r in lower) + gap * (len(lower) - 1), SAFE.bottom
        )
        if self.coded:
            self.typed.move_to(self.run, aligned_edge=UP + LEFT)

    def card_moves(self) -> list[list[Mobject]]:
        """The card's three moves with the lesson's numbers: scores, shares, the output."""
        run = self.worked.before
        tokens = [style.token_colour(i) for i in range(len(self.lesson.tokens))]
        if isinstance(self.lesson.quiz, ShareQuiz):
            return super().card_moves()
        return [
            coloured([r.score for r in run.rows], tokens),
            coloured([r.share for r in run.rows], tokens),
            coloured(list(run.entries), [style.VALUE] * len(run.entries)),
        ]

    def card_labels(self) -> list[list[str]]:
        """What each number of :meth:`card_moves` belongs to: its token, or its answer."""
        names = [token.short for token in self.lesson.tokens]
        return [names, names, list(self.lesson.answers)]

    def answer_block(self) -> VGroup:
        """The quiz's answer as it was chosen, its card and its working, carried to the card."""
        if isinstance(self.lesson.quiz, ShareQuiz):
            q = self.worked.share_quiz
            card = option_cards(list(q.options), width=WIDTH, height=0.8)[q.numbers.correct]
        else:
            card = self.chosen.copy()
        card[0].set_stroke(style.VALUE, width=4).set_fill(style.VALUE, 0.15)
        working = self.pull_formula.copy()
        body = VGroup(card, working).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        return tagged(self.say("answer.heading.label"), body, colour=style.VALUE)

    def recap_moves(self) -> None:
        boxes, arrows = self.moves
        with self.beat(self.caption("answer.caption.recap")):
            self.play(
                FadeOut(self.heading),
                FadeOut(self.cited),
                LaggedStart(*(FadeIn(box, shift=RIGHT * 0.2) for box in boxes), lag_ratio=0.4),
                LaggedStart(*(FadeIn(arrow) for arrow in arrows), lag_ratio=0.4),
                FadeIn(self.answer, shift=UP * 0.2),
                *([] if self.coded else [FadeIn(self.card_bar, shift=UP * 0.2)]),
                run_time=style.SLOW,
            )

    def show_takeaway(self) -> None:
        tag, words = self.takeaway
        with self.beat(self.lesson.takeaway):
            self.play(FadeIn(tag), Write(words), run_time=style.SLOW)

    def check_in_code(self) -> None:
        lines = self.worked.code
        typed, run = self.typed, self.run
        with self.beat(self.caption("answer.caption.check", printed=lines[-1].removeprefix("# "))):
            self.play(FadeIn(self.code[0]), FadeIn(typed, shift=UP * 0.2))
            self.play(
                Transform(typed.background, run.background),
                FadeIn(run.code_lines[-1], shift=RIGHT * 0.3),
            )
            # The typed lines already sit where the finished listing's do: swap in the whole.
            self.remove(typed, run.code_lines[-1])
            self.add(run)

    def refer(self) -> None:
        """The references complete the card, which then holds long enough to pause on."""
        with self.beat(self.caption("answer.caption.references")):
            if self.lesson.references:
                tag, refs = self.references
                self.play(FadeIn(tag))
                self.play(LaggedStart(*(FadeIn(r, shift=UP * 0.2) for r in refs), lag_ratio=0.3))
            self.wait(CARD_HOLD)


# builders ------------------------------------------------------------------------------


def reference(cited: Reference) -> Mobject:
    """One reference on a line, ``title · address · notes``; if that is too long, the address
    and notes go below. Each is a text of its own, so that a description names the reference
    and leaves out the address, which the transcript links."""
    notes = [f"· {note}" for note in cited.notes]
    line = one_line([cited.text, f"· {cited.address}", *notes])
    if line.width * SQUEEZE <= WIDTH:  # on one line, if need be a little smaller
        return fit(line, WIDTH)
    return VGroup(
        balanced_paragraph(cited.text, WIDTH, colour=style.MUTED),
        fit(one_line([cited.address, *notes]), WIDTH),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)


def one_line(parts: Sequence[str]) -> VGroup:
    """``parts`` as one line of small muted text, each a text of its own set on its own
    glyphs of the whole line: the picture of the line, read as so many texts."""
    whole = text(" ".join(parts), size=style.SMALL_SIZE, colour=style.MUTED)
    out, at = VGroup(), 0
    for part in parts:
        shown = text(part, size=style.SMALL_SIZE, colour=style.MUTED)
        shown.move_to(whole[at : at + len(shown)])
        out.add(shown)
        at += len(shown)
    return out


def coloured(numbers: Sequence[str], colours: Sequence[str]) -> list[Mobject]:
    """Numbers in bold, each in its colour (a token's, or the values')."""
    return [text(n, colour=c, bold=True) for n, c in zip(numbers, colours, strict=True)]


def listing(lines: Sequence[str]) -> Code:
    """Python code in the house monospace, on a panel a shade lighter than the page."""
    return Code(
        code_string="\n".join(lines),
        language="python",
        formatter_style="one-dark",
        add_line_numbers=False,
        background="rectangle",
        background_config={"stroke_color": style.MUTED, "stroke_width": 1, "buff": 0.25},
        paragraph_config={"font": style.MONO, "font_size": CODE_SIZE, "line_spacing": 0.8},
    )


class CountUp(Animation):
    """A crowd's count label counting from one number to another, redrawn every frame."""

    def __init__(
        self,
        holder: VGroup,
        words: Words,
        start: float,
        end: float,
        left: float,
        y: float,
        **kwargs: Any,
    ):
        self.words, self.start, self.end, self.left, self.y = words, start, end, left, y
        # Any frame may say either form. Read both now, drawn or skipped alike: a beat's key
        # must not depend on whether its frames were drawn (publish.beats).
        self.forms = [words[name] for name in FILLER_FORMS]
        super().__init__(holder, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        # The holder's one child is replaced, so what it shows is always a fresh text(). The
        # label it held when the animation began stays on manim's list of what to draw until
        # the animation ends, so it is made invisible, not just dropped: else both are drawn.
        for shown in self.mobject.submobjects:
            shown.set_opacity(0)
        value = self.start + (self.end - self.start) * self.rate_func(alpha)
        self.mobject.submobjects = [count_label(self.words, value, self.left, self.y)]


FILLER_FORMS = ("answer.word.filler_one", "answer.word.filler_many")
BARS = (
    "labels_left",
    "crowd_left",
    "rival_bar",
    "crowd_top",
    "crowd",
    "crowd_bottom",
    "counter",
    "counter_y",
    "match_line",
)
"""What the scene holds of the pull bars, while they are on screen."""


def count_label(words: Words, count: float, left: float, y: float) -> Text:
    """The crowd's running count, ``20 fillers``, its left edge at ``left``."""
    name = FILLER_FORMS[0] if round(count) == 1 else FILLER_FORMS[1]
    label = text(
        words.say(name, count=fmt.rounded(count)), size=style.SMALL_SIZE, colour=style.MUTED
    )
    return label.move_to([left + label.width / 2, y, 0])


def filler_count(n: float) -> int:
    """How many whole filler squares stand for n fillers' pull."""
    return max(1, round(n))


def crowd_shape(n: float, width: float, height: float, largest: float) -> tuple[int, float]:
    """Rows and square size that fit round(n) filler squares (and an n-wide bar) in a box."""
    count = filler_count(n)
    best_rows, best_side = 1, 0.0
    rows = 1
    while height / rows > best_side:
        columns = -(-count // rows)
        side = min(largest, width / max(columns, n / rows), height / rows)
        if side > best_side + 1e-9:
            best_rows, best_side = rows, side
        rows += 1
    return best_rows, best_side


def crowd(
    n: float, rows: int, cell_width: float, cell_height: float, left: float, top: float
) -> VGroup:
    """round(n) filler squares filling column by column from the left, each one filler's pull.

    Too many to draw one by one, they become a single block of the same footprint.
    """
    count = filler_count(n)
    gap = min(0.06, 0.15 * min(cell_width, cell_height))
    if count > MAX_CELLS:
        columns = -(-count // rows)
        block = Rectangle(
            width=columns * cell_width, height=rows * cell_height, stroke_width=0
        ).set_fill(style.MUTED, 1)
        return VGroup(block.move_to([left + block.width / 2, top - block.height / 2, 0]))
    cells = VGroup()
    for i in range(count):
        column, row = divmod(i, rows)
        cell = Rectangle(width=cell_width - gap, height=cell_height - gap, stroke_width=0).set_fill(
            style.MUTED, 1
        )
        cell.move_to([left + (column + 0.5) * cell_width, top - (row + 0.5) * cell_height, 0])
        cells.add(cell)
    return cells


def grow_crowd(cells: VGroup) -> LaggedStart:
    """Fillers popping in one after another, left to right."""
    return LaggedStart(*(FadeIn(cell, scale=0.5) for cell in cells), lag_ratio=0.6)
