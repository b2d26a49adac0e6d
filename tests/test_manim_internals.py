"""The one door to manim's internals: it alone names them, it checks manim's version, and what it
does behind it changes nothing a viewer sees.

Converting a held frame once writes what manim's own encoder writes: the same pictures, and for
MP4 and MOV the same bytes (a WebM file carries a random segment id, so only its pictures are
compared). Copies of a text glyph share its parsed SVG path, and are otherwise independent.
"""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from manim import RED, Text, tempconfig
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from publish.render.worker import encoder_options
from scenes import manim_internals  # importing the scenes installs the path sharing
from scenes.manim_internals import HeldFrameEncoder, HeldFrameWriter, version_advice

ROOT = Path(__file__).parent.parent
DOOR = ROOT / "scenes" / "manim_internals.py"
PRIVATE = re.compile(
    r"\bmanim\._[a-z]|^\s*(from|import) manim\.\w"  # modules inside manim, not its public face
    r"|\b(VideoSegmentEncoder|VideoEncoderSpec|SceneFileWriter|_create_segment_encoder"
    r"|file_writer_class|output_plan|primary_artifact|subcaption_file|_code_html"
    r"|VMobjectFromSVGPath|path_obj|update_frame|save_static_frame_data)\b"
)
"""Every private or version-specific manim name the project uses, and any import from inside
manim's package: the door and its own tests may name them, nothing else."""

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


def test_a_copied_glyph_shares_its_parsed_path_and_nothing_it_can_change(tmp_path) -> None:
    with tempconfig({"media_dir": str(tmp_path)}):
        original = Text("Ag", font="Inter")
    copy = original.copy()
    for glyph, copied in zip(original, copy, strict=True):
        assert copied.path_obj is glyph.path_obj
        assert copied is not glyph
        assert copied.points is not glyph.points
        np.testing.assert_array_equal(copied.points, glyph.points)
    copy.set_color(RED).shift([1, 0, 0])
    assert not np.allclose(copy[0].points, original[0].points)
    assert original[0].get_fill_color() != copy[0].get_fill_color()


def test_no_code_outside_the_door_names_manims_internals() -> None:
    sources = [
        path
        for folder in ("attention_core", "scenes", "publish", "bench", "tests")
        for path in (ROOT / folder).rglob("*.py")
    ] + [ROOT / "render.py"]
    outside = [path for path in sources if path not in {DOOR, Path(__file__)}]
    named = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in outside
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert named == []
    assert PRIVATE.search(DOOR.read_text("utf-8"))  # the pattern still finds what it is for


def test_on_its_own_version_the_door_speeds_renders_up() -> None:
    assert manim_internals.SPEEDUPS
    assert version_advice(manim_internals.WRITTEN_FOR) is None
    assert manim_internals.clip_renderer()._file_writer_class is HeldFrameWriter


def test_on_another_manim_the_door_says_what_to_do_and_uses_plain_manim() -> None:
    probe = (
        "import manim; manim.__version__ = '0.23.0';"
        "from scenes import manim_internals as door;"
        "print(door.SPEEDUPS, door.clip_renderer()._file_writer_class.__name__,"
        " type(door.undrawn_renderer()).__name__,"
        " door.VMobjectFromSVGPath.__deepcopy__ is door._copy_sharing_path)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    plain = ["False", SceneFileWriter.__name__, "CairoRenderer", "False"]  # nothing replaced
    assert result.stdout.split() == plain
    warned = [line for line in result.stderr.splitlines() if "ManimVersionWarning" in line]
    assert len(warned) == 1
    assert "manim 0.23.0 is installed" in warned[0]
    assert "run `bash scripts/setup.sh` to install 0.22.0" in warned[0]
