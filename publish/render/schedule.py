"""One queue for every clip of every lesson in a run, longest expected first.

Each lesson's title (it shows the lesson's length in minutes) waits for the length of each of
that lesson's other clips: rendered, cached, or measured by a dry run (those neither cached nor
rendered now, and, once a worker would otherwise stand idle, those still rendering). Every other
clip of every lesson is queued at once, so the workers stay busy until the last clip of the
course. A title made with a dry run's length is made again if the rendered clips give other
minutes. A lesson is finished (joined, its kit and manifest written) as soon as its last clip is
in, while the workers go on with the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from publish.render import worker
from publish.render.lesson_run import LessonRun
from publish.render.options import RunOptions
from publish.render.pool import event_queue, outcome, start, worker_pool
from publish.render.progress import Display, Row
from publish.render.split import start_clip
from scenes import timing

if TYPE_CHECKING:
    from scenes import LessonScene
    from scenes.probe import Probe

__all__ = ["Clip", "queue_order", "render_course"]

Clip = tuple[int, "type[LessonScene]"]
"""A clip of the run: the index of its lesson, and its scene."""


def queue_order(clips: Sequence[Clip], lengths: Mapping[Clip, float]) -> list[Clip]:
    """``clips`` longest expected first, whatever their lesson; those without a length after
    them, in course and lesson order; titles last (they are short, and wait anyway)."""
    return sorted(clips, key=lambda c: (c[1].shows_length, -lengths.get(c, 0.0), c[0], c[1].step))


@dataclass
class _Lesson:
    """One lesson's part of the queue."""

    index: int
    run: LessonRun
    titles: list[type[LessonScene]]
    """Titles to render: they wait for the lesson's other clip lengths."""
    others: list[type[LessonScene]]
    measuring: list[type[LessonScene]]
    """Scenes dry-run for their length, which the title's minutes need: those neither cached
    nor rendered before the title, the title itself among them."""
    measured: dict[type[LessonScene], float] = field(default_factory=dict)
    probed: set[type[LessonScene]] = field(default_factory=set)
    """Clips still rendering, dry-run meanwhile on a worker that would stand idle: the titles
    need not wait for them."""
    outstanding: int = 0
    titles_sent: bool = False
    shown: int | None = None
    """The minutes the titles were sent with."""
    finished: bool = False


def _part(index: int, run: LessonRun) -> _Lesson:
    todo = [scene for scene in run.plan.chosen if scene not in run.clips]
    titles = timing.titles(todo)
    others = [scene for scene in todo if scene not in titles]
    unknown = timing.unknown(run.plan.scenes, run.lengths()) if titles else []
    measuring = [scene for scene in unknown if scene not in others]
    return _Lesson(index, run, titles, others, measuring)


