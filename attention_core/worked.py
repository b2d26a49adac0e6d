"""The worked lesson: derived once, every number it shows held as the string it is shown as.

:func:`worked` runs the maths once per lesson (``attend`` on the lesson and on the lesson with
its rival; for the series, the grid where every token asks, open and masked, each head, the
heads joined and × W_O, and the share quiz) and formats each quantity once, through
:mod:`attention_core.formatting`: :mod:`attention_core.worked_attention` makes a run and a grid
of the same match of a query and a key, :mod:`attention_core.worked_heads` each head. The scenes,
the handout, ``--check-lesson`` and the manifest read these strings instead of deriving and
formatting their own, so they cannot disagree with each other, nor with the video.

Each part is worked out when first read, through the lesson it was given: a scene reading its
lesson traced (:mod:`attention_core.reads`) records the fields behind exactly the parts it shows,
so its clip's key covers those and no more (step 3 shows no quiz, so the quiz is not in its key).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar, overload

import numpy as np

from . import formatting as fmt
from .heads import attend_head, embeddings_of, join, mix
from .maths import (
    BUDGET,
    PULL_PER_SCORE_POINT,
    SCORE_STEP,
    QuizAnswer,
    RivalOutcome,
    attend,
    compare_rival,
    quiz_answer,
)
from .maths import with_rival as add_rival
from .matrix import Matrix, attend_grid
from .model import Lesson, Token
from .reads import Path, reads_of
from .share_quiz import ShareAnswer, share_answer
from .worked_attention import Cell, Grid, GridRow, Match, Row, Run, grid_of, run_of
from .worked_heads import HeadWork, MatVec, Projection, entries, worked_head

__all__ = [
    "Cell",
    "Grid",
    "GridRow",
    "HeadWork",
    "Match",
    "MatVec",
    "Projection",
    "Quiz",
    "Row",
    "Run",
    "ShareQuizWork",
    "Worked",
    "worked",
]


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

    # The bonus question's numbers are formatted when read: only the answer shows them, so
    # only the answer's clip is keyed on the bonus filler's score.

    @property
    def bonus_filler(self) -> str:
        return fmt.number(self.numbers.bonus_filler_score)

    @property
    def bonus_gap(self) -> str:
        return fmt.number(self.numbers.bonus_gap)

    @property
    def bonus_count(self) -> str:
        return fmt.rounded(self.numbers.bonus_fillers_needed)

    @staticmethod
    def letter_of(option: int) -> str:
        """An option's letter: 0 is ``A``."""
        return chr(ord("A") + option)


@dataclass(frozen=True)
class ShareQuizWork:
    """The quick check of a lesson where every token asks, as shown: "How much of {asker}'s
    attention goes to {to}?" (in head {head}), four shares to choose from."""

    numbers: ShareAnswer
    asker: Token
    """The asking token (its text read when shown)."""
    to: Token
    """The token it attends to."""
    head: str | None
    """The head asked about, numbered from 1 as on screen (``2``); None without heads."""
    grid: Grid
    """The attention the answer is read from: the lesson's grid, or that head's."""
    options: tuple[str, ...]
    """Each option as offered, lowest first: ``12.5%``, ``33.3%``, ``38.2%``, ``61.4%``."""
    slips: tuple[str, ...]
    """What each option stands for: ``right`` or one of
    :data:`attention_core.share_quiz.SLIPS` (a words entry per slip explains it)."""
    letter: str
    """The right option's letter: ``C``."""
    answer: str
    """The right option: ``38.2%``."""


T = TypeVar("T")


class part(Generic[T]):  # noqa: N801 (a decorator, named as functools.cached_property is)
    """A part of the worked lesson: derived when first read, and kept.

    Through a traced lesson, every read of the part after the first records again the fields
    it was derived from: a scene that holds nothing of a part it showed, and reads it again in
    a later beat, has those fields in that beat's reads (:mod:`publish.beats.state`).
    """

    def __init__(self, derive: Callable[[Any], T]) -> None:
        self.derive = derive
        self.name: str = getattr(derive, "__name__", "")
        self.__doc__ = derive.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, worked: None, owner: type) -> part[T]: ...

    @overload
    def __get__(self, worked: Worked, owner: type) -> T: ...

    def __get__(self, worked: Worked | None, owner: type) -> part[T] | T:
        if worked is None:
            return self
        kept: dict[str, tuple[T, frozenset[Path]]] = worked.__dict__.setdefault("_parts", {})
        reads = reads_of(worked.lesson)
        if self.name in kept:
            value, paths = kept[self.name]
            if reads is not None:
                for path in paths:
                    reads.add(path)
            return value
        if reads is None:
            value, paths = self.derive(worked), frozenset()
        else:
            with reads.capture() as captured:
                value = self.derive(worked)
            paths = frozenset(captured)
        kept[self.name] = (value, paths)
        return value


