"""Render speed: the encoder settings are pinned; bench/bench.py's pure parts work (no render)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from attention_core import default_lesson, load_lesson
from bench import bench
from publish.presets import QUALITIES
from publish.render import worker


def test_encoder_settings_are_the_measured_ones() -> None:
    # Changing these changes every clip's look, size and render time: measure it with
    # bench/bench.py and an SSIM check, and update BENCHMARKS.md.
    assert worker.ENCODER_OPTIONS == {
        "threads": "1",
        "preset": "veryfast",
        "tune": "animation",
        "crf": "22.5",
        "x264-params": "cpu-independent=1:b-adapt=0:subme=1",
    }


@pytest.mark.parametrize(
    ("fmt", "transparent", "x264"),
    [("mp4", False, True), ("mov", False, True), ("gif", False, True), ("webm", False, False),
     ("mov", True, False), ("webm", True, False)],
)  # fmt: skip
def test_x264_options_go_only_to_x264(fmt: str, transparent: bool, x264: bool) -> None:
    job = worker.ClipJob("m:S", default_lesson(), QUALITIES["high"], fmt, transparent, Path("w"))
    options = worker.settings(job)["video_encoder_options"]
    assert options == (worker.ENCODER_OPTIONS if x264 else {"threads": "1"})


SAMPLES = [bench.Sample(10.0, 30.0, 500.0), bench.Sample(14.0, 20.0, 700.0),
           bench.Sample(12.0, 25.0, 600.0)]  # fmt: skip


def test_summary_takes_medians_and_the_highest_peak() -> None:
    summary = bench.summarise("render", SAMPLES, video_seconds=24.0)
    assert (summary.runs, summary.wall, summary.cpu, summary.max_rss_mib) == (3, 12.0, 25.0, 700.0)
    assert summary.wall_per_video_second == 0.5
    assert bench.summarise("dry", SAMPLES[:2], None).wall_per_video_second is None
    assert bench.summarise("even", SAMPLES[:2], None).wall == 12.0


def test_table_compares_with_plain_manim_only_rows_that_make_video() -> None:
    ours = bench.summarise("render.py", SAMPLES, 24.0)
    dry = bench.summarise("dry run", SAMPLES, None)
    plain = bench.summarise("plain", [bench.Sample(48.0, 90.0, 900.0)], 24.0)
    lines = bench.table([ours, dry, plain], plain).splitlines()
    assert lines[0].split()[:3] == ["measurement", "runs", "wall"]
    assert lines[2].split()[-2:] == ["0.50", "0.25"]  # wall / video, ÷ plain
    assert lines[3].split()[-2:] == ["-", "-"]
    assert lines[4].split()[-2:] == ["2.00", "1.00"]
    assert bench.table([ours], None).splitlines()[2].split()[-1] == "-"


def test_report_is_json_with_the_encoder_and_machine() -> None:
    rows = [
        bench.summarise(bench.COLD, SAMPLES, 24.0),
        bench.summarise(bench.CHANGED, SAMPLES[:1], 24.0),
    ]
    data = json.loads(json.dumps(bench.report(rows, QUALITIES["high"], {"cores": 2})))
    assert data["resolution"] == "1080p60"
    assert data["encoder_options"] == worker.ENCODER_OPTIONS
    assert data["machine"] == {"cores": 2}
    assert data["results"][0]["wall"] == 12.0
    assert data["results"][0]["wall_per_video_second"] == 0.5
    assert data["one_number_change_of_full_render"] == pytest.approx(10.0 / 12.0)


def test_changing_one_number_keeps_the_lesson_valid(tmp_path: Path) -> None:
    original = bench.LESSON.read_text("utf-8")
    changed = bench.change_one_number(original)
    copy = tmp_path / "changed.toml"
    copy.write_text(changed, "utf-8")
    before, after = load_lesson(bench.LESSON), load_lesson(copy)
    assert after.quiz.bonus_filler_score == before.quiz.bonus_filler_score + 1
    with pytest.raises(ValueError, match="bonus_filler_score"):
        bench.change_one_number("title = 'no quiz'\n")


def _clip(path: Path, source: str) -> Path:
    command = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source,
               "-frames:v", "30", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(path)]  # fmt: skip
    subprocess.run(command, check=True)
    return path


def test_ssim_weighs_each_clip_by_its_frames(tmp_path: Path) -> None:
    bars = _clip(tmp_path / "bars.mp4", "testsrc2=size=160x90:rate=30")
    noise = _clip(tmp_path / "noise.mp4", "cellauto=size=160x90:rate=30")
    assert bench.ssim([(bars, bars)]) == pytest.approx(1.0)
    different = bench.ssim([(bars, noise)])
    assert different < 0.5
    assert bench.ssim([(bars, bars), (bars, noise)]) == pytest.approx((1 + different) / 2)


def test_the_ratios_are_read_against_this_hosts_references() -> None:
    def row(name: str, wall: float, video: float | None) -> bench.Summary:
        return bench.summarise(name, [bench.Sample(wall, wall, 100.0)], video)

    rows = [
        row(bench.SILENT_ROW, 150.0, 300.0),
        row(bench.NARRATED_ROW, 200.0, 320.0),
        row(bench.DRY_ROW, 9.0, None),
        row(bench.REFERENCE_LOW, 10.0, 40.0),
        row(bench.REFERENCE_HIGH, bench.REFERENCE_HOST_HIGH * 1.2, 40.0),  # a slower host
    ]
    ratios = bench.against_references(rows)
    assert ratios["silent_wall_per_video_second"] == 0.5
    assert ratios["silent_target_here"] == pytest.approx(0.36)
    assert ratios["narrated_wall_per_video_second"] == 0.625
    assert ratios["narrated_target_here"] == pytest.approx(0.48)
    assert ratios["dry_run_of_reference"] == 0.9


def test_a_held_frame_costs_the_encoder_a_fraction_of_a_drawn_one(tmp_path: Path) -> None:
    from bench import encoder_cost

    clip = _clip(tmp_path / "moving.mp4", "testsrc2=size=320x180:rate=60")
    pictures = encoder_cost.drawn_pictures(clip, count=30)
    assert len(pictures) == 30
    assert all(not np.array_equal(a, b) for a, b in zip(pictures, pictures[1:], strict=False))
    held = encoder_cost.cpu_ms_per_frame(pictures, held=True)
    drawn = encoder_cost.cpu_ms_per_frame(pictures, held=False)
    assert 0 < held < drawn / 3
