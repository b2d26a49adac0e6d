"""A render run: reuse cached clips, render the rest in parallel, finish, join and describe them."""

from __future__ import annotations

import shutil
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from attention_core import Lesson
from publish.kit.lecture import write_kit
from publish.media.captions import clamp, join, milliseconds, parse_srt, to_srt, to_vtt
from publish.media.description import description
from publish.media.ffmpeg import poster, probe, remux
from publish.media.files import clean_partials, replacing, sha256, write_text
from publish.media.join import chapters_for, join_clips
from publish.media.manifest import ClipEntry, FileRef, FullEntry, Manifest, write_manifest
from publish.narration.soundtrack import encoding, iso639_2, narration_track
from publish.narration.voices import Narrator, Voice
from publish.presets import FULL_NAME, JOINABLE_FORMATS, Quality, clip_name
from publish.render import toolchain, worker
from publish.render.cache import Cached, KeyOf, Records, clip_key, full_key, source_digest
from publish.render.pool import event_queue, gather, longest_first, run_jobs, submit, worker_pool
from publish.render.progress import Display, Row, SummaryRow
from scenes.timing import length_arguments, minutes_of

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = [
    "Interrupted",
    "Options",
    "dry_job",
    "earlier_lengths",
    "publish",
    "terminate_on_sigterm",
]

DESCRIPTION = "description.txt"
"""Beside the whole video: its title, chapter lines and references, for the upload page."""
POSTER_BEFORE_END = 0.5
"""Seconds before a clip's end its poster frame is taken: the step's finished picture."""


@dataclass(frozen=True)
class Options:
    """What to render and where."""

    quality: Quality
    fmt: str
    transparent: bool
    out: Path
    jobs: int
    force: bool = False
    """Render the chosen scenes (and join) even when cached."""
    slides: bool = False
    """Also write the decks: ``slides.html`` and ``slides.pptx``."""
    voice: Voice | None = None
    """Who narrates; None for silent clips paced for reading."""
    scheduler: str | None = None
    """A Dask scheduler's address (``tcp://host:8786``) to render on; None for local workers."""

    @property
    def narrator(self) -> Narrator | None:
        """The voice with its speech store, ``media/.speech/``, shared by every quality."""
        return None if self.voice is None else Narrator(self.voice, self.out / ".speech")

    @property
    def folder(self) -> Path:
        """Where the finished files land: ``media/high/``."""
        return self.out / self.quality.name

    @property
    def work(self) -> Path:
        """manim's working files, one folder per scene: ``media/.work/high/score/``."""
        return self.out / ".work" / self.quality.name

    def file(self, scene: type[LessonScene]) -> Path:
        """Where a scene's clip lands: ``media/high/03_score.mp4``."""
        return self.folder / f"{clip_name(scene.step, scene.slug)}.{self.fmt}"

    def scene_work(self, scene: type[LessonScene]) -> Path:
        """The scene's own work folder, for its renders and dry runs alike."""
        return (self.work / scene.slug).resolve()


class Interrupted(BaseException):
    """SIGTERM arrived; raised like KeyboardInterrupt so every ``finally`` cleans up."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def terminate_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into :class:`Interrupted` in the main thread for the duration of the block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Interrupted(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@dataclass
class _Run:
    """One run's state."""

    lesson: Lesson
    options: Options
    display: Display
    records: Records
    key_of: Callable[[type[LessonScene]], KeyOf]
    """Each scene's key, from the lesson fields it read and its arguments."""
    clips: dict[type[LessonScene], ClipEntry] = field(default_factory=dict)
    titles: dict[type[LessonScene], Cached] = field(default_factory=dict)
    """Clips of scenes that show the lesson's minutes, current if the minutes they show are."""
    minutes: int | None = None
    states: dict[type[LessonScene], str] = field(default_factory=dict)
    failures: dict[type[LessonScene], str] = field(default_factory=dict)
    join_failure: str | None = None

    def file(self, scene: type[LessonScene]) -> Path:
        return self.options.file(scene)


