"""Render one scene in a worker process, in a media folder of its own.

Each worker has manim imported once (forked from a process that imported it,
:func:`publish.render.pool.warm`, else in :func:`init`) and renders under ``manim.tempconfig``
with its own ``media_dir``, so concurrent renders never share TeX or text caches
(``media/Tex/<hash>_.svg`` is written non-atomically by manim).
"""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_core import Lesson
from attention_core.meaning import Meaning
from attention_core.reads import Path as ReadPath
from attention_core.reads import Reads, traced
from publish.presets import Quality
from publish.render.tex_folder import manim_folders

if TYPE_CHECKING:
    from publish.beats import BeatRecord, Part
    from publish.narration.narrate import Speaking
    from publish.narration.voices import Narrator
    from publish.render.shelf import Shelf
    from scenes import LessonScene
    from scenes.probe import Probe

__all__ = [
    "ENCODER_OPTIONS",
    "ClipFailed",
    "ClipJob",
    "ClipStopped",
    "ClipResult",
    "DryJob",
    "Event",
    "dry_run",
    "encoder_options",
    "init",
    "render_clip",
    "report_to",
    "work_folder",
]

ENCODER_OPTIONS: dict[str, str] = {
    # manim's default, x264's ``medium`` preset at crf 23, was over half of a render's CPU time.
    # ``veryfast`` with ``tune=animation`` (more B-frames and deblocking, for flat colour and
    # holds) encodes about 1.6x faster, 16% smaller, at SSIM 0.999 against the default.
    # ``superfast`` saved only 10% more and made files half again as big.
    "preset": "veryfast",
    "tune": "animation",
    # x264's time on a drawn 1080p frame, measured on step 3's own pictures: 13.0 ms as
    # ``veryfast``/``animation`` are, 7.6 ms with B-frames placed without analysis (``b-adapt=0``:
    # ``animation``'s five between references, right for flat colour) and one round of subpixel
    # search (``subme=1``, from 2). They cost quality, which ``crf`` 22.5 (from 23) buys back:
    # step 3 at 1080p against a lossless render, Y-PSNR 42.30 dB against 42.19, worst frame 39.1
    # against 39.0, for a file 7 % bigger (4.04 MB against 3.76). Steps 3 and 7 from nothing:
    # 0.88 of the CPU time (BENCHMARKS.md, "Choices").
    "crf": "22.5",
    # Without it, on CPUs with AVX-512, x264's vectorised macroblock-tree code reads heap memory
    # it never wrote, so the bytes (usually of a scene's first, blank frame) depend on what the
    # process did before. With it x264 runs its portable code there, at no measured cost, and
    # writes the same bytes as with no assembly at all. x264 applies it after preset and tune.
    "x264-params": "cpu-independent=1:b-adapt=0:subme=1",
    # With PyAV's sliced threading x264 cuts each picture into one slice per thread, so an
    # automatic count would make the bytes depend on the machine's cores. Renders already run
    # one per core.
    "threads": "1",
}
"""libx264 options for every MP4 clip: fast, and the same bytes for the same frames
(BENCHMARKS.md has the measurements behind them)."""

BUSY = ".busy"
"""Present in a work folder while a render runs there: if a run finds it, the last one was
killed mid-write, and the folder's caches cannot be trusted."""


@dataclass(frozen=True)
class ClipJob:
    """Everything a worker needs to render one scene (picklable)."""

    scene: str
    """Where the scene class lives, ``module:QualName`` (``scenes.steps.score:Step3Score``)."""
    lesson: Lesson
    quality: Quality
    """The frame's size and rate (from manim's preset, ``low_quality``, at its own rate)."""
    fmt: str
    transparent: bool
    work: Path
    kwargs: tuple[tuple[str, Any], ...] = ()
    """Extra scene arguments, e.g. ``(("minutes", 4),)`` for the title."""
    narrator: Narrator | None = None
    """Who says the beats; None for a silent clip paced for reading."""
    label: str = ""
    """What its progress events name it by: ``03_score``, in a course ``four_tokens/03_score``."""
    beats: Path | None = None
    """The beat store (:mod:`publish.beats`) to render a beat at a time with, reusing
    the beats it holds; None: the whole clip at once (on a cluster's workers)."""
    base: str = ""
    """The clip's key but for the lesson fields it reads: the base of its beats' keys."""
    numbers: bool = True
    """Record the numbers the clip shows (for the manifest); a preview has no use for them,
    and reading the screen after every play is a third of a replayed beat's time."""
    part: Part | None = None
    """Draw only these beats into the beat store, and join nothing: the clip's fresh beats are
    shared out between processes (:mod:`publish.render.split`), which join it."""
    stop: Path | None = None
    """A file whose appearance stops the render as its next beat begins (a newer save of the
    lesson made it outdated): it raises :class:`ClipStopped`."""
    typeset: Shelf | None = None
    """Where the run keeps what is typeset, for every process after (:mod:`scenes.typeset`)."""


