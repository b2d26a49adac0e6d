"""The lesson's scenes in the order they are shown."""

from __future__ import annotations

from .base import LessonScene
from .step3_score import Step3Score

__all__ = ["SCENES", "LessonScene", "Step3Score"]

SCENES: tuple[type[LessonScene], ...] = (Step3Score,)
