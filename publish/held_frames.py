"""A held frame is converted once, not once per repeat.

manim draws a held frame (a ``wait``, the hold at the end of a beat) once and hands it to its
encoder with ``repeat=n``; manim 0.22's :class:`VideoSegmentEncoder` then copies and converts it
to yuv420p ``n`` times. More than half of a lesson's frames are held, so :class:`HeldFrameEncoder`
wraps the pixels without a copy (manim hands over ownership of them), converts them once, and
sends the same picture ``n`` times. The bytes written are the same as manim's
(``tests/test_held_frames.py``).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import av
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

__all__ = ["HeldFrameEncoder", "HeldFrameWriter"]


class HeldFrameEncoder(VideoSegmentEncoder):
    """manim's segment encoder, converting each drawn frame once however long it is held."""

    def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
        stream: Any = self._stream  # a video stream (manim types it as any stream)
        try:
            picture = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
            picture = picture.reformat(format=self.spec.pixel_format)
            for _ in range(repeat):
                picture.pts = self._next_pts
                picture.time_base = time_base
                self._next_pts += 1
                for packet in stream.encode(picture):
                    self._container.mux(packet)
        except BaseException as error:
            raise self._operation_error("encode", error) from error


class HeldFrameWriter(SceneFileWriter):
    """manim's file writer with :class:`HeldFrameEncoder` for every segment."""

    def _create_segment_encoder(self, target: Path) -> VideoSegmentEncoder:
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return HeldFrameEncoder(target=target, spec=self.video_encoder)
