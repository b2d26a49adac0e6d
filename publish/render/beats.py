"""Beats as the unit of rendering and caching: each beat's segment kept under a key of its own.

A clip is its beats' segments joined without re-encoding. Each beat's segment is the plays and
waits of that beat, each already its own x264 stream starting on a keyframe, joined. Its key
(:func:`state_key`) covers what its frames depend on: the scene's state as the beat begins (what
is on screen, what the scene and its code hold: :func:`scenes.state.digest`), the lesson fields
and words the beat reads, its own timing (frames, speech) and, in ``base``, the code, the
toolchain, the quality, the voice, the scene and its arguments. Where the state cannot be told,
the key covers instead every field read up to and including the beat (:func:`whole_key`: the
state carries over), but the earlier beats' captions, which are spoken and subtitled, never drawn.

A render (:class:`Cutter`, the scene's :class:`scenes.beat.Boundary`) replays the scene and draws
only the beats whose key has no segment; the others run with their plays skipped, which rebuilds
the scene's state without drawing a frame. A beat that read nothing changed up to its end is
known to be the same before the replay (its fields, recomputed from the paths it read last time
on this run's lesson, keep their values: :meth:`BeatRecord.current`); one whose own fields are
unchanged is the same if the replay reaches it in the state it began in last time, which is told
as it begins: so an edit whose picture has left the screen, and which the scene no longer holds,
stops re-rendering where that happened. Every render takes this path, from nothing too, so a
clip of reused and fresh segments has the bytes of one rendered from nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attention_core import Lesson
from attention_core.reads import Path as ReadPath
from attention_core.reads import Reads, values_of
from publish.media.files import keep_newest, replacing, write_text
from publish.render.segments import join
from scenes.beat import BeatTiming

__all__ = [
    "BeatRecord",
    "BeatStore",
    "Cut",
    "Cutter",
    "Part",
    "Stopped",
    "WindowReads",
    "is_caption",
    "state_key",
    "tail_of",
    "whole_key",
]

SCHEMA = "attention-beat-v2"
"""Bump when the meaning of a beat's key changes."""

SPARE_BYTES = 256 * 1024 * 1024
"""How much of the beat store its segments no clip uses now may take at least (the edits a
lecturer may undo): :meth:`BeatStore.prune`."""

Timing = tuple[int, float | None]
"""A beat's own timing: its length in frames and its speech in seconds (None: silent)."""


def is_caption(path: ReadPath) -> bool:
    """Whether ``path`` is a caption's words (shown as a subtitle, spoken, never drawn)."""
    return (
        len(path) == 2
        and path[0] == "words"
        and (".caption." in str(path[1]) or ".said." in str(path[1]))
    )


def whole_key(
    base: str, number: int, lesson: Lesson, paths: Sequence[ReadPath], timing: Timing
) -> str:
    """The key of beat ``number`` (from 1) of a clip, which read ``paths`` (valued on
    ``lesson``) up to its end and lasted ``timing``. Its number is its place in the scene's
    code: two beats with the same reads and length (one caption entry, filled in for two rows)
    show different things."""
    return _hashed(base, number, lesson, paths, timing, None)


def state_key(
    base: str,
    number: int,
    state: str | None,
    lesson: Lesson,
    own: Sequence[ReadPath],
    timing: Timing,
    paths: Sequence[ReadPath],
) -> str:
    """The key of beat ``number``, begun in ``state`` (:func:`scenes.state.digest`), which read
    ``own`` itself (valued on ``lesson``) and lasted ``timing``; where the state cannot be told
    (None), its :func:`whole_key` over ``paths``, everything read up to its end."""
    if state is None:
        return whole_key(base, number, lesson, paths, timing)
    return _hashed(base, number, lesson, own, timing, state)