@dataclass(frozen=True)
class DryJob:
    """One scene to construct without rendering (picklable)."""

    scene: str
    """``module:QualName``, as in :class:`ClipJob`."""
    lesson: Lesson
    work: Path
    """The work folder the scene's render uses (for its TeX cache)."""
    kwargs: tuple[tuple[str, Any], ...] = ()
    narrator: Narrator | None = None
    """Measure the scene timed to this narrator's speech."""
    typeset: Shelf | None = None
    """Where the run keeps what is typeset, for every process after (:mod:`scenes.typeset`)."""


@dataclass(frozen=True)
class ClipResult:
    """Where a worker left its clip, and what the clip shows."""

    scene: str
    video: Path
    captions: Path | None
    seconds: float
    numbers: tuple[str, ...]
    elapsed: float
    reads: tuple[ReadPath, ...]
    """Every field of the lesson the scene read (:mod:`attention_core.reads`): its key's part."""
    speech: tuple[tuple[float, Path], ...] = ()
    """Each narrated beat's start in the clip and its speech file; empty when silent."""
    shown: tuple[tuple[str, ...], ...] = ()
    """Per beat, the texts that first appear on screen during it: what a description carries
    where the narrator does not say them."""
    meant: tuple[tuple[Meaning, ...], ...] = ()
    """Per beat, the meanings new on screen in it (``scenes.probe.Probe.meant_by_beat``): what
    the objects showing those texts are, for a description to say in sentences."""
    drawn: tuple[int, ...] = ()
    """The beats (from 1) drawn afresh; the others' segments were reused."""
    beats: int = 0
    """How many beats the clip has."""
    timings: tuple[tuple[str, str, float, float], ...] = ()
    """Each beat's id, caption, start and end in the clip (seconds)."""
    records: tuple[BeatRecord, ...] = ()
    """Each beat's key and what it covers, rendered a beat at a time."""
    tail: str | None = None
    """The store's key of the plays after the last beat, drawn by a :attr:`ClipJob.part`."""


class ClipFailed(Exception):
    """A scene raised while rendering; carries the message and traceback as plain text."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message, detail)
        self.message = message
        self.detail = detail

    def __str__(self) -> str:
        return self.message


class ClipStopped(ClipFailed):
    """The render was stopped, as a beat began, because its :attr:`ClipJob.stop` appeared."""


def scene_path(scene_class: type[LessonScene]) -> str:
    """The name a worker finds the class by: ``module:QualName@step``, so that a step kind
    placed elsewhere in a lesson (``scenes.placed``) keeps its number."""
    return f"{scene_class.__module__}:{scene_class.__qualname__}@{scene_class.step}"


def _scene_class(path: str) -> type[LessonScene]:
    from scenes import placed

    where, _, step = path.rpartition("@")
    module, _, name = where.partition(":")
    found: Any = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return placed(found, int(step))


Event = tuple[str, str, float]
"""(kind, job label, value): ("start", label, 0.0), or ("time", label, seconds rendered so far)."""

_events: Any = None


def init(events: Any) -> None:
    """Worker start-up: leave Ctrl-C to the parent, which stops the pool, and import manim once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    report_to(events)
    import manim  # noqa: F401
    from tqdm import tqdm

    import scenes  # noqa: F401

    # manim's (silenced) progress bars would otherwise make tqdm create a multiprocessing lock,
    # a named semaphore that outlives a worker stopped by Ctrl-C and makes Python warn of a leak.
    tqdm.set_lock(threading.RLock())


def report_to(events: Any) -> None:
    """Where this process's renders report :data:`Event`s: a queue (anything with ``put``), or
    None for nowhere."""
    global _events
    _events = events


