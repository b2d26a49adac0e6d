"""Beats' segments joined without re-encoding, as manim joins a scene's plays (concat, remux)."""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

import av

__all__ = ["duration", "join"]


def join(files: Sequence[Path], target: Path) -> None:
    """Write ``files`` (segments of one encoding, each starting on a keyframe) one after
    another into ``target``, packets copied; their timestamps are laid end to end."""
    from scenes.manim_internals import concat_list

    source: Any = av.open(BytesIO(concat_list(list(files))), format="concat", options={"safe": "0"})
    try:
        stream = source.streams.video[0]
        with av.open(str(target), mode="w", format=_format(target)) as output:
            copied = output.add_stream_from_template(template=stream)
            for packet in source.demux(stream):
                if packet.dts is None:  # the demuxer's flushing packets
                    continue
                packet.dts = None  # consecutive files restart at 0: libav lays them end to end
                packet.stream = copied
                output.mux(packet)
    finally:
        source.close()


def duration(video: Path) -> float:
    """The container's duration in seconds, read in this process (ffprobe's would start one)."""
    with av.open(str(video)) as container:
        return float(container.duration or 0) / av.time_base


def _format(target: Path) -> str | None:
    """The container for ``target``: by its suffix, but a temporary's ``.partial`` is not one."""
    return {".mp4": "mp4", ".mov": "mov", ".webm": "webm"}.get(target.suffix)
