"""A shape's outline handed to cairo in one call, as cairo's own path data.

manim's camera hands cairo a shape's outline a curve at a time, from Python, every frame it
draws the shape. Most shapes it draws are unchanged from the frame before (under a camera
move, a colour fade, beside whatever the animation moves), so their outline can be built once
as cairo's path data (:func:`path_data`) and appended in one call (:func:`append`):
``cairo_append_path`` makes the very same ``move_to``, ``curve_to`` and ``close_path`` calls,
in C, so the pixels are the same.

pycairo cannot append path data it did not make itself, so libcairo is called through ctypes,
on the ``cairo_t`` that a pycairo ``Context`` wraps (its first field). :func:`works` proves both
on a small context of its own before anything relies on them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import Any

import cairo
import numpy as np

__all__ = ["append", "path_data", "works"]

MOVE_TO, CURVE_TO, CLOSE_PATH = 0, 2, 3
"""cairo's ``cairo_path_data_type_t``."""
RELATIVE_TOLERANCE = 1e-5
"""How near a subpath's last point must be to its first for it to close, relative to it (with
the shape's own ``tolerance_for_point_equality``): manim's ``consider_points_equals_2d``."""


class _Path(ctypes.Structure):
    """``cairo_path_t``: a status, the data (16-byte elements) and how many there are."""

    _fields_ = [("status", ctypes.c_int), ("data", ctypes.c_void_p), ("num_data", ctypes.c_int)]


def path_data(points: np.ndarray, splits: np.ndarray, tolerance: float) -> np.ndarray:
    """The outline of cubic curves ``points`` (anchor, handle, handle, anchor, ...), broken into
    subpaths at ``splits`` (start and end indices), as cairo's path data: one row of two doubles
    per ``cairo_path_data_t``, a header (its type and length as two ints) or a point.

    As manim's camera draws it: a subpath moves to its first point and draws each whole curve;
    it closes where its last point is its first's (within ``tolerance``); shorter than one
    curve, it is left out.
    """
    pieces = []
    for start, end in splits:
        curves = (int(end) - int(start)) // 4
        if curves == 0:
            continue
        first, last = points[start, :2], points[end - 1, :2]
        closes = bool(np.all(np.abs(first - last) <= tolerance + RELATIVE_TOLERANCE * np.abs(last)))
        piece = np.zeros((2 + 4 * curves + closes, 2))
        headers = piece.view(np.int32)  # a header's ints over the first double of its row
        headers[0, :2] = MOVE_TO, 2
        piece[1] = first
        body = piece[2 : 2 + 4 * curves].reshape(curves, 4, 2)
        body[:, 0].view(np.int32)[:, :2] = CURVE_TO, 4
        body[:, 1:] = points[start : start + 4 * curves, :2].reshape(curves, 4, 2)[:, 1:]
        if closes:
            headers[-1, :2] = CLOSE_PATH, 1
        pieces.append(piece)
    return np.concatenate(pieces) if pieces else np.zeros((0, 2))


def append(ctx: cairo.Context[Any], data: np.ndarray) -> None:
    """Append ``data`` (from :func:`path_data`, in user space) to ``ctx``'s path."""
    path = _Path(0, data.ctypes.data, len(data))
    _libcairo().cairo_append_path(_wrapped(ctx), ctypes.byref(path))


def _wrapped(pycairo_object: Any) -> int:
    """The cairo pointer a pycairo object wraps: the first field after the object's header."""
    return int(ctypes.c_void_p.from_address(id(pycairo_object) + object.__basicsize__).value or 0)


@cache
def _libcairo() -> ctypes.CDLL:
    """libcairo, as pycairo loaded it (the loader hands back the library already in the process)."""
    library = ctypes.CDLL(ctypes.util.find_library("cairo") or "libcairo.so.2")
    library.cairo_append_path.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Path)]
    library.cairo_append_path.restype = None
    library.cairo_get_target.argtypes = [ctypes.c_void_p]
    library.cairo_get_target.restype = ctypes.c_void_p
    return library


@cache
def works() -> bool:
    """Whether :func:`append` gives a context the path that pycairo's own calls give it: pycairo
    lays its objects out as read here, and libcairo is the library pycairo draws with."""
    pointer_and_base = object.__basicsize__ + 2 * ctypes.sizeof(ctypes.c_void_p)
    if cairo.Context.__basicsize__ != pointer_and_base:  # not pycairo's layout: do not read it
        return False
    try:
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 8, 8)
        ctx = cairo.Context(surface)
        if _libcairo().cairo_get_target(_wrapped(ctx)) != _wrapped(surface):
            return False
        square = np.array([(0, 0), (1, 0), (2, 0), (3, 0), (3, 0), (3, 1), (3, 2), (0, 0)], float)
        by_hand = [(MOVE_TO, (0.0, 0.0)), (CURVE_TO, (1.0, 0.0, 2.0, 0.0, 3.0, 0.0))]
        by_hand += [(CURVE_TO, (3.0, 1.0, 3.0, 2.0, 0.0, 0.0)), (CLOSE_PATH, ())]
        by_hand += [(MOVE_TO, (0.0, 0.0))]  # cairo moves back to the start of a closed subpath
        append(ctx, path_data(np.c_[square, np.zeros(8)], np.array([(0, 8)]), 1e-6))
        return list(ctx.copy_path()) == by_hand
    except (OSError, AttributeError, cairo.Error):
        return False