def publish(
    lesson: Lesson,
    every_scene: Sequence[type[LessonScene]],
    chosen: Sequence[type[LessonScene]],
    options: Options,
    display: Display,
) -> int:
    """Render ``chosen`` (reusing cached clips), join all of them when all are current.

    Returns 0 when every chosen clip is ready, 1 when any scene (or the join) failed.
    """
    import manim

    options.folder.mkdir(parents=True, exist_ok=True)
    for folder in (options.folder, options.folder / ".keys"):
        clean_partials(folder)
    key = partial(
        clip_key,
        sources=source_digest(),
        toolchain=toolchain.digest(),
        lesson=lesson,
        quality=options.quality.name,
        fmt=options.fmt,
        transparent=options.transparent,
        voice=options.voice.digest if options.voice else None,
    )

    def key_of(scene: type[LessonScene]) -> KeyOf:
        return lambda reads, kwargs: key(scene=scene.__name__, reads=reads, kwargs=kwargs)

    run = _Run(lesson, options, display, Records(options.folder), key_of)
    _find_cached(run, every_scene, [] if not options.force else chosen)
    todo = [scene for scene in chosen if scene not in run.clips]
    if todo:
        _render_all(run, every_scene, chosen, todo)
        _settle_titles(run, every_scene)  # a title not chosen, once the others are rendered
    else:
        _plan(run, chosen, {})

    full = _join_if_complete(run, every_scene)
    manifest = Manifest(
        lesson=lesson.title,
        quality=options.quality.name,
        format=options.fmt,
        transparent=options.transparent,
        manim=manim.__version__,
        clips=tuple(run.clips[s] for s in every_scene if s in run.clips),
        full=full[0] if full else None,
    )
    kit = write_kit(
        options.folder, lesson, manifest, steps_wanted=len(every_scene), slides=options.slides
    )
    kit_files = tuple(FileRef.of(options.folder / name) for name in kit.files)
    write_manifest(options.folder / "manifest.json", replace(manifest, kit=kit_files))
    rows = [
        SummaryRow(run.clips[s].file, run.states[s], run.clips[s].duration, run.clips[s].size)
        for s in chosen
        if s in run.clips
    ]
    if full:
        rows.append(SummaryRow(full[0].file, full[1], full[0].duration, full[0].size))
    display.summary(rows)
    for scene, message in run.failures.items():
        display.note(f"step {scene.step} ({scene.__name__}) failed: {message}")
    if run.join_failure:
        display.note(run.join_failure)
    for note in kit.notes:
        display.note(note)
    return 1 if run.failures or run.join_failure else 0


def _find_cached(
    run: _Run, every_scene: Sequence[type[LessonScene]], forced: Sequence[type[LessonScene]]
) -> None:
    """Every clip whose key is unchanged; a title's only if the minutes it shows are known
    (every other clip is cached) and unchanged."""
    for scene in every_scene:
        found = None
        if scene not in forced:
            found = run.records.clip(run.file(scene).name, run.key_of(scene))
        if found is not None and scene.shows_length:
            run.titles[scene] = found
        elif found is not None:
            run.clips[scene] = found.entry
    _settle_titles(run, every_scene)


def _settle_titles(run: _Run, every_scene: Sequence[type[LessonScene]]) -> None:
    """Take the cached titles that show the right minutes, once every clip's length is known."""
    lengths = {s: e.duration for s, e in run.clips.items()}
    waiting = {s: found for s, found in run.titles.items() if s not in lengths}
    lengths |= {s: found.entry.duration for s, found in waiting.items()}
    if waiting and all(scene in lengths for scene in every_scene):
        _take_titles(run, minutes_of(sum(lengths[scene] for scene in every_scene)))


def _take_titles(run: _Run, minutes: int) -> list[type[LessonScene]]:
    """The titles found in the cache that show ``minutes``, now counted as cached."""
    run.minutes = minutes
    current = [
        s
        for s, found in run.titles.items()
        if s not in run.clips and dict(found.kwargs).get("minutes") == minutes
    ]
    for scene in current:
        run.clips[scene] = run.titles[scene].entry
    return current


