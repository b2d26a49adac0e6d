"""The scene toolkit: the lesson's objects (numbers, vectors, a dot product) and how they move."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # for annotations only: the builder's class is private to manim
    from manim import Animation, Mobject
    from manim.mobject.mobject import _AnimationBuilder

    Playable: TypeAlias = Animation | Mobject | _AnimationBuilder
    """What ``Scene.play`` takes: an animation, or ``mob.animate.…`` (which manim types as
    its builder or the mobject itself)."""
