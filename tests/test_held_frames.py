"""Converting a held frame once writes what manim's own encoder writes: the same pictures, and for
MP4 and MOV the same bytes (a WebM file carries a random segment id, so only its pictures are
compared)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from publish.held_frames import HeldFrameEncoder
from publish.worker import encoder_options

WIDTH, HEIGHT = 320, 180

PROFILES = {
    "mp4": ("mp4", "libx264", "yuv420p", encoder_options("mp4", transparent=False)),
    "transparent webm": ("webm", "libvpx-vp9", "yuva420p", encoder_options("webm", True)),
    "transparent mov": ("mov", "qtrle", "argb", encoder_options("mov", transparent=True)),
}


def _frames() -> list[tuple[np.ndarray, int]]:
    """A held frame, a square moving, held, moving on: (pixels, repeat) as manim sends them."""
    sent = []
    for step, repeat in enumerate((12, 1, 1, 1, 30, 1, 1, 7)):
        pixels = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
        pixels[:] = (20, 22, 28, 255 if step % 2 else 128)
        pixels[40:90, 10 + 20 * step : 60 + 20 * step] = (230, 159, 0, 255)
        sent.append((pixels, repeat))
    return sent


def _encode(encoder_class: type[VideoSegmentEncoder], target: Path, profile: str) -> bytes:
    container, codec, pixel_format, options = PROFILES[profile]
    spec = VideoEncoderSpec(
        container_format=container,
        codec=codec,
        pixel_format=pixel_format,
        width=WIDTH,
        height=HEIGHT,
        frame_rate=Fraction(60),
        options=tuple(sorted(options.items())),
    )
    encoder = encoder_class(target=target, spec=spec)
    for pixels, repeat in _frames():
        encoder.write_frame(pixels.copy(), repeat=repeat)
    encoder.finish()
    return target.read_bytes()


@pytest.mark.parametrize("profile", PROFILES)
def test_held_frames_encode_to_manims_bytes(profile: str, tmp_path: Path) -> None:
    suffix = PROFILES[profile][0]
    manims = _encode(VideoSegmentEncoder, tmp_path / f"manim.{suffix}", profile)
    ours = _encode(HeldFrameEncoder, tmp_path / f"ours.{suffix}", profile)
    assert _pictures(tmp_path / f"ours.{suffix}") == _pictures(tmp_path / f"manim.{suffix}")
    if suffix != "webm":
        assert ours == manims


def _pictures(video: Path) -> list[bytes]:
    with av.open(str(video)) as container:
        pictures = [b"".join(map(bytes, frame.planes)) for frame in container.decode(video=0)]
    assert len(pictures) == sum(repeat for _, repeat in _frames())
    return pictures


def test_a_bad_repeat_is_refused_as_manim_does(tmp_path: Path) -> None:
    container, codec, pixel_format, options = PROFILES["mp4"]
    spec = VideoEncoderSpec(container, codec, pixel_format, WIDTH, HEIGHT, Fraction(60), ())
    encoder = HeldFrameEncoder(target=tmp_path / "bad.mp4", spec=spec)
    with pytest.raises(ValueError, match="repeat"):
        encoder.write_frame(np.zeros((HEIGHT, WIDTH, 4), np.uint8), repeat=0)
    encoder.abort()
