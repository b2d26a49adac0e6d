"""What a command will make of one lesson, and from what: its scenes in order, those chosen,
each clip's key, where it lands, how long it last ran, and the job that makes or measures it.

Render, the course, the cluster, the preview, ``--list``, ``--dry-run`` and ``--script`` all
read a lesson's scenes from its :class:`Plan`, so they agree on them. Which scenes show the
lesson's length, and how it is summed, stay :mod:`scenes.timing`'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attention_core import Lesson
from publish.code_digest import source_digest
from publish.presets import clip_name
from publish.render import toolchain, worker
from publish.render.cache import SOURCE_PACKAGES, KeyOf, Records, clip_key
from publish.render.options import LessonOptions
from publish.render.selection import select
from publish.render.shelf import Shelf
from scenes import timing

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = ["Plan", "ScenesOf", "choose", "plan", "typeset_shelf"]

ScenesOf = Callable[[Lesson], Sequence["type[LessonScene]"]]
"""How a lesson's scenes are found: ``scenes.scenes_for``, or a test's own."""


def choose(
    lesson: Lesson, wanted: Sequence[str] = (), scenes_of: ScenesOf | None = None
) -> tuple[tuple[type[LessonScene], ...], tuple[type[LessonScene], ...]]:
    """The lesson's scenes in order, and those ``wanted`` names (``--scene``; all when empty);
    raise :class:`publish.render.selection.SelectionError` for a name that matches none."""
    from scenes import scenes_for

    every = tuple((scenes_of or scenes_for)(lesson))
    return every, tuple(select(every, wanted))


def typeset_shelf(folder: Path, sources: str | None = None, tools: str | None = None) -> Shelf:
    """The shelf in ``folder`` for what this code, with this toolchain, typesets: a render's
    processes keep theirs on it, and any process of the same code may load from it."""
    sources = sources or source_digest(SOURCE_PACKAGES)
    made_with = f"{sources}\0{tools or toolchain.digest()}"
    return Shelf(folder, hashlib.sha256(made_with.encode()).hexdigest())


@dataclass(frozen=True)
class Plan:
    """One lesson of a command: what it will make, where, and from what."""

    lesson: Lesson
    options: LessonOptions
    scenes: tuple[type[LessonScene], ...]
    """Every scene of the lesson, in order (``scenes.scenes_for``)."""
    chosen: tuple[type[LessonScene], ...]
    """Those the command is about (``--scene``; all of them by default)."""
    elsewhere: tuple[Path, ...] = ()
    """Other folders of the quality whose identical clips (same key) are copied, not rendered."""
    known: Mapping[str, float] | None = None
    """Clip lengths the caller knows better than the records (the preview's own clips), by
    clip name; None: the records'."""
    sources: str | None = None
    """:func:`publish.code_digest.source_digest` of the code, when the caller has it."""
    tools: str | None = None
    """:func:`publish.render.toolchain.digest`, when the caller has it."""

    @property
    def whole(self) -> bool:
        """Whether every scene is chosen (``--list`` then gives the lesson's length too)."""
        return len(self.chosen) == len(self.scenes)

    @property
    def titles(self) -> list[type[LessonScene]]:
        """The scenes that show the lesson's length (:func:`scenes.timing.titles`)."""
        return timing.titles(self.scenes)

    def label(self, scene: type[LessonScene]) -> str:
        """How progress names the clip: ``03_score``, in a course ``four_tokens/03_score``."""
        name = clip_name(scene.step, scene.slug)
        return f"{self.options.lesson}/{name}" if self.options.lesson else name

    def file(self, scene: type[LessonScene]) -> Path:
        """Where the scene's clip lands: ``media/high/03_score.mp4``."""
        return self.options.file(scene)

    def last(
        self, scenes: Sequence[type[LessonScene]] | None = None
    ) -> dict[type[LessonScene], float]:
        """Each scene's clip length when last made here (or, failing that, in a folder it may
        be copied from), whatever it was made with: an estimate, to plan and order work by."""
        found = {}
        for scene in self.scenes if scenes is None else scenes:
            name = self.file(scene).name
            if self.known is not None:
                seconds = self.known.get(clip_name(scene.step, scene.slug))
            else:
                folders = (self.options.folder, *self.elsewhere)
                lengths = (Records(folder).last_duration(name) for folder in folders)
                seconds = next((s for s in lengths if s is not None), None)
            if seconds is not None:
                found[scene] = seconds
        return found

    @cached_property
    def _bound(self) -> dict[str, Any]:
        """Everything a clip's key covers but the scene, the fields it read and its arguments."""
        voice = self.options.voice
        run = self.options.run
        return {
            "sources": self.sources or source_digest(SOURCE_PACKAGES),
            "toolchain": self.tools or toolchain.digest(),
            "lesson": self.lesson,
            "quality": run.quality.name,
            "fmt": run.fmt,
            "transparent": run.transparent,
            "voice": voice.digest if voice else None,
        }

    @cached_property
    def shelf(self) -> Shelf:
        """The run's typeset mobjects, under the code and the toolchain that made them."""
        return typeset_shelf(
            self.options.run.typeset, self._bound["sources"], self._bound["toolchain"]
        )

    def key(
        self, scene: type[LessonScene], reads: Sequence[Any], kwargs: Sequence[tuple[str, Any]]
    ) -> str:
        """The key of ``scene``'s clip made reading ``reads`` with ``kwargs``
        (:func:`publish.render.cache.clip_key`)."""
        name = f"{scene.__name__}@{scene.step}"
        return clip_key(scene=name, reads=reads, kwargs=kwargs, **self._bound)

    def key_of(self, scene: type[LessonScene]) -> KeyOf:
        """``scene``'s key as a function of the fields it read and its arguments."""
        return lambda reads, kwargs: self.key(scene, reads, kwargs)

    def dry_job(
        self, scene: type[LessonScene], minutes: int = timing.MEASURED_WITH
    ) -> worker.DryJob:
        """A dry run of ``scene`` in its work folder; the title with ``minutes`` (0 to measure
        it, as ``scenes.timing`` does: its length does not depend on them)."""
        kwargs = timing.title_arguments(scene, minutes)
        options = self.options
        return worker.DryJob(
            worker.scene_path(scene),
            self.lesson,
            options.scene_work(scene),
            kwargs,
            options.narrator,
            self.shelf,
        )

    def clip_job(
        self,
        scene: type[LessonScene],
        kwargs: tuple[tuple[str, Any], ...] = (),
        numbers: bool = True,
    ) -> worker.ClipJob:
        """Everything a worker needs to render ``scene``'s clip with ``kwargs`` (the title's
        minutes); ``numbers``: record the numbers it shows, for the manifest."""
        options = self.options
        run = options.run
        return worker.ClipJob(
            scene=worker.scene_path(scene),
            lesson=self.lesson,
            quality=run.quality,
            fmt=run.fmt,
            transparent=run.transparent,
            work=options.scene_work(scene),
            kwargs=kwargs,
            narrator=options.narrator,
            label=self.label(scene),
            beats=run.beats,
            base=self.key(scene, (), kwargs),
            numbers=numbers,
            typeset=self.shelf,
        )


def plan(
    lesson: Lesson,
    options: LessonOptions,
    wanted: Sequence[str] = (),
    scenes_of: ScenesOf | None = None,
    **more: Any,
) -> Plan:
    """The plan of ``lesson`` rendered with ``options``, about the scenes ``wanted`` names
    (:func:`choose`); ``more`` sets :class:`Plan`'s other fields."""
    every, chosen = choose(lesson, wanted, scenes_of)
    return Plan(lesson, options, every, chosen, **more)
