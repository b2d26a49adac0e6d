"""Cache keys: a clip is reused only when everything that could change its bytes is unchanged.

A clip's key covers the parts of the lesson its scene read while it rendered (recorded by
:mod:`attention_core.reads`, kept in the clip's record and valued again on each run's lesson),
the lesson-wide facts in :data:`LESSON_WIDE`, the scene's arguments, the quality and format,
the toolchain (:mod:`publish.render.toolchain`) and every byte of our code. The code rule is
deliberately blunt: any byte changed in ``attention_core/``, ``scenes/`` or the modules that
render and remux a clip re-renders every clip. Tracking which scene uses which helper would
save minutes and cost correctness.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attention_core import Lesson
from attention_core.reads import Path as ReadPath
from attention_core.reads import values_of
from publish.code_digest import source_digest
from publish.media.files import replacing, write_text
from publish.media.manifest import ClipEntry, FullEntry

__all__ = [
    "JOIN_SOURCES",
    "LESSON_WIDE",
    "SOURCE_PACKAGES",
    "Cached",
    "Records",
    "clip_key",
    "full_key",
]

SOURCE_PACKAGES = (
    "attention_core",
    "scenes",
    "publish.render.worker",
    "publish.render.tex_folder",
    "publish.beats",
    "publish.render.shelf",
    "publish.render.split",
    "publish.presets",
    "publish.media.ffmpeg",
    "publish.media.captions",
    "publish.media.cues",
    "publish.media.pauses",
    "publish.narration",
)
"""What makes a clip's files: the maths, the scenes, how a clip is rendered, encoded and remuxed,
how its captions are written and how it is narrated."""
JOIN_SOURCES = (
    "publish.media.join",
    "publish.media.captions",
    "publish.media.ffmpeg",
    "publish.media.upload_text",
)
"""What makes the whole video, its captions and description, beyond the clips themselves."""
LESSON_WIDE: tuple[ReadPath, ...] = (("words", "common.word.language"),)
"""What every clip's key covers whether or not its scene read it: the language it speaks."""
SCHEMA = "attention-clip-v4"
"""Bump when the meaning of a key changes."""


def _digest(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def clip_key(
    *,
    sources: str,
    toolchain: str,
    lesson: Lesson,
    reads: Iterable[ReadPath],
    scene: str,
    kwargs: Sequence[tuple[str, Any]] = (),
    quality: str,
    fmt: str,
    transparent: bool,
    voice: str | None,
) -> str:
    """The key of one clip: ``reads`` (the lesson's fields its scene read) valued on ``lesson``,
    with everything else that shapes its bytes.

    Parameters
    ----------
    sources
        :func:`source_digest` of our code.
    toolchain
        :func:`publish.render.toolchain.digest`: manim, PyAV, Pango, cairo, the fonts and TeX.
    lesson
        The lesson the clip shows.
    reads
        The paths its scene read (:mod:`attention_core.reads`), as recorded when it last rendered.
    scene
        The scene class's name.
    kwargs
        The scene's further arguments: the title's ``minutes``.
    quality, fmt, transparent
        How it is rendered.
    voice
        The narrator's digest (:mod:`publish.narration.voices`); None for a silent clip.
    """
    return _digest(
        {
            "schema": SCHEMA,
            "sources": sources,
            "toolchain": toolchain,
            "lesson": values_of(lesson, [*reads, *LESSON_WIDE]),
            "scene": scene,
            "kwargs": sorted(kwargs),
            "quality": quality,
            "format": fmt,
            "transparent": transparent,
            "voice": voice,
        }
    )


def full_key(title: str, clips: Sequence[ClipEntry]) -> str:
    """The whole video's key: the exact clips (by hash) and the chapter titles it is made of."""
    return _digest(
        {
            "schema": SCHEMA,
            "sources": source_digest(JOIN_SOURCES),
            "title": title,
            "clips": [
                (c.title, c.sha256, c.captions.sha256 if c.captions else None) for c in clips
            ],
        }
    )


KeyOf = Callable[[Sequence[ReadPath], Sequence[tuple[str, Any]]], str]
"""A clip's key from the lesson fields its scene read and its arguments (the rest is bound)."""


@dataclass(frozen=True)
class Cached:
    """A clip found in the cache, and what it was made from."""

    entry: ClipEntry
    reads: tuple[ReadPath, ...]
    kwargs: tuple[tuple[str, Any], ...]
    """The scene's arguments it was rendered with: the title's ``minutes``."""


class Records:
    """Per-file cache records in ``<folder>/.keys/``: the key a file was made with, and its entry;
    for a clip also the lesson fields its scene read and the arguments it was given.

    One small file per output, written right after the output itself, so a run cut short keeps
    the clips it finished.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.keys = folder / ".keys"

    def _path(self, file: str) -> Path:
        return self.keys / f"{file}.json"

    def _read(self, file: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self._path(file).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _load(self, file: str, key: str) -> dict[str, Any] | None:
        data = self._read(file)
        if data is None or data.get("key") != key:
            return None
        entry = data.get("entry")
        return entry if isinstance(entry, dict) else None

    def last_duration(self, file: str) -> float | None:
        """How long ``file`` was when last made, whatever it was made with: an estimate."""
        data = self._read(file)
        entry = data.get("entry") if data else None
        duration = entry.get("duration") if isinstance(entry, dict) else None
        return float(duration) if isinstance(duration, int | float) else None

    def clip(self, file: str, key_of: KeyOf) -> Cached | None:
        """The clip whose key, recomputed by ``key_of`` from the reads and arguments it was made
        with, is unchanged, if every one of its files is still there unchanged."""
        data = self._read(file) or {}
        try:
            reads = tuple(tuple(path) for path in data["reads"])
            kwargs = tuple((str(name), value) for name, value in data["kwargs"])
            if data["key"] != key_of(reads, kwargs):
                return None
            entry = ClipEntry.from_json(data["entry"])
        except (TypeError, KeyError, ValueError):
            return None
        return Cached(entry, reads, kwargs) if entry.matches(self.folder) else None

    def adopt(self, other: Records, file: str, key_of: KeyOf) -> Cached | None:
        """The clip ``other`` holds under ``key_of``'s key, copied here with its poster,
        captions and record: a clip is its key, whichever lesson's folder it was made in."""
        found = other.clip(file, key_of)
        if found is None:
            return None
        for ref in found.entry.files:
            with replacing(self.folder / ref.file) as temporary:
                shutil.copyfile(other.folder / ref.file, temporary)
        self.save(key_of(found.reads, found.kwargs), found.entry, found.reads, found.kwargs)
        return found if found.entry.matches(self.folder) else None

    def full(self, file: str, key: str) -> FullEntry | None:
        """The whole video made with ``key``, if its files are still there unchanged."""
        data = self._load(file, key)
        try:
            entry = FullEntry.from_json(data) if data else None
        except (TypeError, KeyError):
            return None
        return entry if entry and entry.matches(self.folder) else None

    def save(
        self,
        key: str,
        entry: ClipEntry | FullEntry,
        reads: Sequence[ReadPath] = (),
        kwargs: Sequence[tuple[str, Any]] = (),
    ) -> None:
        self.keys.mkdir(parents=True, exist_ok=True)
        data = {"key": key, "reads": reads, "kwargs": kwargs, "entry": entry.to_json()}
        write_text(self._path(entry.file), json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def forget(self, file: str) -> None:
        self._path(file).unlink(missing_ok=True)
