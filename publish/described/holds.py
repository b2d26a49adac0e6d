"""Where each spoken description goes in the whole video, and the holds where one does not fit.

A description is said after its beat's narration ends (a breath later), in the silence the beat
keeps before the next one starts. Where the silence is too short the picture holds the beat's
last frame for the missing time, in whole frames: extended description (WCAG 2.1, 1.2.7). Every
later moment moves by the holds before it, which is all the captions, chapters and the page's
player need to know (:func:`later`, :func:`earlier`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from publish.media.captions import Cue, milliseconds
from publish.media.manifest import Chapter

__all__ = [
    "AFTER",
    "Hold",
    "Pause",
    "Placed",
    "described_name",
    "earlier",
    "holds_of",
    "later",
    "place",
    "shift_chapters",
    "shift_cues",
]

AFTER = 0.25
"""Seconds of silence kept after a description, before the next beat's words begin."""
SAME = 0.005
"""Moments closer than this (seconds, under a frame at any quality) are one: a beat's end
rounded to its frame, a chapter's end rounded to the millisecond."""


@dataclass(frozen=True)
class Pause:
    """One beat of the whole video (seconds from its start): where it begins, where its
    narration stops (``start`` for a silent beat) and where it ends; and its description."""

    start: float
    spoken_until: float
    end: float
    description: str


@dataclass(frozen=True)
class Placed:
    """A description as the described video says it: from ``at`` seconds into that video."""

    text: str
    at: float
    length: float


@dataclass(frozen=True)
class Hold:
    """The plain video's frame before ``at`` seconds (a beat's end), shown ``length`` seconds
    longer (whole frames) in the described video."""

    at: float
    length: float


def place(
    pauses: Sequence[Pause], lengths: Sequence[float], frame: float, breath: float
) -> tuple[list[Placed], list[Hold]]:
    """Each description (``lengths``: seconds of its speech, one per pause, 0 where none) placed
    ``breath`` after its beat's words, and the holds that make room where its beat is too
    short; ``frame``: seconds per frame, the unit a hold comes in."""
    placed: list[Placed] = []
    holds: list[Hold] = []
    shift = 0.0
    for pause, length in zip(pauses, lengths, strict=True):
        if not pause.description or length <= 0:
            continue
        spoke = pause.spoken_until > pause.start
        start = pause.spoken_until + (breath if spoke else 0.0)
        placed.append(Placed(pause.description, start + shift, length))
        end = round(pause.end / frame) * frame
        missing = start + length + AFTER - end
        if missing > 1e-9:
            hold = math.ceil(round(missing / frame, 6)) * frame
            holds.append(Hold(end, hold))
            shift += hold
    return placed, holds


def later(seconds: float, holds: Sequence[Hold], *, ending: bool = False) -> float:
    """A moment of the plain video in the described one: moved by every hold at or before
    it (a beat's end is held before the next beat begins). An ``ending`` moment (a caption's
    end) is not moved by a hold exactly at it: the words end before the held frame."""
    return seconds + sum(
        hold.length
        for hold in holds
        if hold.at < seconds - SAME or (not ending and hold.at <= seconds + SAME)
    )


def earlier(seconds: float, holds: Sequence[Hold]) -> float:
    """A moment of the described video in the plain one (during a hold: the held frame's
    beat end). The page's player does the same in JavaScript when it swaps the videos."""
    shift = 0.0
    for hold in holds:
        if seconds < hold.at + shift - SAME:
            break
        if seconds < hold.at + shift + hold.length - SAME:
            return hold.at
        shift += hold.length
    return seconds - shift


def shift_cues(cues: Sequence[Cue], holds: Sequence[Hold]) -> list[Cue]:
    """Captions of the plain video, timed for the described one."""
    return [
        Cue(
            milliseconds(later(cue.start / 1000, holds)),
            milliseconds(later(cue.end / 1000, holds, ending=True)),
            cue.text,
        )
        for cue in cues
    ]


def shift_chapters(chapters: Sequence[Chapter], holds: Sequence[Hold]) -> list[Chapter]:
    """Chapters of the plain video, timed for the described one: each ends after its holds."""
    return [
        Chapter(chapter.title, later(chapter.start, holds), later(chapter.end, holds))
        for chapter in chapters
    ]


def described_name(full: str) -> str:
    """``attention_by_hand_described.mp4`` beside ``attention_by_hand.mp4``."""
    path = Path(full)
    return f"{path.stem}_described{path.suffix}"


def holds_of(sidecar: Path) -> list[Hold]:
    """The holds a described video's JSON sidecar (``…_described.json``) lists."""
    data = json.loads(sidecar.read_text("utf-8"))
    return [Hold(float(at), float(length)) for at, length in data["holds"]]
