"""The described narration: the lesson's own narration, read back from its video, with the
descriptions spoken by the same voice in the pauses, and silence where the picture holds.

Every stored utterance is at -16 LUFS (:mod:`publish.narration.level`), descriptions included,
so the described track, utterances with silence between them, is at -16 LUFS as placed: the
same argument, and the same measure, as the plain narration's.
"""

from __future__ import annotations

import wave
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from publish.described.holds import Hold, Placed
from publish.described.video import streams
from publish.media.ffmpeg import ffmpeg
from publish.media.pauses import FLOOR
from publish.narration.level import RATE
from publish.narration.script import spoken
from publish.narration.voices import Narrator

__all__ = ["MONO", "SPEAKING", "Samples", "described_track", "heard", "speak", "spoken_until"]

SPEAKING = FLOOR * 32768
"""A 16-bit sample above the pauses' floor (-40 dBFS) is speech: the AAC-coded silence between
beats stays far under it, and the quietest end of a word above it."""

MONO = "pan=mono|c0=0.7071*c0+0.7071*c1"
"""The clips' stereo sound back to the mono narration it was made from: ffmpeg spread the mono
over both channels at -3 dB each (``-ac 2``), and its own ``-ac 1`` would halve them back,
leaving the narration 3 dB under the descriptions."""

Samples = NDArray[np.int16]


def speak(narrator: Narrator, words: Mapping[str, str], texts: Sequence[str]) -> list[Path | None]:
    """Each description's stored speech (None where a beat has none), said by ``narrator`` at
    its own pace: a description is heard, not read against a caption."""
    return [
        narrator.say("description", spoken(text, words)) if text.strip() else None for text in texts
    ]


def heard(video: Path, work: Path) -> Samples:
    """The video's first sound track as 48 kHz mono samples (none for a silent video)."""
    if not any(kind == "audio" for kind, _ in streams(video)):
        return np.zeros(0, dtype=np.int16)
    target = work / "plain.wav"
    ffmpeg("-i", str(video), "-map", "0:a:0", "-af", MONO, "-ar", str(RATE), str(target))
    samples = _read(target)
    target.unlink()
    return samples


def spoken_until(samples: Samples, start: float, end: float) -> float:
    """Where the words heard between ``start`` and ``end`` seconds stop (``start``: none)."""
    window = np.abs(samples[round(start * RATE) : round(end * RATE)].astype(np.int32))
    loud = np.flatnonzero(window > SPEAKING)
    return start if loud.size == 0 else start + (int(loud[-1]) + 1) / RATE


def described_track(
    plain: Samples,
    duration: float,
    holds: Sequence[Hold],
    placed: Sequence[tuple[Placed, Path]],
    target: Path,
) -> Path:
    """Write the described narration, ``duration`` seconds (the plain video's) plus the
    holds, to ``target`` as 16-bit 48 kHz mono WAV: the plain narration with silence at each
    hold and each description's speech from where it is placed."""
    track = np.zeros(round(duration * RATE), dtype=np.int32)
    track[: min(len(plain), len(track))] = plain[: len(track)]
    pieces, last = [], 0
    for hold in holds:
        at = round(hold.at * RATE)
        pieces += [track[last:at], np.zeros(round(hold.length * RATE), dtype=np.int32)]
        last = at
    track = np.concatenate([*pieces, track[last:]])
    for description, path in placed:
        words = _read(path).astype(np.int32)
        at = min(round(description.at * RATE), len(track))
        piece = words[: len(track) - at]
        track[at : at + len(piece)] += piece
    with wave.open(str(target), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(np.clip(track, -32768, 32767).astype("<i2").tobytes())
    return target


def _read(path: Path) -> Samples:
    with wave.open(str(path), "rb") as audio:
        return np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2").copy()
