"""The preview's loop: on every save of the lesson, re-render what changed, the clip the page
shows first, and publish each clip to the page as it comes in; a newer save drops older work."""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_core import Lesson, LessonError
from publish.beats import BeatStore, duration
from publish.code_digest import source_digest
from publish.media.captions import clamp, milliseconds, parse_srt, to_vtt
from publish.media.ffmpeg import remux
from publish.media.files import clean_partials, replacing
from publish.narration.soundtrack import encoding, iso639_2, narration_track
from publish.presets import clip_name
from publish.render import shelf, toolchain, worker
from publish.render.cache import SOURCE_PACKAGES
from publish.render.lesson_run import drawn_beats
from publish.render.options import LessonOptions
from publish.render.plan import Plan, plan
from publish.render.split import Joined, start_clip
from publish.watch.state import Beat, Clip, State
from scenes import timing

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = ["Session", "scene_error"]

STOPS = ".stop"
"""Where the stop files of outdated saves are (:meth:`Session._stop_file`)."""
CLIPS = "clips"
"""The preview folder's folder of clips the page plays, each named after its bytes' render."""


def scene_error(name: str, failure: worker.ClipFailed) -> str:
    """``03_score failed at scenes/steps/score.py line 125: ValueError: ...``: the scene's own
    line that raised (the last frame in ``scenes/``), from the worker's traceback."""
    frames = re.findall(r'File "([^"]*?/(scenes/[^"]+\.py))", line (\d+)', failure.detail)
    where = f" at {frames[-1][1]} line {frames[-1][2]}" if frames else ""
    return f"{name} failed{where}: {failure.message}"


@dataclass(frozen=True)
class Made:
    """A clip as the preview last made it, and what its key was made from."""

    key: str
    reads: tuple[Any, ...]
    kwargs: tuple[tuple[str, Any], ...]
    clip: Clip
    seconds: float


