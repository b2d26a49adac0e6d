"""The camera and the focus: every renderer's camera can move, where it stands is part of a
beat's state, and a focus dims, moves in and gives the picture back exactly."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from manim import MovingCamera, Rectangle, Square, config, tempconfig

from publish.beats.state import digest
from scenes.base import LessonScene
from scenes.beat import BeatTiming
from scenes.composition import TITLE_SAFE, contains
from scenes.manim_internals import beat_renderer, clip_renderer, undrawn_renderer
from scenes.probe import CameraFrame, box_of
from scenes.toolkit.focus import DIM, RESTED, Focus, framing, opacities


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


def _ran(scene_class: type[LessonScene], **kwargs: Any) -> Any:
    """``scene_class`` run dry (nothing drawn), as the probe runs a scene."""
    settings = {
        "dry_run": True,
        "disable_caching": True,
        "verbosity": "WARNING",
        "progress_bar": "none",
    }
    with tempconfig(settings):
        scene = scene_class(renderer=undrawn_renderer(), skip_animations=True, **kwargs)
        scene.render()
    return scene


def _states(pan: float) -> list[str | None]:
    boundary = _Digests()
    _ran(type("Moved", (Panned,), {"pan": pan}), boundary=boundary)
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


class Focused(LessonScene):
    """Three squares in a row: the middle one worked out in close-up, the left one a result
    already worked out, the right one neither; a caption under them all, across the frame."""

    slug = "focused"

    def construct(self) -> None:
        self.done, self.worked_out, self.other = (
            Square(0.8, fill_opacity=0.6).move_to([x, 0.5, 0]) for x in (-2.0, 0.0, 2.0)
        )
        self.wide = Rectangle(width=13.0, height=0.4, fill_opacity=0.5).move_to([0, -3.5, 0])
        with self.beat("One."):
            self.add(self.done, self.worked_out, self.other, self.wide)
            self.before = {id(m): opacities(m) for m in self.mobjects}
            with Focus(self, self.worked_out, results=[self.done], frame=[self.worked_out]):
                self.during = {id(m): opacities(m) for m in self.mobjects}
                self.camera_during = self.camera.frame.width
        self.after = {id(m): opacities(m) for m in self.mobjects}


def _fill(states: dict[int, Any], mob: Any) -> float:
    return float(states[id(mob)][id(mob)][0][0])


def test_a_focus_dims_the_rest_moves_in_and_gives_back_the_exact_picture() -> None:
    scene = _ran(Focused)
    own = _fill(scene.before, scene.worked_out)
    assert _fill(scene.during, scene.worked_out) == own == 0.6
    assert _fill(scene.during, scene.done) == pytest.approx(0.6 * RESTED)
    assert _fill(scene.during, scene.other) == pytest.approx(0.6 * DIM)
    # wider than the closer picture: it would be cut in two, so it leaves the picture
    assert _fill(scene.during, scene.wide) == 0.0
    assert scene.camera_during < config.frame_width * 0.9
    for mob in (scene.done, scene.worked_out, scene.other, scene.wide):
        before, after = scene.before[id(mob)], scene.after[id(mob)]
        assert before.keys() == after.keys()
        for part, arrays in before.items():
            assert all(np.array_equal(b, a) for b, a in zip(arrays, after[part], strict=True))
    assert scene.camera.frame.width == config.frame_width
    assert np.array_equal(scene.camera.frame.get_center(), np.zeros(3))


class Straddling(LessonScene):
    slug = "straddling"

    def construct(self) -> None:
        square = Square()
        self.add(square)
        with Focus(self, square), self.beat("One."):
            self.wait(0.1)


class BesideAResult(LessonScene):
    """A square worked out in close-up; a result already worked out at the close-up's edge."""

    slug = "beside_a_result"

    def construct(self) -> None:
        self.worked_out = Square(0.8, fill_opacity=0.6)
        self.done = Square(0.8, fill_opacity=0.6).move_to([-4.0, 0, 0])
        with self.beat("One."):
            self.add(self.worked_out, self.done)
            with Focus(self, self.worked_out, results=[self.done], frame=[self.worked_out]):
                self.during = {id(self.done): opacities(self.done)}


def test_a_result_the_close_up_would_cut_leaves_it_too() -> None:
    scene = _ran(BesideAResult)
    assert _fill(scene.during, scene.done) == 0.0


def test_a_focus_left_open_across_a_beat_is_refused() -> None:
    with pytest.raises(RuntimeError, match="inside one beat"):
        _ran(Straddling)


def test_framing_keeps_the_frames_shape_and_stays_inside_it() -> None:
    corner = Square(0.5).move_to([6.5, 3.5, 0])
    view = framing([corner])
    assert view.closer
    assert view.height == pytest.approx(view.width * config.frame_height / config.frame_width)
    assert view.x + view.width / 2 <= config.frame_width / 2 + 1e-9
    assert view.y + view.height / 2 <= config.frame_height / 2 + 1e-9
    whole = CameraFrame(0.0, 0.0, config.frame_width, config.frame_height)
    assert framing([Square(7.5)]) == whole


def test_a_close_up_holds_a_wide_detail_inside_its_title_safe_area() -> None:
    # 10.5 wide: half a unit either side is less than the 5 % a picture that wide keeps clear
    wide = Rectangle(width=10.5, height=1.5).move_to([0, -2.5, 0])
    view = framing([wide])
    assert view.closer
    assert contains(view.inner(TITLE_SAFE), box_of(wide))
