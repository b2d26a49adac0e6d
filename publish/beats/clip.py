"""A clip rendered a beat at a time: the scene replayed through the cutter, each fresh beat
drawn into the store, the clip joined from the store's segments."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from manim import CairoRenderer, config

from attention_core import Lesson
from attention_core.reads import traced
from publish.beats.cutter import Cut, Cutter, Part, PartDone
from publish.beats.keys import WindowReads
from publish.beats.store import BeatRecord, BeatStore, tail_of
from publish.beats.writer import join
from scenes.base import LessonScene
from scenes.beat import Boundary
from scenes.manim_internals import beat_renderer, draw_plays, segment_files, subcaptions_srt
from scenes.probe import Probe, record

__all__ = ["MakeScene", "Rendered", "render_beats"]

MakeScene = Callable[[Lesson, CairoRenderer, Boundary], LessonScene]
"""The scene of a clip, made on the (traced) lesson with the renderer and beat boundary given."""


@dataclass(frozen=True)
class Rendered:
    """A clip as :func:`render_beats` left it."""

    scene: LessonScene
    """The scene as it ended: its clock, its beats' timings, its narration."""
    video: Path
    """The clip joined (a part's render joins nothing: its segments are in the store)."""
    captions: Path | None
    probe: Probe
    """What it showed (empty unless ``numbers``)."""
    reads: WindowReads
    """Every field of the lesson it read."""
    cuts: tuple[Cut, ...]
    tail: str | None
    """The store's key of a part's plays after the last beat; None otherwise."""

    @property
    def records(self) -> tuple[BeatRecord, ...]:
        """Each beat's key and what it covers."""
        return tuple(cut.record for cut in self.cuts)

    @property
    def drawn(self) -> tuple[int, ...]:
        """The beats (from 1) drawn afresh; the others' segments were reused."""
        return tuple(cut.number for cut in self.cuts if cut.drawn)


def render_beats(
    make: MakeScene,
    lesson: Lesson,
    store: BeatStore,
    clip: str,
    base: str,
    video: Path,
    part: Part | None = None,
    stopped: Callable[[], bool] | None = None,
    numbers: bool = True,
    progress: Callable[[float], None] | None = None,
) -> Rendered:
    """Render the scene ``make`` makes on ``lesson`` into ``video``, a beat at a time, reusing
    what ``store`` holds of the beats ``clip`` (its base key and label) was last made of.

    ``base`` is the clip's key but for the lesson (the base of its beats' keys), ``part`` the
    beats this process draws (:mod:`publish.render.split`), ``stopped`` asked as each beat
    begins (yes raises :class:`~publish.beats.cutter.Stopped`), ``numbers`` whether to read
    what is on screen after every play, ``progress`` told the scene's clock after each. Called
    inside the clip's ``manim.tempconfig``."""
    previous = store.record(clip)
    args = (make, lesson, store, clip, base, video, part, stopped, numbers, progress)
    return _render(*args, previous) or _render(*args, []) or _never()


def _never() -> Rendered:
    raise RuntimeError("a beat played differently with every beat drawn")


def _render(
    make: MakeScene,
    lesson: Lesson,
    store: BeatStore,
    clip: str,
    base: str,
    video: Path,
    part: Part | None,
    stopped: Callable[[], bool] | None,
    numbers: bool,
    progress: Callable[[float], None] | None,
    previous: Sequence[BeatRecord],
) -> Rendered | None:
    """The render reusing what it can of the ``previous`` beats (none: every beat drawn); None
    if a reused beat did not play as recorded (the caller draws them all)."""
    reads = WindowReads()
    cutter = Cutter(
        base,
        lesson,
        reads,
        previous,
        lambda key: store.segment(key).is_file(),
        config.frame_rate,
        draw_plays,
        segment_files,
        part,
        stopped=stopped,
    )
    scene = make(traced(lesson, reads), beat_renderer(), cutter)
    cutter.start(scene)
    told = None if progress is None else lambda: progress(float(scene.time))
    probe = record(scene, after_each=told) if numbers else Probe()
    try:
        scene.render()
        tail = cutter.tail(scene)
    except PartDone:  # the beats after this part's are the next part's, the tail too
        tail = []
    captions_text = subcaptions_srt(scene)
    probe.beats = tuple(scene.beats)
    if cutter.mismatched():
        return None
    for cut in cutter.cuts:
        if cut.drawn and cut.files:
            store.put(cut.record.key, cut.files)
        elif cut.reused:
            store.used(cut.record.key)
    records = tuple(cut.record for cut in cutter.cuts)
    video.parent.mkdir(parents=True, exist_ok=True)
    tail_key = None
    if part is not None:  # the parts' segments are joined by whoever shared them out
        if tail:
            tail_key = tail_of(records)
            store.put(tail_key, tail)
    else:
        segments = [store.segment(cut.record.key) for cut in cutter.cuts if cut.reused or cut.files]
        join([*segments, *tail], video)
        store.save_record(clip, records)
    captions = None
    if captions_text:
        captions = video.with_suffix(".srt")
        captions.write_text(captions_text, encoding="utf-8")
    return Rendered(scene, video, captions, probe, reads, tuple(cutter.cuts), tail_key)
