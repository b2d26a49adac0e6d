"""Cache keys: a clip is reused only when everything that could change its bytes is unchanged.

The rule is deliberately blunt: any byte changed in ``attention_core/``, ``scenes/`` or the modules
that render and remux a clip re-renders every clip. Tracking which scene uses which helper would
save minutes and cost correctness.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from attention_core import Lesson

from .files import write_text
from .manifest import ClipEntry, FullEntry

__all__ = ["JOIN_SOURCES", "SOURCE_PACKAGES", "Records", "clip_key", "full_key", "source_digest"]

SOURCE_PACKAGES = (
    "attention_core",
    "scenes",
    "publish.worker",
    "publish.held_frames",
    "publish.media",
    "publish.captions",
    "publish.narration",
)
"""What makes a clip's files: the maths, the scenes, how a clip is rendered, encoded and remuxed,
how its captions are written and how it is narrated."""
JOIN_SOURCES = ("publish.join", "publish.captions", "publish.media", "publish.description")
"""What makes the whole video, its captions and description, beyond the clips themselves."""
SCHEMA = "attention-clip-v1"
"""Bump when the meaning of a key changes."""


def package_files(names: Iterable[str] = SOURCE_PACKAGES) -> list[tuple[str, Path]]:
    """Every source file of the packages (or single modules), with a stable name for each."""
    found = []
    for name in names:
        spec = find_spec(name)
        if spec is None:
            raise ModuleNotFoundError(f"{name} not found")
        if spec.submodule_search_locations:
            root = Path(next(iter(spec.submodule_search_locations)))
            for path in sorted(root.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                    found.append((f"{name}/{path.relative_to(root).as_posix()}", path))
        elif spec.origin:
            found.append((name, Path(spec.origin)))
    return found


def source_digest(names: Iterable[str] = SOURCE_PACKAGES) -> str:
    """SHA-256 over the names and bytes of every file of the packages and modules."""
    digest = hashlib.sha256()
    for name, path in package_files(names):
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _digest(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def clip_key(
    *,
    sources: str,
    lesson: Lesson,
    scene: str,
    quality: str,
    fmt: str,
    transparent: bool,
    manim_version: str,
    voice: str | None,
) -> str:
    """The key of one clip; ``voice`` is the narrator's digest (None: silent).

    The title's ``minutes`` is not an input of its own: it is computed from the lesson and the
    scenes' code, which the key already covers.
    """
    return _digest(
        {
            "schema": SCHEMA,
            "sources": sources,
            "lesson": asdict(lesson),
            "scene": scene,
            "quality": quality,
            "format": fmt,
            "transparent": transparent,
            "manim": manim_version,
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


class Records:
    """Per-file cache records in ``<folder>/.keys/``: the key a file was made with, and its entry.

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

    def clip(self, file: str, key: str) -> ClipEntry | None:
        """The clip made with ``key``, if every one of its files is still there unchanged."""
        data = self._load(file, key)
        try:
            entry = ClipEntry.from_json(data) if data else None
        except (TypeError, KeyError):
            return None
        return entry if entry and entry.matches(self.folder) else None

    def full(self, file: str, key: str) -> FullEntry | None:
        """The whole video made with ``key``, if its files are still there unchanged."""
        data = self._load(file, key)
        try:
            entry = FullEntry.from_json(data) if data else None
        except (TypeError, KeyError):
            return None
        return entry if entry and entry.matches(self.folder) else None

    def save(self, key: str, entry: ClipEntry | FullEntry) -> None:
        self.keys.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"key": key, "entry": entry.to_json()}, indent=2, ensure_ascii=False)
        write_text(self._path(entry.file), text + "\n")

    def forget(self, file: str) -> None:
        self._path(file).unlink(missing_ok=True)