def render_course(
    options: RunOptions,
    runs: Sequence[LessonRun],
    display: Display,
    finish: Callable[[LessonRun], None],
) -> None:
    """Render what ``runs`` lack in worker processes (or on ``options.scheduler``'s cluster),
    one queue for all; ``finish`` each lesson as soon as its last clip is in."""
    lessons = [_part(index, run) for index, run in enumerate(runs)]
    expected = {
        (part.index, scene): seconds
        for part in lessons
        for scene, seconds in part.run.plan.last(part.run.plan.chosen).items()
    }
    _show_board(lessons, expected, display)
    clips = queue_order([(p.index, s) for p in lessons for s in p.others], expected)
    dry = [(p.index, s) for p in lessons for s in p.measuring]
    for part in lessons:
        if part.measuring:
            where = f"{part.run.name}: " if part.run.name else ""
            display.note(
                f"{where}measuring {len(part.measuring)} scene(s) for the lesson's length …"
            )
    events: Any = event_queue()
    titles = sum(len(part.titles) for part in lessons)
    # Workers start with the first job: a run with nothing to render starts none. Fewer clips
    # than local workers: each clip's fresh beats are shared out between them (dry runs and
    # titles are short; a cluster's workers keep beat stores of their own).
    queued = len(clips) + len(dry) + titles
    jobs = options.jobs
    ways = max(1, jobs // max(1, len(clips))) if options.scheduler is None else 1
    workers = min(jobs, queued + len(clips) * (ways - 1))
    probing = options.scheduler is None and ways == 1  # a cluster's idle workers are unknown
    with _executor(options, events, workers, display) as executor:
        pending: dict[Future[Any], tuple[_Lesson, type[LessonScene], bool]] = {}

        def send(part: _Lesson, scene: type[LessonScene], minutes: int | None = None) -> None:
            run = part.run
            if scene in part.measuring and minutes is None:
                measure(part, scene, run.plan.dry_job(scene))
            else:
                kwargs = () if minutes is None else timing.title_arguments(scene, minutes)
                job = run.plan.clip_job(scene, kwargs)
                pending[start_clip(executor, job, run.display.note, ways)] = (part, scene, False)
                part.outstanding += 1

        def measure(part: _Lesson, scene: type[LessonScene], job: worker.DryJob) -> None:
            pending[start(executor, worker.dry_run, job)] = (part, scene, True)
            part.outstanding += 1

        for index, scene in [*dry, *clips]:
            send(lessons[index], scene)
        while True:
            for part in lessons:
                _release(part, send, finish)
            if not pending:
                break
            if probing and len(pending) < workers:
                for part, scene in _rendering_before_titles(pending.values()):
                    part.probed.add(scene)
                    measure(part, scene, _probe_job(part.run.plan.dry_job(scene)))
            done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _drain(events, display)
            for future in sorted(done, key=lambda f: (pending[f][0].index, pending[f][1].step)):
                part, scene, measuring = pending.pop(future)
                part.outstanding -= 1
                _arrived(part, scene, outcome(future), measuring)


def _rendering_before_titles(
    pending: Iterable[tuple[_Lesson, type[LessonScene], bool]],
) -> list[tuple[_Lesson, type[LessonScene]]]:
    """The clips rendering whose lengths a title still waits for, not yet dry-run."""
    return [
        (part, scene)
        for part, scene, measuring in pending
        if not measuring
        and part.titles
        and not part.titles_sent
        and scene not in part.titles
        and scene not in part.probed
    ]


def _probe_job(job: worker.DryJob) -> worker.DryJob:
    """A dry run beside the clip's render, in a work folder of its own."""
    return replace(job, work=job.work / "probe")


def _arrived(part: _Lesson, scene: type[LessonScene], value: Any, measuring: bool) -> None:
    """A clip rendered or a scene measured (or either failed)."""
    run = part.run
    if scene in part.probed and measuring:
        if not isinstance(value, worker.ClipFailed):  # else the title waits for the clip
            part.measured[scene] = value.seconds
        return
    if isinstance(value, worker.ClipFailed) and measuring:
        if scene in part.titles:
            run.fail(scene, f"measuring: {value.message}", value.detail)
        else:  # measured only for the title's minutes
            run.display.note(f"{run.label(scene)} failed to measure: {value.message}")
    elif isinstance(value, worker.ClipFailed):
        run.fail(scene, value.message, value.detail)
    elif measuring:
        probe: Probe = value
        part.measured[scene] = probe.seconds
    else:
        run.collect(scene, value)


def _release(
    part: _Lesson,
    send: Callable[[_Lesson, type[LessonScene], int | None], None],
    finish: Callable[[LessonRun], None],
) -> None:
    """Once a lesson's other clips are in, queue its titles with its minutes; once those are
    in too, finish the lesson."""
    if part.finished:
        return
    run = part.run
    if part.titles and not part.titles_sent and (not part.outstanding or _known(part)):
        part.titles_sent = True
        part.shown = _minutes(part)
        if part.shown is not None:
            _send_titles(part, part.shown, send)
    if part.outstanding:
        return
    rendered = timing.minutes_from(run.plan.scenes, _lengths(part))
    if part.shown is not None and rendered is not None and rendered != part.shown:
        run.display.note(f"the rendered clips make the lesson {rendered} min: the title again")
        part.shown = rendered
        for scene in part.titles:
            run.clips.pop(scene, None)
        _send_titles(part, rendered, send)
        return
    run.settle_titles()  # a title not chosen, once the others are rendered
    part.finished = True
    finish(run)


def _send_titles(
    part: _Lesson, minutes: int, send: Callable[[_Lesson, type[LessonScene], int | None], None]
) -> None:
    """The titles cached with ``minutes`` taken, the others queued to render with them."""
    run = part.run
    for scene in run.take_titles(minutes):
        run.states[scene] = "cached"
        run.display.cached(run.label(scene))
    for scene in part.titles:
        if scene not in run.failures and scene not in run.clips:
            send(part, scene, minutes)


def _lengths(part: _Lesson) -> dict[type[LessonScene], float]:
    """Each clip's length known so far: rendered or cached, else measured by a dry run."""
    return part.measured | part.run.lengths()


def _known(part: _Lesson) -> bool:
    """Every clip's length is known, rendered or measured, so the titles can be made."""
    return not timing.unknown(part.run.plan.scenes, _lengths(part))


def _minutes(part: _Lesson) -> int | None:
    """The lesson's length in minutes from every clip's length; None (failing the titles) when
    a scene failed, so its length is unknown."""
    run = part.run
    lengths = _lengths(part)
    minutes = timing.minutes_from(run.plan.scenes, lengths)
    if minutes is not None:
        return minutes
    for title in part.titles:
        if title not in run.failures:
            steps = ", ".join(str(scene.step) for scene in timing.unknown(run.plan.scenes, lengths))
            run.fail(title, f"the lesson's length is unknown: a scene failed (step {steps})")
    return None


def _show_board(
    lessons: Sequence[_Lesson],
    expected: Mapping[Clip, float],
    display: Display,
) -> None:
    """Every chosen clip of every lesson, cached ones already complete."""
    rows = []
    for part in lessons:
        run = part.run
        for scene in run.plan.chosen:
            entry = run.clips.get(scene)
            length = entry.duration if entry else expected.get((part.index, scene), 0.0)
            rows.append(Row(run.label(scene), scene.headline(run.lesson), length))
    display.plan(rows)
    for part in lessons:
        for scene in part.run.plan.chosen:
            if scene in part.run.clips:
                part.run.states[scene] = "cached"
                part.run.display.cached(part.run.label(scene))


def _drain(events: Any, display: Display) -> None:
    while not events.empty():
        kind, label, value = events.get()
        if kind == "start":
            display.running(label)
        else:
            display.advanced(label, value)


def _executor(
    options: RunOptions, events: Any, workers: int, display: Display
) -> AbstractContextManager[Executor]:
    """The local worker processes, or the Dask cluster's workers with ``--scheduler``."""
    if options.scheduler is None:
        return worker_pool(events, workers)
    from publish.render.cluster import cluster_pool

    return cluster_pool(options.scheduler, events, display.note)
