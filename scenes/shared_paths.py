"""Copies of a text or formula glyph share its parsed SVG path instead of deep-copying it.

manim keeps each glyph's parsed ``svgelements`` path on the glyph (``path_obj``) and reads it only
once, to build the glyph's points. ``Mobject.copy`` deep-copies it anyway, point object by point
object, every time an animation starts: that was most of a dry run's copying and a quarter of its
time. Nothing changes a parsed path after it is read, so copies can share it.
"""

from __future__ import annotations

from typing import Any

from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath

__all__ = ["share_parsed_paths"]


def _copy_sharing_path(self: VMobjectFromSVGPath, memo: dict[int, Any]) -> VMobjectFromSVGPath:
    memo[id(self.path_obj)] = self.path_obj
    return super(VMobjectFromSVGPath, self).__deepcopy__(memo)


def share_parsed_paths() -> None:
    """Make every copy of an SVG glyph share its parsed path (idempotent)."""
    VMobjectFromSVGPath.__deepcopy__ = _copy_sharing_path  # type: ignore[method-assign]
