"""The scenes of a lesson, in the order its steps name them: ``scenes_for(lesson)``."""

from __future__ import annotations

import importlib
from functools import cache

from attention_core import Lesson, default_lesson, fontset
from attention_core.steps import KINDS
from scenes.base import LessonScene
from scenes.manim_internals import (
    boundary_quickly,
    copy_quickly,
    drop_svg_parse,
    family_quickly,
    split_once,
)
from scenes.timing import find_scenes_with

__all__ = ["SCENES", "LessonScene", "kind_scene", "placed", "scenes_for"]

# Every text is set in the font set's fonts alone, whatever else this machine or its user has
# installed: before any is laid out (importing manim lays out none), in render.py's processes and
# manim's own command alike.
fontset.use()

# Every render and dry run of these scenes copies mobjects (text glyphs above all), finds the
# pieces of their outlines, gathers their boundaries and lists their families faster; the
# pictures are the same.
drop_svg_parse()
copy_quickly()
split_once()
boundary_quickly()
family_quickly()


@cache
def kind_scene(kind: str) -> type[LessonScene]:
    """The scene class that shows step kind ``kind`` (``attention_core.steps.KINDS``)."""
    module, _, name = KINDS[kind].scene.partition(":")
    scene: type[LessonScene] = getattr(importlib.import_module(module), name)
    return scene


@cache
def placed(scene: type[LessonScene], step: int) -> type[LessonScene]:
    """``scene`` as step ``step`` of a lesson: the class itself where that is its own place,
    else a subclass that differs only in its number (its files, beat ids and chapter)."""
    if scene.step == step:
        return scene
    attributes = {"step": step, "__module__": scene.__module__, "__doc__": scene.__doc__}
    moved = type(scene.__name__, (scene,), attributes)
    moved.__qualname__ = scene.__qualname__
    return moved


def scenes_for(lesson: Lesson) -> tuple[type[LessonScene], ...]:
    """The lesson's scene classes in the order of its steps, each numbered by its place; each
    is constructed as ``cls(lesson=lesson)``."""
    return tuple(placed(kind_scene(kind), number) for number, kind in enumerate(lesson.steps, 1))


find_scenes_with(scenes_for)  # a title given no minutes measures its lesson's scenes

SCENES: tuple[type[LessonScene], ...] = scenes_for(default_lesson())
"""The default lesson's scenes: Day 004's seven steps."""
