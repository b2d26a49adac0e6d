"""What a Dask worker runs for ``render.py --scheduler`` (:mod:`publish.render.cluster`): a job
in folders of the worker's own, and the clip's files sent back as bytes to be landed here.

A job's work folder and speech store are the client's paths; on a worker they become folders in
its Dask scratch directory: one work folder per client output folder and scene, so a worker
keeps each scene's TeX cache between runs, and one content-addressed speech store. The clip's
beat segments and its record come back too, into the client's beat store, so that a later run
here (an edit, a preview) reuses them as it reuses beats it drew itself: the store is the same
whichever way its clips were rendered.
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from attention_core import default_lesson
from publish.media.files import replacing
from publish.render import worker

if TYPE_CHECKING:
    from publish.narration.voices import Voice

__all__ = ["Shipped", "dry_run_there", "render_there"]

J = TypeVar("J", worker.ClipJob, worker.DryJob)

FOLDER = "attention-by-hand"
"""This project's folder inside a worker's own scratch directory."""


@dataclass(frozen=True)
class Shipped:
    """A clip rendered on a worker: its result, with the worker's paths, and its files' bytes."""

    result: worker.ClipResult
    video: bytes
    captions: bytes | None
    speech: tuple[bytes, ...]
    """Each of ``result.speech``'s files, in its order."""
    segments: tuple[tuple[str, bytes], ...] = ()
    """Each beat segment the clip is joined from, by key."""

    def landed(self, job: worker.ClipJob) -> worker.ClipResult:
        """Write the files into ``job``'s work folder and speech store here, atomically, under
        the worker's names; the result as if the clip had been rendered here."""
        folder = job.work / "video"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        result = self.result
        captions = None
        if result.captions is not None and self.captions is not None:
            captions = _write(folder / result.captions.name, self.captions)
        speech = []
        for (start, path), data in zip(result.speech, self.speech, strict=True):
            if job.narrator is None:
                raise RuntimeError("a worker narrated a silent clip")
            stored = job.narrator.store / path.name  # content-addressed: the same bytes
            if not stored.is_file():
                stored.parent.mkdir(parents=True, exist_ok=True)
                _write(stored, data)
            speech.append((start, stored))
        video = _write(folder / result.video.name, self.video)
        self._store(job)
        return replace(result, video=video, captions=captions, speech=tuple(speech))

    def _store(self, job: worker.ClipJob) -> None:
        """Put the clip's segments and record into ``job``'s beat store, as a render here
        would have: a segment the store already holds is kept (its key is its content)."""
        if job.beats is None or not self.result.records:
            return
        from publish.beats import BeatStore

        store = BeatStore(job.beats, f".{job.fmt}")
        for key, data in self.segments:
            if not store.segment(key).is_file():
                store.folder.mkdir(parents=True, exist_ok=True)
                _write(store.segment(key), data)
        store.save_record(f"{job.base}/{job.label}", self.result.records)


def _write(path: Path, data: bytes) -> Path:
    with replacing(path) as temporary:
        temporary.write_bytes(data)
    return path


def _on_worker(job: J, home: str) -> J:
    """``job`` with a work folder and a speech store of this worker's own: one work folder per
    client output folder and scene, so a worker keeps each scene's TeX cache between runs."""
    from distributed import get_worker

    root = Path(get_worker().local_directory) / FOLDER
    run = hashlib.sha256(f"{home}\0{job.work.parent}".encode()).hexdigest()[:16]
    narrator = job.narrator
    if narrator is not None:
        narrator = replace(narrator, voice=_voice_here(narrator.voice), store=root / "speech")
    typeset = job.typeset and replace(job.typeset, folder=root / run / "typeset")
    return replace(job, work=root / run / job.work.name, narrator=narrator, typeset=typeset)


def _beats_here(job: worker.ClipJob) -> worker.ClipJob:
    """``job`` with this worker's own beat store (beside its work folder), reused by its next
    renders: the client's store is on another machine."""
    return job if job.beats is None else replace(job, beats=job.work.parent / "beats")


@cache
def _joe_here() -> Voice | None:
    from publish.narration.voices import JOE, VoiceError, choose_voice

    try:
        return choose_voice(JOE, default_lesson())
    except VoiceError:
        return None


def _voice_here(voice: Voice) -> Voice:
    """``voice`` as this worker has it: the client's Piper joe lives in the client's .venv/, so
    where that path is not here, this worker's own joe, if it is the same voice (its digest
    covers the model's bytes). Other voices' files must be at the same path on every worker."""
    if voice.kind != "piper" or Path(voice.source).is_file():
        return voice
    joe = _joe_here()
    return joe if joe is not None and joe.digest == voice.digest else voice


class _Topic:
    """Stands in for the local pool's event queue on a worker: events go to the client."""

    def __init__(self, topic: str) -> None:
        from distributed import get_worker

        self.topic = topic
        self.worker = get_worker()

    def put(self, event: worker.Event) -> None:
        self.worker.log_event(self.topic, list(event))


def render_there(job: worker.ClipJob, topic: str, home: str) -> Shipped:
    """On a worker: render ``job`` and return its files' bytes, its beat segments' too."""
    here = _beats_here(_on_worker(job, home))
    worker.report_to(_Topic(topic))
    try:
        result = worker.render_clip(here)
    finally:
        worker.report_to(None)
    shipped = Shipped(
        result=result,
        video=result.video.read_bytes(),
        captions=result.captions.read_bytes() if result.captions else None,
        speech=tuple(path.read_bytes() for _, path in result.speech),
        segments=_segments(here, result),
    )
    shutil.rmtree(result.video.parent, ignore_errors=True)
    return shipped


def _segments(job: worker.ClipJob, result: worker.ClipResult) -> tuple[tuple[str, bytes], ...]:
    """The bytes of each beat segment ``result``'s clip is joined from, by key, from ``job``'s
    store (a beat that played nothing has none)."""
    if job.beats is None:
        return ()
    from publish.beats import BeatStore

    store = BeatStore(job.beats, f".{job.fmt}")
    found = (store.segment(record.key) for record in result.records)
    return tuple((path.stem, path.read_bytes()) for path in found if path.is_file())


def dry_run_there(job: worker.DryJob, topic: str, home: str) -> Any:
    """On a worker: ``worker.dry_run`` in this worker's work folder for the scene."""
    return worker.dry_run(_on_worker(job, home))
