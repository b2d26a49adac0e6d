"""Run a scene without rendering video and record what is on screen after every play and wait."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
from manim import (
    Code,
    DecimalNumber,
    MarkupText,
    Mobject,
    SingleStringMathTex,
    Text,
    tempconfig,
)

from attention_core import Lesson
from attention_core.reads import Path, Reads, traced, untraced
from scenes.base import LessonScene
from scenes.beat import BeatTiming
from scenes.manim_internals import MathTexPart, code_listing, undrawn_renderer

__all__ = [
    "NUMBER",
    "Probe",
    "Shown",
    "displayed_string",
    "record",
    "run_dry",
    "texts_on_screen",
]

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class Shown:
    """One piece of text on screen: what it says and where it sits."""

    text: str
    box: tuple[float, float, float, float]  # left, bottom, right, top
    overlap_ok: bool


@dataclass
class Probe:
    """Every moment's on-screen texts for one scene run; after a dry run, its length, captions
    and the fields of the lesson it read."""

    moments: list[list[Shown]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    """The scene's clock at each moment (after its play or wait): which beat showed it."""
    seconds: float = 0.0
    beats: tuple[BeatTiming, ...] = ()
    reads: tuple[Path, ...] = ()

    @property
    def captions(self) -> tuple[str, ...]:
        """Every beat's caption as shown, in order."""
        return tuple(beat.caption.text for beat in self.beats)

    @property
    def strings(self) -> set[str]:
        return {shown.text for moment in self.moments for shown in moment}

    def shown_by_beat(self) -> list[list[str]]:
        """Per beat, the strings that first appear on screen during it, in order; after the
        last beat, the last's (it runs to the clip's end: ``publish.kit.beats``)."""
        seen: set[str] = set()
        out: list[list[str]] = [[] for _ in self.beats]
        last = len(self.beats) - 1  # -1: no beat, nothing to put the strings in
        for moment, time in zip(self.moments, self.times, strict=True):
            at = next((i for i, b in enumerate(self.beats) if time <= b.end + 1e-6), last)
            for shown in moment:
                if shown.text not in seen and at >= 0:
                    seen.add(shown.text)
                    out[at].append(shown.text)
        return out

    @property
    def numbers(self) -> set[str]:
        return {n for s in self.strings for n in NUMBER.findall(_plain(s))}

    @property
    def texts_in_order(self) -> list[str]:
        """Every distinct string shown, in the order it first appears."""
        return list(dict.fromkeys(shown.text for moment in self.moments for shown in moment))

    @property
    def numbers_in_order(self) -> list[str]:
        """Every distinct number a viewer reads, in the order it first appears."""
        found = (n for s in self.texts_in_order for n in NUMBER.findall(_plain(s)))
        return list(dict.fromkeys(found))


def displayed_string(mob: Mobject) -> str | None:
    """The string a text-like mobject shows, or None for shapes."""
    if isinstance(mob, Code):
        return _listing(mob)
    if isinstance(mob, Text | MarkupText):
        return str(mob.original_text)
    if isinstance(mob, DecimalNumber):
        return f"{mob.number:.{mob.num_decimal_places}f}"
    if isinstance(mob, SingleStringMathTex | MathTexPart):
        return str(mob.tex_string)  # a part, on screen on its own once it has flown in
    return None


def _listing(code: Code) -> str:
    """A code block's text as typed, line numbers included when it shows them."""
    listing = code_listing(code)
    numbers = getattr(code, "line_numbers", None)
    if numbers is not None and numbers in code.submobjects:
        listing += "\n" + numbers.lines_text.original_text
    return str(listing)


def texts_on_screen(mobjects: list[Mobject]) -> list[Shown]:
    """Every visible text-like mobject, outermost first, not descending into a text's parts."""
    found: list[Shown] = []

    def visit(mob: Mobject, overlap_ok: bool) -> None:
        overlap_ok = overlap_ok or getattr(mob, "overlap_ok", False)
        string = displayed_string(mob)
        if string is not None:
            if _visible(mob):
                left, bottom = mob.get_corner(np.array([-1, -1, 0]))[:2]
                right, top = mob.get_corner(np.array([1, 1, 0]))[:2]
                found.append(Shown(string, (left, bottom, right, top), overlap_ok))
            return
        for sub in mob.submobjects:
            visit(sub, overlap_ok)

    for mob in mobjects:
        visit(mob, False)
    return found


def _visible(mob: Mobject) -> bool:
    family = [m for m in mob.get_family() if m.has_points()]
    return any(m.get_fill_opacity() > 0.05 or m.get_stroke_opacity() > 0.05 for m in family)


def _plain(string: str) -> str:
    """Drop LaTeX command names (\\sqrt, d_k) so only the numbers a viewer reads remain."""
    return re.sub(r"\\[a-zA-Z]+|_\{?[a-z]\}?", " ", string)


def record(scene: LessonScene, after_each: Callable[[], None] | None = None) -> Probe:
    """Snapshot the screen after each play and wait of ``scene`` (dry or really rendered)."""
    probe = Probe()
    for name in ("play", "wait"):
        original = getattr(scene, name)

        def snapshot(*args: Any, _original: Any = original, **kw: Any) -> None:
            _original(*args, **kw)
            probe.moments.append(texts_on_screen(scene.mobjects))
            probe.times.append(float(scene.time))
            if after_each is not None:
                after_each()

        setattr(scene, name, snapshot)
    return probe


def run_dry(scene_class: type[LessonScene], lesson: Lesson, **kwargs: Any) -> Probe:
    """Construct a scene with animations skipped, snapshotting the screen after each step.

    Runs once per (scene, lesson, arguments) in a process: the scene tests, ``scenes.timing`` and
    ``render.py --dry-run`` all read the same run. ``kwargs`` must be hashable.
    """
    return _run_dry(scene_class, untraced(lesson), tuple(sorted(kwargs.items())))


@cache
def _run_dry(
    scene_class: type[LessonScene], lesson: Lesson, kwargs: tuple[tuple[str, Any], ...]
) -> Probe:
    settings = {
        "dry_run": True,
        "quality": "low_quality",
        "disable_caching": True,
        "progress_bar": "none",
        "verbosity": "WARNING",
    }
    reads = Reads()
    with tempconfig(settings):
        renderer = undrawn_renderer()
        scene = scene_class(
            lesson=traced(lesson, reads), renderer=renderer, skip_animations=True, **dict(kwargs)
        )
        probe = record(scene)
        scene.render()
    probe.seconds = float(scene.time)
    probe.beats = tuple(scene.beats)
    probe.reads = tuple(reads.sorted())
    return probe
