"""Which scenes a run is about: ``--scene 3``, ``--scene Step3Score``, ``--scene score``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from publish.presets import clip_name

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = ["SelectionError", "select"]


class SelectionError(ValueError):
    """A ``--scene`` value that names no scene."""


def _names(scene: type[LessonScene]) -> set[str]:
    return {
        str(scene.step),
        f"{scene.step:02d}",
        scene.__name__.lower(),
        scene.slug.lower(),
        clip_name(scene.step, scene.slug),
    }


def select(scenes: Sequence[type[LessonScene]], wanted: Sequence[str]) -> list[type[LessonScene]]:
    """The scenes named in ``wanted`` (all when empty), in lesson order, each once."""
    if not wanted:
        return list(scenes)
    chosen = set()
    for name in wanted:
        matches = [s for s in scenes if name.strip().lower() in _names(s)]
        if not matches:
            choices = ", ".join(f"{s.step} ({s.__name__}, {s.slug})" for s in scenes)
            raise SelectionError(f"--scene {name!r}: no such scene; choose from {choices}")
        chosen.update(matches)
    return [s for s in scenes if s in chosen]
