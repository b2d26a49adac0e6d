"""Where the eye goes: while a thing is worked out, the rest of the picture steps back.

``with Focus(scene, *operands, results=done, frame=detail):`` inside a beat dims everything on
screen that is not an operand (to :data:`DIM`; finished ``results`` to :data:`RESTED`), outlines
the operands (or those ``marked``) and, given ``frame``, moves the camera in until those objects
fill the picture's title-safe area (anything else it would not hold leaves, finished results
too: nothing is cut off). The
plays inside work the thing out at full strength; it rests a moment (:data:`REST`), and then
the camera goes back to where it stood and every part left on screen gets back the exact
opacity it had.

A focus opens and closes inside one beat: what it saved is never part of a beat's starting
state (``publish.beats.state``), and a beat cut out and rendered alone restores the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from manim import (
    Animation,
    Create,
    FadeOut,
    Group,
    Mobject,
    Restore,
    SurroundingRectangle,
    VGroup,
    VMobject,
    config,
)

from scenes import style
from scenes.composition import TITLE_SAFE, contains
from scenes.manim_internals import COLOUR_ARRAYS
from scenes.probe import CameraFrame, box_of

__all__ = ["DIM", "RESTED", "Focus", "Shade", "close_up_holds", "framing"]

DIM = 0.35
"""Opacity, as a share of its own, of what is not in the computation."""
RESTED = 0.25
"""... and of a result already worked out."""
ZOOM_MARGIN = 0.5
"""Room kept around the framed objects, in scene units."""
CLOSEST = 0.55
"""The camera comes no closer than this share of the whole frame's width."""
NOT_WORTH_IT = 0.9
"""A closer picture this near the whole frame is not worth a camera move."""
OUTLINE_BUFF = 0.08
MOVE = 0.4
"""Seconds the picture takes to step back (and the camera to come in), and to come back."""
REST = 0.4
"""Seconds the worked-out thing rests in focus before the picture comes back, where the beat
has them (a narrated beat whose words are said by then moves on)."""

Opacities = dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]
"""Each part's fill, stroke and background stroke opacities, by the part's id."""


def _parts(mobject: Mobject) -> list[VMobject]:
    return [m for m in mobject.get_family() if isinstance(m, VMobject)]


def opacities(mobject: Mobject) -> Opacities:
    """What each drawn part of ``mobject`` has now."""
    return {
        id(m): tuple(getattr(m, a)[:, 3].copy() for a in COLOUR_ARRAYS) for m in _parts(mobject)
    }


class Shade(Animation):
    """Every part of ``mobject`` from the opacities it has to ``to`` (those a part is not
    named in keep theirs), or to its own times ``factor``. Nothing is copied: a frame writes
    one row of numbers per part, and the last frame writes ``to`` exactly."""

    def __init__(
        self,
        mobject: Mobject,
        *,
        factor: float = 1.0,
        to: Opacities | None = None,
        **kwargs: Any,
    ) -> None:
        self.factor, self.to, self.shaded = factor, to, mobject
        super().__init__(mobject, **kwargs)

    def begin(self) -> None:
        self.start = opacities(self.shaded)
        if self.to is None:
            self.end = {k: tuple(a * self.factor for a in v) for k, v in self.start.items()}
        else:
            self.end = {k: self.to.get(k, v) for k, v in self.start.items()}
        self.parts = _parts(self.shaded)
        self.interpolate(0)

    def get_all_mobjects(self) -> Sequence[Mobject]:
        return (self.shaded,)

    def interpolate_mobject(self, alpha: float) -> None:
        t = self.rate_func(alpha)
        for part in self.parts:
            start, end = self.start[id(part)], self.end[id(part)]
            for name, a, b in zip(COLOUR_ARRAYS, start, end, strict=True):
                rgbas = getattr(part, name).copy()
                if len(rgbas) != len(a):  # reshaped meanwhile (a Transform aligned it)
                    continue
                rgbas[:, 3] = b if t == 1 else (1 - t) * a + t * b
                setattr(part, name, rgbas)


