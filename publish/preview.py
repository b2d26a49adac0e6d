"""``--list`` and ``--dry-run``: construct scenes with animations skipped and report on them.

Each scene is constructed in the same work folder a render of it uses, so LaTeX and text caches
are shared both ways: a list after a render, or a render after a list, compiles nothing again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from attention_core import Lesson

from .presets import clip_name
from .selection import takes_minutes

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = ["dry_media", "dry_run", "lesson_minutes", "list_scenes", "measure", "minutes_kwargs"]


@contextmanager
def dry_media(folder: Path) -> Iterator[None]:
    """Construct scenes with ``folder`` as manim's media folder (for its TeX and text caches)."""
    from manim import tempconfig

    from .worker import work_folder

    with work_folder(folder), tempconfig({"media_dir": str(folder)}):
        yield


def minutes_kwargs(scene: type[LessonScene], minutes: int) -> dict[str, Any]:
    """``minutes=`` for the scene that shows the lesson's length; nothing for the others."""
    return {"minutes": minutes} if takes_minutes(scene) else {}


def measure(scene: type[LessonScene], lesson: Lesson, work: Path) -> float:
    """A scene's length in seconds (the title measured as timing.lesson_minutes measures it)."""
    from scenes.timing import scene_seconds

    with dry_media(work / scene.slug):
        return scene_seconds(scene, lesson, **minutes_kwargs(scene, 0))


def lesson_minutes(lesson: Lesson, work: Path) -> int:
    """The lesson's length in minutes, each scene measured in its own work folder."""
    from scenes import SCENES
    from scenes.timing import lesson_minutes as minutes

    for scene in SCENES:
        measure(scene, lesson, work)  # fills timing's cache, so the next line measures nothing
    return minutes(lesson)


def _clock(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"


def list_scenes(
    lesson: Lesson, chosen: Sequence[type[LessonScene]], work: Path, out: TextIO
) -> None:
    """The steps with their names and durations; with every step, the lesson's length too."""
    from scenes import SCENES

    seconds = {scene: measure(scene, lesson, work) for scene in chosen}
    print(f"{'step':>4}  {'scene':<18} {'file':<16} {'length':>7}  title", file=out)
    for scene in chosen:
        name = clip_name(scene.step, scene.slug)
        length = _clock(seconds[scene])
        title = scene.headline(lesson)
        print(f"{scene.step:>4}  {scene.__name__:<18} {name:<16} {length:>7}  {title}", file=out)
    total = _clock(sum(seconds.values()))
    if len(chosen) == len(SCENES):
        total += f"  (the lesson: about {lesson_minutes(lesson, work)} min)"
    print(f"{'':>4}  {'total':<35} {total:>7}", file=out)


def dry_run(lesson: Lesson, chosen: Sequence[type[LessonScene]], work: Path, out: TextIO) -> None:
    """Construct each scene without rendering and print every number and text it shows."""
    from scenes.probe import run_dry

    minutes = lesson_minutes(lesson, work) if any(map(takes_minutes, chosen)) else 0
    for scene in chosen:
        with dry_media(work / scene.slug):
            probe = run_dry(scene, lesson, **minutes_kwargs(scene, minutes))
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
