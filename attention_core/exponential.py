"""e^x, written out in IEEE double operations, so the page's twin computes the same bits.

``math.exp`` (the C library's) and a browser's ``Math.exp`` each promise less than an ulp of
error, not the same last bit; a shown digit next to a rounding boundary could then differ
between the video and the page. This is fdlibm's algorithm (``e_exp.c``, the one most
JavaScript engines port), as additions, multiplications, divisions and exact scalings by a
power of two only: each of those is correctly rounded by IEEE 754 in Python and in JavaScript
alike, so ``publish/kit/static/twin.js``'s ``exp``, the same steps in the same order, gives the
same double for every input. Its error is under one ulp (``tests/test_exponential.py``).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["exp", "exp_each"]

_LN2_HI = 6.93147180369123816490e-01  # ln 2's top 32 bits: k · _LN2_HI is exact for |k| < 2^20
_LN2_LO = 1.90821492927058770002e-10  # the rest of ln 2
_INV_LN2 = 1.44269504088896338700e00
_P = (
    1.66666666666666019037e-01,
    -2.77777777770155933842e-03,
    6.61375632143793436117e-05,
    -1.65339022054652515390e-06,
    4.13813679705723846039e-08,
)
"""fdlibm's minimax polynomial for the remainder (its P1 … P5)."""
_OVERFLOW = 7.09782712893383973096e02  # above this, e^x is not a finite double
_UNDERFLOW = -7.45133219101941108420e02  # below this, e^x rounds to 0


def exp(x: float) -> float:
    """e^x as a double, bit for bit the page's ``exp``: 0 for −∞ (a masked score)."""
    if math.isnan(x):
        return x
    if x > _OVERFLOW:
        return math.inf
    if x < _UNDERFLOW:
        return 0.0
    k = math.trunc(_INV_LN2 * x + (0.5 if x >= 0 else -0.5))  # x ≈ k·ln 2 + r, |r| ≤ ln 2 / 2
    hi = x - k * _LN2_HI
    lo = k * _LN2_LO
    r = hi - lo
    t = r * r
    c = r - t * (_P[0] + t * (_P[1] + t * (_P[2] + t * (_P[3] + t * _P[4]))))
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    if k >= -1021:
        return math.ldexp(y, k)
    return math.ldexp(y, k + 1000) * math.ldexp(1.0, -1000)  # a subnormal: as twin.js rounds it


def exp_each(xs: ArrayLike) -> NDArray[np.float64]:
    """:func:`exp` of every entry, in the array's shape."""
    values = np.asarray(xs, dtype=np.float64)
    return np.array([exp(float(x)) for x in values.flat], dtype=np.float64).reshape(values.shape)
