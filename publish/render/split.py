"""One clip on several cores: its fresh beats shared out between worker processes.

A clip rendered a beat at a time (:mod:`publish.beats`) draws only the beats whose key
changed. When fewer clips than workers need drawing (one number changed, one clip to redo; the
clip a preview is showing), the clip's fresh beats are cut into runs of about equal frames, and
each run is drawn by a process of its own (:class:`~publish.beats.Part`): each replays
the scene, drawing only its run, into the beat store. Once all are in, the clip is joined from
the store as a whole render joins it, so its bytes are the same.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import replace

from publish.beats import BeatRecord, BeatStore, Part, join
from publish.render import worker
from publish.render.pool import start

__all__ = ["DISAGREED", "Joined", "parts", "start_clip"]

DISAGREED = (
    "{clip}: its parts read the lesson differently (does the scene read it only while "
    "drawing?); drawing it again in one process"
)
"""What the run says when a clip's parts disagree and it is drawn again whole."""


def start_clip(
    executor: Executor,
    job: worker.ClipJob,
    note: Callable[[str], None],
    ways: int = 1,
    lead: bool = False,
) -> Future[worker.ClipResult]:
    """Queue ``job``'s render, its fresh beats shared out between up to ``ways`` processes;
    ``lead``: the first changed beat is a part of its own (a preview shows it first,
    :meth:`Joined.early`). ``note``: where the run says a line (the parts disagreed, and the
    clip is drawn whole)."""
    shares = parts(job, ways, lead)
    if len(shares) < 2:
        return start(executor, worker.render_clip, job)
    # The clip's numbers and what it shows are the last part's (:func:`joined`): the others
    # need not read the screen after every play, a third of a replayed beat's time.
    jobs = [
        replace(
            job, part=part, work=job.work / f"part{n}", numbers=job.numbers and part.last is None
        )
        for n, part in enumerate(shares, 1)
    ]
    return Joined(executor, job, [start(executor, worker.render_clip, one) for one in jobs], note)


def parts(job: worker.ClipJob, ways: int, lead: bool = False) -> list[Part]:
    """The runs of beats to draw ``job``'s fresh beats in, about equal in frames; one run when
    there is nothing to share (a clip never rendered has no record of its beats yet).

    ``lead``: the beats up to the first fresh one are a run of their own, and the rest is
    shared so that the process drawing it, which takes the last run next, does about as much
    as each other; with one fresh beat, the others are replayed meanwhile by another."""
    if ways < 2 or job.beats is None or job.part is not None:
        return [Part(1)]
    store = BeatStore(job.beats, f".{job.fmt}")
    clip = f"{job.base}/{job.label}"
    records = store.record(clip)
    likely = store.likely_fresh(clip, job.base, job.lesson)
    fresh = [r for r, drawn in zip(records, likely, strict=True) if drawn]
    if lead and fresh and fresh[0].number < len(records):
        number = fresh[0].number
        return [Part(1, number), *_runs(fresh[1:], ways, number + 1, _frames(fresh[0]))]
    if len(fresh) < 2:
        return [Part(1)]
    return _runs(fresh, min(ways, len(fresh)))


def _runs(fresh: Sequence[BeatRecord], ways: int, first: int = 1, ahead: int = 0) -> list[Part]:
    """Runs from beat ``first`` on; ``ahead`` frames were shared out before them."""
    total = sum(_frames(record) for record in fresh) + ahead
    shares: list[Part] = []
    done = 0
    for record in fresh[:-1]:
        done += _frames(record)
        if len(shares) < ways - 1 and done >= total * (len(shares) + 1) / ways:
            shares.append(Part(first, record.number))
            first = record.number + 1
    return [*shares, Part(first)]


def _frames(record: BeatRecord) -> int:
    return max(1, record.timing[0])


class Joined(Future[worker.ClipResult]):
    """The clip of several parts' renders: joined once all are in; cancelling it cancels
    them. Parts that disagree on what the beats they both played read (a scene reading the
    lesson only while drawing) are given up for one render of the whole clip, and ``note``
    says so: the clip takes about as long again."""

    def __init__(
        self,
        executor: Executor,
        job: worker.ClipJob,
        renders: list[Future[worker.ClipResult]],
        note: Callable[[str], None],
    ) -> None:
        super().__init__()
        self.executor = executor
        self.job = job
        self.renders = renders
        self.note = note
        self.shown = 0
        """How many parts :meth:`early` has joined so far."""
        self._lock = threading.RLock()
        for render in renders:
            render.add_done_callback(self._arrived)

    def early(self) -> worker.ClipResult | None:
        """The clip's first beats, as far as its parts done in order reach, when they reach
        further than last asked and the clip is not joined yet: what a preview shows while
        the rest renders (its video is the beats' segments joined)."""
        with self._lock:
            results = []
            for render in self.renders[:-1]:
                if not render.done() or render.cancelled() or render.exception() is not None:
                    break
                results.append(render.result())
            if self.done() or len(results) <= self.shown:
                return None
            self.shown = len(results)
        return joined(self.job, results, f"early{len(results)}")

    def cancel(self) -> bool:
        for render in self.renders:
            render.cancel()
        return super().cancel()

    def _arrived(self, _: Future[worker.ClipResult]) -> None:
        with self._lock:
            if self.done() or not all(render.done() for render in self.renders):
                return
            try:
                results = [render.result() for render in self.renders]
                # A part ends after its own beats: what it recorded begins the last's records.
                last = results[-1].records
                if any(last[: len(result.records)] != result.records for result in results):
                    self.note(DISAGREED.format(clip=self.job.label))
                    whole = start(self.executor, worker.render_clip, self.job)
                    self.renders = [whole]
                    whole.add_done_callback(self._whole)
                    return
                self.set_result(joined(self.job, results))
            except BaseException as error:  # a part's failure, or the join's, is the clip's
                self.set_exception(error)

    def _whole(self, render: Future[worker.ClipResult]) -> None:
        with self._lock:
            if self.done():
                return
            try:
                self.set_result(render.result())
            except BaseException as error:
                self.set_exception(error)


def joined(
    job: worker.ClipJob, results: Sequence[worker.ClipResult], early: str = ""
) -> worker.ClipResult:
    """The clip of ``job`` from its parts' renders (which agree on every beat's record): every
    beat's segment, as the store holds it. ``early``: the first parts only, their beats
    joined into a video of that name, the clip's record left as it was."""
    assert job.beats is not None
    last = results[-1]
    store = BeatStore(job.beats, f".{job.fmt}")
    segments = [store.segment(record.key) for record in last.records if record.timing[0] > 0]
    if last.tail is not None:
        segments.append(store.segment(last.tail))
    missing = [segment.name for segment in segments if not segment.is_file()]
    if missing:
        raise worker.ClipFailed(f"a part left no segment for {len(missing)} beat(s)")
    video = job.work / "video" / f"{early or 'clip'}.{job.fmt}"
    video.parent.mkdir(parents=True, exist_ok=True)
    join(segments, video)
    captions = None
    if last.captions is not None:
        captions = shutil.copyfile(last.captions, video.with_suffix(".srt"))
    if not early:
        store.save_record(f"{job.base}/{job.label}", last.records)
    drawn = sorted({number for result in results for number in result.drawn})
    elapsed = max(result.elapsed for result in results)
    return replace(last, video=video, captions=captions, drawn=tuple(drawn), elapsed=elapsed)
