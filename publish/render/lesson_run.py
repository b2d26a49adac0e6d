"""One lesson of a run: its cached clips, each clip finished as it arrives, the joined video,
the manifest and the lecture kit."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from attention_core import Lesson
from publish.code_digest import source_digest
from publish.described.make import SOURCES as DESCRIBED_SOURCES
from publish.described.make import make_described, remove_described
from publish.kit.lecture import write_handout, write_kit
from publish.media import upload_text
from publish.media.captions import Cue, clamp, join, milliseconds, parse_srt, to_srt, to_vtt
from publish.media.cues import eased, split_cue, unbroken
from publish.media.ffmpeg import poster, probe, remux
from publish.media.files import replacing, sha256, write_text
from publish.media.join import chapters_for, join_clips
from publish.media.manifest import ClipEntry, FileRef, FullEntry, Manifest, write_manifest
from publish.media.pauses import pauses
from publish.narration.script import spoken
from publish.narration.soundtrack import encoding, iso639_2, narration_track
from publish.presets import JOINABLE_FORMATS, full_name
from publish.render import worker
from publish.render.cache import Cached, Records, full_key
from publish.render.options import LessonOptions
from publish.render.plan import Plan
from publish.render.progress import Display, SummaryRow
from scenes import timing

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = ["LessonRun", "Outcome", "drawn_beats"]

POSTER_BEFORE_END = 0.5
"""Seconds before a clip's end its poster frame is taken: the step's finished picture."""


@dataclass(frozen=True)
class Outcome:
    """What a finished lesson leaves: its manifest, the closing table's rows and notes."""

    manifest: Manifest
    rows: tuple[SummaryRow, ...]
    notes: tuple[str, ...]
    failed: bool