def _emit(kind: str, scene: str, value: float = 0.0) -> None:
    if _events is not None:
        _events.put((kind, scene, value))


def encoder_options(fmt: str, transparent: bool) -> dict[str, str]:
    """:data:`ENCODER_OPTIONS` where manim encodes with libx264 (VP9 and qtrle: one thread)."""
    x264 = fmt != "webm" and not transparent
    return dict(ENCODER_OPTIONS) if x264 else {"threads": "1"}


def settings(job: ClipJob) -> dict[str, Any]:
    """The manim config for one job: its quality and format, every folder inside ``job.work``."""
    return {
        "quality": job.quality.preset,
        "frame_rate": job.quality.fps,
        "format": job.fmt,
        "transparent": job.transparent,
        **manim_folders(job.work),  # TeX's at a path it can read, whatever --out is
        "video_dir": str(job.work / "video"),
        "partial_movie_dir": str(job.work / "partial"),
        "images_dir": str(job.work / "images"),
        "output_file": "",
        "log_to_file": False,
        "disable_caching": True,
        "video_encoder_options": encoder_options(job.fmt, job.transparent),
        # Encode an animation's frames while the next one is drawn, instead of waiting for them.
        "max_inflight_encoders": 2,
        "progress_bar": "none",
        "verbosity": "WARNING",
        "preview": False,
        "save_sections": False,
        "dry_run": False,
    }


@contextmanager
def work_folder(work: Path) -> Iterator[None]:
    """Work in ``work``, wiping it first if a killed run left it half-written."""
    busy = work / BUSY
    if busy.exists():
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    busy.touch()
    try:
        yield
    finally:
        busy.unlink(missing_ok=True)


def _failed(error: Exception, work: Path) -> ClipFailed:
    detail = traceback.format_exc()
    if _disk_full(work):  # whatever broke first: TeX's half-written SVG, the encoder, ...
        return ClipFailed(f"no space left on the disk of {work}", detail)
    return ClipFailed(f"{type(error).__name__}: {error}", detail)


FULL = 1 << 20
"""Free bytes below which a failed render's disk is taken to be why it failed."""


def _disk_full(folder: Path) -> bool:
    try:
        disk = os.statvfs(folder)
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < FULL


def dry_run(job: DryJob) -> Probe:
    """What a scene shows and how long it runs, constructed with animations skipped (it also
    fills the TeX cache of the work folder its render uses)."""
    from manim import tempconfig

    from scenes.probe import run_dry

    try:
        with work_folder(job.work), tempconfig(manim_folders(job.work)), shelved(job.typeset):
            kwargs = dict(job.kwargs)
            if job.narrator is not None:
                kwargs["narration"] = _speaking(job.narrator, job.lesson)
            return run_dry(_scene_class(job.scene), job.lesson, **kwargs)
    except Exception as error:
        raise _failed(error, job.work) from None


def render_clip(job: ClipJob) -> ClipResult:
    """Render ``job.scene``; raise :class:`ClipFailed` (picklable) if the scene raises."""
    from publish.beats import Stopped

    started = time.monotonic()
    _emit("start", job.label)
    try:
        with work_folder(job.work), shelved(job.typeset):
            for stale in ("video", "partial"):
                shutil.rmtree(job.work / stale, ignore_errors=True)
            if job.part is not None:
                _seed(job.work.parent, job.work)
            result = _render(job, started)
            shutil.rmtree(job.work / "partial", ignore_errors=True)
    except Stopped:
        raise ClipStopped(f"{job.label}: stopped, outdated by a newer save") from None
    except Exception as error:
        raise _failed(error, job.work) from None
    return result


@contextmanager
def shelved(shelf: Shelf | None) -> Iterator[None]:
    """What this process typesets meanwhile is kept on ``shelf`` too."""
    from scenes import typeset

    before = typeset.shelve(shelf)
    try:
        yield
    finally:
        typeset.shelve(before)


CACHES = ("Tex", "texts")
"""manim's caches in a media folder: typeset formulas and texts, as SVG files."""