def framing(objects: Sequence[Mobject], margin: float = ZOOM_MARGIN) -> CameraFrame:
    """What the camera should see to show ``objects`` as large as fits in its title-safe area
    (at the frame's own shape, inside the whole frame); the whole frame if that is near it."""
    group = Group(*objects)
    full_w, full_h = config.frame_width, config.frame_height
    # ``margin`` round the objects, and never less than the closer picture's title-safe inset
    across = max(group.width + 2 * margin, group.width / TITLE_SAFE)
    down = max(group.height + 2 * margin, group.height / TITLE_SAFE)
    width = max(across, down * full_w / full_h)
    width = max(width, CLOSEST * full_w)
    if width >= NOT_WORTH_IT * full_w:
        return CameraFrame(0.0, 0.0, full_w, full_h)
    height = width * full_h / full_w
    x = np.clip(group.get_x(), -(full_w - width) / 2, (full_w - width) / 2)
    y = np.clip(group.get_y(), -(full_h - height) / 2, (full_h - height) / 2)
    return CameraFrame(float(x), float(y), width, height)


def close_up_holds(objects: Sequence[Mobject]) -> bool:
    """Whether the camera comes closer to ``objects`` with all of them inside the closer
    picture's title-safe area (near the whole frame, or hard by its edge, it does not)."""
    view = framing(objects)
    return view.closer and contains(view.inner(TITLE_SAFE), box_of(Group(*objects)))


class Focus:
    """A computation in focus, for the plays inside ``with``: see the module."""

    def __init__(
        self,
        scene: Any,
        *operands: Mobject,
        results: Iterable[Mobject] = (),
        frame: Sequence[Mobject] = (),
        marked: Sequence[Mobject] | None = None,
    ) -> None:
        self.scene = scene
        self.operands = operands
        self.results = tuple(results)
        self.frame = tuple(frame)
        self.marked = operands if marked is None else tuple(marked)

    def __enter__(self) -> Focus:
        scene = self.scene
        self.beat = len(scene.beats)
        self.camera = scene.camera.frame
        view = framing(self.frame) if self.frame else None
        closer = view if view is not None and view.closer else None
        self.moved = closer is not None
        others = list(_others(scene.mobjects, [*self.operands, *self.results]))
        self.shaded = [*others, *self.results]
        self.saved = {id(m): opacities(m) for m in self.shaded}
        animations: list[Animation] = []
        dimmed = [*((m, RESTED) for m in self.results), *((m, DIM) for m in others)]
        for mob, dim in dimmed:  # what the closer picture's title-safe area would not hold leaves
            cut = closer is not None and not contains(closer.inner(TITLE_SAFE), box_of(mob))
            animations.append(Shade(mob, factor=0.0 if cut else dim))
        self.outlines = VGroup(
            *(
                SurroundingRectangle(m, color=style.TEXT, buff=OUTLINE_BUFF, stroke_width=2)
                for m in self.marked
            )
        )
        if self.marked:
            animations.append(Create(self.outlines))
        if closer is not None:
            self.camera.save_state()
            centre = [closer.x, closer.y, 0.0]
            animations.append(self.camera.animate.set(width=closer.width).move_to(centre))
        if animations:
            scene.play(*animations, run_time=MOVE)
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            return
        scene = self.scene
        if len(scene.beats) != self.beat:
            raise RuntimeError("a focus opens and closes inside one beat")
        rest = min(REST, scene.hold_until - scene.time - MOVE)
        if rest * config.frame_rate >= 1:  # a beat already past its words moves on
            scene.wait(rest)
        on_screen = {id(m) for m in scene.get_mobject_family_members()}
        animations: list[Animation] = [
            Shade(m, to=self.saved[id(m)]) for m in self.shaded if id(m) in on_screen
        ]
        if self.marked:
            animations.append(FadeOut(self.outlines))
        if self.moved:
            animations.append(Restore(self.camera))
        if animations:
            scene.play(*animations, run_time=MOVE)


def _others(mobjects: Iterable[Mobject], kept: Sequence[Mobject]) -> Iterator[Mobject]:
    """The mobjects on screen outside ``kept`` (and their families: a group made to name some
    parts of the screen keeps those parts): whole where nothing in a mobject is kept, else its
    parts, looked at the same way."""
    kept_ids = {id(m) for k in kept for m in k.get_family()}
    parents: dict[int, Mobject] = {}
    for mob in mobjects:
        for member in mob.get_family():
            for sub in member.submobjects:
                parents.setdefault(id(sub), member)
    holding: set[int] = set()
    for part in kept_ids:
        while (parent := parents.get(part)) is not None and id(parent) not in holding:
            holding.add(id(parent))
            part = id(parent)
    for mob in mobjects:
        yield from _outside(mob, kept_ids, holding)


def _outside(mob: Mobject, kept: set[int], holding: set[int]) -> Iterator[Mobject]:
    if id(mob) in kept:
        return
    if id(mob) not in holding:
        yield mob
        return
    for sub in mob.submobjects:
        yield from _outside(sub, kept, holding)
