"""Copies of a text glyph share its parsed SVG path, and are otherwise independent copies."""

from __future__ import annotations

import numpy as np
from manim import RED, Text, tempconfig

import scenes  # noqa: F401  (importing the scenes installs the sharing)


def test_a_copied_glyph_shares_its_parsed_path_and_nothing_it_can_change(tmp_path) -> None:
    with tempconfig({"media_dir": str(tmp_path)}):
        original = Text("Ag", font="Inter")
    copy = original.copy()
    for glyph, copied in zip(original, copy, strict=True):
        assert copied.path_obj is glyph.path_obj
        assert copied is not glyph
        assert copied.points is not glyph.points
        np.testing.assert_array_equal(copied.points, glyph.points)
    copy.set_color(RED).shift([1, 0, 0])
    assert not np.allclose(copy[0].points, original[0].points)
    assert original[0].get_fill_color() != copy[0].get_fill_color()
