"""The one place a number becomes the string shown on screen, in the slides' conventions."""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = [
    "about",
    "factor",
    "number",
    "output",
    "pull",
    "ratio",
    "rounded",
    "share",
    "short_weights",
    "tensor",
    "torch_floats",
    "vector",
    "weight",
]


def _fixed(x: float, places: int) -> str:
    """Fixed-point text with no "-0.00": a value that rounds to zero shows no sign."""
    text = f"{x:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def number(x: float) -> str:
    """A lesson number or a score: whole numbers bare (``3``), others to two places (``1.5``)."""
    text = _fixed(x, 2)
    return text.rstrip("0").rstrip(".") if "." in text else text


def factor(x: float) -> str:
    """A number inside a product: negatives in brackets, so ``2×(-1)`` reads right."""
    text = number(x)
    return f"({text})" if text.startswith("-") else text


def vector(xs: Iterable[float]) -> str:
    """A lesson vector as written on the slides: ``[2, 0, 1, 1]``."""
    return "[" + ", ".join(number(x) for x in xs) + "]"


def pull(x: float) -> str:
    """e^score, a total, or a pull ratio, to two places: ``20.09``."""
    return _fixed(x, 2)


def share(w: float) -> str:
    """A weight as a share of the budget: ``84.4%``."""
    return _fixed(100 * w, 1) + "%"


def weight(w: float) -> str:
    """A weight as a multiplier: ``0.844``."""
    return _fixed(w, 3)


def output(xs: Iterable[float]) -> str:
    """A blended output vector: ``[0.84, 0.11, 0.00]``."""
    return "[" + ", ".join(_fixed(x, 2) for x in xs) + "]"


def short_weights(ws: Iterable[float]) -> str:
    """Weights in the compact form of the overview slide: ``[.84, .11, .04]``."""
    return "[" + ", ".join(_fixed(w, 2).removeprefix("0") for w in ws) + "]"


def ratio(x: float) -> str:
    """How many of one token match another, to one place: ``20.1``."""
    return _fixed(x, 1)


def rounded(x: float) -> str:
    """A count rounded to a whole number: ``403``."""
    return _fixed(x, 0)


def about(x: float) -> str:
    """A rough count to two significant figures, for a quiz option: ``20``, ``400``."""
    if x == 0:
        return "0"
    digits = 2 - 1 - math.floor(math.log10(abs(x)))
    return number(round(x, digits))


def tensor(ws: Iterable[float]) -> str:
    """What ``torch.softmax`` prints: ``tensor([0.8438, 0.1142, 0.0420])``."""
    return "tensor([" + ", ".join(_fixed(w, 4) for w in ws) + "])"


def torch_floats(xs: Iterable[float]) -> str:
    """Scores as a torch float literal: ``[3., 1., 0.]``."""
    return "[" + ", ".join(number(x) + ("." if float(x).is_integer() else "") for x in xs) + "]"
