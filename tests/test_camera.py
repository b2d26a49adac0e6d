"""The camera: every renderer's can move, and where it stands is part of a beat's state."""

from __future__ import annotations

from typing import Any

from manim import MovingCamera, Square, tempconfig

from publish.beats.state import digest
from scenes.base import LessonScene
from scenes.beat import BeatTiming
from scenes.manim_internals import beat_renderer, clip_renderer, undrawn_renderer


class _Digests:
    """A beat boundary that tells each beat's state as it begins."""

    def __init__(self) -> None:
        self.states: list[str | None] = []

    def begin(self, scene: Any, number: int) -> None:
        self.states.append(digest(scene))

    def end(self, scene: Any, timing: BeatTiming) -> None:
        return None


class Panned(LessonScene):
    """Two beats; between them the camera moves by ``pan`` (placed, not animated: so the
    frame never joins the screen, and only the camera's own place can tell the beats apart)."""

    slug = "panned"
    pan = 0.0

    def construct(self) -> None:
        with self.beat("One."):
            self.add(Square())
            self.camera.frame.shift([self.pan, 0, 0])
        with self.beat("Two."):
            self.wait(0.2)


def _states(pan: float) -> list[str | None]:
    boundary = _Digests()
    scene = type("Moved", (Panned,), {"pan": pan})
    settings = {"dry_run": True, "disable_caching": True, "verbosity": "WARNING"}
    with tempconfig(settings):
        scene(renderer=undrawn_renderer(), boundary=boundary, skip_animations=True).render()
    return boundary.states


def test_every_renderer_films_with_a_camera_that_can_move() -> None:
    for renderer in (clip_renderer(), beat_renderer(), undrawn_renderer()):
        assert isinstance(renderer.camera, MovingCamera), type(renderer).__name__


def test_where_the_camera_stands_is_in_the_state_of_the_beats_after() -> None:
    still, moved, moved_again = _states(0.0), _states(1.0), _states(1.0)
    assert None not in still + moved
    assert still[0] == moved[0]  # the first beat begins before the camera moves
    assert still[1] != moved[1]
    assert moved == moved_again
