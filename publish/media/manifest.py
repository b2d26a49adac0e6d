"""manifest.json: what each file is, how long, how big, its SHA-256 and the numbers it shows."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import Field, asdict, dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

from attention_core.meaning import Meaning
from publish.media.files import sha256, write_text

__all__ = [
    "Chapter",
    "ClipEntry",
    "CourseEntry",
    "CourseManifest",
    "FileRef",
    "FullEntry",
    "Manifest",
    "write_course_manifest",
    "write_manifest",
]


@dataclass(frozen=True)
class FileRef:
    """A companion file (poster, captions) and its fingerprint."""

    file: str
    size: int
    sha256: str

    @classmethod
    def of(cls, path: Path) -> FileRef:
        return cls(path.name, path.stat().st_size, sha256(path))

    def matches(self, folder: Path) -> bool:
        """Whether the file is there, whole and unchanged."""
        path = folder / self.file
        return path.is_file() and path.stat().st_size == self.size and sha256(path) == self.sha256


class _Entry:
    """What a clip and the whole video share: their files, checked in a folder, and JSON."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # each entry is a dataclass
    READERS: ClassVar[dict[str, Callable[[Any], Any]]]
    """How ``from_json`` rebuilds the fields that JSON holds as plain dicts and lists."""

    @property
    def files(self) -> tuple[FileRef, ...]:
        raise NotImplementedError

    def matches(self, folder: Path) -> bool:
        return all(ref.matches(folder) for ref in self.files)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)  # its tuples are written as JSON arrays

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        read = {name: read(data[name]) for name, read in cls.READERS.items() if name in data}
        return cls(**data | read)  # a field missing from an older record takes its default


@dataclass(frozen=True)
class ClipEntry(_Entry):
    """One step's clip."""

    file: str
    step: int
    scene: str
    title: str
    duration: float
    width: int
    height: int
    fps: float
    size: int
    sha256: str
    poster: FileRef
    captions: FileRef | None
    numbers: tuple[str, ...]
    beats: tuple[tuple[float, str], ...] = ()
    """Each beat's start (s) and whole caption: the slide breaks, which the caption cues no
    longer are since a beat's words are cut into several."""
    shown: tuple[tuple[str, ...], ...] = ()
    """Per beat, the texts that first appear on screen during it (the probe's reading)."""
    meant: tuple[tuple[Meaning, ...], ...] = ()
    """Per beat, what the objects new on screen in it mean (the probe's), for descriptions."""

    READERS: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "poster": lambda ref: FileRef(**ref),
        "captions": lambda ref: FileRef(**ref) if ref else None,
        "numbers": tuple,
        "beats": lambda beats: tuple((float(start), str(text)) for start, text in beats),
        "shown": lambda shown: tuple(tuple(texts) for texts in shown),
        "meant": lambda meant: tuple(tuple(Meaning.from_json(m) for m in beat) for beat in meant),
    }

    @property
    def files(self) -> tuple[FileRef, ...]:
        own = FileRef(self.file, self.size, self.sha256)
        return (own, self.poster, *((self.captions,) if self.captions else ()))


@dataclass(frozen=True)
class Chapter:
    """One chapter of the whole video, in seconds."""

    title: str
    start: float
    end: float


@dataclass(frozen=True)
class FullEntry(_Entry):
    """The whole lesson as one video."""

    file: str
    title: str
    duration: float
    width: int
    height: int
    fps: float
    size: int
    sha256: str
    chapters: tuple[Chapter, ...]
    captions: tuple[FileRef, ...]
    numbers: tuple[str, ...]
    description: FileRef
    """``description.txt``, the upload text (:mod:`publish.media.upload_text`): title, chapter
    lines and references, to paste under the upload (named, in the manifest too, as video sites
    name the box)."""

    READERS: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "chapters": lambda chapters: tuple(Chapter(**c) for c in chapters),
        "captions": lambda refs: tuple(FileRef(**ref) for ref in refs),
        "numbers": tuple,
        "description": lambda ref: FileRef(**ref),
    }

    @property
    def files(self) -> tuple[FileRef, ...]:
        return (FileRef(self.file, self.size, self.sha256), *self.captions, self.description)


@dataclass(frozen=True)
class Manifest:
    """Everything in one quality folder after a run."""

    lesson: str
    quality: str
    format: str
    transparent: bool
    manim: str
    clips: tuple[ClipEntry, ...]
    full: FullEntry | None
    kit: tuple[FileRef, ...] = ()
    """The lecture kit: each clip's ``.vtt``, ``index.html``, the handout and the decks."""

    def to_json(self) -> dict[str, Any]:
        return {
            "lesson": self.lesson,
            "quality": self.quality,
            "format": self.format,
            "transparent": self.transparent,
            "manim": self.manim,
            "clips": [clip.to_json() for clip in self.clips],
            "full": self.full.to_json() if self.full else None,
            "kit": [asdict(ref) for ref in self.kit],
        }


def write_manifest(path: Path, manifest: Manifest) -> None:
    """Write manifest.json atomically; no timestamps, so an unchanged run writes the same bytes."""
    write_text(path, json.dumps(manifest.to_json(), indent=2, ensure_ascii=False) + "\n")


@dataclass(frozen=True)
class CourseEntry:
    """One lesson of a course: its folder, its manifest and page there, and its length."""

    name: str
    title: str
    folder: str
    manifest: str
    """``four_tokens/manifest.json``, relative to ``course.json``."""
    page: str | None
    """``four_tokens/index.html``; None when the format has no page."""
    duration: float
    """The whole lesson's length in seconds (its clips' lengths when it is not joined)."""


@dataclass(frozen=True)
class CourseManifest:
    """``course.json``: the course's title and its lessons in order."""

    title: str
    quality: str
    format: str
    lessons: tuple[CourseEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def write_course_manifest(path: Path, course: CourseManifest) -> None:
    """Write course.json atomically, like manifest.json."""
    write_text(path, json.dumps(course.to_json(), indent=2, ensure_ascii=False) + "\n")
