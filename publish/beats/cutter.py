"""The cutter: the seam between a scene's beats, where each beat is drawn or skipped.

A render (:class:`Cutter`, the scene's :class:`scenes.beat.Boundary`) replays the scene and draws
only the beats whose key (:mod:`publish.beats.keys`) has no segment in the store; the others run
with their plays skipped, which rebuilds the scene's state without drawing a frame. A beat that
read nothing changed up to its end is known to be the same before the replay (its fields,
recomputed from the paths it read last time on this run's lesson, keep their values:
:meth:`~publish.beats.store.BeatRecord.current`); one whose own fields are unchanged is the same
if the replay reaches it in the state it began in last time, which is told as it begins: so an
edit whose picture has left the screen, and which the scene no longer holds, stops re-rendering
where that happened. Every render takes this path, from nothing too, so a clip of reused and
fresh segments has the bytes of one rendered from nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attention_core import Lesson
from attention_core.reads import Path as ReadPath
from publish.beats.keys import Timing, WindowReads, is_caption, state_key, whole_key
from publish.beats.state import digest
from publish.beats.store import BeatRecord
from scenes.beat import BeatTiming

__all__ = ["Cut", "Cutter", "Part", "PartDone", "Stopped"]


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
    """The beat boundary of a clip rendered a beat at a time (:mod:`publish.beats`).

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
