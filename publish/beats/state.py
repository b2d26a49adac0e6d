"""What a scene holds as a beat begins, as one digest: the beat's frames depend on nothing else
but what it reads of the lesson.

A beat plays from the scene's state: what is on screen, what the scene keeps in its attributes
(``self.crowd``), and what its code keeps in local variables (of ``construct`` and of every
method between it and the beat). :func:`digest` hashes all of it, mobjects by what is drawn of
them (points, colours, strokes, z-order, updaters) and by the text they were made from; the
lesson itself by the path of what is held (its fields are recorded as they are read), and the
worked lesson not at all (each read of one of its parts records the fields behind it). Two
runs of a deterministic scene that reach a beat with the same digest and read the same values
in it draw the same frames, whatever came before: so a number whose picture left the screen,
and which the scene no longer holds, re-renders only the beats that showed it.

What cannot be digested (an iterator, a file, an object of unknown kind) gives None: the beat's
state cannot be told, and its key falls back to everything read before it.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import inspect
import operator
from types import FrameType, FunctionType, GeneratorType, MethodType
from typing import Any

import numpy as np
from manim import ManimColor, Mobject, VMobject

from attention_core import Words
from attention_core.reads import traced_path
from attention_core.worked import Worked
from scenes.manim_internals import (
    DRAWN_ARRAYS,
    MADE_FROM,
    SCENE_RUNNING,
    UNDRAWN,
    VMOBJECT_OWN,
    VMOBJECT_PARTS,
)

__all__ = ["digest"]

FRAMEWORK = SCENE_RUNNING | {
    # LessonScene's own: the beats so far (their timings: spoken and subtitled, never drawn)
    "beats",
    # what reads the screen after each play (scenes.probe.record wraps these two)
    "play",
    "wait",
}
"""Attributes of a scene that are not the step's state."""

PLAIN = frozenset({type(None), bool, int, float, complex, str, bytes})

OWN = frozenset({"scenes", "manim"})
"""Packages whose objects are told by their attributes: the steps' own (a layout of columns, a
tag) and manim's (an animation about to play, ``mob.animate``)."""


class Opaque(Exception):
    """A value whose state cannot be told."""


def digest(scene: Any) -> str | None:
    """The digest of ``scene``'s state where a beat begins (called from inside
    ``LessonScene.beat``, before its plays); None if some of it cannot be told.

    What a beat begins from, fed in this order: the screen, the scene's own attributes, and
    each frame of its code with its local variables. What else a scene comes to hold outside
    them (a camera's frame, which manim keeps on the renderer) is fed here beside the screen."""
    frames = _scene_frames(scene)
    if frames is None:
        return None
    hasher = _Hasher(scene)
    try:
        hasher.feed("screen", [*scene.mobjects, *scene.foreground_mobjects])
        hasher.feed("camera", scene.renderer.camera.frame)
        held = vars(scene)
        own = sorted(k for k in held if k not in FRAMEWORK and k not in hasher.base)
        hasher.feed("attributes", {name: held[name] for name in own})
        for frame in frames:
            code, names = frame.f_code, frame.f_locals  # in no set order (cells come apart)
            hasher.feed("frame", (code.co_qualname, frame.f_lineno))
            hasher.feed("locals", {k: names[k] for k in sorted(names) if names[k] is not scene})
    except Opaque:
        return None
    return hasher.hexdigest()


def _scene_frames(scene: Any) -> list[FrameType] | None:
    """The frames of the scene's code that hold the beat: from the method that opened it (the
    one with ``with self.beat(...)``) out to ``construct``; None if not found as such."""
    here = inspect.currentframe()
    frame = None if here is None else here.f_back  # digest's
    while frame is not None and not _is_beat(frame, scene):
        frame = frame.f_back
    if frame is None:
        return None
    frame = frame.f_back  # contextlib's __enter__
    if frame is None or frame.f_code.co_name != "__enter__":
        return None
    held: list[FrameType] = []
    frame = frame.f_back
    while frame is not None:
        held.append(frame)
        if frame.f_code.co_name == "construct" and frame.f_locals.get("self") is scene:
            return held
        frame = frame.f_back
    return None


def _is_beat(frame: FrameType, scene: Any) -> bool:
    return frame.f_code.co_name == "beat" and frame.f_locals.get("self") is scene


