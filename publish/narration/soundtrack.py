"""A clip's sound: each beat's speech at its beat's start, encoded for the clip's container.

The speech is levelled once, when it is stored (:mod:`publish.narration.level`), so the placed
track is already at EBU R128's -16 LUFS: no loudness pass here.
"""

from __future__ import annotations

import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .level import RATE

__all__ = ["encoding", "iso639_2", "narration_track"]

_ISO639_2 = {
    "en": "eng", "el": "ell", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por",
    "nl": "nld", "ru": "rus", "pl": "pol", "ja": "jpn", "zh": "zho", "uk": "ukr", "tr": "tur",
}  # fmt: skip


def iso639_2(tag: str) -> str:
    """The three-letter code MP4 tracks are tagged with, from a BCP 47 tag (``und`` if unknown)."""
    return _ISO639_2.get(tag.split("-")[0].lower(), "und")


def narration_track(speech: Sequence[tuple[float, Path]], duration: float, folder: Path) -> Path:
    """The clip's narration as one mono WAV of ``duration`` seconds in ``folder``: each
    (start, file) speech from its start, silence between. Beats do not overlap, so neither do
    their words."""
    track = np.zeros(round(duration * RATE), dtype=np.int16)
    for start, path in speech:
        with wave.open(str(path), "rb") as audio:
            words = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2")
        at = min(round(start * RATE), len(track))
        piece = words[: len(track) - at]
        track[at : at + len(piece)] = piece
    target = folder / "narration.wav"
    with wave.open(str(target), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(track.astype("<i2").tobytes())
    return target


def encoding(suffix: str) -> list[str]:
    """Stereo AAC (Opus in WebM, which has no AAC), for a clip's container."""
    codec = "libopus" if suffix == ".webm" else "aac"
    return ["-ar", str(RATE), "-ac", "2", "-b:a", "128k", "-c:a", codec]
