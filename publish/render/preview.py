"""``--list`` and ``--dry-run``: construct scenes with animations skipped and report on them.

Each scene is constructed in the same work folder a render of it uses, so LaTeX and text caches
are shared both ways: a list after a render, or a render after a list, compiles nothing again.
Both construct several scenes in worker processes, like a render, and keep what they typeset
on the run's shelf.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, NoReturn, TextIO

from publish.presets import clip_name
from publish.render import worker
from publish.render.plan import Plan
from publish.render.pool import longest_first, run_jobs, worker_pool
from publish.render.worker import ClipFailed
from scenes import timing

if TYPE_CHECKING:
    from scenes import LessonScene
    from scenes.probe import Probe

__all__ = ["dry_run", "list_scenes"]


def _clock(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"


def list_scenes(plan: Plan, out: TextIO) -> None:
    """The plan's chosen steps with their names and durations (narrated by its voice, if it
    has one); with every step, the lesson's length too. Each length is its scene's dry run
    (:func:`_constructed`), as ``--dry-run`` and a render time it."""
    lesson, chosen = plan.lesson, plan.chosen
    probes = _constructed(plan, list(chosen))
    print(f"{'step':>4}  {'scene':<18} {'file':<16} {'length':>7}  title", file=out)
    for scene in chosen:
        name = clip_name(scene.step, scene.slug)
        length = _clock(probes[scene].seconds)
        title = scene.headline(lesson)
        print(f"{scene.step:>4}  {scene.__name__:<18} {name:<16} {length:>7}  {title}", file=out)
    total = _clock(sum(probes[scene].seconds for scene in chosen))
    if plan.whole:
        minutes = timing.measured_minutes(plan.scenes, lambda scene: probes[scene].seconds)
        total += f"  (the lesson: about {minutes} min)"
    print(f"{'':>4}  {'total':<35} {total:>7}", file=out)


def dry_run(plan: Plan, out: TextIO) -> None:
    """Construct each of the plan's chosen scenes without rendering and print every number
    and text it shows.

    The title needs every scene's length (:func:`_constructed`).
    """
    lesson, chosen = plan.lesson, plan.chosen
    probes = _constructed(plan, list(chosen))
    for scene in chosen:
        probe = probes[scene]
        name = clip_name(scene.step, scene.slug)
        print(
            f"{name}  {scene.__name__}  {scene.headline(lesson)!r}  {probe.seconds:.1f} s",
            file=out,
        )
        print(f"  numbers: {', '.join(probe.numbers_in_order) or '-'}", file=out)
        print(f"  captions: {len(probe.captions)}", file=out)
        for caption in probe.captions:
            print(f"    » {caption}", file=out)
        print("  on screen:", file=out)
        for text in probe.texts_in_order:
            print(f"    {' '.join(text.split())}", file=out)
        print(file=out)


Failed = Callable[["type[LessonScene]", ClipFailed], None]
Constructing = Callable[
    [dict["type[LessonScene]", worker.DryJob], Failed], dict["type[LessonScene]", "Probe"]
]
"""Dry-runs each scene's job; a scene that fails is handed to the second argument."""


def _constructed(plan: Plan, wanted: list[type[LessonScene]]) -> dict[type[LessonScene], Probe]:
    """The dry runs of ``wanted``, and of every scene where a title among them needs the
    lesson's minutes: each constructed once, longest first (in worker processes, with more than
    one scene and more than one job), then the title again if the lengths change its minutes;
    what they typeset is kept on the run's shelf."""
    constructed = list(plan.scenes) if timing.titles(wanted) else wanted
    if plan.options.run.jobs > 1 and len(constructed) > 1:
        with worker_pool(None, min(plan.options.run.jobs, len(constructed))) as executor:
            return _probes(plan, constructed, partial(run_jobs, executor, worker.dry_run))
    return _probes(plan, constructed, _dry_runs_here)


def _probes(
    plan: Plan, constructed: Sequence[type[LessonScene]], construct: Constructing
) -> dict[type[LessonScene], Probe]:
    """Each of ``constructed`` dry-run once, longest first, the title with the minutes the last
    render's lengths give (0 without them); the title again only if the minutes the dry runs'
    lengths give differ."""
    earlier = plan.last(constructed)
    guess = timing.minutes_from(plan.scenes, earlier) or 0
    order = longest_first(constructed, earlier)
    probes = construct({scene: plan.dry_job(scene, guess) for scene in order}, _failed)
    titles = timing.titles(plan.chosen)
    if titles:
        minutes = timing.measured_minutes(plan.scenes, lambda scene: probes[scene].seconds)
        if minutes != guess:
            probes |= construct({scene: plan.dry_job(scene, minutes) for scene in titles}, _failed)
    return probes


def _dry_runs_here(
    jobs: dict[type[LessonScene], worker.DryJob], failed: Failed
) -> dict[type[LessonScene], Probe]:
    """Each job dry-run in this process, in turn, as a worker would."""
    probes = {}
    for scene, job in jobs.items():
        try:
            probes[scene] = worker.dry_run(job)
        except ClipFailed as error:
            failed(scene, error)
    return probes


def _failed(scene: type[LessonScene], error: ClipFailed) -> NoReturn:
    raise RuntimeError(f"step {scene.step} ({scene.__name__}) failed:\n{error.detail}") from None