def _plan(
    run: _Run, chosen: Sequence[type[LessonScene]], seconds: dict[type[LessonScene], float]
) -> None:
    """Show the board: every chosen clip, cached ones already complete."""
    rows = []
    for scene in chosen:
        length = run.clips[scene].duration if scene in run.clips else seconds.get(scene, 0.0)
        rows.append(Row(clip_name(scene.step, scene.slug), scene.headline(run.lesson), length))
    run.display.plan(rows)
    for scene in chosen:
        if scene in run.clips:
            run.states[scene] = "cached"
            run.display.cached(clip_name(scene.step, scene.slug))


def earlier_lengths(
    options: Options, scenes: Sequence[type[LessonScene]]
) -> dict[type[LessonScene], float]:
    """Each scene's clip length when last made in ``options.folder``, whatever it was made
    with: an estimate, to plan and order work by."""
    records = Records(options.folder)
    found = {scene: records.last_duration(options.file(scene).name) for scene in scenes}
    return {scene: seconds for scene, seconds in found.items() if seconds is not None}


def _render_all(
    run: _Run,
    every_scene: Sequence[type[LessonScene]],
    chosen: Sequence[type[LessonScene]],
    todo: Sequence[type[LessonScene]],
) -> None:
    """Render in worker processes, longest first; finish each clip here as soon as it is done.

    The scene that shows the lesson's length in minutes (the title) renders last, once every
    other clip's length is known: from its cached or just-rendered clip, or, for a scene neither
    cached nor rendered now, from a dry run. The title's own length comes from a dry run of it
    (its length does not depend on the minutes it shows), which also fills its TeX cache.
    """
    titles = [scene for scene in todo if scene.shows_length]
    others = [scene for scene in todo if scene not in titles]
    to_measure = [
        s
        for s in every_scene
        if titles and s not in run.clips and s not in others and s not in run.titles
    ]
    expected = earlier_lengths(run.options, chosen)
    _plan(run, chosen, expected)
    events: Any = event_queue()
    names = {worker.scene_path(scene): clip_name(scene.step, scene.slug) for scene in todo}

    workers = min(run.options.jobs, len(to_measure) + len(others))
    with _executor(run, events, workers) as executor:

        def render(scenes: Sequence[type[LessonScene]], minutes: int | None = None) -> None:
            run_jobs(
                executor,
                worker.render_clip,
                {scene: _job(run, scene, minutes) for scene in longest_first(scenes, expected)},
                lambda scene, error: _fail(run, scene, error.message, error.detail),
                lambda: _drain(events, names, run.display),
                lambda scene, result: _collect(run, scene, result),
            )

        if to_measure:
            run.display.note(f"measuring {len(to_measure)} scene(s) for the lesson's length …")
        dry_jobs = {scene: dry_job(run.lesson, run.options, scene) for scene in to_measure}
        measuring = submit(executor, worker.dry_run, dry_jobs)
        render(others)
        measured = gather(measuring, lambda scene, error: _measure_failed(run, scene, todo, error))
        if titles:
            seconds = {scene: probe.seconds for scene, probe in measured.items()}
            seconds |= {scene: found.entry.duration for scene, found in run.titles.items()}
            minutes = _lesson_minutes(run, every_scene, titles, seconds)
            if minutes is not None:
                for scene in _take_titles(run, minutes):
                    run.states[scene] = "cached"
                    run.display.cached(clip_name(scene.step, scene.slug))
            render([s for s in titles if s not in run.failures and s not in run.clips], minutes)


def _executor(run: _Run, events: Any, workers: int) -> AbstractContextManager[Executor]:
    """The local worker processes, or the Dask cluster's workers with ``--scheduler``."""
    if run.options.scheduler is None:
        return worker_pool(events, workers)
    from publish.render.cluster import cluster_pool

    return cluster_pool(run.options.scheduler, events, run.display.note)


