"""How well a scene's rests are composed, read from its dry run in the camera's frame.

At every rest (a wait: a beat's hold) of a :class:`~scenes.probe.Probe`, and in the frame the
camera saw then, :func:`composition` finds:

- texts outside the title-safe area (:data:`TITLE_SAFE` of the frame's width and height, about
  its centre) and shapes outside the action-safe area (:data:`ACTION_SAFE`);
- two texts that overlap, neither of them marked ``overlap_ok``;
- each number's height in pixels at 1080p, counting the zoom: its box's height over the
  frame's, times 1080 (a camera zoomed in to half the height doubles it);
- rests whose lower third (the bottom third of the frame) holds no text and no shape;
- and, at every moment (after a play as after a wait), whether the picture is focused: some
  text dimmed (drawn at most :data:`DIMMED` strong, as :class:`~scenes.toolkit.focus.Focus`
  dims what is not being computed) while another is at full strength, or the camera closer in
  (a close-up leaves out what is not being computed: Focus fades what it would cut).

A *number* is a text that is a number and nothing else, as :data:`~scenes.probe.NUMBER` reads
one, with a percent sign after it or brackets around it allowed (``84.4%``, ``(-2)``). A
formula's part counts when it is on screen on its own and its LaTeX is a number alone (``3``
flown out of ``e^{3}``: its box is the digits'); a whole formula with numbers inside
(``e^{6} \\approx 403``) is not measured, since its box is the formula's, not its digits'.

Things entirely outside the frame are not seen and are left out; things partly inside are cut
off, so outside the safe area. The figures are for ``bench/composition.py``, for the tests
that plant a misplaced object, and for ``tests/test_scenes.py`` and
``tests/test_random_lessons.py``, which hold the lessons to the targets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from scenes.layout import ACTION_SAFE, TITLE_SAFE
from scenes.probe import NUMBER, Box, CameraFrame, Probe, Shown

__all__ = [
    "ACTION_SAFE",
    "DIMMED",
    "MIN_NUMBER_PX",
    "REFERENCE_LINES",
    "TITLE_SAFE",
    "Composition",
    "Misplaced",
    "NumberSize",
    "Overlapping",
    "composition",
    "contains",
    "is_number",
    "number_px",
    "overlap",
    "rest_moments",
]

MIN_NUMBER_PX = 40.0
"""The least height of a number, in pixels of a 1080-line picture."""
REFERENCE_LINES = 1080
DIMMED = 0.5
"""A text drawn at most this strong is dimmed (Focus dims to 0.35, finished results to 0.25)."""
FULL = 0.95
"""A text drawn at least this strong is at full strength."""
OVERLAP_SLACK = 0.02
"""Texts whose boxes meet by less than this (scene units) do not overlap: glyph boxes touch."""


@dataclass(frozen=True)
class Misplaced:
    """A text or a shape outside its safe area at a rest: what it is and where it sits."""

    moment: int
    time: float
    what: str
    """The text it shows, or ``shape``."""
    box: Box


@dataclass(frozen=True)
class Overlapping:
    """Two texts over each other at a rest."""

    moment: int
    time: float
    first: str
    second: str


@dataclass(frozen=True)
class NumberSize:
    """A number seen at a rest, and its height in pixels at 1080p in the camera's frame."""

    moment: int
    time: float
    text: str
    px: float


@dataclass(frozen=True)
class Composition:
    """The composition figures of one scene's rests (or, :meth:`merged`, of several scenes)."""

    rests: int
    texts_outside: tuple[Misplaced, ...] = ()
    shapes_outside: tuple[Misplaced, ...] = ()
    overlaps: tuple[Overlapping, ...] = ()
    numbers: tuple[NumberSize, ...] = ()
    """Every number seen at every rest: one held over three rests is here three times."""
    empty_lower_thirds: tuple[float, ...] = ()
    """The time of each rest whose lower third holds nothing."""
    close_ups: tuple[float, ...] = ()
    """The time of each rest the camera spends closer than the whole frame."""
    focused: tuple[float, ...] = ()
    """The time of each moment with a text dimmed and another at full strength, or closer in."""

    @property
    def small_numbers(self) -> tuple[NumberSize, ...]:
        """The numbers seen smaller than :data:`MIN_NUMBER_PX`."""
        return tuple(n for n in self.numbers if n.px < MIN_NUMBER_PX)

    @property
    def number_p5(self) -> float | None:
        """The 5th percentile of the numbers' heights in pixels; None when none was seen."""
        if not self.numbers:
            return None
        return float(np.percentile([n.px for n in self.numbers], 5))

    @property
    def clean(self) -> bool:
        """Whether every rest meets every target (``bench/composition.py`` words each miss)."""
        return not (
            self.texts_outside
            or self.shapes_outside
            or self.overlaps
            or self.small_numbers
            or self.empty_lower_thirds
        )

    @classmethod
    def merged(cls, parts: Iterable[Composition]) -> Composition:
        """Several scenes' figures as one (a lesson's): rests and findings added up."""
        parts = list(parts)
        return cls(
            rests=sum(p.rests for p in parts),
            texts_outside=tuple(m for p in parts for m in p.texts_outside),
            shapes_outside=tuple(m for p in parts for m in p.shapes_outside),
            overlaps=tuple(o for p in parts for o in p.overlaps),
            numbers=tuple(n for p in parts for n in p.numbers),
            empty_lower_thirds=tuple(t for p in parts for t in p.empty_lower_thirds),
            close_ups=tuple(t for p in parts for t in p.close_ups),
            focused=tuple(t for p in parts for t in p.focused),
        )


