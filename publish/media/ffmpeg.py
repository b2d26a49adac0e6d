"""ffmpeg and ffprobe: measure a clip, remux it byte-reproducibly (with its sound and
subtitles), grab a poster frame."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

__all__ = [
    "BITEXACT",
    "MediaInfo",
    "SUBTITLED",
    "ToolError",
    "chapters",
    "container_flags",
    "ffmpeg",
    "poster",
    "probe",
    "remux",
]

BITEXACT = ["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact"]
"""No encoder version strings or dates in the container: the same input gives the same bytes."""


SUBTITLED = {".mp4", ".mov"}
"""Containers that carry captions as a ``mov_text`` subtitle track."""


class ToolError(RuntimeError):
    """ffmpeg or ffprobe failed; the message ends with what it printed."""


@dataclass(frozen=True)
class MediaInfo:
    """What ffprobe says about a video file."""

    duration: float
    width: int
    height: int
    fps: float
    codec: str
    pixel_format: str


def _run(args: list[str]) -> str:
    try:
        result = subprocess.run(args, capture_output=True, text=True, check=False)
    except OSError as error:
        raise ToolError(f"{args[0]}: {error}") from error
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise ToolError(f"{args[0]} failed ({result.returncode}): {tail}")
    return result.stdout


def ffmpeg(*args: str) -> None:
    """Run ffmpeg quietly, without reading stdin (a render may run in the background)."""
    _run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *args])


def _ffprobe(path: Path, *args: str) -> dict[str, Any]:
    out = _run(["ffprobe", "-v", "error", "-of", "json", *args, str(path)])
    data: dict[str, Any] = json.loads(out)
    return data


def probe(path: Path) -> MediaInfo:
    """Duration (of the container), size, frame rate and codec of the first video stream."""
    data = _ffprobe(
        path,
        "-select_streams",
        "v:0",
        "-show_entries",
        "stream=width,height,r_frame_rate,codec_name,pix_fmt:format=duration",
    )
    stream = data["streams"][0]
    return MediaInfo(
        duration=float(data["format"].get("duration", 0.0)),
        width=int(stream["width"]),
        height=int(stream["height"]),
        fps=float(Fraction(stream["r_frame_rate"])),
        codec=str(stream["codec_name"]),
        pixel_format=str(stream.get("pix_fmt", "")),
    )


def chapters(path: Path) -> list[tuple[str, float, float]]:
    """The file's chapters as (title, start, end) in seconds."""
    data = _ffprobe(path, "-show_chapters")
    return [
        (
            str(c.get("tags", {}).get("title", "")),
            float(c["start_time"]),
            float(c["end_time"]),
        )
        for c in data.get("chapters", [])
    ]


def container_flags(suffix: str) -> list[str]:
    """Container options: MP4 and MOV put their index first so players start before the end."""
    return ["-movflags", "+faststart"] if suffix in {".mp4", ".mov"} else []


def remux(
    source: Path,
    target: Path,
    *,
    language: str = "und",
    subtitles: Path | None = None,
    audio: Path | None = None,
    audio_options: Sequence[str] = (),
) -> None:
    """Copy the video stream into a clean container, without re-encoding; with ``audio``
    encoded with ``audio_options``, and ``subtitles`` as a ``mov_text`` track where the
    container takes one. Both tracks are tagged ``language`` (ISO 639-2: ``eng``).

    ``subtitles`` is WebVTT: ffmpeg decodes its ``&lt;`` and ``&amp;`` back to ``<`` and
    ``&``, where from SubRip it would keep the entities in the track. (Either way it reads a
    brace followed by a backslash as a style override and escapes braces: a caption with
    those shows them changed in the track, as typed in the sidecar files.)"""
    inputs, maps, codecs = ["-i", str(source)], ["-map", "0:v:0"], ["-c:v", "copy"]
    if audio is not None:
        inputs += ["-i", str(audio)]
        maps += ["-map", f"{len(inputs) // 2 - 1}:a:0"]
        codecs += [*audio_options, "-flags:a", "+bitexact"]
        codecs += ["-metadata:s:a:0", f"language={language}"]
    if subtitles is not None and target.suffix in SUBTITLED:
        inputs += ["-i", str(subtitles)]
        maps += ["-map", f"{len(inputs) // 2 - 1}:s:0"]
        codecs += ["-c:s", "mov_text", "-metadata:s:s:0", f"language={language}"]
    ffmpeg(
        *inputs,
        *maps,
        *codecs,
        "-map_chapters",
        "-1",
        *BITEXACT,
        *container_flags(target.suffix),
        str(target),
    )


def poster(source: Path, target: Path, at: float) -> None:
    """Save the frame at ``at`` seconds as a PNG (with alpha when the clip has it)."""
    ffmpeg(
        "-ss",
        f"{max(0.0, at):.3f}",
        "-i",
        str(source),
        "-frames:v",
        "1",
        *BITEXACT,
        "-f",
        "image2",
        "-update",
        "1",
        "-c:v",
        "png",
        str(target),
    )
