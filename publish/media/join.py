"""Join clips into one video without re-encoding, with a chapter per step."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from publish.media.ffmpeg import SUBTITLED, container_flags, ffmpeg
from publish.media.files import replacing
from publish.media.manifest import Chapter

__all__ = ["chapters_for", "concat_list", "ffmetadata", "join_clips"]


def chapters_for(clips: Sequence[tuple[str, int]]) -> list[Chapter]:
    """Back-to-back chapters from (title, duration in ms) pairs, in seconds."""
    found, start = [], 0
    for title, duration in clips:
        found.append(Chapter(title, start / 1000, (start + duration) / 1000))
        start += duration
    return found


def ffmetadata(title: str, chapters: Sequence[Chapter]) -> str:
    """An FFMETADATA1 file: the video's title and its chapters in milliseconds."""
    lines = [";FFMETADATA1", f"title={_escape(title)}"]
    for chapter in chapters:
        lines += [
            "",
            "[CHAPTER]",
            "TIMEBASE=1/1000",
            f"START={round(chapter.start * 1000)}",
            f"END={round(chapter.end * 1000)}",
            f"title={_escape(chapter.title)}",
        ]
    return "\n".join(lines) + "\n"


def concat_list(paths: Sequence[Path]) -> str:
    """A concat-demuxer list of absolute paths, quoted so any file name is safe."""
    return "".join(f"file '{_quote(str(path.resolve()))}'\n" for path in paths)


def join_clips(
    clips: Sequence[Path],
    title: str,
    chapters: Sequence[Chapter],
    target: Path,
    work: Path,
    *,
    subtitles: Path | None = None,
    language: str = "und",
) -> None:
    """Concatenate same-format clips into ``target`` (atomically), copying the picture and the
    sound (where the clips have it); ``subtitles`` (the joined WebVTT, see ``media.remux``)
    become a ``mov_text`` track tagged ``language`` where the container takes one."""
    work.mkdir(parents=True, exist_ok=True)
    listing, metadata = work / "concat.txt", work / "chapters.ffmeta"
    listing.write_text(concat_list(clips), encoding="utf-8")
    metadata.write_text(ffmetadata(title, chapters), encoding="utf-8")
    captions: list[str] = []
    if subtitles is not None and target.suffix in SUBTITLED:
        captions = ["-i", str(subtitles), "-map", "2:s:0", "-c:s", "mov_text"]
        captions += ["-metadata:s:s:0", f"language={language}"]
    with replacing(target) as temporary:
        ffmpeg(
            "-f",
            "concat",
            "-safe",
            "0",
            "-i",
            str(listing),
            "-i",
            str(metadata),
            *captions[:2],
            "-map",
            "0:v:0",
            "-map",
            "0:a?",
            *captions[2:],
            "-map_metadata",
            "1",
            "-map_chapters",
            "1",
            "-c:v",
            "copy",
            "-c:a",
            "copy",
            "-fflags",
            "+bitexact",
            "-flags:v",
            "+bitexact",
            *container_flags(target.suffix),
            str(temporary),
        )


def _escape(value: str) -> str:
    r"""ffmetadata treats ``= ; # \`` and newlines as syntax."""
    return re.sub(r"([=;#\\\n])", r"\\\1", value)


def _quote(path: str) -> str:
    return path.replace("'", "'\\''")
