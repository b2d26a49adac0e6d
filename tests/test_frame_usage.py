"""bench/frame_usage.py measures a synthetic video whose boxes are at known places and times."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench import frame_usage
from scenes import layout, style

SECONDS = 6
# A 384x216 frame: boxes as (x, y, w, h, from, to), times in seconds.
HEADING = (20, 10, 200, 20, 0.3, SECONDS)  # the top band, from after the first sample
STRIP = (0, 206, 384, 10, 0.0, SECONDS)  # decoration along the bottom: never content
LOW_BOX = (100, 150, 150, 40, 1.8, 3.8)  # samples 2.0, 2.5, 3.0, 3.5: the bottom half used
HIGH_BOX = (100, 60, 150, 30, 3.8, 4.8)  # samples 4.0, 4.5: below the heading, in the top half
EDGE_BOX = (376, 100, 8, 20, 4.8, 5.8)  # samples 5.0, 5.5: past the action-safe edge (13 px in)


def synthetic_video(path: Path, boxes: tuple[tuple[float, ...], ...] = ()) -> Path:
    draw = ",".join(
        f"drawbox=x={x}:y={y}:w={w}:h={h}:color=white:t=fill:enable='between(t,{a},{b - 0.01})'"
        for x, y, w, h, a, b in (HEADING, STRIP, LOW_BOX, HIGH_BOX, *boxes)
    )
    colour = style.BACKGROUND.replace("#", "0x")
    subprocess.run(
        ["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
         f"color=c={colour}:s=384x216:r=10:d={SECONDS}", "-vf", draw,
         "-c:v", "libx264", "-pix_fmt", "yuv420p", str(path)],
        check=True,
    )  # fmt: skip
    return path


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synthetic_video(tmp_path_factory.mktemp("frames") / "01_boxes.mp4")


def test_background_is_the_scenes_own() -> None:
    assert frame_usage.BACKGROUND == style.BACKGROUND


def test_heading_is_found_at_the_top_band(video: Path) -> None:
    masks = frame_usage.content_masks(video)
    assert masks.shape == (SECONDS * 2, frame_usage.HEIGHT, frame_usage.WIDTH)
    [clip], _ = frame_usage.measure([video])  # the strip along the bottom left out
    assert clip.heading == pytest.approx(30 / 216, abs=0.01)  # the heading box's rows: 10 to 29


def test_empty_and_top_half_seconds_and_lowest_line(video: Path) -> None:
    [clip], whole = frame_usage.measure([video])
    u = clip.usage
    assert u.seconds == SECONDS
    # 0 (blank: the strip is decoration), 0.5, 1, 1.5, 5 and 5.5 (the heading alone)
    assert u.empty_seconds == 3.0
    assert u.top_half_seconds == 3.5  # the heading alone, and the high box
    assert u.top_half_share == pytest.approx(3.5 / 6)
    # Lowest lines: 30 (heading) in five frames, 90 (high box) in two, 190 (low box) in four.
    assert u.median_lowest == pytest.approx(90 / 216, abs=0.01)
    assert whole == u
    assert not whole.meets_targets


def test_content_past_action_safe_and_an_empty_lower_third(video: Path, tmp_path: Path) -> None:
    assert frame_usage.ACTION_SAFE == layout.ACTION_SAFE
    [clip], _ = frame_usage.measure([video])
    assert clip.usage.outside_seconds == 0.0  # the strip at the very bottom is decoration
    assert clip.usage.empty_lower_seconds == 4.0  # only the low box reaches the lower third
    [edged], _ = frame_usage.measure([synthetic_video(tmp_path / "edge.mp4", (EDGE_BOX,))])
    assert edged.usage.outside_seconds == 1.0


def test_clips_add_up_to_the_whole(video: Path) -> None:
    clips, whole = frame_usage.measure([video, video])
    assert [c.usage for c in clips] == [clips[0].usage] * 2
    assert whole.seconds == 2 * SECONDS
    assert whole.empty_seconds == 6.0
    assert whole.top_half_share == pytest.approx(3.5 / 6)


def test_cli_reports_and_checks(video: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert frame_usage.main([str(video.parent)]) == 0
    report = capsys.readouterr().out
    assert "01_boxes.mp4" in report
    assert "targets MISSED: empty 3.0 s" in report
    assert frame_usage.main([str(video), "--check"]) == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing.mp4", "no such file or folder"), ("empty", "no clips"), ("bad.mp4", "cannot read")],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad.mp4").write_text("not a video")
    assert frame_usage.main([str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
