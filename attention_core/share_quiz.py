"""The share quiz: how much of one token's attention goes to another, and three slips' shares.

Asked in a lesson where every token asks; each wrong option is the share a plausible slip of the
hand gives (:data:`SLIPS`), so that picking it tells the lecturer which step went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import formatting as fmt
from .exponential import exp_each
from .heads import attend_head, embeddings_of
from .matrix import GridAttention, attend_all, attend_grid
from .model import Lesson, ShareQuiz

__all__ = ["SLIPS", "ShareAnswer", "share_answer"]

SLIPS = ("no_mask", "other_head", "transposed", "unscaled", "even")
"""The slips a wrong option stands for, in the order options are drawn from:
``no_mask``: the share without the mask (the lesson's mask forgotten);
``other_head``: another head's share for the same pair (in a heads lesson);
``transposed``: the grid read the wrong way round, ``to``'s attention to ``asker``;
``unscaled``: the scores not divided by √dₖ before the softmax (only when dₖ > 1);
``even``: the budget split evenly over the tokens the asker sees, the scores ignored.
The right option's slip is ``right``."""


@dataclass(frozen=True)
class ShareAnswer:
    """The question's numbers and its four options, from the lesson's own maths."""

    quiz: ShareQuiz
    share: float
    """The right answer: the weight of ``to`` in ``asker``'s row (of the quiz's head)."""
    options: tuple[float, ...]
    """Four shares from lowest to highest, each reading differently at one decimal place."""
    slips: tuple[str, ...]
    """What each option stands for: ``right``, or one of :data:`SLIPS`."""
    correct: int
    """The right option's place in ``options``."""
    drawn: tuple[tuple[str, float], ...]
    """Every slip the lesson allows with its share, in :data:`SLIPS` order, before the options
    were picked: what validation explains when too few read differently."""


def share_answer(lesson: Lesson) -> ShareAnswer:
    """The answer and options of the lesson's :class:`~attention_core.lesson.ShareQuiz`.

    Parameters
    ----------
    lesson
        A lesson whose tokens ask and whose ``quiz`` names ``asker`` and ``to``.

    Returns
    -------
    ShareAnswer
        The right share and the three wrong options that read most differently from it:
        the first of :data:`SLIPS`, in order, whose shares read apart (``84.4%``) from the
        right one and from each other. Fewer than three such: ``options`` holds fewer than
        four, which validation refuses.
    """
    quiz = lesson.share_quiz
    grids = _grids(lesson)
    grid = grids[quiz.head]
    i, j = quiz.asker, quiz.to
    share = float(grid.weights[i, j])
    drawn: list[tuple[str, float]] = []
    if lesson.mask is not None:
        drawn.append(("no_mask", float(_unmasked(grid).weights[i, j])))
    drawn += [("other_head", float(g.weights[i, j])) for h, g in enumerate(grids) if h != quiz.head]
    drawn.append(("transposed", float(grid.weights[j, i])))
    if grid.d_k > 1:
        drawn.append(("unscaled", _unscaled(grid, i, j)))
    drawn.append(("even", 1 / int((~grid.hidden[i]).sum())))
    picked = [("right", share)]
    for slip, value in drawn:
        if len(picked) < 4 and fmt.share(value) not in {fmt.share(v) for _, v in picked}:
            picked.append((slip, value))
    picked.sort(key=lambda option: option[1])
    return ShareAnswer(
        quiz=quiz,
        share=share,
        options=tuple(value for _, value in picked),
        slips=tuple(slip for slip, _ in picked),
        correct=[slip for slip, _ in picked].index("right"),
        drawn=tuple(drawn),
    )


def _grids(lesson: Lesson) -> tuple[GridAttention, ...]:
    """The attention the quiz may be about: each head's, or the lesson's own."""
    if lesson.heads:  # each head alone: the quiz does not depend on W_O
        x = embeddings_of(lesson)
        return tuple(attend_head(x, head, lesson.mask).grid for head in lesson.heads)
    return (attend_grid(lesson),)


def _unmasked(grid: GridAttention) -> GridAttention:
    return attend_all(grid.queries, grid.keys, grid.values)


def _unscaled(grid: GridAttention, i: int, j: int) -> float:
    """Row i's softmax of the raw dot products (the mask kept): the √dₖ forgotten."""
    dots = np.where(grid.hidden[i], -np.inf, grid.dots[i])
    pulls = exp_each(dots - dots.max())
    return float(pulls[j] / pulls.sum())
