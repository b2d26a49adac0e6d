"""The composition measure (scenes/composition.py) finds each fault planted in a clean layout,
at rests and in the camera's frame, and nothing in the clean layout itself. The lessons are held to
the targets met so far in tests/test_scenes.py, beside their other screen checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from manim import MovingCamera

from attention_core import default_lesson
from bench import composition as bench_composition
from scenes.composition import (
    MIN_NUMBER_PX,
    Composition,
    composition,
    is_number,
    number_px,
    rest_moments,
)
from scenes.probe import CameraFrame, Probe, camera_frame, run_dry

from .composition_scene import Composed


def composed(case: str) -> Composition:
    return composition(probed(case))


def probed(case: str) -> Probe:
    return run_dry(Composed, default_lesson(), case=case)


def test_the_clean_layout_is_clean() -> None:
    found = composed("clean")
    assert bench_composition.problems(found) == []
    assert found.clean
    assert found.rests == 3  # the first beat's hold, the second beat's wait and its hold
    assert [n.text for n in found.numbers] == ["0.84"] * 3
    assert found.number_p5 is not None
    assert found.number_p5 >= MIN_NUMBER_PX


def test_the_probe_records_rests_frames_and_their_shapes() -> None:
    probe = probed("clean")
    assert len(probe.rests) == len(probe.frames) == len(probe.shapes) == len(probe.moments)
    assert probe.rests[0] is False  # the first play
    assert all(
        (shapes is None) == (not rest)
        for rest, shapes in zip(probe.rests, probe.shapes, strict=True)
    )
    first = rest_moments(probe)[0]
    assert probe.shapes[first] == ((-0.5, -3.1, 0.5, -2.1),)  # the square, not the texts' glyphs
    assert probe.frames[first].x == probe.frames[first].y == 0


def test_a_text_past_title_safe_is_found_where_a_shape_is_not() -> None:
    found = composed("text past title-safe")
    assert {m.what for m in found.texts_outside} == {"Too far"}
    assert found.shapes_outside == ()
    assert bench_composition.problems(composed("shape between the safe areas")) == []


def test_a_shape_past_action_safe_is_found() -> None:
    found = composed("shape past action-safe")
    assert len(found.shapes_outside) == found.rests
    assert found.texts_outside == ()


def test_a_text_cut_off_by_the_frame_is_outside_and_one_out_of_sight_is_not_seen() -> None:
    assert {m.what for m in composed("text cut off").texts_outside} == {"Cut off"}
    assert bench_composition.problems(composed("text out of sight")) == []


def test_overlapping_texts_are_found() -> None:
    found = composed("overlapping texts")
    assert {(o.first, o.second) for o in found.overlaps} == {("One", "Two")}


def test_a_small_number_is_found() -> None:
    found = composed("small number")
    assert {n.text for n in found.small_numbers} == {"0.84"}
    assert found.number_p5 is not None
    assert found.number_p5 < MIN_NUMBER_PX


def test_the_zoom_counts() -> None:
    small, zoomed = composed("small number"), composed("zoomed in on a small number")
    assert zoomed.numbers[0].px == pytest.approx(2 * small.numbers[0].px)
    assert (
        bench_composition.problems(zoomed) == []
    )  # half the frame: twice the height, and the heading unseen
    assert small.close_ups == ()
    assert len(zoomed.close_ups) == zoomed.rests  # the camera stays close at every rest


def test_a_lower_third_with_nothing_in_it_is_found() -> None:
    found = composed("nothing low")
    assert not found.clean
    assert len(found.empty_lower_thirds) == found.rests
    assert bench_composition.problems(found) == [
        f"{t:.2f} s: nothing in the lower third" for t in found.empty_lower_thirds
    ]


def test_what_passes_by_during_a_play_is_no_rest() -> None:
    probe = probed("passing")
    assert any(s.box[2] > probe.frames[0].width / 2 for m in probe.moments for s in m)
    assert bench_composition.problems(composition(probe)) == []


def test_a_moving_cameras_frame_is_read_from_its_frame() -> None:
    camera = MovingCamera()
    camera.frame.move_to([1, 2, 0]).scale(0.5)
    seen = camera_frame(camera)
    assert (seen.x, seen.y) == (1, 2)
    assert seen.height == pytest.approx(camera.frame.height)
    assert seen.inner(0.5) == pytest.approx(
        (1 - seen.width / 4, 2 - seen.height / 4, 1 + seen.width / 4, 2 + seen.height / 4)
    )


@pytest.mark.parametrize(
    ("text", "number"),
    [("0.84", True), ("-2", True), ("84.4%", True), ("(-2)", True), ("3", True),
     ("e^{3}", False), ("x = 3", False), ("STEP 1", False), ("%", False)],
)  # fmt: skip
def test_what_counts_as_a_number(text: str, number: bool) -> None:
    assert is_number(text) is number


def test_pixels_at_1080p_count_the_frame() -> None:
    frame = CameraFrame(0, 0, 16, 9)
    assert number_px((0, 0, 1, 0.5), frame) == pytest.approx(60)
    assert number_px((0, 0, 1, 0.5), CameraFrame(5, 5, 8, 4.5)) == pytest.approx(120)


def test_scenes_merge_into_a_lesson() -> None:
    clean, low = composed("clean"), composed("nothing low")
    whole = Composition.merged([clean, low])
    assert whole.rests == clean.rests + low.rests
    assert whole.empty_lower_thirds == low.empty_lower_thirds
    assert len(whole.numbers) == len(clean.numbers) + len(low.numbers)


def test_the_bench_table_has_a_line_per_scene_and_the_lessons() -> None:
    scenes = [("01_clean", composed("clean")), ("02_small", composed("small number"))]
    lines = bench_composition.table(scenes, listed=True).splitlines()
    assert lines[0].split()[:3] == ["scene", "rests", "text"]
    assert lines[1].split() == [
        *("01_clean", "3", "0", "0", "0", "0", "3", "0", "67", "67", "0", "0", "0")
    ]
    assert lines[2].split()[:8] == ["02_small", "3", "0", "0", "0", "0", "3", "3"]
    assert lines[3].startswith("    ")
    assert "number '0.84'" in lines[3]
    assert lines[-2].split()[:8] == ["lesson", "6", "0", "0", "0", "0", "6", "3"]
    assert lines[-1] == "focus in 0 of 2 scenes, closer in 0"


def test_a_text_dimmed_beside_one_at_full_strength_is_a_focus() -> None:
    assert composed("clean").focused == ()
    assert composed("all faint").focused == ()  # nothing is at full strength: no focus
    dimmed = probed("dimmed")
    assert composition(dimmed).focused == tuple(dimmed.times)  # every moment, each rest too
    assert composed("zoomed in on a small number").focused  # a close-up leaves the rest out


def test_the_bench_says_a_bad_lesson_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_composition.main([str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("composition: ")
    assert len(err.strip().splitlines()) == 1