class Worked:
    """The lesson worked out by hand: every number more than one place shows, as shown.

    Each part is derived from ``lesson`` when first read, and kept.
    """

    budget = fmt.budget(BUDGET)
    """The whole budget: ``100%``."""
    score_step = fmt.number(SCORE_STEP)
    """The score step the softmax rule speaks of: ``1``."""
    factor = fmt.pull(PULL_PER_SCORE_POINT)
    """What one score point multiplies a pull by: ``2.72``."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson

    @part
    def query(self) -> str:
        return fmt.vector(self.lesson.query)

    @part
    def query_entries(self) -> tuple[str, ...]:
        """The query's entries, each in its cell: ``2``, ``0``."""
        return tuple(fmt.number(x) for x in self.lesson.query)

    @part
    def d_k(self) -> str:
        return fmt.number(self.lesson.d_k)

    @part
    def root_d_k(self) -> str:
        return fmt.number(self.before.attention.root_d_k)

    @part
    def before(self) -> Run:
        """The lesson's own tokens."""
        return run_of(attend(self.lesson), self.lesson.tokens)

    @part
    def after(self) -> Run:
        """The same with the rival added last."""
        rivalled = add_rival(self.lesson)
        return run_of(attend(rivalled), rivalled.tokens)

    @property
    def rival(self) -> Row:
        """The rival's row, scored as the others."""
        return self.after.rows[-1]

    @part
    def outcome(self) -> RivalOutcome:
        return compare_rival(self.before.attention, self.after.attention)

    @part
    def left(self) -> str:
        """What is left of the top token's share once the rival joins, as step 6's headline
        rounds it: ``43%``."""
        return fmt.percent(self.after.attention.weights[self.outcome.top_token])

    @part
    def verdict(self) -> str:
        """What the rival does to the answer, in the lesson's words (the video's sentence)."""
        o, lesson, before, after = self.outcome, self.lesson, self.before, self.after
        leader = lesson.answers[o.leader]
        if o.challenger is None:  # one answer: only how far it moves
            return lesson.words.say(
                "rival.line.drops" if o.kind == "dents" else "rival.line.goes",
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

    @part
    def rule(self) -> str:
        """The softmax's rule of thumb, in the lesson's words."""
        return self.lesson.words.say("softmax.line.rule", step=self.score_step, factor=self.factor)

    @part
    def quiz(self) -> Quiz:
        return _quiz(self.lesson, quiz_answer(self.lesson))

    @part
    def share_quiz(self) -> ShareQuizWork:
        """The quick check of a lesson whose quiz names ``asker`` and ``to`` (Day 004's is
        :attr:`quiz`)."""
        q = share_answer(self.lesson)
        tokens = self.lesson.tokens
        heads = bool(self.lesson.heads)
        return ShareQuizWork(
            numbers=q,
            asker=tokens[q.quiz.asker],
            to=tokens[q.quiz.to],
            head=fmt.number(q.quiz.head + 1) if heads else None,
            grid=self.heads[q.quiz.head].grid if heads else self.grid,
            options=tuple(fmt.share(x) for x in q.options),
            slips=q.slips,
            letter=Quiz.letter_of(q.correct),
            answer=fmt.share(q.share),
        )

    @part
    def grid(self) -> Grid:
        """Every token asks (head 1's q, k and v in a heads lesson), the lesson's mask applied."""
        return grid_of(attend_grid(self.lesson), self.lesson.tokens)

    @part
    def open_grid(self) -> Grid:
        """The same with no mask, what the mask step starts from; the same numbers as
        :attr:`grid` in a lesson without a mask (it reads no mask, so its key holds none)."""
        return grid_of(attend_grid(self.lesson, masked=False), self.lesson.tokens)

    @part
    def heads(self) -> tuple[HeadWork, ...]:
        """Each head: its matrices, every token's projections, its attention grid; () in a
        lesson without heads."""
        if not self.lesson.heads:
            return ()
        x, lesson = self._embeddings, self.lesson
        return tuple(
            worked_head(attend_head(x, head, lesson.mask), h, lesson.tokens)
            for h, head in enumerate(lesson.heads)
        )

    @part
    def joined(self) -> tuple[tuple[str, ...], ...]:
        """``joined[t]``: token t's outputs of every head, side by side, entry by entry; () in a
        lesson without heads."""
        if not self.heads:
            return ()
        return tuple(tuple(fmt.output_entry(x) for x in row) for row in self._joined)

    @part
    def w_o(self) -> tuple[tuple[str, ...], ...] | None:
        """W_O, row by row, each entry as shown; None when the lesson has none."""
        return None if self.lesson.w_o is None else entries(np.array(self.lesson.w_o))

    @part
    def mixed(self) -> tuple[tuple[str, ...], ...]:
        """``mixed[t]``: ``joined[t]`` × W_O, entry by entry (the joined entries themselves when
        the lesson has no W_O); () in a lesson without heads."""
        if not self.heads:
            return ()
        w_o = None if self.lesson.w_o is None else np.array(self.lesson.w_o, dtype=np.float64)
        return tuple(tuple(fmt.output_entry(x) for x in row) for row in mix(self._joined, w_o))

    @part
    def _embeddings(self) -> Matrix:
        return embeddings_of(self.lesson)

    @part
    def _joined(self) -> Matrix:
        return join(tuple(head.attention for head in self.heads))

    @part
    def code(self) -> tuple[str, ...]:
        """The "check it in code" snippet, ending with what ``torch`` prints."""
        a = self.before.attention
        return fmt.torch_check(a.scores, a.dots, a.d_k)

    @part
    def code_said(self) -> tuple[str, str]:
        """What :attr:`code` types and prints, in numbers, as a description says it."""
        a = self.before.attention
        return fmt.torch_said(a.scores, a.dots, a.d_k)


def worked(lesson: Lesson) -> Worked:
    """``lesson`` worked out, every number formatted once.

    A plain lesson's is kept for the process. A traced lesson (a scene recording what it
    reads) gets its own, never kept nor shared: its parts are derived through it when read,
    so every field behind a number the scene shows is recorded in that scene's reads.

    Parameters
    ----------
    lesson
        The lesson to work out.

    Returns
    -------
    Worked
        The numbers and their display strings.
    """
    return Worked(lesson) if reads_of(lesson) is not None else _kept(lesson)


@cache
def _kept(lesson: Lesson) -> Worked:
    return Worked(lesson)


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
    )
