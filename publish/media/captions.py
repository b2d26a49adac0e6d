"""Captions: read manim's .srt, keep each cue inside its clip, join clips, write SRT and WebVTT."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

import srt

__all__ = ["Cue", "clamp", "join", "milliseconds", "parse_srt", "to_srt", "to_vtt"]


@dataclass(frozen=True)
class Cue:
    """One caption, timed in whole milliseconds so shifting and joining never drift."""

    start: int
    end: int
    text: str

    def shifted(self, by: int) -> Cue:
        return Cue(self.start + by, self.end + by, self.text)


def milliseconds(seconds: float) -> int:
    return round(seconds * 1000)


def parse_srt(text: str, *, escaped: bool = True) -> list[Cue]:
    """The cues of an SRT file, in time order.

    ``escaped``: the file is one ``to_srt`` wrote, its ``&``, ``<`` and ``>`` as entities; manim's
    own subcaption file writes the text as it is (``escaped=False``).
    """
    read = _unescape if escaped else str
    cues = [
        Cue(_ms(sub.start), _ms(sub.end), read(str(sub.content).strip())) for sub in srt.parse(text)
    ]
    return sorted(cues, key=lambda cue: (cue.start, cue.end))


def clamp(cues: Sequence[Cue], duration: int) -> list[Cue]:
    """Cut cues to ``[0, duration]`` ms, dropping any that would be left empty.

    A beat's caption ends at the scene's clock, which can run a fraction of a frame past the
    last frame written; the clip is the truth.
    """
    kept = []
    for cue in cues:
        start, end = max(0, cue.start), min(duration, cue.end)
        if end > start:
            kept.append(Cue(start, end, cue.text))
    return kept


def join(clips: Sequence[tuple[Sequence[Cue], int]]) -> list[Cue]:
    """One caption track for clips played back to back: (cues, clip duration in ms) each."""
    joined: list[Cue] = []
    offset = 0
    for cues, duration in clips:
        joined += [cue.shifted(offset) for cue in clamp(cues, duration)]
        offset += duration
    return joined


def to_srt(cues: Sequence[Cue]) -> str:
    """SubRip text, numbered from 1.

    Players read ``<b>``, ``<i>`` and ``<font>`` in SubRip as markup, so a lesson's ``<b>`` is
    written ``&lt;b&gt;`` (and ``&`` as ``&amp;``), which they show as typed.
    """
    blocks = [
        f"{i}\n{_stamp(cue.start, ',')} --> {_stamp(cue.end, ',')}\n{_escape(cue.text)}\n"
        for i, cue in enumerate(cues, start=1)
    ]
    return "\n".join(blocks)


def to_vtt(cues: Sequence[Cue]) -> str:
    """WebVTT text, for HTML5 ``<track>`` and most lecture players."""
    blocks = [
        f"{_stamp(cue.start, '.')} --> {_stamp(cue.end, '.')}\n{_vtt_text(cue.text)}\n"
        for cue in cues
    ]
    return "\n".join(["WEBVTT\n", *blocks])


def _vtt_text(text: str) -> str:
    """WebVTT reads ``&`` and ``<`` as markup, and a blank line ends a cue."""
    return "\n".join(line for line in _escape(text).splitlines() if line.strip())


_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_CHARACTERS = {entity: char for char, entity in _ENTITIES.items()}


def _escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as the HTML entities both SubRip and WebVTT players decode."""
    return re.sub("[&<>]", lambda match: _ENTITIES[match[0]], text)


def _unescape(text: str) -> str:
    """The inverse of ``_escape``, in one pass, so ``&amp;lt;`` comes back as ``&lt;``."""
    return re.sub("&(?:amp|lt|gt);", lambda match: _CHARACTERS[match[0]], text)


def _ms(delta: timedelta) -> int:
    return round(delta.total_seconds() * 1000)


def _stamp(ms: int, separator: str) -> str:
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{separator}{millis:03d}"
