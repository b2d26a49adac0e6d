"""The lesson "Attention, by hand" and every quantity derived from it: pure numpy, no manim."""

from . import formatting
from .lesson import (
    LIMITS,
    Citation,
    Lesson,
    LessonError,
    Limits,
    Quiz,
    Reference,
    Token,
    default_lesson,
    load_lesson,
    parse_lesson,
)
from .maths import (
    BUDGET,
    PULL_PER_SCORE_POINT,
    SCORE_STEP,
    Attention,
    QuizAnswer,
    RivalOutcome,
    attend,
    quiz_answer,
    rival_outcome,
    softmax,
    with_rival,
)
from .words import Words, english

__all__ = [
    "BUDGET",
    "LIMITS",
    "PULL_PER_SCORE_POINT",
    "SCORE_STEP",
    "Attention",
    "Citation",
    "Lesson",
    "LessonError",
    "Limits",
    "Quiz",
    "QuizAnswer",
    "Reference",
    "RivalOutcome",
    "Token",
    "Words",
    "attend",
    "default_lesson",
    "english",
    "formatting",
    "load_lesson",
    "parse_lesson",
    "quiz_answer",
    "rival_outcome",
    "softmax",
    "with_rival",
]
