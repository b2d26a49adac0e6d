"""Held frames written as copies of the picture before (scenes/held_pictures.py): every frame
still in the file at a constant rate, decoded to exactly the picture held by ffmpeg, PyAV and
Chromium, and still a file that other tools cut and re-encode."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import av
import pytest
from playwright.sync_api import Browser, sync_playwright

from scenes.held_pictures import SKIP_PPS_ID, SequenceInfo, Unsupported, is_copy, nal_units
from scenes.held_pictures import with_skip_pps as with_skip

from .conftest import Rendered

CHROMIUM = Path("/usr/bin/chromium")


def _x264_extradata() -> bytes:
    """x264's parameter sets at the project's settings, for a small picture."""
    from publish.render.worker import encoder_options

    codec = av.CodecContext.create("libx264", "w")
    codec.width, codec.height, codec.pix_fmt = 320, 180, "yuv420p"
    codec.time_base = Fraction(1, 60)
    codec.options = encoder_options("mp4", transparent=False)
    codec.flags |= av.codec.context.Flags.global_header  # as the MP4 muxer asks
    codec.open()
    return bytes(codec.extradata)


def test_the_skip_parameter_set_joins_x264s_and_only_once() -> None:
    extradata = _x264_extradata()
    sequence = SequenceInfo.parse(next(u for u in nal_units(extradata) if u[0] & 0x1F == 7))
    assert sequence.macroblocks == 20 * 12  # 320 × 180 in 16-pixel macroblocks, rounded up
    assert sequence.poc_type == 0  # x264's B-frames order pictures by a count of their own
    joined = with_skip(extradata)
    assert joined.startswith(extradata)
    assert len(nal_units(joined)) == len(nal_units(extradata)) + 1
    with pytest.raises(Unsupported, match=f"parameter set {SKIP_PPS_ID}"):
        with_skip(joined)


def _samples(video: Path) -> list[tuple[float, bool]]:
    """Each video sample's time (s) and whether it is a held picture's copy, in display order."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.time_base is not None
        samples = [
            (float(packet.pts * stream.time_base), is_copy(bytes(packet)))
            for packet in container.demux(stream)
            if packet.size and packet.pts is not None
        ]
    return sorted(samples)


def _longest_hold(video: Path) -> tuple[float, float]:
    """The first and last copy of the longest run of copies in ``video``."""
    runs: list[list[float]] = []
    for time, copy in _samples(video):
        if copy and runs and runs[-1][-1] >= 0:
            runs[-1].append(time)
        elif copy:
            runs.append([time])
        else:
            runs.append([-1.0])
    longest = max(runs, key=len)
    return longest[0], longest[-1]


def _frame_count(video: Path) -> tuple[int, float, str]:
    command = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v", "-of", "json"]
    command += ["-show_entries", "stream=nb_read_frames,duration,r_frame_rate", str(video)]
    stream = json.loads(subprocess.run(command, capture_output=True, check=True).stdout)
    entry = stream["streams"][0]
    return int(entry["nb_read_frames"]), float(entry["duration"]), str(entry["r_frame_rate"])


@pytest.mark.render
def test_every_held_frame_is_in_the_file_at_a_constant_rate(rendered: Rendered) -> None:
    for video in [*sorted(rendered.folder.glob("0*.mp4")), rendered.full]:
        frames, duration, rate = _frame_count(video)
        fps = Fraction(rate)
        assert fps == 15, video.name
        assert abs(frames - duration * fps) < 1, video.name
    copies = sum(copy for _, copy in _samples(rendered.full))
    assert copies > frames / 3  # holds are most of a lesson's frames, and all are copies


@pytest.mark.render
def test_held_frames_decode_cleanly_and_survive_a_cut_and_a_re_encode(
    rendered: Rendered, tmp_path: Path
) -> None:
    def ffmpeg(*args: str) -> str:
        done = subprocess.run(["ffmpeg", "-v", "error", *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stderr

    assert ffmpeg("-i", str(rendered.full), "-f", "null", "-") == ""  # no decoding error
    first, last = _longest_hold(rendered.full)
    cut, again = tmp_path / "cut.mp4", tmp_path / "again.mp4"
    ffmpeg("-ss", f"{first:.3f}", "-i", str(rendered.full), "-t", "4", "-c", "copy", str(cut))
    assert ffmpeg("-i", str(cut), "-f", "null", "-") == ""
    ffmpeg("-i", str(cut), "-c:v", "libx264", "-preset", "ultrafast", str(again))
    frames, duration, _ = _frame_count(again)
    assert frames > 0
    assert abs(frames - duration * 15) < 1
    with av.open(str(rendered.full)) as container:  # a second tool reads every frame
        pictures = [frame.pts for frame in container.decode(video=0)]
    assert len(pictures) == _frame_count(rendered.full)[0]
    assert last > first


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: run scripts/setup.sh (apt-get install chromium)")
    with sync_playwright() as playwright:
        # file: pages are each their own origin; this lets the canvas read the video it drew
        flags = ["--no-sandbox", "--allow-file-access-from-files"]
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=flags)
        yield launched
        launched.close()


SHOW_FRAME = """async ([time]) => {
  const video = document.querySelector('video');
  const once = (name) => new Promise(r => video.addEventListener(name, r, {once: true}));
  if (video.readyState < 2) await once('loadeddata');
  // 'seeked' can come before the new frame is on screen (a loaded machine drew the old one):
  // wait for the frame itself to be presented too, or 2 s
  const presented = new Promise(r => video.requestVideoFrameCallback(r));
  video.currentTime = time;
  await once('seeked');
  await Promise.race([presented, new Promise(r => setTimeout(r, 2000))]);
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth; canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  context.drawImage(video, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let sum = 0, spread = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    sum = (sum * 31 + pixels[i] + pixels[i + 1] * 7) % 1000000007;
  }
  for (let i = 0; i < pixels.length; i += 400) spread += Math.abs(pixels[i] - pixels[0]);
  return [sum, spread];
}"""


@pytest.mark.render
@pytest.mark.browser
def test_chromium_shows_the_held_picture_all_through_the_hold(
    rendered: Rendered, browser: Browser, tmp_path: Path
) -> None:
    clip = rendered.folder / "03_score.mp4"
    first, last = _longest_hold(clip)
    page_file = tmp_path / "held.html"
    page_file.write_text(f'<video src="{clip.resolve().as_uri()}" muted></video>', "utf-8")
    page = browser.new_page()
    page.goto(page_file.as_uri())
    start = page.evaluate(SHOW_FRAME, [first + 0.02])
    end = page.evaluate(SHOW_FRAME, [last + 0.02])
    before = page.evaluate(SHOW_FRAME, [max(first - 2.0, 0.0)])
    page.close()
    assert start[1] > 0, "the held picture is blank"
    assert start[0] == end[0], "the picture changed during a hold"
    assert before[0] != start[0], "a frame outside the hold reads the same: nothing was tested"
