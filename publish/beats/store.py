"""The beat store: each beat's segment kept under its key, and each clip's record of its beats.

A clip is its beats' segments joined without re-encoding (:mod:`publish.beats.writer`). What
the store holds is shared by every clip of a folder, by every process and machine that renders
into it: one set of bytes per key, whichever drew it first.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attention_core import Lesson
from attention_core.reads import Path as ReadPath
from publish.beats.keys import SCHEMA, Timing, state_key, whole_key
from publish.beats.writer import join
from publish.media.files import keep_newest, replacing, write_text

__all__ = ["SPARE_BYTES", "BeatRecord", "BeatStore", "tail_of"]

SPARE_BYTES = 256 * 1024 * 1024
"""How much of the beat store its segments no clip uses now may take at least (the edits a
lecturer may undo): :meth:`BeatStore.prune`."""


@dataclass(frozen=True)
class BeatRecord:
    """A beat as last rendered: its key (its segment's name), what it covers, its timing."""

    number: int
    key: str
    paths: tuple[ReadPath, ...]
    """Every field read up to the beat's end (but earlier beats' captions)."""
    timing: Timing
    own: tuple[ReadPath, ...] = ()
    """The fields the beat read itself."""
    state: str | None = None
    """The scene's state as the beat began; None where it could not be told."""
    whole: str = ""
    """:func:`whole_key` over :attr:`paths`."""

    def current(self, base: str, lesson: Lesson) -> bool:
        """Whether the beat, replayed on ``lesson``, is known to play as before: nothing it
        read, up to its end, changed (the scenes are deterministic)."""
        return whole_key(base, self.number, lesson, self.paths, self.timing) == self.whole

    def plays_as(self, base: str, lesson: Lesson, state: str | None) -> bool:
        """Whether the beat, begun in ``state`` on ``lesson``, plays as before: the state it
        began in then, and what it read itself unchanged."""
        return state is not None and state == self.state and self._own_key(base, lesson)

    def changed_itself(self, base: str, lesson: Lesson) -> bool:
        """Whether something the beat read itself changed (then it plays otherwise, whatever
        state it begins in)."""
        if self.state is None:
            return not self.current(base, lesson)
        return not self._own_key(base, lesson)

    def _own_key(self, base: str, lesson: Lesson) -> bool:
        key = state_key(base, self.number, self.state, lesson, self.own, self.timing, self.paths)
        return key == self.key

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "key": self.key,
            "paths": self.paths,
            "timing": self.timing,
            "own": self.own,
            "state": self.state,
            "whole": self.whole,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BeatRecord:
        frames, speech = data["timing"]
        played = (int(frames), None if speech is None else float(speech))
        return cls(
            number=int(data["number"]),
            key=str(data["key"]),
            paths=tuple(tuple(path) for path in data["paths"]),
            timing=played,
            own=tuple(tuple(path) for path in data["own"]),
            state=None if data["state"] is None else str(data["state"]),
            whole=str(data["whole"]),
        )


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
        return _beats_in(self._record_path(clip))

    def save_record(self, clip: str, beats: Sequence[BeatRecord]) -> None:
        path = self._record_path(clip)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"clip": clip, "beats": [beat.to_json() for beat in beats]}
        write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")

    def likely_fresh(self, clip: str, base: str, lesson: Lesson) -> list[bool]:
        """For each beat ``clip`` was last made of, whether it will likely be drawn again on
        ``lesson``: it changed itself, or it follows a beat that did (what a beat changes is
        mostly gone from the screen by the end of the next), or its segment is gone. A
        forecast, to share the drawing out by (:mod:`publish.render.split`): the replay
        decides."""
        fresh: list[bool] = []
        changed = False
        for beat in self.record(clip):
            if beat.current(base, lesson) and self.segment(beat.key).is_file():
                fresh.append(False)
                changed = False
                continue
            itself = beat.changed_itself(base, lesson) or not self.segment(beat.key).is_file()
            fresh.append(itself or changed)
            changed = itself
        return fresh

    def used(self, key: str) -> None:
        """Note that the segment of ``key`` was just reused (:meth:`prune` keeps the newest)."""
        with contextlib.suppress(OSError):
            os.utime(self.segment(key))

    def prune(self, spare: int = SPARE_BYTES) -> int:
        """Delete the least recently used segments no clip's record names, beyond ``spare``
        bytes of them (or as many as the named ones take, if more): what an edit undone would
        reuse stays, the rest goes. Returns the bytes freed."""
        named: set[str] = set()
        for record in (self.folder / "records").glob("*.json"):
            beats = _beats_in(record)
            named.update(beat.key for beat in beats)
            named.add(tail_of(beats))
        unnamed, kept = [], 0
        for segment in self.folder.glob(f"*{self.suffix}"):
            if segment.stem not in named:
                unnamed.append(segment)
                continue
            with contextlib.suppress(OSError):
                kept += segment.stat().st_size
        return keep_newest(unnamed, max(spare, kept))

    def put(self, key: str, files: Sequence[Path]) -> None:
        """Store the segment of a beat just drawn: its plays' files joined. A segment already
        stored under ``key`` is kept: the store holds one set of bytes per key, whichever
        process or machine drew it first, and every clip is joined from those."""
        if self.segment(key).is_file():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        with replacing(self.segment(key)) as temporary:
            if len(files) == 1:
                shutil.copyfile(files[0], temporary)
            else:
                join(files, temporary)


def _beats_in(record: Path) -> list[BeatRecord]:
    """The beats a clip's record file names; empty if it is missing or unreadable."""
    try:
        data = json.loads(record.read_text("utf-8"))
        return [BeatRecord.from_json(beat) for beat in data["beats"]]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def tail_of(records: Sequence[BeatRecord]) -> str:
    """The key of a clip's plays after its last beat (they carry on from its state)."""
    last = records[-1].key if records else ""
    return hashlib.sha256(f"{SCHEMA}/tail/{last}".encode()).hexdigest()
