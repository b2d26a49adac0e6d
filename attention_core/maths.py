"""Scaled dot-product attention worked out by hand: every quantity a scene shows."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .exponential import exp, exp_each
from .model import Lesson, Quiz
from .sums import added, times

__all__ = [
    "BUDGET",
    "PULL_PER_SCORE_POINT",
    "HEADS_SECTION",
    "MASK_SECTION",
    "SCALING_SECTION",
    "SCORE_STEP",
    "Attention",
    "QuizAnswer",
    "RivalOutcome",
    "attend",
    "compare_rival",
    "mix",
    "quiz_answer",
    "rival_outcome",
    "scores",
    "softmax",
    "with_rival",
]

Vector = NDArray[np.float64]

BUDGET = 1.0
"""The whole attention budget: softmax weights always add up to exactly this."""
SCORE_STEP = 1.0
"""One point of score, the step in the rule of thumb "+1 score = ×e"."""
PULL_PER_SCORE_POINT = exp(SCORE_STEP)
"""How many times harder a token pulls for each extra point of score: e ≈ 2.72."""
SCALING_SECTION = "3.2.1"
"""Where Vaswani et al. (2017) give the reason for dividing by √dₖ, cited beside it."""
MASK_SECTION = "3.2.3"
"""Where they mask the decoder's attention, cited beside the masked formula."""
HEADS_SECTION = "3.2.2"
"""Where they define multi-head attention, cited beside its formula."""


@dataclass(frozen=True)
class Attention:
    """One query attending over a lesson's tokens, with every intermediate quantity."""

    query: Vector
    keys: Vector
    values: Vector
    products: Vector
    """Element-wise products q_i·k_i, one row per token."""
    dots: Vector
    d_k: int
    root_d_k: float
    scores: Vector
    pulls: Vector
    """e^score: how hard each token pulls on the attention budget."""
    total: float
    weights: Vector
    """The shares of the budget: softmax(scores), positive and adding up to 1."""
    weighted_values: Vector
    """Each value vector scaled by its weight, one row per token."""
    output: Vector
    """The blended output, one entry per answer."""

    @property
    def winner(self) -> int:
        """The index of the answer the output leans towards most."""
        return int(np.argmax(self.output))


@dataclass(frozen=True)
class QuizAnswer:
    """How many filler tokens pull as much attention as one rival, and the options offered."""

    rival_score: float
    filler_score: float
    fillers_needed: float
    options: tuple[float, ...]
    """A: one filler each; B: the score gap read linearly; C: e^gap (right); D: e^(2·gap)."""
    correct: int
    quiz: Quiz
    """The lesson's quiz, whose bonus is read only where it is shown: a scene that asks the
    question without the bonus does not depend on it (its clip's key leaves it out)."""

    @property
    def bonus_filler_score(self) -> float:
        """The filler score of the bonus question."""
        return self.quiz.bonus_filler_score

    @property
    def bonus_fillers_needed(self) -> float:
        """Fillers scoring the bonus filler score needed to match the rival: e^bonus_gap."""
        return exp(self.bonus_gap)

    @property
    def gap(self) -> float:
        """How far the rival's score sits above a filler's: fillers_needed = e^gap."""
        return self.rival_score - self.filler_score

    @property
    def bonus_gap(self) -> float:
        """The same gap for the bonus filler score: bonus_fillers_needed = e^bonus_gap."""
        return self.rival_score - self.bonus_filler_score


def scores(query: ArrayLike, keys: ArrayLike) -> Vector:
    """How well each key matches the query: q · k ÷ √dₖ."""
    query = np.asarray(query, dtype=np.float64)
    products = np.asarray(keys, dtype=np.float64) * query
    return _frozen(added(products) / math.sqrt(query.size))


def softmax(scores: ArrayLike) -> Vector:
    """Positive weights adding up to 1 along the last axis (a vector, or each row of a grid);
    each row's maximum is subtracted first so e^x never overflows, and a score of −∞ (a masked
    key) gets exactly 0."""
    scores = np.asarray(scores, dtype=np.float64)
    pulls = exp_each(scores - scores.max(axis=-1, keepdims=True))
    return _frozen(pulls / added(pulls)[..., None])


