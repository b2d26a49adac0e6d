"""Where a stored utterance pauses: the stretches of near-silence between its words."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

__all__ = ["FLOOR", "SHORTEST", "pauses"]

FLOOR = 10 ** (-40 / 20)
"""A stretch is quiet while every sample stays under -40 dBFS: ffmpeg's ``silencedetect`` at
``n=-40dB``, what the narration tests listen with, so the cue edges set at these pauses are
the edges the tests hear."""
SHORTEST = 0.06
"""Seconds a quiet stretch must last to be a pause between words: Piper's comma pauses run
0.08 to 0.2 s; shorter gaps are the closure of a stop consonant, inside a word."""


def pauses(path: Path) -> list[tuple[float, float]]:
    """The pauses inside the 16-bit mono WAV at ``path``, (start, end) in seconds, in order;
    the silence before the first sound and after the last is not a pause."""
    with wave.open(str(path), "rb") as audio:
        rate = audio.getframerate()
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2")
    loud = np.abs(samples.astype(np.float64) / 32768.0) >= FLOOR
    sound = np.flatnonzero(loud)
    if not len(sound):
        return []
    # Quiet runs lie between consecutive loud samples more than SHORTEST apart.
    gaps = np.flatnonzero(np.diff(sound) > SHORTEST * rate)
    return [(float(sound[i] + 1) / rate, float(sound[i + 1]) / rate) for i in gaps]
