"""The fixed choices a render is made of: quality presets, formats and output names."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from attention_core import Lesson

__all__ = [
    "ALPHA_FORMATS",
    "FORMATS",
    "FULL_NAME",
    "JOINABLE_FORMATS",
    "PREVIEW_QUALITY",
    "QUALITIES",
    "SLIDE_FORMATS",
    "Quality",
    "clip_name",
    "full_name",
]


@dataclass(frozen=True)
class Quality:
    """A manim quality preset and the folder its files land in."""

    name: str
    """Command-line name and output folder: ``high`` → ``media/high/``."""
    preset: str
    """manim's name for it: ``high_quality``."""
    width: int
    height: int
    fps: int

    @property
    def frame(self) -> Fraction:
        """One frame's duration in seconds."""
        return Fraction(1, self.fps)

    def __str__(self) -> str:
        return f"{self.height}p{self.fps}"


QUALITIES: dict[str, Quality] = {
    q.name: q
    for q in (
        # --watch's default: a preview is for seeing a change at once, its text and layout at
        # 480p, its motion at 8 frames a second (drawing is most of an edit's wait, and it
        # goes with the frames: about half of low's).
        Quality("draft", "low_quality", 854, 480, 8),
        Quality("low", "low_quality", 854, 480, 15),
        Quality("medium", "medium_quality", 1280, 720, 30),
        Quality("high", "high_quality", 1920, 1080, 60),
        Quality("production", "production_quality", 2560, 1440, 60),
        Quality("4k", "fourk_quality", 3840, 2160, 60),
    )
}

PREVIEW_QUALITY = "draft"
"""``--watch``'s quality unless ``--quality`` says otherwise."""

FORMATS = ("mp4", "webm", "gif", "mov")
ALPHA_FORMATS = frozenset({"mov", "webm"})
"""Containers whose codecs (qtrle, VP9) keep an alpha channel."""
SLIDE_FORMATS = frozenset({"mp4"})
"""The formats both decks play: PowerPoint embeds H.264 MP4, not WebM."""
JOINABLE_FORMATS = frozenset({"mp4", "webm", "mov"})
"""GIF has no chapters and joins badly, so the whole-lesson video skips it."""

FULL_NAME = "attention_by_hand"
"""The built-in lesson's :func:`full_name` (its title is "Attention, by hand")."""


def full_name(lesson: Lesson, stem: str) -> str:
    """Stem of a lesson's whole video, its captions and its descriptions: its title as ASCII
    (``Masked attention, by hand`` → ``masked_attention_by_hand``), so that the videos of a
    series are told apart wherever they are uploaded; a title with no ASCII letter (Greek)
    gives way to ``stem``, its file's (``greek``)."""
    return slug(lesson.title) or slug(stem) or stem


def slug(text: str) -> str:
    """``text`` in lower-case ASCII letters and digits joined by ``_`` (accents dropped:
    ``Café`` → ``cafe``); empty when it has no ASCII letter."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", plain.lower())
    return "_".join(words) if any(c.isalpha() for w in words for c in w) else ""


def clip_name(step: int, slug: str) -> str:
    """The stem of a step's files: ``03_score``."""
    return f"{step:02d}_{slug}"
