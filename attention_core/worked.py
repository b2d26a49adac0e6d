"""The worked lesson: derived once, every number it shows held as the string it is shown as.

:func:`worked` runs the maths once per lesson (``attend`` on the lesson and on the lesson with
its rival) and formats each quantity once, through :mod:`attention_core.formatting`. The handout,
``--check-lesson`` and the manifest read these strings instead of deriving and formatting their
own, so they cannot disagree with each other, nor with the video.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from . import formatting as fmt
from .lesson import Lesson
from .maths import Attention, QuizAnswer, RivalOutcome, attend, compare_rival, quiz_answer
from .maths import with_rival as add_rival

__all__ = ["Quiz", "Row", "Run", "Worked", "worked"]


@dataclass(frozen=True)
class Row:
    """One token's line of the worked maths, each number as shown."""

    token: str
    key: str
    products: str
    """The dot product written out, as the score scene writes it:
    ``2×2 + 0×0 + 1×1 + 1×1 = 4 + 0 + 1 + 1``."""
    dot: str
    score: str
    pull: str
    """e^score: ``20.09``."""
    share: str
    """Its share of the budget: ``84.4%``."""
    weight: str
    """The same share as a multiplier: ``0.844``."""
    value: str
    scaled: str
    """Its value vector scaled by its weight: ``[0.84, 0.00, 0.00]``."""


@dataclass(frozen=True)
class Run:
    """One query attending over a set of tokens: the numbers, and each as shown."""

    attention: Attention
    rows: tuple[Row, ...]
    total: str
    """The pulls added up: ``23.80``."""
    output: str
    """The blended output: ``[0.84, 0.11, 0.00]``."""
    entries: tuple[str, ...]
    """The output's entries, one per answer: ``0.84``."""


@dataclass(frozen=True)
class Quiz:
    """The quick check and its answer, as shown."""

    numbers: QuizAnswer
    filler: str
    rival: str
    options: tuple[str, ...]
    """Each option as offered: ``about 20``."""
    letter: str
    """The right option's letter: ``C``."""
    answer: str
    """The right option: ``about 20``."""
    gap: str
    """How far the rival's score sits above a filler's: ``3``."""
    ratio: str
    """e^gap, to one place: ``20.1``."""
    count: str
    """e^gap rounded to whole fillers: ``20``."""
    bonus_filler: str
    bonus_gap: str
    bonus_count: str

    @staticmethod
    def letter_of(option: int) -> str:
        """An option's letter: 0 is ``A``."""
        return chr(ord("A") + option)


@dataclass(frozen=True)
class Worked:
    """The lesson worked out by hand: every number more than one place shows, as shown."""

    lesson: Lesson
    query: str
    d_k: str
    root_d_k: str
    before: Run
    """The lesson's own tokens."""
    after: Run
    """The same with the rival added last."""
    outcome: RivalOutcome
    verdict: str
    """What the rival does to the answer, in the lesson's words (the video's sentence)."""
    quiz: Quiz
    code: tuple[str, ...]
    """The "check it in code" snippet, ending with what ``torch`` prints."""

    @property
    def rival(self) -> Row:
        """The rival's row, scored as the others."""
        return self.after.rows[-1]


@cache
def worked(lesson: Lesson) -> Worked:
    """Work ``lesson`` out once (per process: the result is kept) and format every number.

    Parameters
    ----------
    lesson
        The lesson to work out.

    Returns
    -------
    Worked
        The numbers and their display strings.
    """
    before_numbers = attend(lesson)
    after_numbers = attend(add_rival(lesson))
    before, after = _run(lesson, before_numbers), _run(add_rival(lesson), after_numbers)
    outcome = compare_rival(before_numbers, after_numbers)
    return Worked(
        lesson=lesson,
        query=fmt.vector(lesson.query),
        d_k=fmt.number(lesson.d_k),
        root_d_k=fmt.number(before_numbers.root_d_k),
        before=before,
        after=after,
        outcome=outcome,
        verdict=_verdict(lesson, outcome, before, after),
        quiz=_quiz(lesson, quiz_answer(lesson)),
        code=fmt.torch_check(before_numbers.scores, before_numbers.dots, lesson.d_k),
    )


def _run(lesson: Lesson, a: Attention) -> Run:
    rows = tuple(
        Row(
            token=token.text,
            key=fmt.vector(token.key),
            products=_products(a, i),
            dot=fmt.number(a.dots[i]),
            score=fmt.number(a.scores[i]),
            pull=fmt.pull(a.pulls[i]),
            share=fmt.share(a.weights[i]),
            weight=fmt.weight(a.weights[i]),
            value=fmt.vector(a.values[i]),
            scaled=fmt.output(a.weighted_values[i]),
        )
        for i, token in enumerate(lesson.tokens)
    )
    entries = tuple(fmt.output_entry(x) for x in a.output)
    return Run(a, rows, fmt.pull(a.total), fmt.output(a.output), entries)


def _products(a: Attention, row: int) -> str:
    pairs = " + ".join(
        f"{fmt.factor(q)}×{fmt.factor(k)}" for q, k in zip(a.query, a.keys[row], strict=True)
    )
    return f"{pairs} = {' + '.join(fmt.factor(p) for p in a.products[row])}"


def _verdict(lesson: Lesson, o: RivalOutcome, before: Run, after: Run) -> str:
    leader = lesson.answers[o.leader]
    if o.challenger is None:
        return lesson.words.say(
            "rival.line.goes",
            leader=leader,
            before=before.entries[o.leader],
            after=after.entries[o.leader],
        )
    return lesson.words.say(
        f"rival.line.{o.kind}",
        leader=leader,
        other=lesson.answers[o.challenger],
        lead=after.entries[o.leader],
        best=after.entries[o.challenger],
    )


def _quiz(lesson: Lesson, q: QuizAnswer) -> Quiz:
    roughly = lesson.words["common.word.about"]
    return Quiz(
        numbers=q,
        filler=fmt.number(q.filler_score),
        rival=fmt.number(q.rival_score),
        options=tuple(fmt.option(x, roughly) for x in q.options),
        letter=Quiz.letter_of(q.correct),
        answer=fmt.option(q.fillers_needed, roughly),
        gap=fmt.number(q.gap),
        ratio=fmt.ratio(q.fillers_needed),
        count=fmt.rounded(q.fillers_needed),
        bonus_filler=fmt.number(q.bonus_filler_score),
        bonus_gap=fmt.number(q.bonus_gap),
        bonus_count=fmt.rounded(q.bonus_fillers_needed),
    )
