"""Run a scene without rendering video and record what is on screen after every play and wait.

Each moment holds its texts and meanings and the camera's frame; a rest (a wait) its shapes too.
The opening, what the clip's first frame shows, is recorded as the first play begins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
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
    VMobject,
    Wait,
    config,
    tempconfig,
)

from attention_core import Lesson
from attention_core.meaning import Meaning
from attention_core.reads import Path, Reads, traced, untraced
from scenes.base import LessonScene
from scenes.beat import BeatTiming
from scenes.manim_internals import MathTexPart, code_listing, undrawn_renderer

__all__ = [
    "NUMBER",
    "Box",
    "CameraFrame",
    "Probe",
    "Shown",
    "box_of",
    "camera_frame",
    "displayed_string",
    "meanings_on_screen",
    "read_screen",
    "record",
    "run_dry",
    "shapes_on_screen",
    "texts_on_screen",
]

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
VISIBLE = 0.05
"""The least opacity at which a text or shape counts as on screen."""

Box = tuple[float, float, float, float]
"""Where a thing sits, in scene units: left, bottom, right, top."""


@dataclass(frozen=True)
class CameraFrame:
    """What the camera sees, in scene units: its centre, width and height."""

    x: float
    y: float
    width: float
    height: float

    def inner(self, share: float) -> Box:
        """The box ``share`` of this frame's width and height, about its centre (a safe area)."""
        half_w, half_h = self.width * share / 2, self.height * share / 2
        return (self.x - half_w, self.y - half_h, self.x + half_w, self.y + half_h)

    @property
    def closer(self) -> bool:
        """Whether the camera sees less than the whole frame: a close-up."""
        return self.width < config.frame_width - 1e-6


def box_of(mob: Mobject) -> Box:
    """Where ``mob`` sits, as the screen is read: its bounding box."""
    left, bottom = mob.get_corner(np.array([-1, -1, 0]))[:2]
    right, top = mob.get_corner(np.array([1, 1, 0]))[:2]
    return (float(left), float(bottom), float(right), float(top))


@dataclass(frozen=True)
class Shown:
    """One piece of text on screen: what it says and where it sits."""

    text: str
    box: Box
    overlap_ok: bool
    whole: str | None = None
    """The whole text this one is a line of (a paragraph wrapped over lines), or None."""
    opacity: float = 1.0
    """How strongly it is drawn: its parts' greatest fill or stroke opacity (a dimmed text,
    :class:`~scenes.toolkit.focus.Focus`'s, is about 0.35)."""

    @property
    def read(self) -> str:
        """What a viewer reads: the whole paragraph, not its line."""
        return self.text if self.whole is None else self.whole


@dataclass
class Probe:
    """Every moment's on-screen texts for one scene run; after a dry run, its length, captions
    and the fields of the lesson it read."""

    moments: list[list[Shown]] = field(default_factory=list)
    meanings: list[list[tuple[int, Meaning]]] = field(default_factory=list)
    """Each moment's described meanings on screen, each with the object that shows it."""
    times: list[float] = field(default_factory=list)
    """The scene's clock at each moment (after its play or wait): which beat showed it."""
    rests: list[bool] = field(default_factory=list)
    """Whether each moment is a rest: it came from a wait (a beat's hold is one), not a play."""
    frames: list[CameraFrame] = field(default_factory=list)
    """What the camera saw at each moment."""
    shapes: list[tuple[Box, ...] | None] = field(default_factory=list)
    """Each rest's visible shapes (:func:`shapes_on_screen`); None at a moment not a rest,
    where they are not read (a dry run reads the screen after every play)."""
    opening: tuple[list[Shown], tuple[Box, ...]] = ([], ())
    """The texts and shapes on screen as the first play begins: what the clip's first frame
    shows, the picture a step carries over from the one before (empty where it carries none:
    what its first play brings in is not on screen yet)."""
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

    def _beat_at(self, time: float) -> int:
        """The beat a moment at ``time`` belongs to; after the last beat, the last (it runs to
        the clip's end: ``publish.media.clip_beats``); -1 when there is no beat."""
        last = len(self.beats) - 1
        return next((i for i, b in enumerate(self.beats) if time <= b.end + 1e-6), last)

    def shown_by_beat(self) -> list[list[str]]:
        """Per beat, the texts that first appear on screen during it, in order, a paragraph
        wrapped over lines as one text."""
        seen: set[str] = set()
        out: list[list[str]] = [[] for _ in self.beats]
        for moment, time in zip(self.moments, self.times, strict=True):
            at = self._beat_at(time)
            for shown in moment:
                if shown.read not in seen and at >= 0:
                    seen.add(shown.read)
                    out[at].append(shown.read)
        return out

    def meant_by_beat(self) -> list[list[Meaning]]:
        """Per beat, the meanings on screen that are new in it: each object's as the beat
        leaves it (a grid filled cell by cell is said full), unless an earlier beat showed
        exactly that."""
        said: set[Meaning] = set()
        out: list[list[Meaning]] = [[] for _ in self.beats]
        latest: list[dict[int, Meaning]] = [{} for _ in self.beats]
        # strict=False: a probe made by hand may record no meanings at all
        for moment, time in zip(self.meanings, self.times, strict=False):
            at = self._beat_at(time)
            for source, meant in moment:
                if at >= 0:
                    latest[at].pop(source, None)  # its latest state, in the order first shown
                    latest[at][source] = meant
        for beat, meanings in zip(out, latest, strict=True):
            merged = _merged(meanings.values())
            beat += [meant for meant in merged if meant not in said and meant.covers]
            said.update(merged)
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


