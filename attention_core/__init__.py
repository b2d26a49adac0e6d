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
from .maths import Attention, QuizAnswer, attend, quiz_answer, softmax, with_rival

__all__ = [
    "LIMITS",
    "Attention",
    "Citation",
    "Lesson",
    "LessonError",
    "Limits",
    "Quiz",
    "QuizAnswer",
    "Reference",
    "Token",
    "attend",
    "default_lesson",
    "formatting",
    "load_lesson",
    "parse_lesson",
    "quiz_answer",
    "softmax",
    "with_rival",
]