def composition(probe: Probe) -> Composition:
    """The composition figures of ``probe``'s rests, each read in the camera's frame then."""
    texts_outside: list[Misplaced] = []
    shapes_outside: list[Misplaced] = []
    overlaps: list[Overlapping] = []
    numbers: list[NumberSize] = []
    empty: list[float] = []
    close: list[float] = []
    rests = rest_moments(probe)
    for i in rests:
        frame, time = probe.frames[i], probe.times[i]
        if frame.closer:
            close.append(time)
        texts = [s for s in probe.moments[i] if overlap(s.box, _box(frame), 0.0)]
        shapes = [b for b in probe.shapes[i] or () if overlap(b, _box(frame), 0.0)]
        title_safe, action_safe = frame.inner(TITLE_SAFE), frame.inner(ACTION_SAFE)
        texts_outside += [
            Misplaced(i, time, s.text, s.box) for s in texts if not contains(title_safe, s.box)
        ]
        shapes_outside += [
            Misplaced(i, time, "shape", b) for b in shapes if not contains(action_safe, b)
        ]
        overlaps += [Overlapping(i, time, a.text, b.text) for a, b in _overlapping(texts)]
        numbers += [
            NumberSize(i, time, s.text, number_px(s.box, frame)) for s in texts if is_number(s.text)
        ]
        lower = _lower_third(frame)
        if not any(overlap(box, lower, 0.0) for box in [*(s.box for s in texts), *shapes]):
            empty.append(time)
    return Composition(
        len(rests),
        tuple(texts_outside),
        tuple(shapes_outside),
        tuple(overlaps),
        tuple(numbers),
        tuple(empty),
        tuple(close),
        tuple(
            t
            for shown, frame, t in zip(probe.moments, probe.frames, probe.times, strict=True)
            if frame.closer or _dimmed(shown)
        ),
    )


def _dimmed(texts: Sequence[Shown]) -> bool:
    """Whether some of ``texts`` are dimmed while another is at full strength."""
    return any(s.opacity <= DIMMED for s in texts) and any(s.opacity >= FULL for s in texts)


def rest_moments(probe: Probe) -> list[int]:
    """The moments of ``probe`` that are rests, one per hold: manim's wait plays a ``Wait``, so
    a wait leaves two moments of the same screen at the same time, counted once here."""
    return [
        i
        for i, rest in enumerate(probe.rests)
        if rest and not (i and probe.rests[i - 1] and probe.times[i - 1] == probe.times[i])
    ]


def is_number(text: str) -> bool:
    """Whether a text is a number alone (``0.84``, ``-2``, ``84.4%``, ``(-2)``)."""
    return NUMBER.fullmatch(text.removeprefix("(").removesuffix(")").removesuffix("%")) is not None


def number_px(box: Box, frame: CameraFrame) -> float:
    """A box's height in pixels of a 1080-line picture of ``frame``."""
    return (box[3] - box[1]) / frame.height * REFERENCE_LINES


def contains(outer: Box, inner: Box) -> bool:
    """Whether ``inner`` lies within ``outer`` (a millionth of a unit of rounding allowed)."""
    eps = 1e-6
    return (
        outer[0] - eps <= inner[0]
        and outer[1] - eps <= inner[1]
        and inner[2] <= outer[2] + eps
        and inner[3] <= outer[3] + eps
    )


def overlap(a: Box, b: Box, slack: float = OVERLAP_SLACK) -> bool:
    """Whether two boxes overlap by more than ``slack`` each way."""
    return (
        a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]
    )


def _overlapping(texts: Sequence[Shown]) -> list[tuple[Shown, Shown]]:
    return [
        (a, b)
        for i, a in enumerate(texts)
        for b in texts[i + 1 :]
        if not (a.overlap_ok or b.overlap_ok) and overlap(a.box, b.box)
    ]


def _box(frame: CameraFrame) -> Box:
    return frame.inner(1.0)


def _lower_third(frame: CameraFrame) -> Box:
    left, bottom, right, top = _box(frame)
    return (left, bottom, right, bottom + (top - bottom) / 3)