def mix(weights: ArrayLike, values: ArrayLike) -> Vector:
    """The weighted sum of the value vectors: Σ wᵢ · vᵢ."""
    return _frozen(times(weights, values))


def attend(lesson: Lesson) -> Attention:
    """Score every token against the query, softmax the scores and mix the values."""
    query = np.array(lesson.query, dtype=np.float64)
    keys = np.array([token.key for token in lesson.tokens], dtype=np.float64)
    values = np.array([token.value for token in lesson.tokens], dtype=np.float64)
    products = keys * query
    dots = added(products)
    root_d_k = math.sqrt(lesson.d_k)
    token_scores = scores(query, keys)
    pulls = exp_each(token_scores)
    weights = softmax(token_scores)
    weighted_values = weights[:, None] * values
    return Attention(
        query=_frozen(query),
        keys=_frozen(keys),
        values=_frozen(values),
        products=_frozen(products),
        dots=_frozen(dots),
        d_k=lesson.d_k,
        root_d_k=root_d_k,
        scores=token_scores,
        pulls=_frozen(pulls),
        total=float(added(pulls)),
        weights=weights,
        weighted_values=_frozen(weighted_values),
        output=mix(weights, values),
    )


def with_rival(lesson: Lesson) -> Lesson:
    """The same lesson with the lookalike rival token added after the others."""
    return replace(lesson, tokens=(*lesson.tokens, lesson.rival_token))


def quiz_answer(lesson: Lesson) -> QuizAnswer:
    """Filler tokens needed to match the rival's pull: e^(s_rival - s_filler)."""
    quiz = lesson.filler_quiz
    rival_score = float(scores(lesson.query, [lesson.rival_token.key])[0])
    gap = rival_score - quiz.filler_score
    return QuizAnswer(
        rival_score=rival_score,
        filler_score=quiz.filler_score,
        fillers_needed=exp(gap),
        options=(1.0, gap, exp(gap), exp(2 * gap)),
        correct=2,
        quiz=quiz,
    )


def _frozen(array: Vector) -> Vector:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class RivalOutcome:
    """What the lookalike rival does to the answer the output leaned towards."""

    kind: str
    """``"tie"``: the leader and the best other answer now show the same output;
    ``"overturns"``: another answer now leads; ``"dents"``: the leader still leads but its
    output fell; ``"backs"``: the leader's output did not fall (the rival argues for it too)."""
    leader: int
    """The answer the output leaned towards before the rival arrived."""
    challenger: int | None
    """The best other answer after the rival arrived; None when there is only one answer."""
    top_token: int
    """The token with the biggest share of the budget before the rival arrived."""
    rival_vs_top: int
    """-1, 0 or 1: the rival's score below, equal to or above the top token's score."""


def rival_outcome(lesson: Lesson, *, places: int = 2) -> RivalOutcome:
    """Classify what adding ``lesson.rival`` does to the output.

    Ties are judged as the viewer sees them: two outputs tie when they agree to ``places``
    decimal places, the precision the output vector is shown with.
    """
    return compare_rival(attend(lesson), attend(with_rival(lesson)), places=places)


def compare_rival(before: Attention, after: Attention, *, places: int = 2) -> RivalOutcome:
    """Classify the output ``after`` (the rival attended last) against ``before``, as
    :func:`rival_outcome` does, from attention already worked out."""
    leader = int(np.argmax(before.output))
    top_token = int(np.argmax(before.weights))
    rival_score, top_score = float(after.scores[-1]), float(before.scores[top_token])
    if math.isclose(rival_score, top_score, rel_tol=0, abs_tol=1e-9):
        rival_vs_top = 0
    else:
        rival_vs_top = 1 if rival_score > top_score else -1
    fell = after.output[leader] < before.output[leader] - 1e-12
    others = [j for j in range(after.output.size) if j != leader]
    if not others:
        return RivalOutcome("dents" if fell else "backs", leader, None, top_token, rival_vs_top)
    challenger = max(others, key=lambda j: after.output[j])
    lead = round(float(after.output[leader]), places)
    rival_best = round(float(after.output[challenger]), places)
    if lead == rival_best:
        kind = "tie"
    elif rival_best > lead:
        kind = "overturns"
    else:
        kind = "dents" if fell else "backs"
    return RivalOutcome(kind, leader, challenger, top_token, rival_vs_top)