def _seed(scene_work: Path, part_work: Path) -> None:
    """A part's work folder (inside its scene's) gets the scene's TeX and text caches it lacks:
    they were complete when the scene was last rendered, and typesetting again is slow."""
    for cache in CACHES:
        source, target = scene_work / cache, part_work / cache
        if not source.is_dir():
            continue
        target.mkdir(exist_ok=True)
        have = {entry.name for entry in target.iterdir()}
        for entry in source.iterdir():
            if entry.name not in have and entry.is_file():
                staged = target / f".{entry.name}.{os.getpid()}"
                shutil.copyfile(entry, staged)
                staged.replace(target / entry.name)


def _render(job: ClipJob, started: float) -> ClipResult:
    if job.beats is None:
        return _render_whole(job, started)
    from manim import tempconfig

    from publish.beats import BeatStore
    from publish.beats.clip import render_beats

    def make(lesson: Lesson, renderer: Any, boundary: Any) -> LessonScene:
        kwargs = dict(job.kwargs)
        if job.narrator is not None:  # the lesson it speaks from is traced: its words are read
            kwargs["narration"] = _speaking(job.narrator, lesson)
        scene = _scene_class(job.scene)
        return scene(lesson=lesson, renderer=renderer, boundary=boundary, **kwargs)

    with tempconfig(settings(job)):
        done = render_beats(
            make,
            job.lesson,
            BeatStore(job.beats, f".{job.fmt}"),
            f"{job.base}/{job.label}",
            job.base,
            job.work / "video" / f"clip.{job.fmt}",
            job.part,
            stopped=None if job.stop is None else job.stop.exists,
            numbers=job.numbers,
            progress=lambda clock: _emit("time", job.label, clock),
        )
    scene, probe = done.scene, done.probe
    return ClipResult(
        scene=job.scene,
        video=done.video,
        captions=done.captions,
        seconds=float(scene.time),
        numbers=tuple(probe.numbers_in_order),
        elapsed=time.monotonic() - started,
        reads=tuple(done.reads.sorted()),
        speech=_placed(scene),
        drawn=done.drawn,
        beats=len(done.cuts),
        timings=tuple((b.id, b.caption.text, b.start, b.end) for b in scene.beats),
        shown=tuple(tuple(texts) for texts in probe.shown_by_beat()) if job.numbers else (),
        meant=tuple(tuple(beat) for beat in probe.meant_by_beat()) if job.numbers else (),
        records=done.records,
        tail=done.tail,
    )


def _render_whole(job: ClipJob, started: float) -> ClipResult:
    from manim import tempconfig

    from scenes.manim_internals import clip_renderer, output_files
    from scenes.probe import record

    kwargs = dict(job.kwargs)
    reads = Reads()
    lesson = traced(job.lesson, reads)
    speaking = None if job.narrator is None else _speaking(job.narrator, lesson)
    if speaking is not None:  # the lesson it speaks from is traced: its said words are read
        kwargs["narration"] = speaking
    with tempconfig(settings(job)):
        scene = _scene_class(job.scene)(lesson=lesson, renderer=clip_renderer(), **kwargs)
        probe = record(scene, after_each=lambda: _emit("time", job.label, float(scene.time)))
        scene.render()
        video, captions = output_files(scene)
    probe.beats = tuple(scene.beats)
    if video is None or not video.is_file():
        raise RuntimeError(f"manim wrote no video (expected {video})")
    return ClipResult(
        scene=job.scene,
        video=video,
        captions=captions if captions is not None and captions.is_file() else None,
        seconds=float(scene.time),
        numbers=tuple(probe.numbers_in_order),
        elapsed=time.monotonic() - started,
        reads=tuple(reads.sorted()),
        speech=_placed(scene),
        shown=tuple(tuple(texts) for texts in probe.shown_by_beat()),
        meant=tuple(tuple(beat) for beat in probe.meant_by_beat()),
    )


def _speaking(narrator: Narrator, lesson: Lesson) -> Speaking:
    """The narration a scene is constructed with: each beat spoken as it begins."""
    from publish.narration.narrate import Speaking

    return Speaking(narrator, lesson.words)


def _placed(scene: LessonScene) -> tuple[tuple[float, Path], ...]:
    """Each narrated beat's start and speech file; empty for a silent clip."""
    from publish.narration.narrate import Speaking

    narration = scene.narration
    return narration.placed(scene.beats) if isinstance(narration, Speaking) else ()
