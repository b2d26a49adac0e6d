"""Beats: the pause-to-pause stretches of each clip, read from its manifest entry.

Each scene marks a beat once (``LessonScene.beat``), which writes its caption cue (cut into
cues to the rules when the clip is finished; the entry keeps each beat's start and caption); a
beat runs from its start to the next beat's start (the last one to the clip's end). So
captions, chapters and slide breaks all come from the same marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from publish.media.captions import Cue, parse_srt, to_vtt
from publish.media.files import write_text
from publish.media.manifest import ClipEntry

__all__ = ["Beat", "Step", "beats_of", "clock", "steps_of"]


@dataclass(frozen=True)
class Beat:
    """One pause-to-pause stretch of a clip, in seconds, and what its caption says."""

    start: float
    end: float
    caption: str


@dataclass(frozen=True)
class Step:
    """One step's clip, its files and its beats."""

    clip: ClipEntry
    captions: str | None
    """The clip's WebVTT file, when it has captions."""
    beats: tuple[Beat, ...]

    @property
    def stem(self) -> str:
        return Path(self.clip.file).stem


def beats_of(cues: Sequence[Cue], duration: float) -> tuple[Beat, ...]:
    """Beats that tile the clip: each from its cue's start to the next cue's start.

    A clip without captions is one beat; time before the first cue belongs to the first beat.
    """
    if not cues:
        return (Beat(0.0, duration, ""),)
    starts = [0.0] + [cue.start / 1000 for cue in cues[1:]]
    ends = starts[1:] + [duration]
    return tuple(
        Beat(start, end, cue.text) for start, end, cue in zip(starts, ends, cues, strict=True)
    )


def steps_of(folder: Path, clips: Sequence[ClipEntry], *, write: bool = True) -> list[Step]:
    """Each clip's beats, read from its ``.srt``; writes its ``.vtt`` beside it for ``<track>``
    (``write=False``: reads a kit already written)."""
    steps = []
    for clip in clips:
        cues: list[Cue] = []
        vtt = None
        if clip.captions is not None:
            cues = parse_srt((folder / clip.captions.file).read_text("utf-8"))
            vtt = f"{Path(clip.file).stem}.vtt"
            if write:
                write_text(folder / vtt, to_vtt(cues))
        if clip.beats:  # a beat's words span several cues; its start and caption are kept
            cues = [
                Cue(round(start * 1000), round(start * 1000), text) for start, text in clip.beats
            ]
        steps.append(Step(clip, vtt, beats_of(cues, clip.duration)))
    return steps


def clock(seconds: float) -> str:
    """A time into a clip as a player shows it: ``1:05``."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
