"""Measure how a rendered lesson uses the frame: empty frames under a heading, top-heavy frames.

python bench/frame_usage.py media/low              # every clip NN_*.mp4 in a render's folder
python bench/frame_usage.py a.mp4 b.mp4 --check    # these clips; exit 1 when a target is missed

Frames are sampled twice a second. A pixel is content when it differs from the background
(``scenes.style.BACKGROUND``) by more than a small tolerance in any channel. Two things on screen
are not content:

- decoration: a pixel that is content in every sampled frame of every clip measured together
  (a logo, a border strip);
- the heading: each clip's top band, what it shows first and keeps (a step's label and headline;
  the title of a title card): the topmost block of rows on screen within the clip's first
  second with content and in at least half its frames, starting in the top fifth of the frame.
  Where it ends is reported, so it can be checked.

Reported per clip and for the whole: seconds with nothing below the heading, seconds (and share)
with all content in the top half of the frame, the median lowest content line (in % of the
height from the top, over frames with content), and, as ``bench/composition.py`` reads them
from dry runs but here in the pixels of every sampled frame (plays too): seconds with content
outside the action-safe area (``scenes.layout.ACTION_SAFE`` of the frame, about its centre)
and seconds with nothing in the lower third. The issue's targets for the whole: at most
``MAX_EMPTY_SECONDS`` with nothing below the heading, at most ``MAX_TOP_HALF_SHARE`` of the time
with all content in the top half.

Its sibling ``bench/composition.py`` measures the frame from dry runs instead, at every rest and
in the camera's frame: texts outside title-safe, shapes outside action-safe, overlapping texts,
number heights at 1080p, rests with an empty lower third.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = [
    "ClipUsage",
    "Usage",
    "clips_in",
    "content_masks",
    "heading_bottom",
    "main",
    "measure",
    "usage",
]

BACKGROUND = "#14161c"  # scenes.style.BACKGROUND; tests/test_frame_usage.py checks they agree
SAMPLES_PER_SECOND = 2
WIDTH, HEIGHT = 512, 288  # frames are measured at this size (area-averaged): 16:9, quick
TOLERANCE = 24  # a channel this far from the background's (of 255) is content
HEADING_ZONE = 0.2  # the heading starts within this top share of the frame
HEADING_PRESENCE = 0.5  # ... and is on screen in at least this share of the clip's frames
HEADING_GAP = 0.03  # a gap of rows this tall (share of the height) ends the heading's block
MAX_EMPTY_SECONDS = 3.0
MAX_TOP_HALF_SHARE = 0.08
ACTION_SAFE = 0.93  # scenes.layout.ACTION_SAFE; tests/test_frame_usage.py checks they agree
CLIP_NAME = re.compile(r"^\d\d_.+\.mp4$")

Masks = npt.NDArray[np.bool_]
"""Content masks of a clip's sampled frames: (frames, HEIGHT, WIDTH)."""


class UsageError(Exception):
    """Bad input: a missing file, a folder without clips, a video ffmpeg cannot read."""


@dataclass(frozen=True)
class Usage:
    """How a stretch of video uses the frame."""

    seconds: float
    empty_seconds: float
    """Nothing below the heading (or nothing at all)."""
    top_half_seconds: float
    """Content on screen, all of it in the top half."""
    median_lowest: float | None
    """Median lowest content row, as a share of the height from the top; None if never any."""
    outside_seconds: float = 0.0
    """Content outside the action-safe area."""
    empty_lower_seconds: float = 0.0
    """Nothing in the frame's lower third."""

    @property
    def top_half_share(self) -> float:
        return self.top_half_seconds / self.seconds if self.seconds else 0.0

    @property
    def meets_targets(self) -> bool:
        return self.empty_seconds <= MAX_EMPTY_SECONDS and self.top_half_share <= MAX_TOP_HALF_SHARE


@dataclass(frozen=True)
class ClipUsage:
    """One clip's usage and where its heading was found to end (share of the height)."""

    name: str
    heading: float
    usage: Usage


def background_rgb(colour: str = BACKGROUND) -> npt.NDArray[np.int16]:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)


