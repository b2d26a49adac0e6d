"""The described video's files: the picture with its holds, the described narration as its
sound, shifted captions and chapters; or, where nothing holds, the described narration as the
plain video's second sound track.

The picture is copied as it is where nothing holds. Holding frames means encoding it again:
one ``loop`` filter per hold repeats the beat's last frame, in one pass, with no frame kept in
memory but the one looped.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

from publish.described.holds import Hold
from publish.media.ffmpeg import SUBTITLED, ToolError, container_flags, ffmpeg
from publish.media.files import replacing
from publish.media.join import ffmetadata
from publish.media.manifest import Chapter
from publish.narration.soundtrack import encoding

__all__ = [
    "DESCRIBES",
    "ENCODER",
    "add_described_track",
    "held_filter",
    "streams",
    "write_described",
]

DESCRIBES = "visual_impaired+descriptions"
"""The described track's disposition: for viewers who cannot see the picture. ffmpeg's MP4
muxer (5.1) writes either flag as the track's ``kind`` box (scheme ``urn:mpeg:dash:role:2011``,
value ``description``), and its demuxer reads that box back as both, so both are set."""

ENCODER = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p"]
"""The held picture's encoding: near the clips' look, fast enough to redo a lesson at 1080p."""


def streams(path: Path) -> list[tuple[str, str]]:
    """The file's streams, in order: each one's kind (``video``, ``audio``, ``subtitle``…) and
    name (:func:`_named`; empty where it has none)."""
    command = ["ffprobe", "-v", "error", "-of", "json", "-show_entries"]
    command += ["stream=codec_type:stream_tags=handler_name"]
    try:
        result = subprocess.run([*command, str(path)], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise ToolError(f"ffprobe {path.name}: {error}") from error
    return [
        (str(s.get("codec_type", "")), str(s.get("tags", {}).get("handler_name", "")))
        for s in json.loads(result.stdout).get("streams", [])
    ]


def held_filter(holds: Sequence[Hold], fps: float) -> str:
    """The filter that holds each :class:`Hold`'s frame (the last before its moment) for its
    length, frames counted in the plain video; the frames renumbered at ``fps`` after."""
    steps, added = [], 0
    for hold in holds:
        frames = round(hold.length * fps)
        last = round(hold.at * fps) - 1 + added  # the frames held before it moved it on
        steps.append(f"loop=loop={frames}:size=1:start={last}")
        added += frames
    return ",".join([*steps, "setpts=N/FRAME_RATE/TB"])


def write_described(
    plain: Path,
    sound: Path,
    target: Path,
    *,
    holds: Sequence[Hold],
    fps: float,
    title: str,
    chapters: Sequence[Chapter],
    subtitles: Path | None,
    language: str,
    track: str,
    work: Path,
) -> None:
    """``target``: ``plain``'s picture (its holds added) with ``sound`` (the described
    narration, WAV) as its one sound track, titled ``track``, ``subtitles`` (WebVTT, already
    shifted) and ``chapters`` (already shifted); written whole or not at all."""
    work.mkdir(parents=True, exist_ok=True)
    metadata = work / "described.ffmeta"
    metadata.write_text(ffmetadata(title, chapters), encoding="utf-8")
    inputs = ["-i", str(plain), "-i", str(sound), "-i", str(metadata)]
    maps = ["-map", "0:v:0", "-map", "1:a:0"]
    codecs = ["-c:v", "copy"] if not holds else ["-vf", held_filter(holds, fps), *ENCODER]
    codecs += [*encoding(target.suffix), "-metadata:s:a:0", f"language={language}"]
    codecs += _named(0, track)
    if subtitles is not None and target.suffix in SUBTITLED:
        inputs += ["-i", str(subtitles)]
        maps += ["-map", "3:s:0"]
        codecs += ["-c:s", "mov_text", "-metadata:s:s:0", f"language={language}"]
    with replacing(target) as temporary:
        ffmpeg(
            *inputs,
            *maps,
            *codecs,
            "-map_metadata",
            "2",
            "-map_chapters",
            "2",
            "-fflags",
            "+bitexact",
            "-flags:v",
            "+bitexact",
            "-flags:a",
            "+bitexact",
            *container_flags(target.suffix),
            str(temporary),
        )


def add_described_track(plain: Path, sound: Path, *, language: str, title: str) -> None:
    """Rewrite ``plain`` with ``sound`` (the described narration, as long as the picture) as a
    sound track after its narration (the first, in a silent lesson), tagged ``language`` and
    ``title``, not played by default and flagged :data:`DESCRIBES` (a player that picks the
    described track by its disposition finds it); everything else copied as it is. A described
    track made before (one titled ``title``) is replaced, never added to."""
    found = streams(plain)
    audio = [i for i, (kind, name) in enumerate(found) if kind == "audio" and name != title]
    keep = ["-map", "0:v:0"] + (["-map", f"0:{audio[0]}"] if audio else [])
    captions = any(kind == "subtitle" for kind, _ in found)
    keep += ["-map", "0:s:0"] if captions else []
    # the captions written afresh, not copied: ffmpeg 5.1's mov_text muxer adds a font record
    # to a copied track's header each time, so a second run would not give the first's bytes
    afresh = ["-c:s", "mov_text"] if captions else []
    index = 1 if audio else 0
    disposition = ["-disposition:a:0", "default"] if audio else []
    with replacing(plain) as temporary:
        ffmpeg(
            "-i",
            str(plain),
            "-i",
            str(sound),
            *keep,
            "-map",
            "1:a:0",
            "-map_metadata",
            "0",
            "-map_chapters",
            "0",
            "-c",
            "copy",
            *afresh,
            *_track(plain.suffix, index),
            f"-metadata:s:a:{index}",
            f"language={language}",
            *_named(index, title),
            *disposition,
            f"-disposition:a:{index}",
            DESCRIBES,
            "-fflags",
            "+bitexact",
            "-flags:a",
            "+bitexact",
            *container_flags(plain.suffix),
            str(temporary),
        )


def _named(index: int, name: str) -> list[str]:
    """Sound stream ``index`` named ``name``: MP4 keeps a track's name as its handler's name
    (players list it; ffprobe calls it ``handler_name``), and drops a ``title`` tag."""
    return [f"-metadata:s:a:{index}", f"title={name}", f"-metadata:s:a:{index}"] + [
        f"handler_name={name}"
    ]


def _track(suffix: str, index: int) -> list[str]:
    """The narration's encoding (:func:`encoding`), for sound stream ``index`` only."""
    return [
        f"{option.split(':')[0]}:a:{index}" if option.startswith("-") else option
        for option in encoding(suffix)
    ]
