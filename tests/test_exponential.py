"""attention_core.exponential: e^x in IEEE operations only, within an ulp of the C library's, and
formatting.magnitude, exact where log10 rounds (the page's twin repeats both: test_twin.py)."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import numpy as np

from attention_core.exponential import exp, exp_each
from attention_core.formatting import magnitude


def test_e_to_the_x_is_within_an_ulp_of_the_c_librarys() -> None:
    pick = random.Random(11)
    xs = [pick.uniform(-30, 30) for _ in range(30_000)] + [
        pick.uniform(-745, 709) for _ in range(20_000)
    ]
    xs += [0.0, -0.0, 1e-300, -1e-300, 2.0**-30, 0.5 * math.log(2), 1.5 * math.log(2), 1.0, -1.0]
    off = [x for x in xs if abs(exp(x) - math.exp(x)) > math.ulp(math.exp(x))]
    assert not off, [(x, exp(x), math.exp(x)) for x in off[:5]]
    assert exp(0.0) == 1.0
    assert exp(-math.inf) == 0.0, "a masked score pulls nothing"
    assert exp(math.inf) == math.inf
    assert exp(800.0) == math.inf
    assert exp(-800.0) == 0.0
    assert math.isnan(exp(math.nan))
    assert 0 < exp(-740.0) < 2.0**-1022, "a subnormal result"


def test_each_entry_of_an_array_is_e_to_it() -> None:
    grid = np.array([[0.0, -math.inf], [2.5, -3.25]])
    got = exp_each(grid)
    assert got.shape == grid.shape
    assert got.tolist() == [[exp(float(x)) for x in row] for row in grid]


def test_magnitude_is_the_leading_digits_power_of_ten_exactly() -> None:
    """Next to each power of ten, where ``floor(log10(x))`` rounds up for the double below."""
    xs = [10.0**k for k in range(-8, 23)] + [1e-5, 5e-324, 123.4, 9.5]
    xs += [math.nextafter(x, 0) for x in xs] + [math.nextafter(x, math.inf) for x in xs]
    for x in (x for x in xs if x > 0):  # formatting never asks it of 0
        digits = Decimal(repr(x))
        assert 10 ** Decimal(magnitude(x)) <= digits < 10 ** Decimal(magnitude(x) + 1), x
    assert magnitude(math.nextafter(1000.0, 0)) == 2
    assert math.floor(math.log10(math.nextafter(1000.0, 0))) == 3, "why log10 is not used"