def _merged(meanings: Iterable[Meaning]) -> list[Meaning]:
    """One meaning shown by several objects (the quiz's cards, each of them the options) as
    one, standing for the texts of them all."""
    by_sense: dict[tuple[str, tuple[tuple[str, str], ...]], list[str]] = {}
    for meant in meanings:
        by_sense.setdefault((meant.entry, meant.values), []).extend(meant.covers)
    return [Meaning(entry, values).covering(texts) for (entry, values), texts in by_sense.items()]


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
    return read_screen(mobjects)[0]


def meanings_on_screen(
    mobjects: list[Mobject], meaningful: Iterable[Mobject] = ()
) -> list[tuple[int, Meaning]]:
    """Every object on screen that knows what it means (a ``meant`` attribute: a
    :class:`Meaning`, or a method giving its present one), standing for the texts shown inside
    it; and each of ``meaningful`` (a scene's :meth:`~scenes.base.LessonScene.means`) that has
    a text on screen, standing for those of its texts that are."""
    return read_screen(mobjects, meaningful)[1]


def read_screen(
    mobjects: list[Mobject], meaningful: Iterable[Mobject] = ()
) -> tuple[list[Shown], list[tuple[int, Meaning]]]:
    """:func:`texts_on_screen` and :func:`meanings_on_screen` in one walk of the screen (a dry
    run reads it after every play: once, not twice)."""
    found: list[Shown] = []
    read: dict[int, str] = {}  # each text on screen, by its mobject
    meanings: list[tuple[int, Meaning, list[str]]] = []

    def visit(mob: Mobject, overlap_ok: bool, whole: str | None, into: list[list[str]]) -> None:
        overlap_ok = overlap_ok or getattr(mob, "overlap_ok", False)
        whole = whole or getattr(mob, "whole_text", None)
        meant = _meaning(mob)
        if meant is not None:
            meanings.append((id(mob), meant, []))
            into = [*into, meanings[-1][2]]
        string = displayed_string(mob)
        if string is not None:
            opacity = _opacity(mob)
            if opacity > VISIBLE:
                shown = Shown(string, box_of(mob), overlap_ok, whole, opacity)
                found.append(shown)
                read[id(mob)] = shown.read
                for covers in into:
                    covers.append(shown.read)
            return
        for sub in mob.submobjects:
            visit(sub, overlap_ok, whole, into)

    for mob in mobjects:
        visit(mob, False, None, [])
    out = [(source, meant.covering(covers)) for source, meant, covers in meanings if covers]
    for whole in meaningful:
        meant = _meaning(whole)
        # what it stands for: its ``meant_parts`` where it names them, else all of it
        named = getattr(whole, "meant_parts", None)
        parts = named() if named else [whole]
        texts = [read[id(m)] for part in parts for m in _texts_in(part) if id(m) in read]
        if meant is not None and texts:
            out.append((id(whole), meant.covering(texts)))
    return found, out


