"""What the clip encoder costs a frame, held and drawn, on the lesson's own pictures.

python bench/encoder_cost.py media/high/03_score.mp4           # milliseconds of CPU a frame
python bench/encoder_cost.py media/high/03_score.mp4 --json    # the same, as JSON (bench.py)

The drawn frames are a rendered clip's distinct pictures in order (each differs from the one
before), written as one segment; the held frame is the first of them written as a hold that
ends its segment, as a ``wait`` is. Decoded, the pictures carry the clip's own encoding
noise, which a drawn picture has not: the drawn cost is an upper bound. The clip's encoder
(``scenes.manim_internals``), its options (``publish.render.worker``), one thread, in this
process: its CPU time is the cost.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from publish.render.worker import encoder_options  # noqa: E402
from scenes.manim_internals import mp4_segment_encoder  # noqa: E402

FRAMES = 300
"""Frames written each way: five seconds at 60 fps."""


def drawn_pictures(clip: Path, count: int = FRAMES) -> list[np.ndarray]:
    """The first ``count`` pictures of ``clip`` that differ from the one before (as many as it
    has, if fewer), as RGBA."""
    pictures: list[np.ndarray] = []
    with av.open(str(clip)) as container:
        for frame in container.decode(video=0):
            picture = frame.to_ndarray(format="rgba")
            if not pictures or not np.array_equal(picture, pictures[-1]):
                pictures.append(picture)
            if len(pictures) == count:
                break
    if len(pictures) < 2:
        raise SystemExit(f"encoder_cost: {clip} has no picture that changes")
    return pictures


def cpu_ms_per_frame(pictures: list[np.ndarray], held: bool) -> float:
    """CPU milliseconds a frame of one segment: every picture drawn, or the first one held."""
    height, width = pictures[0].shape[:2]
    options = encoder_options("mp4", transparent=False)
    copies = [picture.copy() for picture in pictures]  # the encoder takes over what it is sent
    with tempfile.TemporaryDirectory(prefix="encoder-cost-") as folder:
        encoder = mp4_segment_encoder(Path(folder) / "segment.mp4", width, height, options)
        started = time.process_time()
        if held:
            encoder.write_frame(copies[0], repeat=len(copies))
        else:
            for picture in copies:
                encoder.write_frame(picture)
        encoder.finish()
        return (time.process_time() - started) * 1000 / len(copies)


def per_frame(clip: Path) -> tuple[float, float]:
    """The encoder's CPU milliseconds per held frame and per drawn frame, on ``clip``'s pictures."""
    pictures = drawn_pictures(clip)
    return cpu_ms_per_frame(pictures, held=True), cpu_ms_per_frame(pictures, held=False)


if __name__ == "__main__":
    held, drawn = per_frame(Path(sys.argv[1]))
    if sys.argv[2:] == ["--json"]:
        print(json.dumps({"held_frame": held, "drawn_frame": drawn}))
    else:
        print(f"held frame {held:.2f} ms of CPU, drawn frame {drawn:.2f} ms")