def frames(video: Path) -> Iterator[npt.NDArray[np.uint8]]:
    """The video's frames sampled SAMPLES_PER_SECOND times a second, as (HEIGHT, WIDTH, 3) RGB."""
    command = [
        "ffmpeg", "-v", "error", "-nostdin", "-i", str(video),
        "-vf", f"fps={SAMPLES_PER_SECOND},scale={WIDTH}:{HEIGHT}:flags=area",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
    ]  # fmt: skip
    size = WIDTH * HEIGHT * 3
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as ffmpeg:
        assert ffmpeg.stdout is not None
        while len(chunk := ffmpeg.stdout.read(size)) == size:
            yield np.frombuffer(chunk, dtype=np.uint8).reshape(HEIGHT, WIDTH, 3)
        error = ffmpeg.stderr.read().decode(errors="replace") if ffmpeg.stderr else ""
    if ffmpeg.returncode != 0:
        first = error.strip().splitlines()[-1] if error.strip() else f"exit {ffmpeg.returncode}"
        raise UsageError(f"{video}: ffmpeg cannot read it ({first})")


def content_masks(video: Path) -> Masks:
    """Which pixels of each sampled frame differ from the background."""
    background = background_rgb()
    masks = [
        (np.abs(frame.astype(np.int16) - background) > TOLERANCE).any(axis=2)
        for frame in frames(video)
    ]
    if not masks:
        raise UsageError(f"{video}: no frames to measure")
    return np.stack(masks)


def heading_bottom(masks: Masks) -> int:
    """The first row below the clip's heading: 0 when it has none.

    The heading is what a clip shows first and keeps: the topmost block of rows that are on
    screen within the first second with content and in at least HEADING_PRESENCE of the
    frames, starting in the top HEADING_ZONE of the frame; a gap of HEADING_GAP ends the block.
    """
    rows = content_rows(masks)
    shown = np.flatnonzero(rows.any(axis=1))
    if not len(shown):
        return 0
    early = rows[shown[0] : shown[0] + SAMPLES_PER_SECOND + 1].any(axis=0)
    heading = (early & (rows.mean(axis=0) >= HEADING_PRESENCE)).tolist()
    top = next((row for row, on in enumerate(heading) if on), HEIGHT)
    if top > HEADING_ZONE * HEIGHT:
        return 0
    gap = max(1, round(HEADING_GAP * HEIGHT))
    bottom = top
    for row in range(top, HEIGHT):
        if heading[row]:
            bottom = row + 1
        elif row - bottom >= gap:
            break
    return bottom