@dataclass
class LessonRun:
    """One lesson's state in a run."""

    plan: Plan
    """The lesson's scenes, those chosen, their keys and files (:mod:`publish.render.plan`)."""
    display: Display
    clips: dict[type[LessonScene], ClipEntry] = field(default_factory=dict)
    titles: dict[type[LessonScene], Cached] = field(default_factory=dict)
    """Clips of scenes that show the lesson's minutes, current if the minutes they show are."""
    minutes: int | None = None
    states: dict[type[LessonScene], str] = field(default_factory=dict)
    failures: dict[type[LessonScene], str] = field(default_factory=dict)
    join_failure: str | None = None
    described: list[str] = field(default_factory=list)
    """What ``--described`` made or why it could not: the lines the run prints."""
    described_failed: bool = False
    described_row: tuple[str, str, float, int] | None = None

    @property
    def lesson(self) -> Lesson:
        return self.plan.lesson

    @property
    def options(self) -> LessonOptions:
        return self.plan.options

    @property
    def records(self) -> Records:
        return Records(self.options.folder)

    @property
    def name(self) -> str:
        """The lesson's folder in a course; empty for a lone lesson."""
        return self.options.lesson

    def label(self, scene: type[LessonScene]) -> str:
        return self.plan.label(scene)

    def find_cached(self, forced: Sequence[type[LessonScene]]) -> None:
        """Every clip whose key is unchanged, here or (copied here) in another folder; a
        title's only if the minutes it shows are known (every other clip is cached) and
        unchanged."""
        for scene in self.plan.scenes:
            found = None if scene in forced else self._cached(scene)
            if found is not None and scene.shows_length:
                self.titles[scene] = found
            elif found is not None:
                self.clips[scene] = found.entry
        self.settle_titles()

    def _cached(self, scene: type[LessonScene]) -> Cached | None:
        name, key_of = self.plan.file(scene).name, self.plan.key_of(scene)
        found = self.records.clip(name, key_of)
        for other in self.plan.elsewhere:
            if found is not None:
                break
            found = self.records.adopt(Records(other), name, key_of)
        return found

    def settle_titles(self) -> None:
        """Take the cached titles that show the right minutes, once every clip's length is
        known."""
        waiting = [s for s in self.titles if s not in self.clips]
        minutes = timing.minutes_from(self.plan.scenes, self.lengths())
        if waiting and minutes is not None:
            self.take_titles(minutes)

    def lengths(self) -> dict[type[LessonScene], float]:
        """The length of each clip known so far: current ones, and cached titles (a title
        lasts the same whatever minutes it shows)."""
        lengths = {s: found.entry.duration for s, found in self.titles.items()}
        return lengths | {s: e.duration for s, e in self.clips.items()}

    def take_titles(self, minutes: int) -> list[type[LessonScene]]:
        """The titles found in the cache that show ``minutes``, now counted as cached."""
        self.minutes = minutes
        current = [
            s
            for s, found in self.titles.items()
            if s not in self.clips and timing.minutes_shown(found.kwargs) == minutes
        ]
        for scene in current:
            self.clips[scene] = self.titles[scene].entry
        return current

    def collect(self, scene: type[LessonScene], result: worker.ClipResult) -> None:
        """A worker's clip, finished here; a failure to finish it fails the scene alone."""
        try:
            entry = self._finish_clip(scene, result)
        except Exception as error:  # ffmpeg failing on one clip must not lose the others
            self.fail(scene, f"{type(error).__name__}: {error}")
        else:
            self.clips[scene] = entry
            self.states[scene] = "rendered"
            self.display.done(self.label(scene), entry.duration, result.elapsed)
            if len(result.drawn) < result.beats:
                self.display.note(f"  {self.label(scene)}: {drawn_beats(result)}")

    def fail(self, scene: type[LessonScene], message: str, detail: str = "") -> None:
        self.failures[scene] = message
        self.clips.pop(scene, None)
        self.display.failed(self.label(scene), message)
        if detail:
            log = self.options.work / scene.slug / "error.log"
            try:
                log.parent.mkdir(parents=True, exist_ok=True)
                log.write_text(detail, encoding="utf-8")
            except OSError as error:  # the disk that failed the scene may fail its log too
                self.display.note(f"  traceback not saved: {error.strerror}")
            else:
                self.display.note(f"  traceback: {log}")

    def _finish_clip(self, scene: type[LessonScene], result: worker.ClipResult) -> ClipEntry:
        """Move a worker's clip into place byte-reproducibly, with its narration, its captions
        (a sidecar and a subtitle track) and its poster."""
        final = self.plan.file(scene)
        length = probe(result.video).duration
        captions_file = final.with_suffix(".srt")
        captions = track = None
        beats: tuple[tuple[float, str], ...] = ()
        if result.captions is not None:
            # manim writes its subcaption file with the text as it is; ours escapes it.
            raw = parse_srt(result.captions.read_text("utf-8"), escaped=False)
            beats = tuple((cue.start / 1000, cue.text) for cue in clamp(raw, milliseconds(length)))
            cues = clamp(self._to_rules(raw, result.speech), milliseconds(length))
            cues = eased(cues, milliseconds(length))
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
                language=self.language,
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
            title=scene.headline(self.lesson),
            duration=info.duration,
            width=info.width,
            height=info.height,
            fps=info.fps,
            size=final.stat().st_size,
            sha256=sha256(final),
            poster=FileRef.of(poster_file),
            captions=captions,
            numbers=result.numbers,
            beats=beats,
            shown=result.shown,
            meant=result.meant,
        )
        reads = sorted({*result.reads, ("words", f"{scene.slug}.heading.title")}, key=str)
        kwargs = timing.title_arguments(scene, self.minutes) if self.minutes is not None else ()
        self.records.save(self.plan.key(scene, reads, kwargs), entry, reads, kwargs)
        shutil.rmtree(result.video.parent, ignore_errors=True)
        return entry

    def _to_rules(self, beats: Sequence[Cue], speech: Sequence[tuple[float, Path]]) -> list[Cue]:
        """Each beat's one cue (manim's subcaption) as cues to the rules, timed at the pauses
        heard in the beat's speech (a silent beat's by the length of their words)."""
        heard = {milliseconds(start): path for start, path in speech}
        words = self.lesson.words
        keep = unbroken(self.lesson)
        cues: list[Cue] = []
        for beat in beats:
            # manim stamps a cue to the millisecond from the same start the speech was placed at
            path = next((p for ms, p in heard.items() if abs(ms - beat.start) <= 2), None)
            found = None
            if path is not None:
                found = [
                    (beat.start + milliseconds(a), beat.start + milliseconds(b))
                    for a, b in pauses(path)
                ]
            weigh = lambda text: float(len(spoken(text, words)))  # noqa: E731
            cues += split_cue(beat, pauses=found, weigh=weigh, keep=keep)
        return cues

    @property
    def language(self) -> str:
        """The tag of the lesson's sound and subtitle tracks (ISO 639-2: ``eng``)."""
        return iso639_2(self.lesson.words["common.word.language"])

    def complete(self) -> Outcome:
        """Join the whole video if every clip is current, then write the kit and manifest."""
        import manim

        options = self.options
        # The whole video is joined (ffmpeg copying, in a thread) while Chromium prints the
        # handout, which shows the lesson and none of its videos. The print stays on this
        # thread, so that an interrupt stops it as it would stop it alone.
        with ThreadPoolExecutor(1, thread_name_prefix="join") as joiner:
            joining = joiner.submit(self._whole_and_described)
            printed = write_handout(options.folder, self.lesson)
            full = joining.result()
        manifest = Manifest(
            lesson=self.lesson.title,
            quality=options.run.quality.name,
            format=options.run.fmt,
            transparent=options.run.transparent,
            manim=manim.__version__,
            clips=tuple(self.clips[s] for s in self.plan.scenes if s in self.clips),
            full=full[0] if full else None,
        )
        kit = write_kit(
            options.folder,
            self.lesson,
            manifest,
            steps_wanted=len(self.plan.scenes),
            slides=options.run.slides,
            package=options.run.package,
            printed=printed,
        )
        kit_files = tuple(FileRef.of(options.folder / name) for name in kit.files)
        manifest = replace(manifest, kit=kit_files)
        write_manifest(options.folder / "manifest.json", manifest)
        prefix = f"{self.name}/" if self.name else ""
        rows = [
            SummaryRow(prefix + entry.file, self.states[s], entry.duration, entry.size)
            for s in self.plan.chosen
            if (entry := self.clips.get(s)) is not None
        ]
        if full:
            rows.append(SummaryRow(prefix + full[0].file, full[1], full[0].duration, full[0].size))
        if self.described_row:
            name, state, duration, size = self.described_row
            rows.append(SummaryRow(prefix + name, state, duration, size))
        notes = [f"step {s.step} ({s.__name__}) failed: {m}" for s, m in self.failures.items()]
        notes += [self.join_failure] if self.join_failure else []
        notes += self.described
        notes += [*kit.notes, *kit.failures]
        if self.name:
            notes = [f"{self.name}: {note}" for note in notes]
        failed = bool(self.failures or self.join_failure or kit.failures or self.described_failed)
        return Outcome(manifest, tuple(rows), tuple(notes), failed)

    def _whole_and_described(self) -> tuple[FullEntry, str] | None:
        """The whole video, then (``--described``) its described version beside it."""
        full = self._join_if_complete()
        narrator = self.options.describing
        if full is not None and narrator is None and full[1] == "joined":
            remove_described(self.options.folder, full[0].file)  # it described another video
        if full is None or narrator is None:
            if narrator is not None:
                self.described.append("described video not made: the whole video is not joined")
            return full
        clips = [self.clips[scene] for scene in self.plan.scenes]
        try:
            made = make_described(
                self.lesson,
                self.options.folder,
                clips,
                full[0],
                narrator,
                self.options.work / "described",
                code=source_digest(DESCRIBED_SOURCES),
            )
        except Exception as error:  # the plain video and the kit stand without it
            self.described.append(f"described video failed: {type(error).__name__}: {error}")
            self.described_failed = True
            return full
        self.described.append(made.note)
        self.described_row = made.row
        if made.second_track and not made.cached:  # the plain video was rewritten with it
            entry = self.options.folder / full[0].file
            updated = replace(full[0], size=entry.stat().st_size, sha256=sha256(entry))
            self.records.save(full_key(self.lesson.title, clips), updated)
            return updated, full[1]
        return full

    def _join_if_complete(self) -> tuple[FullEntry, str] | None:
        """The whole video, when the format allows it and every step's clip is current."""
        options, fmt = self.options, self.options.run.fmt
        if fmt not in JOINABLE_FORMATS:
            self.display.note(f"{fmt}: the whole-lesson video and its chapters are skipped")
            return None
        missing = [scene for scene in self.plan.scenes if scene not in self.clips]
        if missing:
            steps = ", ".join(str(scene.step) for scene in missing)
            self.display.note(f"whole-lesson video not joined: step(s) {steps} not ready")
            return None
        clips = [self.clips[scene] for scene in self.plan.scenes]
        target = options.folder / f"{full_name(self.lesson, options.stem)}.{fmt}"
        key = full_key(self.lesson.title, clips)
        cached = None if options.run.force else self.records.full(target.name, key)
        if cached is not None:
            return cached, "cached"
        try:
            return self._join(clips, target, key), "joined"
        except Exception as error:
            self.join_failure = f"joining the whole video failed: {error}"
            return None

    def _join(self, clips: Sequence[ClipEntry], target: Path, key: str) -> FullEntry:
        folder = self.options.folder
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
            self.lesson.title,
            chapters,
            target,
            self.options.work / "join",
            subtitles=vtt_file,
            language=self.language,
        )
        info = probe(target)
        upload_file = folder / upload_text.FILE
        write_text(upload_file, upload_text.upload_text(self.lesson, chapters))
        entry = FullEntry(
            file=target.name,
            title=self.lesson.title,
            duration=info.duration,
            width=info.width,
            height=info.height,
            fps=info.fps,
            size=target.stat().st_size,
            sha256=sha256(target),
            chapters=tuple(chapters),
            captions=(FileRef.of(srt_file), FileRef.of(vtt_file)),
            numbers=tuple(dict.fromkeys(n for clip in clips for n in clip.numbers)),
            description=FileRef.of(upload_file),
        )
        self.records.save(key, entry)
        return entry


def drawn_beats(result: worker.ClipResult) -> str:
    """Which beats of a clip were rendered: ``beat 3 of 7 rendered, 6 reused``."""
    drawn = ", ".join(str(number) for number in result.drawn) or "none"
    plural = "s" if len(result.drawn) > 1 else ""
    reused = result.beats - len(result.drawn)
    return f"beat{plural} {drawn} of {result.beats} rendered, {reused} reused"
