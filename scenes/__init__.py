"""The lesson's scenes in the order they are shown."""

from __future__ import annotations

from scenes.base import LessonScene
from scenes.manim_internals import share_parsed_paths
from scenes.step1_title import Step1Title
from scenes.step2_big_picture import Step2BigPicture
from scenes.step3_score import Step3Score
from scenes.step4_softmax import Step4Softmax
from scenes.step5_mix import Step5Mix
from scenes.step6_rival import Step6Rival
from scenes.step7_answer import Step7Answer

__all__ = [
    "SCENES",
    "LessonScene",
    "Step1Title",
    "Step2BigPicture",
    "Step3Score",
    "Step4Softmax",
    "Step5Mix",
    "Step6Rival",
    "Step7Answer",
]

share_parsed_paths()  # every render and dry run of these scenes copies text glyphs faster

SCENES: tuple[type[LessonScene], ...] = (
    Step1Title,
    Step2BigPicture,
    Step3Score,
    Step4Softmax,
    Step5Mix,
    Step6Rival,
    Step7Answer,
)
