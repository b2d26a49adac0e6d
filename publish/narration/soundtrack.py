"""A clip's sound: each beat's speech at its beat's start, loudness-normalised to EBU R128's
-16 LUFS, encoded for the clip's container."""

from __future__ import annotations

import json
import re
import subprocess
import wave
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from publish.media.ffmpeg import ToolError, ffmpeg

from .voices import RATE

__all__ = [
    "LOUDNESS",
    "encoding",
    "iso639_2",
    "measure_loudness",
    "narration_track",
    "place_speech",
]

LOUDNESS = "I=-16:TP=-1:LRA=11"
"""EBU R128 target: -16 LUFS integrated, true peak at most -1 dBTP."""
HEADROOM = "I=-16:TP=-2:LRA=11"
"""The first pass's target. Speech peaks far above its loudness, so loudnorm cannot just turn
it up (its linear mode) and compresses instead, landing a dB or so short; a second, measured
pass from this level can stay linear and lands within 0.2 LU."""
_ISO639_2 = {
    "en": "eng", "el": "ell", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por",
    "nl": "nld", "ru": "rus", "pl": "pol", "ja": "jpn", "zh": "zho", "uk": "ukr", "tr": "tur",
}  # fmt: skip


def iso639_2(tag: str) -> str:
    """The three-letter code MP4 tracks are tagged with, from a BCP 47 tag (``und`` if unknown)."""
    return _ISO639_2.get(tag.split("-")[0].lower(), "und")


def place_speech(speech: Sequence[tuple[float, Path]], duration: float, target: Path) -> None:
    """Write the clip's narration as one mono WAV of ``duration`` seconds: each (start, file)
    speech from its start, silence between. Beats do not overlap, so neither do their words."""
    track = np.zeros(round(duration * RATE), dtype=np.int16)
    for start, path in speech:
        with wave.open(str(path), "rb") as audio:
            words = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2")
        at = min(round(start * RATE), len(track))
        piece = words[: len(track) - at]
        track[at : at + len(piece)] = piece
    with wave.open(str(target), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(track.astype("<i2").tobytes())


def narration_track(speech: Sequence[tuple[float, Path]], duration: float, folder: Path) -> Path:
    """The clip's narration, placed and brought near :data:`LOUDNESS` (a WAV in ``folder``)."""
    placed, levelled = folder / "narration.wav", folder / "narration-levelled.wav"
    place_speech(speech, duration, placed)
    first = _loudnorm(HEADROOM, measure_loudness(placed, HEADROOM))
    ffmpeg("-i", str(placed), "-af", first, "-ar", str(RATE), "-c:a", "pcm_f32le", str(levelled))
    return levelled


def measure_loudness(track: Path, target: str = LOUDNESS) -> dict[str, str]:
    """loudnorm's measuring pass towards ``target``, for a second pass that applies it."""
    command = ["ffmpeg", "-nostdin", "-hide_banner", "-i", str(track)]
    command += ["-af", f"loudnorm={target}:print_format=json", "-f", "null", "-"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    found = re.search(r"\{[^{}]*\}\s*$", result.stderr)
    if result.returncode != 0 or found is None:
        raise ToolError(f"ffmpeg could not measure the loudness of {track}")
    measured: dict[str, str] = json.loads(found[0])
    return measured


def encoding(track: Path, suffix: str) -> list[str]:
    """Normalise to :data:`LOUDNESS` with loudnorm's measured second pass; encode stereo AAC
    (Opus in WebM, which has no AAC)."""
    codec = "libopus" if suffix == ".webm" else "aac"
    second = _loudnorm(LOUDNESS, measure_loudness(track))
    return ["-af", second, "-ar", str(RATE), "-ac", "2", "-b:a", "128k", "-c:a", codec]


def _loudnorm(target: str, measured: dict[str, str]) -> str:
    """loudnorm's applying pass towards ``target``, from what its measuring pass found."""
    return (
        f"loudnorm={target}:measured_I={measured['input_i']}:measured_TP={measured['input_tp']}"
        f":measured_LRA={measured['input_lra']}:measured_thresh={measured['input_thresh']}"
        f":offset={measured['target_offset']}:linear=true"
    )
