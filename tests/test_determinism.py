"""The encoder settings make a clip's bytes depend on its frames alone.

Without ``cpu-independent``, x264's AVX-512 macroblock-tree code reads heap memory it never wrote,
so the same frames gave different bytes depending on what the process had done before. Here the
same frames are encoded in fresh processes whose every ``malloc`` is pre-filled with a different
byte (glibc's ``MALLOC_PERTURB_``): the bytes must not change. On a CPU without AVX-512 the bug
cannot show and the test passes either way; on one with it, the test fails without the option.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from publish.render.worker import ENCODER_OPTIONS

ROOT = Path(__file__).parent.parent

SETTINGS: tuple[dict[str, str], ...] = (
    {},
    {"preset": "medium", "tune": "film"},
    {"preset": "slow", "tune": "animation"},
)
"""The renders' own settings, and other presets and tunes they may be switched to."""


def _frame(index: int) -> av.VideoFrame:
    """A blank first frame, as every scene starts, then a square moving across."""
    pixels = np.empty((480, 854, 4), np.uint8)
    pixels[:] = (20, 22, 28, 255)
    if index:
        pixels[100:200, 50 + 10 * index : 150 + 10 * index] = (230, 159, 0, 255)
    return av.VideoFrame.from_ndarray(pixels, format="rgba")


def encoded_digests(folder: Path) -> list[str]:
    """SHA-256 of 15 low-quality frames encoded as manim does, once per entry of SETTINGS."""
    digests = []
    for number, extra in enumerate(SETTINGS):
        target = folder / f"{number}.mp4"
        with av.open(str(target), "w", format="mp4") as container:
            stream = container.add_stream(
                "libx264", rate=Fraction(15), options={**ENCODER_OPTIONS, **extra}
            )
            stream.pix_fmt, stream.width, stream.height = "yuv420p", 854, 480
            for index in range(15):
                frame = _frame(index)
                frame.pts, frame.time_base = index, Fraction(1, 15)
                container.mux(stream.encode(frame))
            container.mux(stream.encode())
        digests.append(hashlib.sha256(target.read_bytes()).hexdigest())
    return digests


def _digests_with_heap_filled(fill: str, folder: Path) -> list[str]:
    folder.mkdir()
    code = (
        "import sys; from pathlib import Path; from tests.test_determinism import encoded_digests;"
        "print(*encoded_digests(Path(sys.argv[1])))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(folder)],
        env={**os.environ, "MALLOC_PERTURB_": fill},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return result.stdout.split()


def test_the_bytes_do_not_depend_on_leftover_memory(tmp_path: Path) -> None:
    # 0 leaves memory as it is; 1, 2 and 3 fill it with 0xfe, 0xfd and 0xfc, which all changed
    # the bytes before the fix.
    runs = {fill: _digests_with_heap_filled(fill, tmp_path / f"fill{fill}") for fill in "0123"}
    assert len(runs["0"]) == len(SETTINGS)
    assert all(digests == runs["0"] for digests in runs.values()), runs