def _meaning(mob: Mobject) -> Meaning | None:
    meant = getattr(mob, "meant", None)
    meant = meant() if callable(meant) else meant
    return meant if isinstance(meant, Meaning) else None


def _texts_in(mob: Mobject) -> list[Mobject]:
    """The text-like mobjects in ``mob``, outermost first, not their parts."""
    if displayed_string(mob) is not None:
        return [mob]
    return [text for sub in mob.submobjects for text in _texts_in(sub)]


def _opacity(mob: Mobject) -> float:
    """The greatest opacity of ``mob``'s drawn parts, fill or stroke (0 for nothing drawn)."""
    strongest = 0.0
    for part in mob.get_family():
        if part.has_points():
            strongest = max(strongest, part.get_fill_opacity(), part.get_stroke_opacity())
            if strongest >= 1.0:  # a dry run reads the screen after every play: stop early
                break
    return float(strongest)


def shapes_on_screen(mobjects: list[Mobject]) -> list[Box]:
    """The box of every visible shape: each vectorized mobject with points of its own and a
    visible fill or stroke, not inside a text (a text's glyphs, a listing's background are the
    text's). Other mobjects with points are not drawn as shapes (a ``ValueTracker`` keeps its
    value in them); the scenes show no images."""
    found: list[Box] = []

    def visit(mob: Mobject) -> None:
        if displayed_string(mob) is not None:
            return
        points = mob.points
        if isinstance(mob, VMobject) and len(points) and _drawn(mob):
            (left, bottom), (right, top) = points[:, :2].min(axis=0), points[:, :2].max(axis=0)
            found.append((float(left), float(bottom), float(right), float(top)))
        for sub in mob.submobjects:
            visit(sub)

    for mob in mobjects:
        visit(mob)
    return found


def _drawn(mob: VMobject) -> bool:
    stroked = mob.get_stroke_opacity() > VISIBLE and mob.get_stroke_width() > 0
    return stroked or mob.get_fill_opacity() > VISIBLE


def camera_frame(camera: Any) -> CameraFrame:
    """What ``camera`` sees: manim's ``Camera`` keeps its frame's centre and size; a
    ``MovingCamera`` gives the same three names, read from the frame mobject it moves."""
    x, y = np.asarray(camera.frame_center, dtype=float)[:2]
    return CameraFrame(float(x), float(y), float(camera.frame_width), float(camera.frame_height))


def _plain(string: str) -> str:
    """Drop LaTeX command names (\\sqrt, d_k) so only the numbers a viewer reads remain."""
    return re.sub(r"\\[a-zA-Z]+|_\{?[a-z]\}?", " ", string)


def record(scene: LessonScene, after_each: Callable[[], None] | None = None) -> Probe:
    """Snapshot the screen after each play and wait of ``scene`` (dry or really rendered)."""
    probe = Probe()
    play, wait = scene.play, scene.wait

    def snapshot(rest: bool) -> None:
        texts, meanings = read_screen(scene.mobjects, scene.meaningful)
        probe.moments.append(texts)
        probe.meanings.append(meanings)
        probe.times.append(float(scene.time))
        probe.rests.append(rest)
        probe.frames.append(camera_frame(scene.renderer.camera))
        probe.shapes.append(tuple(shapes_on_screen(scene.mobjects)) if rest else None)

    def played(*args: Any, **kw: Any) -> None:
        if not probe.moments:
            probe.opening = (
                texts_on_screen(scene.mobjects),
                tuple(shapes_on_screen(scene.mobjects)),
            )
        play(*args, **kw)
        snapshot(rest=bool(args) and all(isinstance(a, Wait) for a in args))
        if after_each is not None:
            after_each()

    def waited(*args: Any, **kw: Any) -> None:
        before = len(probe.moments)
        wait(*args, **kw)
        if len(probe.moments) > before:  # manim's wait is a play: the screen it read is this one
            probe.moments.append(list(probe.moments[-1]))
            probe.meanings.append(list(probe.meanings[-1]))
            probe.times.append(float(scene.time))
            probe.rests.append(True)
            probe.frames.append(probe.frames[-1])
            probe.shapes.append(probe.shapes[-1])
        else:
            snapshot(rest=True)
        if after_each is not None:
            after_each()

    scene.play = played  # type: ignore[method-assign]
    scene.wait = waited  # type: ignore[method-assign]
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
