"""How fit_working foresees a round of its halving (scenes/toolkit/dot_product.py): from the
spans built below a scale, only where the bounds on the span there are clear of the limits."""

from __future__ import annotations

import pytest

from scenes.toolkit.dot_product import MARGIN, WORK_AREA, foreseen

W, H = WORK_AREA.width, WORK_AREA.height


@pytest.mark.parametrize(
    ("spans", "scale", "seen"),
    [
        ({}, 0.5, None),  # nothing built below
        ({0.8: (W / 2, H / 2)}, 0.5, None),  # built only above
        ({0.5: (W / 2, H / 2)}, 0.75, True),  # grown in proportion: 3/4 of each limit
        ({0.5: (W * 0.9, H / 2)}, 0.75, None),  # grown, too wide; one span draws no line
        ({0.25: (W * 0.3, H / 4), 0.5: (W * 0.7, H / 2)}, 0.75, False),  # the line: 1.1 W
        ({0.25: (W * 0.8, H / 4), 0.5: (W * 0.9, H / 2)}, 0.6, None),  # 0.94 W to 1.08 W
        ({0.25: (W / 2, H * 0.3), 0.5: (W / 2, H * 0.7)}, 0.75, False),  # the line: 1.1 H
        ({0.4: (W / 2, H / 4), 0.5: (W - MARGIN / 2, H / 2)}, 0.5001, None),  # about W
    ],
)
def test_a_round_is_foreseen_only_where_the_bounds_are_clear(
    spans: dict[float, tuple[float, float]], scale: float, seen: bool | None
) -> None:
    assert foreseen(spans, scale) is seen


def test_what_is_built_above_a_scale_foretells_nothing_of_it() -> None:
    below = {0.5: (W / 2, H / 2)}
    assert foreseen({**below, 0.6: (W * 2, H * 2)}, 0.55) is foreseen(below, 0.55) is True
