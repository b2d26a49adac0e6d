"""Sums rounded once: the same bits on every machine, and in the browser's twin of the lesson.

numpy adds in an order of its own (pairwise, in blocks of eight) and multiplies matrices
through BLAS, whose kernel, picked for the CPU at run time, may fuse a multiply and an add:
so a sum could land either side of a rounding boundary (0.025 shown as ``0.03`` or ``0.02``)
by machine. Every sum the lesson shows is instead the exact sum of its terms, rounded once
(:func:`math.fsum`), which anything that adds exactly (the twin's ``twin.js``) reproduces.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["added", "times"]


def added(terms: ArrayLike) -> NDArray[np.float64]:
    """The sums along the last axis, each the exact sum rounded once.

    Parameters
    ----------
    terms
        Any array of at least one dimension.

    Returns
    -------
    numpy.ndarray
        One dimension fewer than ``terms`` (a 0-d array for a vector).
    """
    a = np.asarray(terms, dtype=np.float64)
    rows = a.reshape(-1, a.shape[-1])
    return np.array([math.fsum(row) for row in rows], dtype=np.float64).reshape(a.shape[:-1])


def times(a: ArrayLike, b: ArrayLike) -> NDArray[np.float64]:
    """The matrix product ``a @ b``, each entry the exact sum of its (rounded) products.

    Parameters
    ----------
    a
        k (a vector) or n × k.
    b
        k × m.

    Returns
    -------
    numpy.ndarray
        m, or n × m.
    """
    left, right = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    products = left[..., :, None] * right  # ... × k × m: every product, rounded as it is made
    return added(np.swapaxes(products, -1, -2))
