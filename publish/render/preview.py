"""``--list`` and ``--dry-run``: construct scenes with animations skipped and report on them.

Each scene is constructed in the same work folder a render of it uses, so LaTeX and text caches
are shared both ways: a list after a render, or a render after a list, compiles nothing again.
A dry run of several scenes constructs them in worker processes, like a render.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from attention_core import Lesson
from publish.presets import clip_name
from publish.render import worker
from publish.render.plan import Plan
from publish.render.pool import longest_first, run_jobs, worker_pool
from publish.render.worker import ClipFailed
from scenes import timing

if TYPE_CHECKING:
    from publish.narration.voices import Narrator
    from scenes import LessonScene
    from scenes.probe import Probe

__all__ = ["dry_media", "dry_run", "lesson_minutes", "list_scenes", "measure"]


@contextmanager
def dry_media(folder: Path) -> Iterator[None]:
    """Construct scenes with ``folder`` as manim's media folder (for its TeX and text caches)."""
    from manim import tempconfig

    from publish.render.tex_folder import manim_folders
    from publish.render.worker import work_folder

    with work_folder(folder), tempconfig(manim_folders(folder)):
        yield


def measure(
    scene: type[LessonScene], lesson: Lesson, work: Path, narrator: Narrator | None = None
) -> float:
    """A scene's length in seconds (``scenes.timing.scene_seconds``), timed to ``narrator``'s
    speech when given, dry-run in the scene's work folder."""
    with dry_media(work / scene.slug):
        return timing.scene_seconds(scene, lesson, **_narration(lesson, narrator))


def lesson_minutes(plan: Plan) -> int:
    """The lesson's length in minutes, each of its scenes measured in its own work folder."""
    lesson, work, narrator = plan.lesson, plan.options.work, plan.options.narrator
    return timing.measured_minutes(
        plan.scenes, lambda scene: measure(scene, lesson, work, narrator)
    )


def _narration(lesson: Lesson, narrator: Narrator | None) -> dict[str, Any]:
    """``narration=`` for a dry run timed to ``narrator``'s speech; nothing for a silent one."""
    if narrator is None:
        return {}
    from publish.narration.narrate import Speaking

    return {"narration": Speaking(narrator, lesson.words)}


def _clock(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"


def list_scenes(plan: Plan, out: TextIO) -> None:
    """The plan's chosen steps with their names and durations (narrated by its voice, if it
    has one); with every step, the lesson's length too."""
    lesson, chosen = plan.lesson, plan.chosen
    work, narrator = plan.options.work, plan.options.narrator
    seconds = {scene: measure(scene, lesson, work, narrator) for scene in chosen}
    print(f"{'step':>4}  {'scene':<18} {'file':<16} {'length':>7}  title", file=out)
    for scene in chosen:
        name = clip_name(scene.step, scene.slug)
        length = _clock(seconds[scene])
        title = scene.headline(lesson)
        print(f"{scene.step:>4}  {scene.__name__:<18} {name:<16} {length:>7}  {title}", file=out)
    total = _clock(sum(seconds.values()))
    if plan.whole:
        total += f"  (the lesson: about {lesson_minutes(plan)} min)"
    print(f"{'':>4}  {'total':<35} {total:>7}", file=out)


def dry_run(plan: Plan, out: TextIO) -> None:
    """Construct each of the plan's chosen scenes without rendering and print every number
    and text it shows.

    The title needs every scene's length: each scene is constructed once, longest first (in
    worker processes, with more than one scene and more than one job), then the title again
    if the lengths change its minutes; what they typeset is kept on the run's shelf.
    """
    lesson, chosen = plan.lesson, plan.chosen
    constructed = list(plan.scenes) if timing.titles(chosen) else list(chosen)
    if plan.options.run.jobs > 1 and len(constructed) > 1:
        with worker_pool(None, min(plan.options.run.jobs, len(constructed))) as executor:
            probes = _probes(plan, constructed, partial(run_jobs, executor, worker.dry_run))
    else:
        probes = _probes(plan, constructed, _dry_runs_here)
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
