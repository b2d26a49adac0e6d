"""One beat's speech made ready to place: the silence around its words cut off, resampled to
48 kHz mono, and brought to the clips' loudness once, when it is stored.

Every stored utterance is at -16 LUFS (EBU R128) with its true peak at most -1.5 dBTP, so a
clip's narration, utterances with silence between them, is at -16 LUFS as it is placed: R128's
gates leave the silence out of the measurement. No clip needs a loudness pass of its own.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from publish.media.ffmpeg import ToolError

__all__ = ["LUFS", "PEAK", "RATE", "level"]

RATE = 48_000
"""Samples per second of every stored speech file, and of the clips' sound."""
LUFS = -16.0
"""Integrated loudness of every utterance, and so of every clip: what video sites play at."""
PEAK = -1.5
"""The highest true peak an utterance may reach, in dBTP: below R128's -1, leaving room for the
AAC encoder's overshoot."""
TRIM = "silenceremove=start_periods=1:start_threshold=-50dB"
"""ffmpeg filter cutting the silence before the first sound; run forwards and reversed."""
LIMITER = (
    f"alimiter=limit={10 ** ((PEAK - 0.5) / 20):.3f}:attack=2:release=40:level=disabled:latency=1"
)
"""Holds sample peaks half a dB under :data:`PEAK`, so that true peaks (between samples) stay
under it too."""
ATTEMPTS, CLOSE = 3, 0.3
"""Gain corrections at most, and how near :data:`LUFS` (in LU) an utterance must land."""
QUIET = -70.0
"""R128's absolute gate: an utterance measured below it (too short to measure, under 0.4 s)
keeps its level."""


def level(source: Path, target: Path) -> None:
    """Write ``source`` to ``target`` as 16-bit 48 kHz mono WAV: trimmed, at :data:`LUFS`, its
    peaks limited to :data:`PEAK` (a voice as peaky as espeak-ng's needs it)."""
    trimmed = target.with_name(f"{target.stem}.trimmed.wav")
    try:
        loudness = _measured(source, trimmed, f"{TRIM},areverse,{TRIM},areverse")
        if loudness < QUIET:  # too short to measure: keep its level, but not its peaks
            _measured(trimmed, target, LIMITER)
            return
        gain = LUFS - loudness
        for _ in range(ATTEMPTS):  # limiting the peaks costs loudness: make up for it
            loudness = _measured(trimmed, target, f"volume={gain:.2f}dB,{LIMITER}")
            if abs(loudness - LUFS) <= CLOSE:
                return
            gain += LUFS - loudness
    finally:
        trimmed.unlink(missing_ok=True)


def _measured(source: Path, target: Path, chain: str) -> float:
    """Run ``source`` through ``chain`` into ``target`` (48 kHz mono 16-bit WAV); the result's
    integrated loudness, as ffmpeg's ``ebur128`` measures it on the way."""
    chain = f"{chain},aresample={RATE},ebur128"
    command = ["ffmpeg", "-nostdin", "-hide_banner", "-nostats", "-y", "-i", str(source)]
    command += ["-af", chain, "-ac", "1", "-ar", str(RATE), "-c:a", "pcm_s16le"]
    command += ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-f", "wav", str(target)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    found = re.search(r"I:\s+(-?[\d.]+|-inf) LUFS", result.stderr.rpartition("Summary:")[2])
    if result.returncode != 0 or found is None:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise ToolError(f"ffmpeg could not level {source}: {tail}")
    return float(found[1])
