"""What the preview page shows: the clips as last made, the beat an edit changed, the error."""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Beat", "Clip", "State"]


@dataclass(frozen=True)
class Beat:
    """One beat as the page lists it: its id, caption and place in its clip (seconds)."""

    id: str
    caption: str
    start: float
    end: float


@dataclass(frozen=True)
class Clip:
    """One clip as the page plays it: its files (served under ``/media/``) and beats."""

    name: str
    title: str
    video: str
    captions: str | None
    duration: float
    beats: tuple[Beat, ...]
    generation: int
    """The save it was made from (1: the lesson as the preview started)."""
    fresh: tuple[str, ...] = ()
    """The ids of the beats that save re-rendered (the others' segments were reused)."""
    complete: bool = True
    """False: its first beats only, shown while the rest renders."""


@dataclass
class State:
    """Shared between the render thread and the server: every change bumps ``version``, which
    the page polls for."""

    clips: dict[str, Clip] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    generation: int = 0
    """The latest save read (good or bad)."""
    good: int = 0
    """The latest save that loaded: the clips being made."""
    done: bool = False
    """Whether every clip of save ``good`` is in."""
    error: str | None = None
    changed: dict[str, Any] | None = None
    """The first beat the latest save changed: ``{"clip", "beat", "start", "generation"}``."""
    last: str = ""
    """The terminal's last line."""
    watching: str | None = None
    """The clip the page shows, as it last said."""
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def update(self, **changes: Any) -> None:
        with self.lock:
            for name, value in changes.items():
                setattr(self, name, value)
            self.version += 1

    def put(self, clip: Clip, changed: dict[str, Any] | None = None) -> None:
        with self.lock:
            self.clips[clip.name] = clip
            if changed is not None:
                self.changed = changed
            self.version += 1

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            clips = [asdict(self.clips[name]) for name in self.order if name in self.clips]
            return {
                "version": self.version,
                "generation": self.generation,
                "good": self.good,
                "done": self.done,
                "error": self.error,
                "changed": self.changed,
                "last": self.last,
                "clips": clips,
            }

    def files(self) -> set[str]:
        """The files the page may ask for (names under the preview's clip folder)."""
        with self.lock:
            named = [(c.video, c.captions) for c in self.clips.values()]
        return {name.rsplit("/", 1)[-1] for pair in named for name in pair if name}
