"""The frame's regions (scenes/layout.py): in title-safe, apart, placing what they are given."""

from __future__ import annotations

import pytest
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Square, config

from scenes.composition import contains
from scenes.layout import HEADING, LOWER, SAFE, SIDE, STAGE, TITLE_SAFE, Region

REGIONS = {"heading": HEADING, "stage": STAGE, "side": SIDE, "lower": LOWER}


def box(region: Region) -> tuple[float, float, float, float]:
    return (region.left, region.bottom, region.right, region.top)


def test_safe_is_the_title_safe_share_of_the_frame() -> None:
    assert SAFE.width == pytest.approx(config.frame_width * TITLE_SAFE, abs=0.05)
    assert SAFE.height == pytest.approx(config.frame_height * TITLE_SAFE, abs=0.05)
    assert SAFE.top <= config.frame_width * 480 / 854 * TITLE_SAFE / 2  # the low-quality picture
    assert (SAFE.x, SAFE.y) == pytest.approx((0.0, 0.0))


@pytest.mark.parametrize("name", REGIONS)
def test_every_region_lies_in_title_safe(name: str) -> None:
    assert contains(box(SAFE), box(REGIONS[name]))


def test_heading_stage_and_lower_band_are_stacked_without_overlap() -> None:
    assert HEADING.bottom >= STAGE.top
    assert STAGE.bottom >= LOWER.top
    assert LOWER.top <= -config.frame_height / 2 + config.frame_height / 3  # the lower third
    assert SIDE.right == STAGE.right
    assert SIDE.left > STAGE.x


def test_columns_and_rows_share_out_the_region() -> None:
    wide, narrow = STAGE.columns(3, 1, gap=0.2)
    assert wide.left == STAGE.left
    assert narrow.right == pytest.approx(STAGE.right)
    assert wide.width == pytest.approx(3 * narrow.width)
    assert narrow.left - wide.right == pytest.approx(0.2)
    top, bottom = LOWER.rows(1, 1)
    assert top.top == LOWER.top
    assert bottom.bottom == pytest.approx(LOWER.bottom)
    assert top.height == pytest.approx(bottom.height)


@pytest.mark.parametrize("edge", [UP + LEFT, DOWN + RIGHT, ORIGIN, UP, LEFT])
def test_place_puts_the_same_edge_of_the_object_on_the_region(edge: object) -> None:
    square = STAGE.place(Square(1.0), edge)
    assert square.get_critical_point(edge)[:2] == pytest.approx(
        STAGE.at({-1: 0.0, 0: 0.5, 1: 1.0}[int(edge[0])], {-1: 1.0, 0: 0.5, 1: 0.0}[int(edge[1])])[
            :2
        ]
    )


def test_fit_shrinks_and_never_enlarges() -> None:
    assert LOWER.fit(Square(20.0)).height == pytest.approx(LOWER.height)
    assert LOWER.fit(Square(0.5)).height == pytest.approx(0.5)