class _Hasher:
    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.base: frozenset[str] = getattr(scene, "framework", frozenset())
        self.chunks: list[bytes] = []
        self.seen: dict[int, int] = {}
        self.kept: list[Any] = []  # what ``seen`` names stays alive, so its ids stay unique

    def hexdigest(self) -> str:
        return hashlib.sha256(b"\x1f".join(self.chunks)).hexdigest()

    def _put(self, *parts: object) -> None:
        self.chunks.append(repr(parts).encode(errors="surrogatepass"))

    def feed(self, tag: str, value: Any) -> None:
        self._put(tag)
        self._value(value)

    def _value(self, value: Any) -> None:
        kind = type(value)
        if kind in PLAIN:
            self._put(value)
        elif isinstance(value, Mobject):
            if not self._again(value):
                self._mobject(value)
        elif kind is np.ndarray:
            self._put("array", value.dtype.str, value.shape)
            if value.dtype.hasobject:  # its bytes are addresses: told item by item
                self._value(value.tolist())
            else:
                self.chunks.append(_told(value))
        elif isinstance(value, np.generic | enum.Enum | ManimColor | range | slice):
            self._put(value)
        elif value is self.scene:
            self._put("scene")
        elif isinstance(value, Worked):
            self._put("worked")  # each read of a part records the fields behind it
        elif (path := traced_path(value)) is not None:
            self._put("lesson", path)  # its fields are recorded as they are read
        elif isinstance(value, Words):
            self._put("words", sorted(value.items()))
        elif self._again(value):
            return
        elif isinstance(value, tuple | list):
            self._put(kind.__name__, len(value))
            for item in value:
                self._value(item)
        elif isinstance(value, dict):
            self._put("dict", len(value))
            for key, item in value.items():
                self._value(key)
                self._value(item)
        elif isinstance(value, set | frozenset):
            self._put("set", sorted(_alone(item) for item in value))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            self._put("data", kind.__qualname__)
            for field in dataclasses.fields(value):
                self._value(getattr(value, field.name))
        elif isinstance(value, GeneratorType) and inspect.getgeneratorstate(value) == "GEN_CLOSED":
            self._put("spent")  # a generator already used up holds nothing
        elif isinstance(value, MethodType):
            self._put("method", value.__func__.__qualname__)
            self._value(value.__self__)
        elif isinstance(value, FunctionType):
            self._function(value)
        elif isinstance(value, type):
            self._put("class", value.__module__, value.__qualname__)
        elif kind.__module__.partition(".")[0] in OWN and hasattr(value, "__dict__"):
            self._put("object", kind.__qualname__)  # the steps' and manim's own kinds
            self._value(vars(value))
        else:
            raise Opaque(kind.__qualname__)

    def _again(self, value: Any) -> bool:
        """Whether ``value`` was fed before (then only its place is fed: shared objects and
        cycles are told apart from copies)."""
        index = self.seen.get(id(value))
        if index is not None:
            self._put("again", index)
            return True
        self.seen[id(value)] = len(self.seen)
        self.kept.append(value)
        return False

    def _function(self, function: FunctionType) -> None:
        self._put("function", function.__module__, function.__qualname__)
        self._value(function.__defaults__)
        for cell in function.__closure__ or ():
            self._value(cell.cell_contents)

    def _mobject(self, mobject: Mobject) -> None:
        """What is drawn of a mobject (its points, colours, strokes, order) in one chunk; then
        what else it holds: its parts, the text it was made from, a saved state, updaters.

        Of a VMobject's own attributes, only those that are drawn or shape what is drawn: not
        the opacities and sheen direction it was made with, which an animation drawn frame by
        frame leaves otherwise than one skipped (``fill_opacity`` 0.0913 against 0.09) while the
        colours drawn are the same (:data:`~scenes.manim_internals.UNDRAWN`)."""
        own = vars(mobject)
        if not (isinstance(mobject, VMobject) and own.keys() >= VMOBJECT_OWN):
            self._held(type(mobject).__qualname__, own, list(own))
            return
        parts, updaters, target = own["submobjects"], own["updaters"], own.get("target")
        style = _drawn_style(mobject)
        shape = (type(mobject).__qualname__, style, len(parts), len(updaters))
        self.chunks.append(repr(shape).encode())
        for name in DRAWN_ARRAYS:
            self.chunks.append(_told(own[name]))
        if style[0]:  # a sheen: its direction is drawn too
            self.chunks.append(_told(mobject.get_sheen_direction()))
        for part in parts:
            self._value(part)
        if updaters:
            self._value(list(updaters))
        if target is not None:
            self._put("target")
            self._value(target)
        names = own.keys() - HELD
        if names:
            self._held("", own, sorted(names))

    def _held(self, kind: str, own: dict[str, Any], names: list[str]) -> None:
        self._put("mobject", kind)
        for name in names:
            if name not in MADE_FROM:
                self._put(name)
                self._value(own[name])


_STYLE = (
    "sheen_factor",
    *sorted(VMOBJECT_OWN - UNDRAWN - {"sheen_factor", *DRAWN_ARRAYS} - VMOBJECT_PARTS),
)
_drawn_style = operator.attrgetter(*_STYLE)
HELD = VMOBJECT_OWN | VMOBJECT_PARTS
"""What every VMobject holds, told first (in its chunk, or part by part); what else it holds is
its subclass's, told by name after."""


def _alone(value: Any) -> str:
    """A set's item, digested by itself (sets have no order)."""
    hasher = _Hasher(None)
    hasher._value(value)
    return hasher.hexdigest()


def _told(array: np.ndarray) -> bytes:
    """An array's numbers as bytes, floats to single precision: the same moves drawn frame by
    frame or skipped can leave a point a unit in its last place apart (an animation's last
    frame is its start plus all of the way, not its end), which is not a different picture."""
    if array.dtype.kind == "f":
        array = array.astype(np.float32)
    return np.ascontiguousarray(array).tobytes()
