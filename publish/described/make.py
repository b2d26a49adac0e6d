"""``--described``: a lesson's described video, made from its joined video.

Each beat's description (:func:`~publish.described.descriptions.step_descriptions`) is spoken by
the lesson's voice after the beat's words, which are found where they are heard in the joined
video; where one does not fit, the picture holds (:mod:`publish.described.holds`). It writes
``STEM_described.mp4`` with its shifted captions and ``STEM_described.json`` (the holds, for the
page's player to map a moment between the two videos); where nothing holds, the plain video
gains the described narration as a second sound track.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from attention_core import Lesson
from publish.described.descriptions import step_descriptions
from publish.described.holds import (
    Hold,
    Pause,
    described_name,
    holds_of,
    place,
    shift_chapters,
    shift_cues,
)
from publish.described.sound import (
    Samples,
    described_track,
    heard,
    speak,
    spoken_until,
)
from publish.described.video import add_described_track, streams, write_described
from publish.media.captions import milliseconds, parse_srt, to_srt, to_vtt
from publish.media.clip_beats import Step, steps_of
from publish.media.ffmpeg import probe
from publish.media.files import sha256, write_text
from publish.media.manifest import ClipEntry, FullEntry
from publish.narration.soundtrack import iso639_2
from publish.narration.voices import JOE, Narrator, Voice, VoiceError, choose_voice, seconds
from scenes import style

__all__ = [
    "SOURCES",
    "Described",
    "description_voice",
    "make_described",
    "remove_described",
]

SOURCES = ("publish.described",)
"""The code a described video is made by: a change to it makes the video again (the caller
digests it, as it does the clips' code, and passes :func:`make_described` the digest)."""


@dataclass(frozen=True)
class Described:
    """What ``--described`` made of one lesson."""

    file: Path
    holds: tuple[Hold, ...]
    second_track: bool
    """The plain video carries the described narration too (nothing held)."""
    note: str
    cached: bool = False

    @property
    def row(self) -> tuple[str, str, float, int]:
        """Its line of the closing table: file, state, duration, size."""
        duration = probe(self.file).duration
        return self.file.name, "cached" if self.cached else "described", duration, self.size

    @property
    def size(self) -> int:
        return self.file.stat().st_size


def description_voice(voice: Voice | None, lesson: Lesson) -> tuple[Voice, str | None]:
    """Who speaks the lesson's descriptions, and the line to print where it is not the
    narrator: a silent lesson (``--voice none``) or one read from recordings (which hold no
    description) has them spoken by the default voice of its language, which a lecturer asking
    for a described version expects to hear. Raise :class:`VoiceError` where there is none."""
    if voice is not None and voice.kind != "recordings":
        return voice, None
    narration = "silent (--voice none)" if voice is None else "recorded, one file per beat"
    language = lesson.words["common.word.language"]
    if language.split("-")[0] != "en":
        raise VoiceError(
            f"--described: the narration is {narration} and no voice speaks {language!r} by "
            f"default: pass --voice espeak (espeak-ng speaks it) or --voice PATH.onnx (a Piper "
            f"voice) to speak the descriptions"
        )
    default = choose_voice(JOE, lesson)
    assert default is not None  # only "none" chooses no voice
    return default, (
        f"--described: the narration is {narration}, so the descriptions are spoken by {JOE}, "
        "the default voice (pass --voice to choose another)"
    )


def _not_again(texts: Sequence[str]) -> list[str]:
    """Per beat, its description, or "" where it is the one said last: a step that opens on
    the picture the last one closed on (the quiz's options) is not described twice in a row,
    nor held twice for it. A clip seen alone keeps its own (its ``.descriptions.vtt``)."""
    out, last = [], ""
    for text in texts:
        out.append("" if text == last else text)
        last = text or last
    return out


def remove_described(folder: Path, full: str) -> None:
    """Remove the described video of an earlier ``full`` and its files: joined again without
    ``--described``, the whole video no longer matches it (nor its holds the page's player)."""
    target = folder / described_name(full)
    for path in (target, *(target.with_suffix(s) for s in (".json", ".srt", ".vtt"))):
        path.unlink(missing_ok=True)


def make_described(
    lesson: Lesson,
    folder: Path,
    clips: Sequence[ClipEntry],
    full: FullEntry,
    narrator: Narrator,
    work: Path,
    *,
    code: str,
) -> Described:
    """Make (or find current) the lesson's described video beside its whole video ``full``;
    ``code``: the digest of :data:`SOURCES`, part of what it is made of."""
    words = lesson.words
    plain = folder / full.file
    target = folder / described_name(full.file)
    sidecar = target.with_suffix(".json")
    steps = steps_of(folder, clips, write=False)
    texts = _not_again([text for step in steps for text in step_descriptions(words, step)])
    key = _key(clips, narrator, texts, code)
    track = words["page.word.described_audio"]
    found = _cached(sidecar, target, plain, key, track)
    if found is not None:
        return found
    work.mkdir(parents=True, exist_ok=True)
    samples = heard(plain, work)
    speech = speak(narrator, words, texts)
    lengths = [seconds(path) if path is not None else 0.0 for path in speech]
    pauses = _pauses(steps, clips, samples, texts)
    placed, holds = place(pauses, lengths, 1 / full.fps, style.BREATH)
    spoken = [path for path in speech if path is not None]
    sound = described_track(
        samples, full.duration, holds, list(zip(placed, spoken, strict=True)), work / "sound.wav"
    )
    subtitles = None
    srt = next((ref for ref in full.captions if ref.file.endswith(".srt")), None)
    if srt is not None:
        cues = shift_cues(parse_srt((folder / srt.file).read_text("utf-8")), holds)
        write_text(target.with_suffix(".srt"), to_srt(cues))
        subtitles = target.with_suffix(".vtt")
        write_text(subtitles, to_vtt(cues))
    language = iso639_2(words["common.word.language"])
    write_described(
        plain,
        sound,
        target,
        holds=holds,
        fps=full.fps,
        title=lesson.title,
        chapters=shift_chapters(full.chapters, holds),
        subtitles=subtitles,
        language=language,
        track=track,
        work=work,
    )
    if not holds:
        add_described_track(plain, sound, language=language, title=track)
    sound.unlink(missing_ok=True)
    record = {
        "key": key,
        "sha256": sha256(target),
        "holds": [[hold.at, hold.length] for hold in holds],
        "descriptions": [[p.at, p.length, p.text] for p in placed],
    }
    write_text(sidecar, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return Described(target, tuple(holds), not holds, _note(target, plain, holds))


def _pauses(
    steps: Sequence[Step], clips: Sequence[ClipEntry], samples: Samples, texts: Sequence[str]
) -> list[Pause]:
    """Every beat of the whole video, timed as the clips are joined (back to back, each to
    the millisecond, as its chapter), with where its words are last heard and its description."""
    beats, offset = [], 0.0
    for step, clip in zip(steps, clips, strict=True):
        beats += [(offset + beat.start, offset + beat.end) for beat in step.beats]
        offset += milliseconds(clip.duration) / 1000
    return [
        Pause(start, spoken_until(samples, start, end), end, text)
        for (start, end), text in zip(beats, texts, strict=True)
    ]


def _note(target: Path, plain: Path, holds: Sequence[Hold]) -> str:
    """The one line the run prints about the described video."""
    if not holds:
        return (
            f"{target.name}: every description fits its pause, so {plain.name} carries it "
            "too, as a second sound track"
        )
    total = sum(hold.length for hold in holds)
    return (
        f"{target.name}: {len(holds)} description(s) longer than their pause hold the picture "
        f"{total:.1f} s in all, so {plain.name} has no described track (a second sound track "
        "must fit the picture as it is)"
    )


def _key(clips: Sequence[ClipEntry], narrator: Narrator, texts: Sequence[str], code: str) -> str:
    """What the described video is made of: the clips, the voice, the descriptions, the code."""
    parts = [[clip.sha256 for clip in clips], narrator.voice.digest, texts, code]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


def _cached(sidecar: Path, target: Path, plain: Path, key: str, title: str) -> Described | None:
    """The described video made before with ``key``, if it and the plain video's second
    track (where it needs one) are still there."""
    try:
        data = json.loads(sidecar.read_text("utf-8"))
        if data["key"] != key or data["sha256"] != sha256(target):
            return None
        holds = holds_of(sidecar)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not holds and ("audio", title) not in streams(plain):
        return None
    return Described(target, tuple(holds), not holds, _note(target, plain, holds), cached=True)
