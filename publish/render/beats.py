"""Beats as the unit of rendering and caching: each beat's segment kept under a key of its own.

A clip is its beats' segments joined without re-encoding. Each beat's segment is the plays and
waits of that beat, each already its own x264 stream starting on a keyframe, joined. Its key
(:func:`beat_key`) covers what its frames depend on: the lesson fields and words read up to and
including that beat (the scene's state carries over from beat to beat), except the earlier beats'
captions, which are spoken and subtitled, never drawn; its own timing (frames, speech); and, in
``base``, the code, the toolchain, the quality, the voice, the scene and its arguments.

A render (:class:`Cutter`, the scene's :class:`scenes.beat.Boundary`) draws only the beats whose
key, recomputed from the paths they read last time (:class:`BeatStore` keeps them) on this run's
lesson, has no segment; the others are run with their plays skipped, which rebuilds the scene's
state without drawing a frame. Every render takes this path, from nothing too, so a clip of
reused and fresh segments has the bytes of one rendered from nothing.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attention_core import Lesson
from attention_core.reads import Path as ReadPath
from attention_core.reads import Reads, values_of
from publish.media.files import replacing, write_text
from publish.render.segments import join
from scenes.beat import BeatTiming

__all__ = [
    "BeatRecord",
    "BeatStore",
    "Cut",
    "Cutter",
    "Part",
    "WindowReads",
    "beat_key",
    "is_caption",
    "tail_of",
]

SCHEMA = "attention-beat-v1"
"""Bump when the meaning of a beat's key changes."""

Timing = tuple[int, float | None]
"""A beat's own timing: its length in frames and its speech in seconds (None: silent)."""


def is_caption(path: ReadPath) -> bool:
    """Whether ``path`` is a caption's words (shown as a subtitle, spoken, never drawn)."""
    return (
        len(path) == 2
        and path[0] == "words"
        and (".caption." in str(path[1]) or ".said." in str(path[1]))
    )


def beat_key(
    base: str, number: int, lesson: Lesson, paths: Sequence[ReadPath], timing: Timing
) -> str:
    """The key of beat ``number`` (from 1) of a clip, which read ``paths`` (valued on
    ``lesson``) up to its end and lasted ``timing``. Its number is its place in the scene's
    code: two beats with the same reads and length (one caption entry, filled in for two rows)
    show different things."""
    payload = {
        "schema": SCHEMA,
        "base": base,
        "number": number,
        "lesson": values_of(lesson, paths),
        "timing": timing,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class BeatRecord:
    """A beat as last rendered: its key, the paths its key covers and its timing."""

    number: int
    key: str
    paths: tuple[ReadPath, ...]
    timing: Timing

    def current(self, base: str, lesson: Lesson) -> bool:
        """Whether the beat, replayed on ``lesson``, keeps its key (it reads the same values,
        so it plays the same way: the scenes are deterministic)."""
        return beat_key(base, self.number, lesson, self.paths, self.timing) == self.key

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "key": self.key, "paths": self.paths, "timing": self.timing}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BeatRecord:
        frames, speech = data["timing"]
        paths = tuple(tuple(path) for path in data["paths"])
        played = (int(frames), None if speech is None else float(speech))
        return cls(int(data["number"]), str(data["key"]), paths, played)


class BeatStore:
    """Beat segments by key (``<folder>/<key>.mp4``) and, per clip, the beats it was last made
    of (``<folder>/records/<clip>.json``). Written atomically; shared by every clip of a folder."""

    def __init__(self, folder: Path, suffix: str = ".mp4") -> None:
        self.folder = folder
        self.suffix = suffix

    def segment(self, key: str) -> Path:
        return self.folder / f"{key}{self.suffix}"

    def _record_path(self, clip: str) -> Path:
        name = hashlib.sha256(clip.encode("utf-8")).hexdigest()[:32]
        return self.folder / "records" / f"{name}.json"

    def record(self, clip: str) -> list[BeatRecord]:
        """The beats ``clip`` (its base key and label) was last made of; empty if never."""
        try:
            data = json.loads(self._record_path(clip).read_text("utf-8"))
            return [BeatRecord.from_json(beat) for beat in data["beats"]]
        except (OSError, ValueError, TypeError, KeyError):
            return []

    def save_record(self, clip: str, beats: Sequence[BeatRecord]) -> None:
        path = self._record_path(clip)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"clip": clip, "beats": [beat.to_json() for beat in beats]}
        write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")

    def reusable(self, clip: str, base: str, lesson: Lesson) -> list[bool]:
        """For each beat ``clip`` was last made of, whether its segment can be used as it is."""
        return [
            beat.current(base, lesson) and self.segment(beat.key).is_file()
            for beat in self.record(clip)
        ]

    def put(self, key: str, files: Sequence[Path]) -> None:
        """Store the segment of a beat just drawn: its plays' files joined."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with replacing(self.segment(key)) as temporary:
            if len(files) == 1:
                shutil.copyfile(files[0], temporary)
            else:
                join(files, temporary)


def tail_of(records: Sequence[BeatRecord]) -> str:
    """The key of a clip's plays after its last beat (they carry on from its state)."""
    last = records[-1].key if records else ""
    return hashlib.sha256(f"{SCHEMA}/tail/{last}".encode()).hexdigest()


