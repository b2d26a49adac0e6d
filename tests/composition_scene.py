"""A scene for the composition tests: a clean layout, into which a case plants one fault."""

from __future__ import annotations

from collections.abc import Callable

from manim import RIGHT, FadeIn, Mobject, Square, config

from scenes import style
from scenes.base import LessonScene
from scenes.helpers import text

HALF_WIDTH = config.frame_width / 2


def _at(mob: Mobject, right: float, y: float) -> Mobject:
    """``mob`` with its right edge at ``right`` and its centre at height ``y``."""
    return mob.move_to([right - mob.width / 2, y, 0])


def _heading() -> Mobject:
    return text("A heading", size=style.HEADING_SIZE).move_to([0, 2.6, 0])


def _number(size: float = 48) -> Mobject:
    return text("0.84", size=size).move_to([0, 0, 0])


def _low_square() -> Mobject:
    return Square(side_length=1.0).move_to([0, -2.6, 0])


def _clean() -> list[Mobject]:
    return [_heading(), _number(), _low_square()]


CASES: dict[str, Callable[[], list[Mobject]]] = {
    "clean": _clean,
    # past 90 % of the half width (6.40), within 93 % (6.61): wrong for a text, fine for a shape
    "text past title-safe": lambda: [*_clean(), _at(text("Too far"), 0.915 * HALF_WIDTH, 1)],
    "shape between the safe areas": lambda: [*_clean(), _at(Square(0.5), 0.915 * HALF_WIDTH, 1)],
    "shape past action-safe": lambda: [*_clean(), _at(Square(0.5), 0.96 * HALF_WIDTH, 1)],
    "text cut off": lambda: [*_clean(), text("Cut off").move_to([HALF_WIDTH, 1, 0])],
    "text out of sight": lambda: [*_clean(), text("Unseen").move_to([3 * HALF_WIDTH, 1, 0])],
    "overlapping texts": lambda: [
        *_clean(),
        text("One").move_to([-3, 1, 0]),
        text("Two").move_to([-3, 1, 0]),
    ],
    "small number": lambda: [_heading(), _number(size=16), _low_square()],
    "zoomed in on a small number": lambda: [_number(size=16), Square(0.5).move_to([0, -1.5, 0])],
    "nothing low": lambda: [_heading(), _number()],
    "dimmed": lambda: [_heading().set_opacity(0.35), _number(), _low_square()],
    "all faint": lambda: [_heading().set_opacity(0.35), _number().set_opacity(0.35)],
}


class Composed(LessonScene):
    """One beat showing its case's layout and holding it. Zoomed, the camera's frame is half
    the size, about the centre; passing, a text crosses the frame's edge during a play and is
    back before the hold."""

    slug = "composed"

    def __init__(self, case: str = "clean", **kwargs: object) -> None:
        self.case = case
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def construct(self) -> None:
        if self.case.startswith("zoomed"):
            camera = self.renderer.camera
            camera.frame_width, camera.frame_height = (
                camera.frame_width / 2,
                camera.frame_height / 2,
            )
        placed = CASES[self.case]() if self.case in CASES else _clean()
        with self.beat("Look at this."):
            self.play(FadeIn(*placed))
            if self.case == "passing":
                self.play(placed[1].animate.shift(RIGHT * HALF_WIDTH))
                self.play(placed[1].animate.shift(-RIGHT * HALF_WIDTH))
        with self.beat("And at this."):
            self.wait(0.2)
