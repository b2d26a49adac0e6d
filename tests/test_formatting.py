"""The formatter: one convention per kind of quantity, and never a "-0.00"."""

from __future__ import annotations

import pytest

from attention_core import formatting as fmt

CASES = [
    (fmt.number, 3.0, "3"),
    (fmt.number, -2.0, "-2"),
    (fmt.number, 1.5, "1.5"),
    (fmt.number, 2 / 3, "0.67"),
    (fmt.number, -0.001, "0"),
    (fmt.number, 5**0.5, "2.24"),
    (fmt.factor, -1.0, "(-1)"),
    (fmt.factor, 2.0, "2"),
    (fmt.vector, [2, 0, -1.5], "[2, 0, -1.5]"),
    (fmt.pull, 20.085536, "20.09"),
    (fmt.pull, 1.0, "1.00"),
    (fmt.share, 0.84379, "84.4%"),
    (fmt.share, 1e-9, "0.0%"),
    (fmt.share, 1.0, "100.0%"),  # one token taking everything is still a rounded share
    (fmt.budget, 1.0, "100%"),
    (fmt.budget, 0.5, "50%"),
    (fmt.weight, 0.84379, "0.844"),
    (fmt.output, [0.8438, 0.1142, -1e-9], "[0.84, 0.11, 0.00]"),
    (fmt.short_weights, [0.8438, 0.1142, 0.042], "[.84, .11, .04]"),
    (fmt.short_weights, [1.0, 0.0], "[1.00, .00]"),
    (fmt.short_weight, 0.8438, ".84"),
    (fmt.short_weight, 1.0, "1.00"),
    (fmt.short_weight, -1e-9, ".00"),
    (fmt.ratio, 20.0855, "20.1"),
    (fmt.rounded, 403.43, "403"),
    (fmt.about, 20.0855, "20"),
    (fmt.about, 403.43, "400"),
    (fmt.about, 1.0, "1"),
    (fmt.about, 0.0, "0"),
    (fmt.about, 2.718, "2.7"),
    (fmt.tensor, [0.84379, 0.11420, 0.04201], "tensor([0.8438, 0.1142, 0.0420])"),
    (fmt.torch_floats, [3.0, 1.0, -0.5], "[3., 1., -0.5]"),
]


@pytest.mark.parametrize(("formatter", "value", "text"), CASES)
def test_formats(formatter, value, text) -> None:
    assert formatter(value) == text


@pytest.mark.parametrize("formatter", [fmt.number, fmt.pull, fmt.weight, fmt.ratio, fmt.rounded])
def test_negative_zero_shows_no_sign(formatter) -> None:
    assert not formatter(-0.0).startswith("-")
    assert not formatter(-1e-12).startswith("-")


def test_the_rule_of_thumb_reads_as_on_the_slide() -> None:
    from attention_core import BUDGET, PULL_PER_SCORE_POINT, SCORE_STEP

    assert f"+{fmt.number(SCORE_STEP)} score = ×{fmt.pull(PULL_PER_SCORE_POINT)}" == (
        "+1 score = ×2.72"
    )
    assert fmt.budget(BUDGET) == "100%"  # "slices always add up to 100%", not 100.0%


def test_a_counting_decimal_matches_the_pull_format() -> None:
    assert f"{20.085536:.{fmt.PULL_PLACES}f}" == fmt.pull(20.085536)
