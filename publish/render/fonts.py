"""Every character a lesson shows is in a font of the font set, checked before anything renders.

Pango (the video) and Chromium (the handout) fall back, glyph by glyph, to any font of the font
set (:mod:`attention_core.fontset`: the only fonts they see), and draw a box with the code point
inside when none has the glyph: a render that exits 0 and shows tofu. So each text of the lesson
and of its words is checked against the union of the character sets fontconfig reads from the
font set's files (``fc-list`` through its file), and a character no font has is named with its
field, its code point and the Debian package that has it.
"""

from __future__ import annotations

import bisect
import dataclasses
import subprocess
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from attention_core import Lesson, fontset
from attention_core.words import kind_of

__all__ = ["Coverage", "installed", "lesson_texts", "package_for", "uncovered"]

_CJK = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi
    (0x3000, 0x9FFF),  # CJK punctuation, kana, Bopomofo, ideographs
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),  # full- and half-width forms
    (0x20000, 0x3FFFF),  # ideographs beyond the BMP
)
_EMOJI = ((0x2600, 0x27BF), (0x1F000, 0x1FAFF))


class Coverage:
    """The characters some font has a glyph for, as sorted, merged ranges."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for low, high in sorted(ranges):
            if merged and low <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], high))
            else:
                merged.append((low, high))
        self._lows = [low for low, _ in merged]
        self._highs = [high for _, high in merged]

    def __contains__(self, char: object) -> bool:
        if not isinstance(char, str) or len(char) != 1:
            return False
        point = ord(char)
        at = bisect.bisect_right(self._lows, point) - 1
        return at >= 0 and point <= self._highs[at]

    @classmethod
    def parse(cls, charsets: str) -> Coverage:
        """From fontconfig's ``%{charset}`` lines: hex code points and ranges, ``20-7e a0``."""
        ranges = []
        for item in charsets.split():
            low, _, high = item.partition("-")
            ranges.append((int(low, 16), int(high or low, 16)))
        return cls(ranges)


@cache
def installed() -> Coverage:
    """What the font set's fonts cover, as fontconfig reads them; raise OSError without fc-list."""
    listing = subprocess.run(
        ["fc-list", "--format", "%{charset}\n"],
        capture_output=True,
        text=True,
        timeout=60,
        env=fontset.environment(),
    )
    if listing.returncode != 0:
        raise OSError(f"fc-list failed: {listing.stderr.strip()}")
    return Coverage.parse(listing.stdout)


def lesson_texts(lesson: Lesson) -> Iterator[tuple[str, str]]:
    """Every text the video or the kit shows, with its field's name (``tokens[2].text``,
    ``words.score.word.token``); the narrator's ``said`` entries are heard, never drawn."""
    yield from _texts(lesson, "")


def _texts(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, Mapping):
        for name, entry in value.items():
            if kind_of(name) != "said":
                yield from _texts(entry, f"{where}.{name}")
    elif isinstance(value, tuple):
        for number, item in enumerate(value):
            yield from _texts(item, f"{where}[{number}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            name = f"{where}.{field.name}" if where else field.name
            yield from _texts(getattr(value, field.name), name)


def package_for(char: str) -> str:
    """The Debian package with a font that draws ``char`` as outlines (the font set has the
    Noto packages: one of them lacks it only while the set is not installed)."""
    point = ord(char)
    if any(low <= point <= high for low, high in _CJK):
        return "fonts-noto-cjk"
    if any(low <= point <= high for low, high in _EMOJI):
        return "fonts-symbola"  # outlines: colour emoji fonts are bitmaps, which manim cannot draw
    return "fonts-noto-core"


def uncovered(lesson: Lesson, fonts: Coverage | None = None) -> list[str]:
    """A line per character of the lesson that no font of the set has, naming the first field
    it is in, its code point and a package to add to the set; empty when every one is covered."""
    if fonts is None:
        try:
            fonts = installed()
        except (OSError, subprocess.TimeoutExpired) as error:
            return [f"cannot list the font set's fonts ({error}); apt-get install fontconfig"]
    seen: dict[str, tuple[str, int]] = {}
    for where, text in lesson_texts(lesson):
        for char in text:
            if char in fonts or unicodedata.category(char) in {"Cc", "Cf", "Zs", "Zl", "Zp"}:
                continue  # spaces and format marks (ZWJ, RLM) are layout, not glyphs
            first, count = seen.get(char, (where, 0))
            seen[char] = (first, count + 1)
    lines = []
    for char, (where, count) in seen.items():
        name = unicodedata.name(char, "unnamed")
        more = f" (and {count - 1} more places)" if count > 1 else ""
        package = package_for(char)
        lines.append(
            f"{where}{more}: {char!r} (U+{ord(char):04X} {name}) is in no font of the font set; "
            f"{package} has it: add it to PACKAGES in attention_core/fontset.py"
        )
    return lines