def usage(masks: Masks, heading: int) -> Usage:
    """How frames whose content is ``masks`` use the frame below row ``heading``."""
    rows = content_rows(masks)
    lowest = lowest_rows(masks)
    step = 1 / SAMPLES_PER_SECOND
    return Usage(
        seconds=len(masks) * step,
        empty_seconds=float((~rows[:, heading:].any(axis=1)).sum() * step),
        top_half_seconds=float((lowest <= HEIGHT / 2).sum() * step),
        median_lowest=median_share(lowest),
        outside_seconds=float(outside_safe(masks).sum() * step),
        empty_lower_seconds=float((~rows[:, HEIGHT - HEIGHT // 3 :].any(axis=1)).sum() * step),
    )


def outside_safe(masks: Masks) -> npt.NDArray[np.bool_]:
    """Which frames have content outside the action-safe area."""
    across, down = round(WIDTH * (1 - ACTION_SAFE) / 2), round(HEIGHT * (1 - ACTION_SAFE) / 2)
    inside = np.zeros((HEIGHT, WIDTH), dtype=np.bool_)
    inside[down : HEIGHT - down, across : WIDTH - across] = True
    return np.asarray((masks & ~inside).any(axis=(1, 2)), dtype=np.bool_)


def lowest_rows(masks: Masks) -> npt.NDArray[np.int64]:
    """One past the lowest content row of each frame that has content."""
    rows = content_rows(masks)
    lowest: npt.NDArray[np.int64] = HEIGHT - np.argmax(rows[:, ::-1], axis=1)
    return lowest[rows.any(axis=1)]


def content_rows(masks: Masks) -> Masks:
    """(frames, HEIGHT): which rows of each frame hold content."""
    rows: Masks = np.any(masks, axis=2)
    return rows


def median_share(lowest: npt.NDArray[np.int64]) -> float | None:
    return float(np.median(lowest) / HEIGHT) if len(lowest) else None


def measure(videos: Sequence[Path]) -> tuple[list[ClipUsage], Usage]:
    """Each clip's usage and the whole's, decoration (content in every frame) left out."""
    masks = [content_masks(video) for video in videos]
    decoration = np.logical_and.reduce([m.all(axis=0) for m in masks])
    clips = []
    for video, clip in zip(videos, masks, strict=True):
        clip &= ~decoration
        heading = heading_bottom(clip)
        clips.append(ClipUsage(video.name, heading / HEIGHT, usage(clip, heading)))
    parts = [c.usage for c in clips]
    whole = Usage(
        seconds=sum(p.seconds for p in parts),
        empty_seconds=sum(p.empty_seconds for p in parts),
        top_half_seconds=sum(p.top_half_seconds for p in parts),
        median_lowest=median_share(np.concatenate([lowest_rows(m) for m in masks])),
        outside_seconds=sum(p.outside_seconds for p in parts),
        empty_lower_seconds=sum(p.empty_lower_seconds for p in parts),
    )
    return clips, whole


def clips_in(paths: Sequence[Path]) -> list[Path]:
    """The videos to measure: files as given, a folder's ``NN_slug.mp4`` clips in order."""
    videos: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if CLIP_NAME.match(p.name))
            if not found:
                raise UsageError(f"{path}: no clips (NN_name.mp4) in it; pass a render's folder")
            videos += found
        elif path.is_file():
            videos.append(path)
        else:
            raise UsageError(f"{path}: no such file or folder")
    return videos


def table(clips: Sequence[ClipUsage], whole: Usage) -> str:
    """The report: one line per clip, then the whole and the targets."""
    lines = [
        f"{'clip':<24}{'length':>8}{'heading':>9}{'empty':>8}{'top half':>15}{'lowest':>8}"
        f"{'past safe':>10}{'empty ⅓':>9}",
    ]
    for clip in clips:
        lines.append(f"{clip.name:<24}{row(clip.usage, f'{clip.heading:.0%}')}")
    lines.append(f"{'whole':<24}{row(whole, '')}")
    verdict = "met" if whole.meets_targets else "MISSED"
    lines.append(
        f"targets {verdict}: empty {whole.empty_seconds:.1f} s (at most {MAX_EMPTY_SECONDS:g} s), "
        f"top half {whole.top_half_share:.1%} (at most {MAX_TOP_HALF_SHARE:.0%})"
    )
    return "\n".join(lines)


def row(u: Usage, heading: str) -> str:
    lowest = "-" if u.median_lowest is None else f"{u.median_lowest:.0%}"
    top = f"{u.top_half_seconds:.1f} s {u.top_half_share:>4.0%}"
    return (
        f"{u.seconds:>7.1f}s{heading:>9}{u.empty_seconds:>7.1f}s{top:>15}{lowest:>8}"
        f"{u.outside_seconds:>9.1f}s{u.empty_lower_seconds:>8.1f}s"
    )


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="frame_usage.py",
        description="How a rendered lesson uses the frame: seconds with nothing below the "
        "heading, time with all content in the top half, the median lowest content line, time "
        "with content outside action-safe, time with nothing in the lower third.",
    )
    p.add_argument("paths", nargs="+", type=Path, help="clips, or a render's folder (media/low)")
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if shutil.which("ffmpeg") is None:
        print("frame_usage: ffmpeg not found; run: bash scripts/setup.sh", file=sys.stderr)
        return 2
    try:
        clips, whole = measure(clips_in(args.paths))
    except UsageError as problem:
        print(f"frame_usage: {problem}", file=sys.stderr)
        return 2
    print(table(clips, whole))
    return 1 if args.check and not whole.meets_targets else 0


if __name__ == "__main__":
    sys.exit(main())