class Session:
    """Renders saves of one lesson into ``options.folder``'s clip folder for the page.

    ``load`` reads the lesson (raising :class:`LessonError`), ``wanted`` are the ``--scene``
    names (its scenes and keys are each save's :class:`Plan`), ``say`` prints a terminal line.
    """

    def __init__(
        self,
        options: LessonOptions,
        state: State,
        load: Callable[[], Lesson],
        wanted: Sequence[str],
        say: Callable[[str], None],
    ) -> None:
        self.options = options
        self.state = state
        self.load = load
        self.wanted = wanted
        self.say = say
        self.folder = options.folder / CLIPS
        self.made: dict[str, Made] = {}
        self.serial = 0
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.pending: tuple[int, Lesson] | None = None
        self.lock = threading.Lock()
        self.executor = self._pool()
        self.sources = source_digest(SOURCE_PACKAGES)
        self.tools = toolchain.digest()
        self.thread = threading.Thread(target=self._run, name="preview-render", daemon=True)

    def _pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self.options.run.jobs, context, initializer=_init_child)

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.options.folder / STOPS, ignore_errors=True)
        for folder in (self.folder, self.options.run.beats):
            clean_partials(folder)
        self.thread.start()
        self.saved()

    def saved(self, code: bool = False) -> None:
        """The lesson (or, ``code``, the scene code) was saved: read it and render what changed."""
        generation = self.state.generation + 1
        if code:  # new worker processes import the new code; the keys see its digest
            old, self.executor = self.executor, self._pool()
            old.shutdown(wait=False, cancel_futures=True)
            self.sources = source_digest(SOURCE_PACKAGES)
        try:
            lesson = self.load()
        except LessonError as error:
            line = f"lesson not loaded: {error}"
            self.state.update(generation=generation, error=line, last=line)
            self.say(f"{line} (the page keeps the last good video)")
            return
        with self.lock:
            self.pending = (generation, lesson)
        self.state.update(generation=generation, good=generation, done=False, error=None)
        self.wake.set()

    def stop(self) -> None:
        """Stop at once: drop queued work, end the render processes, remove what they left."""
        self.stopping.set()
        self.wake.set()
        children = multiprocessing.active_children()
        self.executor.shutdown(wait=False, cancel_futures=True)
        for child in children:  # ours: the pool's processes; a render mid-write is cut off
            child.terminate()
        for child in children:
            child.join(5)
        if self.thread.is_alive():  # not yet started, when a signal came as the preview began
            self.thread.join(10)
        shutil.rmtree(self.options.folder / STOPS, ignore_errors=True)
        for folder in (self.folder, self.options.run.beats):
            clean_partials(folder)

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.wake.wait()
            self.wake.clear()
            with self.lock:
                pending, self.pending = self.pending, None
            if pending is not None and not self.stopping.is_set():
                try:
                    self._render(*pending)
                except Exception as error:  # the loop must survive anything one save does
                    line = f"preview failed: {type(error).__name__}: {error}"
                    self.state.update(error=line, last=line)
                    self.say(line)

    def _outdated(self, generation: int) -> bool:
        return self.stopping.is_set() or self.state.good != generation or self.pending is not None

    def _plan(self, lesson: Lesson) -> Plan:
        """The save's plan: its scenes and keys, the clips' lengths as this preview made them."""
        known = {name: made.seconds for name, made in self.made.items()}
        return plan(
            lesson, self.options, self.wanted, sources=self.sources, tools=self.tools, known=known
        )

    def _render(self, generation: int, lesson: Lesson) -> None:
        started = time.monotonic()
        planned = self._plan(lesson)
        scenes = planned.chosen
        self.state.update(order=[clip_name(s.step, s.slug) for s in scenes])
        watching = self.state.watching
        titles = timing.titles(scenes)
        first = [s for s in scenes if clip_name(s.step, s.slug) == watching and s not in titles]
        # The others longest first (as a render queues them): the last to finish is short.
        others = [s for s in scenes if s not in first and s not in titles]
        last = planned.last(others)
        order = first + sorted(others, key=lambda s: -last.get(s, 0.0))
        todo: dict[Future[worker.ClipResult], tuple[type[LessonScene], Any]] = {}
        for scene in order:
            job = self._job(generation, planned, scene, ())
            if job is not None:  # the lead's fresh beats are shared out between every worker
                ways = 1 if todo else self.options.run.jobs
                todo[start_clip(self.executor, job, self.say, ways, lead=not todo)] = (scene, ())
        for title in titles:  # with the minutes it showed: a lesson's length seldom changes
            shown = self.made.get(clip_name(title.step, title.slug))
            job = None if shown is None else self._job(generation, planned, title, shown.kwargs)
            if shown is not None and job is not None:
                todo[start_clip(self.executor, job, self.say)] = (title, shown.kwargs)
        # The lead: the clip the page shows (else the first to re-render). The page jumps to
        # its first changed beat; to another clip's only if the lead changed nothing on screen.
        lead = next(iter(todo.values()))[0] if todo else None
        lead_in = jumped = False
        redone: list[str] = []
        while todo:
            # The lead's parts too: its first beats are shown as soon as they are in.
            early = [f for f in todo if todo[f][0] is lead and isinstance(f, Joined)]
            parts = [part for f in early for part in f.renders if not part.done()]
            done, _ = wait([*todo, *parts], timeout=0.2, return_when="FIRST_COMPLETED")
            if self._outdated(generation):
                stop = self._stop_file(generation)
                stop.parent.mkdir(parents=True, exist_ok=True)
                stop.touch()  # what is rendering stops at its next beat; the queued never start
                for future in todo:
                    future.cancel()
                self._settle()
                return
            for joined in early:
                if joined not in done:
                    self._early(generation, planned, todo[joined][0], joined, started)
            for future in sorted(done & todo.keys(), key=lambda f: todo[f][0] is not lead):
                scene, kwargs = todo.pop(future)
                jump = not jumped and (scene is lead or lead_in)
                line, moved = self._collect(generation, planned, scene, kwargs, future, jump)
                jumped = jumped or moved
                if scene is lead:  # said as soon as it is in
                    line = f"{line} in {time.monotonic() - started:.1f} s"
                    self.state.update(last=line)
                    self.say(line)
                    lead_in = True
                redone.append(line)
            if not todo and titles:
                for title in titles:
                    minutes = tuple(self._minutes(self._plan(lesson), title).items())
                    job = self._job(generation, planned, title, minutes)
                    if job is not None:
                        ways = self.options.run.jobs
                        todo[start_clip(self.executor, job, self.say, ways)] = (title, minutes)
                titles = []
        self._settle()
        BeatStore(self.options.run.beats, f".{self.options.run.fmt}").prune()
        shelf.prune(self.options.run.typeset)
        elapsed = time.monotonic() - started
        if not redone:
            summary = "nothing to re-render: no clip reads what changed"
        elif len(redone) == 1:
            summary = redone[0]
        else:
            summary = f"all {len(redone)} changed clips in {elapsed:.1f} s"
        self.state.update(done=True, last=summary)
        if len(redone) != 1:
            self.say(summary)

    def _minutes(self, planned: Plan, title: type[LessonScene]) -> dict[str, Any]:
        """The title's minutes from the chosen clips as this preview made them."""
        seconds = sum(planned.last(planned.chosen).values())
        return timing.length_arguments(title, timing.minutes_of(seconds))

    def _job(
        self,
        generation: int,
        planned: Plan,
        scene: type[LessonScene],
        kwargs: tuple[tuple[str, Any], ...],
    ) -> worker.ClipJob | None:
        """The job of save ``generation`` that re-renders ``scene``, or None when its clip is
        current."""
        made = self.made.get(clip_name(scene.step, scene.slug))
        if made is not None:
            wanted = kwargs if scene.shows_length else made.kwargs
            if made.key == planned.key(scene, made.reads, wanted):
                return None
        if scene.shows_length and not kwargs:
            return None  # made last, once the others' lengths are known
        job = planned.clip_job(scene, kwargs, numbers=False)
        return replace(job, stop=self._stop_file(generation))

    def _stop_file(self, generation: int) -> Path:
        """Appears once a newer save makes ``generation``'s renders outdated: a clip already
        rendering stops as its next beat begins (``worker.ClipJob.stop``)."""
        return self.options.folder / STOPS / str(generation)

    def _collect(
        self,
        generation: int,
        planned: Plan,
        scene: type[LessonScene],
        kwargs: tuple[tuple[str, Any], ...],
        future: Future[worker.ClipResult],
        jump: bool,
    ) -> tuple[str, bool]:
        """Publish a finished clip (the page jumps to its first changed beat if ``jump``): its
        terminal line, and whether the page was sent there."""
        name = clip_name(scene.step, scene.slug)
        try:
            result = future.result()
        except worker.ClipFailed as failure:
            line = scene_error(name, failure)
            self.state.update(error=line, last=line)
            return line, False
        clip = self._publish(generation, planned, scene, kwargs, result)
        changed = _changed(clip) if jump else None
        self._show(clip, changed)
        return f"{name}: {drawn_beats(result)}", changed is not None

    def _early(
        self,
        generation: int,
        planned: Plan,
        scene: type[LessonScene],
        joined: Joined,
        started: float,
    ) -> None:
        """Show the lead clip's first beats while the rest renders, from the first changed
        beat on, if its first parts are in (else nothing)."""
        try:
            result = joined.early()
        except worker.ClipFailed:  # the clip's own render says so, once it is in
            return
        if result is not None:
            clip = self._clip(generation, planned, scene, result, complete=False)
            self._show(clip, _changed(clip))
            count = len(clip.beats)
            shown = "beat 1" if count == 1 else f"beats 1 to {count}"
            took = time.monotonic() - started
            self.state.update(last=f"{clip.name}: {shown} in {took:.1f} s; the rest follows")

    def _publish(
        self,
        generation: int,
        planned: Plan,
        scene: type[LessonScene],
        kwargs: tuple[tuple[str, Any], ...],
        result: worker.ClipResult,
    ) -> Clip:
        """The worker's clip for the page, and what its key was made from."""
        clip = self._clip(generation, planned, scene, result)
        reads = tuple(sorted({*result.reads, ("words", f"{scene.slug}.heading.title")}, key=str))
        old = self.made.get(clip.name)
        key = planned.key(scene, reads, kwargs)
        self.made[clip.name] = Made(key, reads, kwargs, clip, result.seconds)
        if old is not None and old.clip is not self.state.clips.get(clip.name):
            _remove_later(self.folder, old.clip)  # an early clip is shown instead
        return clip

    def _show(self, clip: Clip, changed: dict[str, Any] | None = None) -> None:
        """Put ``clip`` on the page. The clip it replaces goes a while later, once the page
        plays this; but the last complete one stays while an early one is shown instead, as
        the early one may yet give way to it (:meth:`_settle`)."""
        before = self.state.clips.get(clip.name)
        self.state.put(clip, changed)
        made = self.made.get(clip.name)
        if before is not None and (made is None or before is not made.clip):
            _remove_later(self.folder, before)

    def _settle(self) -> None:
        """An early clip whose rest never came (outdated by a newer save, or failed) gives way
        to the clip's last complete one: the page shows what the preview's keys say it has."""
        for name, shown in list(self.state.clips.items()):
            made = self.made.get(name)
            if not shown.complete and made is not None:
                self._show(made.clip)

    def _clip(
        self,
        generation: int,
        planned: Plan,
        scene: type[LessonScene],
        result: worker.ClipResult,
        complete: bool = True,
    ) -> Clip:
        """The worker's clip, with its captions and narration, under a new name for the page."""
        name, lesson = clip_name(scene.step, scene.slug), planned.lesson
        self.serial += 1
        stem = f"{name}.{generation}.{self.serial}"
        video = self.folder / f"{stem}.{self.options.run.fmt}"
        length = duration(result.video)
        captions = None
        if result.captions is not None:
            cues = clamp(
                parse_srt(result.captions.read_text("utf-8"), escaped=False), milliseconds(length)
            )
            captions = self.folder / f"{stem}.vtt"
            with replacing(captions) as temporary:
                temporary.write_text(to_vtt(cues), encoding="utf-8")
        narration = None
        if result.speech:
            narration = narration_track(result.speech, length, result.video.parent)
        with replacing(video) as temporary:
            if narration is None:  # the joined beats are the clip: a copy is enough
                shutil.copyfile(result.video, temporary)
            else:
                remux(
                    result.video,
                    temporary,
                    language=iso639_2(lesson.words["common.word.language"]),
                    audio=narration,
                    audio_options=encoding(video.suffix),
                )
        beats = tuple(Beat(*timing) for timing in result.timings)
        clip = Clip(
            name=name,
            title=scene.headline(lesson),
            video=f"/media/{video.name}",
            captions=f"/media/{captions.name}" if captions else None,
            duration=length,
            beats=beats,
            generation=generation,
            fresh=tuple(beats[n - 1].id for n in result.drawn),
            complete=complete,
        )
        return clip


def _changed(clip: Clip) -> dict[str, Any] | None:
    """Where the page jumps to: the clip's first changed beat (None: it changed none)."""
    fresh = [beat for beat in clip.beats if beat.id in clip.fresh]
    if not fresh:
        return None
    return {
        "clip": clip.name,
        "beat": fresh[0].id,
        "start": fresh[0].start,
        "generation": clip.generation,
        "fresh": list(clip.fresh),
    }


def _init_child() -> None:
    """A render process: as a render's, and gone once the preview is (killed, it cannot say)."""
    worker.init(None)
    parent = os.getppid()

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=orphaned, name="orphaned", daemon=True).start()


def _remove_later(folder: Path, clip: Clip, seconds: float = 30) -> None:
    """Remove ``clip``'s files in ``seconds``: the page may still be playing it until then."""
    timer = threading.Timer(seconds, partial(_remove, folder, clip))
    timer.daemon = True
    timer.start()


def _remove(folder: Path, clip: Clip) -> None:
    for url in (clip.video, clip.captions):
        if url:
            (folder / url.rsplit("/", 1)[-1]).unlink(missing_ok=True)
