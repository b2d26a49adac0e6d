"""One beat's speech made ready to place: the silence around its words cut off, resampled to
48 kHz mono, and brought to the clips' loudness once, when it is stored.

Every stored utterance is at -16 LUFS (EBU R128, measured as ITU-R BS.1770-4 defines it) with
its true peak under -1.5 dBTP, so a clip's narration, utterances with silence between them, is
at -16 LUFS as it is placed: R128's gates leave the silence out of the measurement. No clip
needs a loudness pass of its own. Speech peaks far above its loudness (Piper's by 18 to 24 dB),
so reaching -16 LUFS takes a peak limiter as well as gain.

All of it is numpy and scipy, in the worker that speaks the beat: no program to start per
utterance, and the same samples from the same input.
"""

from __future__ import annotations

import wave
from math import gcd
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

# scipy is imported where it is used: loading scipy.signal takes a second, before a render can
# start its workers, and a silent render never levels any speech.

__all__ = ["LUFS", "PEAK", "RATE", "level", "loudness", "true_peak"]

Samples = NDArray[np.float64]

RATE = 48_000
"""Samples per second of every stored speech file, and of the clips' sound."""
LUFS = -16.0
"""Integrated loudness of every utterance, and so of every clip: what video sites play at."""
PEAK = -1.5
"""The highest true peak an utterance may reach, in dBTP: under R128's -1, leaving room for the
AAC encoder's overshoot."""
SILENCE = 10 ** (-50 / 20)
"""Below -50 dBFS a sample counts as silence, when the silence around the words is cut."""
QUIET = -70.0
"""R128's absolute gate: an utterance measured below it (shorter than one 0.4 s block) is
left at its level, its peaks limited."""
SMOOTHING = 0.005
"""Seconds over which the limiter turns its gain down before a peak and up after it."""
MARGIN = 0.3
"""dB under :data:`PEAK` the limiter holds samples to: peaks between samples reach higher."""
CLOSE, ATTEMPTS = 0.1, 6
"""How near :data:`LUFS` (in LU) an utterance must land, and the gain corrections allowed."""
# ITU-R BS.1770-4's K-weighting at 48 kHz: a high shelf (the head), then a high-pass.
_SHELF = (
    [1.53512485958697, -2.69169618940638, 1.19839281085285],
    [1.0, -1.69065929318241, 0.73248077421585],
)
_HIGH_PASS = ([1.0, -2.0, 1.0], [1.0, -1.99004745483398, 0.99007225036621])


def level(source: Path, target: Path) -> None:
    """Write ``source`` (16-bit PCM WAV, any rate) to ``target`` as 16-bit 48 kHz mono WAV:
    trimmed, at :data:`LUFS`, its true peaks under :data:`PEAK`."""
    rate, samples = _read(source)
    speech = _resampled(_trimmed(samples), rate)
    _write(target, _levelled(speech))


def _levelled(speech: Samples) -> Samples:
    """``speech`` with gain to :data:`LUFS` and its peaks limited, correcting the gain for the
    loudness the limiter takes away; then turned down by whatever still peaks over
    :data:`PEAK` between samples (a few tenths of a dB at most)."""
    measured = loudness(speech)
    if measured < QUIET:  # too short to measure: its level kept, its peaks limited
        out = _limited(speech)
    else:
        gain = LUFS - measured
        for _ in range(ATTEMPTS):
            out = _limited(speech * 10 ** (gain / 20))
            miss = LUFS - loudness(out)
            if abs(miss) <= CLOSE:
                break
            gain += miss
    over = true_peak(out) - PEAK
    return out * 10 ** (-over / 20) if over > 0 else out


def _limited(speech: Samples) -> Samples:
    """``speech`` with every sample under :data:`PEAK` (less a margin for the peaks between
    samples): a look-ahead limiter, its gain the smoothed running minimum of what each sample
    allows (smoothing over a window no wider than the minimum's keeps every sample's gain at
    or under what it allows)."""
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    ceiling = 10 ** ((PEAK - MARGIN) / 20)
    wanted = np.minimum(1.0, ceiling / np.maximum(np.abs(speech), 1e-9))
    width = round(SMOOTHING * RATE)
    gain: Samples = uniform_filter1d(minimum_filter1d(wanted, 2 * width + 1), width + 1)
    return speech * gain


def loudness(speech: Samples) -> float:
    """Integrated loudness in LUFS of 48 kHz mono ``speech`` (BS.1770-4: K-weighted, 0.4 s
    blocks every 0.1 s, gated at -70 LUFS and 10 LU under the ungated mean)."""
    from scipy.signal import lfilter

    weighted = lfilter(*_HIGH_PASS, lfilter(*_SHELF, speech))
    block, step = round(0.4 * RATE), round(0.1 * RATE)
    if len(weighted) < block:
        return -np.inf
    summed = np.concatenate(([0.0], np.cumsum(np.square(weighted))))
    starts = np.arange(0, len(weighted) - block + 1, step)
    power = (summed[starts + block] - summed[starts]) / block
    loud = -0.691 + 10 * np.log10(np.maximum(power, 1e-20))
    power = power[loud > QUIET]
    if not len(power):
        return -np.inf
    relative = -0.691 + 10 * np.log10(power.mean()) - 10
    power = power[-0.691 + 10 * np.log10(power) > relative]
    return float(-0.691 + 10 * np.log10(power.mean()))


def true_peak(speech: Samples) -> float:
    """The highest peak in dBTP, between samples too: ``speech`` oversampled four times."""
    from scipy.signal import resample_poly

    peak = np.abs(resample_poly(speech, 4, 1)).max(initial=1e-9)
    return float(20 * np.log10(peak))


def _trimmed(samples: Samples) -> Samples:
    """``samples`` from the first sound to the last."""
    sound = np.flatnonzero(np.abs(samples) > SILENCE)
    return samples[sound[0] : sound[-1] + 1] if len(sound) else samples[:0]


def _resampled(samples: Samples, rate: int) -> Samples:
    from scipy.signal import resample_poly

    common = gcd(rate, RATE)
    return samples if rate == RATE else resample_poly(samples, RATE // common, rate // common)


def _read(path: Path) -> tuple[int, Samples]:
    with wave.open(str(path), "rb") as audio:
        if audio.getsampwidth() != 2:
            raise ValueError(f"{path}: not 16-bit PCM")
        frames = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2")
        channels, rate = audio.getnchannels(), audio.getframerate()
    mono = frames.reshape(-1, channels).mean(axis=1)
    return rate, mono / 32768.0


def _write(path: Path, speech: Samples) -> None:
    pcm = np.clip(np.round(speech * 32768.0), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())