def _hashed(
    base: str,
    number: int,
    lesson: Lesson,
    paths: Sequence[ReadPath],
    timing: Timing,
    state: str | None,
) -> str:
    payload = {
        "schema": SCHEMA,
        "base": base,
        "number": number,
        "lesson": values_of(lesson, paths),
        "timing": timing,
        "state": state,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    reused: bool = False
    """Its segment is the one the store holds (else it is drawn, or left to another part)."""


class Stopped(Exception):
    """A render stopped as beat ``args[0]`` began: what it was rendering is outdated."""


class PartDone(Exception):
    """A part's last beat is drawn, and beat ``args[0]`` begins: the beats from there on are
    another part's, which replays them anyway, so this part need not."""


class Cutter:
    """The beat boundary of a clip rendered a beat at a time (:mod:`publish.render.beats`).

    ``previous`` are the beats the clip was last made of, ``stored(key)`` whether the store
    holds a segment. A beat known to play as before (:meth:`BeatRecord.current`) is skipped,
    its plays (and those before it since the last beat ended) too; one whose own fields are
    unchanged is skipped if it begins in the state it began in last time. ``part`` (see
    :class:`Part`) limits what is drawn to its beats, and ends the render after them
    (:class:`PartDone`); plays after the last beat are drawn by the part that ends the clip.
    ``stopped`` is asked as each beat begins: yes stops the
    render there (:class:`Stopped`).
    """

    def __init__(
        self,
        base: str,
        lesson: Lesson,
        reads: WindowReads,
        previous: Sequence[BeatRecord],
        stored: Callable[[str], bool],
        fps: float,
        draw: Any,
        files: Any,
        part: Part | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> None:
        self.base = base
        self.stopped = stopped
        self.lesson = lesson
        self.reads = reads
        self.previous = list(previous)
        self.stored = stored
        self.known = [r.current(base, lesson) and stored(r.key) for r in self.previous]
        self.part = part or Part(1)
        self.fps = fps
        self._draw = draw
        self._files = files
        self.cuts: list[Cut] = []
        self._mark = 0
        self._carried: set[ReadPath] = set()
        self._state: str | None = None
        self._reused = False
        self.drawing = True

    def start(self, scene: Any) -> None:
        """Before the scene renders: set up its first beat."""
        self._next(scene, 0)

    def _known(self, index: int) -> bool:
        return index < len(self.known) and self.known[index]

    def _next(self, scene: Any, index: int) -> None:
        self._reused = self._known(index)
        self.drawing = not self._reused and self.part.draws(index + 1)
        self._draw(scene, self.drawing)

    def begin(self, scene: Any, number: int) -> None:
        if self.stopped is not None and self.stopped():
            raise Stopped(number)
        if self.part.last is not None and number > self.part.last:
            raise PartDone(number)
        index = number - 1
        if self._known(index):  # it plays as before, so it begins as before
            self._state = self.previous[index].state
            return
        from scenes.state import digest

        self._state = digest(scene)
        if index >= len(self.previous) or len(self._files(scene)) != self._mark:
            return  # never rendered, or some of it already played as decided
        before = self.previous[index]
        if before.plays_as(self.base, self.lesson, self._state) and self.stored(before.key):
            self._reused = True
            if self.drawing:
                self.drawing = False
                self._draw(scene, False)

    def end(self, scene: Any, timing: BeatTiming) -> None:
        files: list[Path | None] = self._files(scene)
        mine, self._mark = files[self._mark :], len(files)
        window = self.reads.take()
        self._carried |= {path for path in window if not is_caption(path)}
        captions = {path for path in window if is_caption(path)}
        paths = tuple(sorted(self._carried | captions, key=json.dumps))
        own = tuple(sorted(window, key=json.dumps))
        frames = round((timing.end - timing.start) * self.fps)
        played: Timing = (frames, timing.speech)
        number = len(self.cuts) + 1
        lesson, base, state = self.lesson, self.base, self._state
        record = BeatRecord(
            number=number,
            key=state_key(base, number, state, lesson, own, played, paths),
            paths=paths,
            timing=played,
            own=own,
            state=state,
            whole=whole_key(base, number, lesson, paths, played),
        )
        drawn = [file for file in mine if file is not None]
        self.cuts.append(Cut(number, record, self.drawing, drawn, self._reused))
        self._next(scene, len(self.cuts))

    def tail(self, scene: Any) -> list[Path]:
        """The files of plays after the last beat (drawn), once the scene has rendered."""
        return [file for file in self._files(scene)[self._mark :] if file is not None]

    def mismatched(self) -> list[int]:
        """Beats reused that did not play as their record said (never, for deterministic
        scenes): their numbers, to render again with every beat drawn."""
        return [
            cut.number
            for cut in self.cuts
            if cut.reused
            and (
                cut.number > len(self.previous)
                or self.previous[cut.number - 1].key != cut.record.key
            )
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