def _lesson_minutes(
    run: _Run,
    every_scene: Sequence[type[LessonScene]],
    titles: Sequence[type[LessonScene]],
    measured: dict[type[LessonScene], float],
) -> int | None:
    """The lesson's length in minutes from every clip's length; None (failing the titles) when
    a scene failed, so its length is unknown."""
    lengths = {scene: entry.duration for scene, entry in run.clips.items()} | measured
    unknown = [str(scene.step) for scene in every_scene if scene not in lengths]
    if not unknown:
        return minutes_of(sum(lengths[scene] for scene in every_scene))
    for title in titles:
        if title not in run.failures:
            steps = ", ".join(unknown)
            _fail(run, title, f"the lesson's length is unknown: a scene failed (step {steps})")
    return None


def _measure_failed(
    run: _Run,
    scene: type[LessonScene],
    todo: Sequence[type[LessonScene]],
    error: worker.ClipFailed,
) -> None:
    if scene in todo:
        _fail(run, scene, f"measuring: {error.message}", error.detail)
    else:  # measured only for the title's minutes
        run.display.note(f"step {scene.step} failed to measure: {error.message}")


def dry_job(
    lesson: Lesson, options: Options, scene: type[LessonScene], minutes: int = 0
) -> worker.DryJob:
    """A dry run of ``scene`` in its work folder; the title with ``minutes`` (0 to measure it,
    as ``scenes.timing`` does: its length does not depend on them)."""
    kwargs = tuple(length_arguments(scene, minutes).items())
    return worker.DryJob(
        worker.scene_path(scene), lesson, options.scene_work(scene), kwargs, options.narrator
    )


def _job(run: _Run, scene: type[LessonScene], minutes: int | None) -> worker.ClipJob:
    options = run.options
    kwargs = () if minutes is None else tuple(length_arguments(scene, minutes).items())
    return worker.ClipJob(
        scene=worker.scene_path(scene),
        lesson=run.lesson,
        preset=options.quality.preset,
        fmt=options.fmt,
        transparent=options.transparent,
        work=options.scene_work(scene),
        kwargs=kwargs,
        narrator=options.narrator,
    )


def _drain(events: Any, names: dict[str, str], display: Display) -> None:
    while not events.empty():
        kind, scene, value = events.get()
        if kind == "start":
            display.running(names[scene])
        else:
            display.advanced(names[scene], value)


def _collect(run: _Run, scene: type[LessonScene], result: worker.ClipResult) -> None:
    name = clip_name(scene.step, scene.slug)
    try:
        entry = _finish_clip(run, scene, result)
    except Exception as error:  # ffmpeg failing on one clip must not lose the others
        _fail(run, scene, f"{type(error).__name__}: {error}")
    else:
        run.clips[scene] = entry
        run.states[scene] = "rendered"
        run.display.done(name, entry.duration, result.elapsed)


def _fail(run: _Run, scene: type[LessonScene], message: str, detail: str = "") -> None:
    run.failures[scene] = message
    run.clips.pop(scene, None)
    run.display.failed(clip_name(scene.step, scene.slug), message)
    if detail:
        log = run.options.work / scene.slug / "error.log"
        try:
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(detail, encoding="utf-8")
        except OSError as error:  # the disk that failed the scene may fail its log too
            run.display.note(f"  traceback not saved: {error.strerror}")
        else:
            run.display.note(f"  traceback: {log}")