class WindowReads(Reads):
    """The reads of a scene, and those since the last :meth:`take` (a caption read again in a
    later beat, its entry reused with other values, is that beat's caption too)."""

    def __init__(self) -> None:
        super().__init__()
        self.window: set[ReadPath] = set()

    def add(self, path: ReadPath) -> None:
        super().add(path)
        self.window.add(path)

    def take(self) -> set[ReadPath]:
        window, self.window = self.window, set()
        return window


@dataclass
class Cut:
    """One beat of a render: what it read, how it played, its plays' files if drawn."""

    number: int
    record: BeatRecord
    drawn: bool
    files: list[Path] = field(default_factory=list)


class Cutter:
    """The beat boundary of a clip rendered a beat at a time (:mod:`publish.render.beats`).

    ``reuse[n]`` says whether beat ``n + 1`` has a segment already: its plays (and those
    before it since the last beat ended) are skipped. ``part`` (see :class:`Part`) limits what
    is drawn to its beats; plays after the last beat are drawn by the part that ends the clip.
    """

    def __init__(
        self,
        base: str,
        lesson: Lesson,
        reads: WindowReads,
        reuse: Sequence[bool],
        fps: float,
        draw: Any,
        files: Any,
        part: Part | None = None,
    ) -> None:
        self.base = base
        self.lesson = lesson
        self.reads = reads
        self.reuse = list(reuse)
        self.part = part or Part(1)
        self.fps = fps
        self._draw = draw
        self._files = files
        self.cuts: list[Cut] = []
        self._mark = 0
        self._carried: set[ReadPath] = set()
        self.drawing = True

    def start(self, scene: Any) -> None:
        """Before the scene renders: set up its first beat."""
        self._next(scene, 0)

    def _reused(self, index: int) -> bool:
        return index < len(self.reuse) and self.reuse[index]

    def _next(self, scene: Any, index: int) -> None:
        self.drawing = not self._reused(index) and self.part.draws(index + 1)
        self._draw(scene, self.drawing)

    def begin(self, scene: Any, number: int) -> None:
        return None  # the beat's plays were set up when the one before it ended

    def end(self, scene: Any, timing: BeatTiming) -> None:
        files: list[Path | None] = self._files(scene)
        mine, self._mark = files[self._mark :], len(files)
        window = self.reads.take()
        self._carried |= {path for path in window if not is_caption(path)}
        own = {path for path in window if is_caption(path)}
        paths = tuple(sorted(self._carried | own, key=json.dumps))
        frames = round((timing.end - timing.start) * self.fps)
        played: Timing = (frames, timing.speech)
        number = len(self.cuts) + 1
        key = beat_key(self.base, number, self.lesson, paths, played)
        drawn = [file for file in mine if file is not None]
        self.cuts.append(Cut(number, BeatRecord(number, key, paths, played), self.drawing, drawn))
        self._next(scene, len(self.cuts))

    def tail(self, scene: Any) -> list[Path]:
        """The files of plays after the last beat (drawn), once the scene has rendered."""
        return [file for file in self._files(scene)[self._mark :] if file is not None]

    def mismatched(self, previous: Sequence[BeatRecord]) -> list[int]:
        """Beats reused that did not play as their record said (never, for deterministic
        scenes): their numbers, to render again with every beat drawn."""
        return [
            cut.number
            for cut in self.cuts
            if self._reused(cut.number - 1)
            and (cut.number > len(previous) or previous[cut.number - 1].key != cut.record.key)
        ]


@dataclass(frozen=True)
class Part:
    """Which beats of a clip one process draws, when a clip's fresh beats are shared out
    between processes (:mod:`publish.render.split`): beats ``first`` to ``last`` (from 1;
    ``last`` None: to the end, with the plays after the last beat)."""

    first: int
    last: int | None = None

    def draws(self, number: int) -> bool:
        return self.first <= number and (self.last is None or number <= self.last)
