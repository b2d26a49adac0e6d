"""A voice checked before anything renders: espeak's language, Piper's files, the recordings.

A voice that cannot speak used to fail at render time (exit 1, a message naming neither the
language nor the file); a recording of silence rendered with exit 0 and lost its beat's cue; a
text file named ``.wav`` was refused only after every scene had been dry-run. Each is one line
naming what is wrong and how to see what is available, exit 2, before any scene is built.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from publish.narration.voices import RECORDING_SUFFIXES, Voice

__all__ = [
    "MIN_SPEECH",
    "SECONDS_PER_WORD",
    "SILENCE_DBFS",
    "speech_seconds",
    "too_little_speech",
    "unreadable_recordings",
    "voice_problem",
]

SILENCE_DBFS = -45.0
"""A 20 ms frame quieter than this (RMS, dB below full scale) is silence: room tone, hiss."""
MIN_SPEECH = 0.3
"""Seconds of sound above :data:`SILENCE_DBFS` below which a recording holds no speech."""
SECONDS_PER_WORD = 0.12
"""The least speech a word needs: a third of a brisk lecturer's pace (about 170 words a
minute), so only a recording far too short for its words is refused."""
_RATE = 16_000
_FRAME = _RATE // 50


def voice_problem(voice: Voice) -> str | None:
    """Why ``voice`` cannot speak (naming the language or file, and how to list what there
    is), or None. Recordings are checked by :func:`unreadable_recordings`."""
    if voice.kind == "espeak":
        return _espeak_problem(voice.source)
    if voice.kind == "piper":
        return _piper_problem(Path(voice.source))
    return None


def _espeak_problem(language: str) -> str | None:
    try:
        tried = subprocess.run(
            ["espeak-ng", "-v", language, "-w", "/dev/null", "a"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"--voice espeak: cannot run espeak-ng ({error}); apt-get install espeak-ng"
    if tried.returncode != 0:
        return (
            f"--voice espeak: espeak-ng has no voice for the lesson's language {language!r} "
            "(common.word.language); `espeak-ng --voices` lists the languages it speaks"
        )
    return None


def _piper_problem(model: Path) -> str | None:
    listing = f"the Piper voices there: ls {model.parent}/*.onnx"
    config = Path(f"{model}.json")
    try:
        settings = json.loads(config.read_text("utf-8"))
        rate = settings["audio"]["sample_rate"]
        if not isinstance(settings["phoneme_id_map"], dict) or not isinstance(rate, int):
            raise TypeError
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        reason = f"{type(error).__name__}: {error}" if str(error) else "not a Piper config"
        return f"--voice {model}: cannot load its config {config} ({reason}); {listing}"
    try:
        import onnxruntime

        onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    except ImportError:
        return None  # no Piper installed: choose_voice says so
    except Exception as error:
        reason = str(error).splitlines()[0][:160] if str(error) else type(error).__name__
        return f"--voice {model}: cannot load the model {model} ({reason}); {listing}"
    return None


def unreadable_recordings(folder: Path) -> str | None:
    """The first recording in ``folder`` that is not audio ffmpeg can read, named; or None.
    Quick (ffprobe per file), so it runs before the scenes are dry-run for their beats."""
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        if path.suffix.lower() in RECORDING_SUFFIXES and _samples(path, limit=1.0) is None:
            return f"{path}: not audio ffmpeg can read; record it again or convert it to WAV"
    return None


def too_little_speech(folder: Path, beats: Sequence[tuple[str, str]]) -> str | None:
    """The first beat whose recording holds no speech, or far less than its words need;
    ``beats`` are (id, words said). None when every recording holds enough."""
    files = {p.stem: p for p in folder.iterdir() if p.suffix.lower() in RECORDING_SUFFIXES}
    for beat, said in beats:
        path = files.get(beat)
        if path is None:
            continue  # missing files are recordings_problem's to name
        spoken = speech_seconds(path)
        words = len(said.split())
        needed = max(MIN_SPEECH, SECONDS_PER_WORD * words)
        if spoken < needed:
            what = "no speech" if spoken < MIN_SPEECH else f"{spoken:.1f} s of speech"
            return (
                f"beat {beat}: {path.name} holds {what} (sound above {SILENCE_DBFS:.0f} dBFS), "
                f"far less than its {words} words need (at least {needed:.1f} s); record it again"
            )
    return None


def speech_seconds(path: Path) -> float:
    """Seconds of ``path`` louder than :data:`SILENCE_DBFS`, in 20 ms frames; 0 if unreadable."""
    samples = _samples(path)
    if samples is None or len(samples) < _FRAME:
        return 0.0
    frames = samples[: len(samples) // _FRAME * _FRAME].reshape(-1, _FRAME)
    rms = np.sqrt(np.mean(np.square(frames), axis=1))
    loud = 20 * np.log10(np.maximum(rms, 1e-10)) > SILENCE_DBFS
    return float(np.count_nonzero(loud)) / 50


def _samples(path: Path, limit: float | None = None) -> np.ndarray[Any, Any] | None:
    """The file's first audio stream as 16 kHz mono floats (at most ``limit`` seconds), or None
    when ffmpeg finds no audio in it."""
    command = ["ffmpeg", "-v", "error", "-nostdin", "-i", str(path), "-map", "0:a:0"]
    command += ["-t", str(limit)] if limit else []
    command += ["-ac", "1", "-ar", str(_RATE), "-f", "f32le", "-"]
    try:
        decoded = subprocess.run(command, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if decoded.returncode != 0 or not decoded.stdout:
        return None
    return np.frombuffer(decoded.stdout, dtype=np.float32)