def _finish_clip(run: _Run, scene: type[LessonScene], result: worker.ClipResult) -> ClipEntry:
    """Move a worker's clip into place byte-reproducibly, with its narration, its captions (a
    sidecar and a subtitle track) and its poster."""
    final = run.file(scene)
    length = probe(result.video).duration
    captions_file = final.with_suffix(".srt")
    captions = track = None
    if result.captions is not None:
        # manim writes its subcaption file with the text as it is; ours escapes it.
        raw = parse_srt(result.captions.read_text("utf-8"), escaped=False)
        cues = clamp(raw, milliseconds(length))
        write_text(captions_file, to_srt(cues))
        captions = FileRef.of(captions_file)
        track = result.video.with_name("subtitles.vtt")  # see media.remux on why WebVTT
        track.write_text(to_vtt(cues), encoding="utf-8")
    else:
        captions_file.unlink(missing_ok=True)
    narration = None
    if result.speech:
        narration = narration_track(result.speech, length, result.video.parent)
    with replacing(final) as temporary:
        remux(
            result.video,
            temporary,
            language=_language(run.lesson),
            subtitles=track,
            audio=narration,
            audio_options=encoding(final.suffix) if narration else (),
        )
    info = probe(final)
    poster_file = final.with_suffix(".png")
    with replacing(poster_file) as temporary:
        poster(final, temporary, info.duration - POSTER_BEFORE_END)
    entry = ClipEntry(
        file=final.name,
        step=scene.step,
        scene=scene.__name__,
        title=scene.headline(run.lesson),
        duration=info.duration,
        width=info.width,
        height=info.height,
        fps=info.fps,
        size=final.stat().st_size,
        sha256=sha256(final),
        poster=FileRef.of(poster_file),
        captions=captions,
        numbers=result.numbers,
    )
    reads = sorted({*result.reads, ("words", f"{scene.slug}.heading.title")}, key=str)
    kwargs = (("minutes", run.minutes),) if scene.shows_length else ()
    run.records.save(run.key_of(scene)(reads, kwargs), entry, reads, kwargs)
    shutil.rmtree(result.video.parent, ignore_errors=True)
    return entry


def _language(lesson: Lesson) -> str:
    """The tag of the lesson's sound and subtitle tracks (ISO 639-2: ``eng``)."""
    return iso639_2(lesson.words["common.word.language"])


def _join_if_complete(
    run: _Run, every_scene: Sequence[type[LessonScene]]
) -> tuple[FullEntry, str] | None:
    """The whole video, when the format allows it and every step's clip is current."""
    options = run.options
    if options.fmt not in JOINABLE_FORMATS:
        run.display.note(f"{options.fmt}: the whole-lesson video and its chapters are skipped")
        return None
    missing = [scene for scene in every_scene if scene not in run.clips]
    if missing:
        steps = ", ".join(str(scene.step) for scene in missing)
        run.display.note(f"whole-lesson video not joined: step(s) {steps} not ready")
        return None
    clips = [run.clips[scene] for scene in every_scene]
    target = options.folder / f"{FULL_NAME}.{options.fmt}"
    key = full_key(run.lesson.title, clips)
    cached = None if options.force else run.records.full(target.name, key)
    if cached is not None:
        return cached, "cached"
    try:
        return _join(run, clips, target, key), "joined"
    except Exception as error:
        run.join_failure = f"joining the whole video failed: {error}"
        return None


def _join(run: _Run, clips: Sequence[ClipEntry], target: Path, key: str) -> FullEntry:
    folder = run.options.folder
    lengths = [milliseconds(clip.duration) for clip in clips]
    chapters = chapters_for([(clip.title, ms) for clip, ms in zip(clips, lengths, strict=True)])
    cues = join(
        [
            (
                parse_srt((folder / clip.captions.file).read_text("utf-8"))
                if clip.captions
                else [],
                ms,
            )
            for clip, ms in zip(clips, lengths, strict=True)
        ]
    )
    srt_file, vtt_file = target.with_suffix(".srt"), target.with_suffix(".vtt")
    write_text(srt_file, to_srt(cues))
    write_text(vtt_file, to_vtt(cues))
    join_clips(
        [folder / clip.file for clip in clips],
        run.lesson.title,
        chapters,
        target,
        run.options.work / "join",
        subtitles=vtt_file,
        language=_language(run.lesson),
    )
    info = probe(target)
    description_file = folder / DESCRIPTION
    write_text(description_file, description(run.lesson, chapters))
    entry = FullEntry(
        file=target.name,
        title=run.lesson.title,
        duration=info.duration,
        width=info.width,
        height=info.height,
        fps=info.fps,
        size=target.stat().st_size,
        sha256=sha256(target),
        chapters=tuple(chapters),
        captions=(FileRef.of(srt_file), FileRef.of(vtt_file)),
        numbers=tuple(dict.fromkeys(n for clip in clips for n in clip.numbers)),
        description=FileRef.of(description_file),
    )
    run.records.save(key, entry)
    return entry
