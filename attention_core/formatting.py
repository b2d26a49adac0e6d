"""The one place a number becomes the string shown on screen, in the slides' conventions."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from decimal import Decimal

from .maths import softmax

__all__ = [
    "MINUS_INFINITY",
    "PULL_PLACES",
    "RULES",
    "Rule",
    "apply",
    "about",
    "budget",
    "factor",
    "grid_pull",
    "magnitude",
    "number",
    "option",
    "output",
    "output_entry",
    "percent",
    "pull",
    "ratio",
    "rounded",
    "rules_json",
    "score",
    "share",
    "short_weight",
    "short_weights",
    "tensor",
    "torch_check",
    "torch_floats",
    "torch_said",
    "vector",
    "weight",
]


PULL_PLACES = 2
"""Decimal places of a pull or a total; a counting-up DecimalNumber must use the same."""
MINUS_INFINITY = "−∞"
"""A masked score: the mask adds −∞, so that e^score is exactly 0."""


@dataclass(frozen=True)
class Rule:
    """How one kind of quantity becomes text, as data: the formatters below apply it, and the
    lecture kit's pages ship the same table to the browser (:func:`rules_json`), whose twin of
    the lesson formats by it, so the page cannot drift from the video."""

    places: int
    """Decimal places, rounded half to even on the number's exact binary value (as Python's
    ``f"{x:.2f}"``), never showing ``-0.00``."""
    scale: float = 1
    """What the number is multiplied by first: 100 for a percentage."""
    significant: int = 0
    """When > 0: rounded first to this many significant figures (``about``)."""
    trim: bool = False
    """Trailing zeros dropped, and then a bare point: ``1.50`` → ``1.5``, ``3.00`` → ``3``."""
    bare: bool = False
    """A leading ``0`` dropped: ``0.84`` → ``.84``."""
    brackets: bool = False
    """A negative in brackets: ``(-1)``."""
    suffix: str = ""
    masked: str | None = None
    """The text of −∞ (a masked score), or None when −∞ is never shown."""
    zero: str | None = None
    """The text of exactly 0, or None to format 0 as any other number."""


RULES: dict[str, Rule] = {
    "number": Rule(2, trim=True),
    "score": Rule(2, trim=True, masked=MINUS_INFINITY),
    "factor": Rule(2, trim=True, brackets=True),
    "pull": Rule(PULL_PLACES),
    "grid_pull": Rule(PULL_PLACES, zero="0"),
    "share": Rule(1, scale=100, suffix="%"),
    "percent": Rule(0, scale=100, suffix="%"),
    "budget": Rule(2, scale=100, trim=True, suffix="%"),
    "weight": Rule(3),
    "output_entry": Rule(2),
    "short_weight": Rule(2, bare=True),
    "ratio": Rule(1),
    "rounded": Rule(0),
    "about": Rule(2, significant=2, trim=True),
    "tensor_entry": Rule(4),
}
"""Every kind of number the lesson shows, by the name of its formatter."""


def apply(rule: Rule, x: float) -> str:
    """``x`` as ``rule`` writes it."""
    if rule.masked is not None and x == -math.inf:
        return rule.masked
    if rule.zero is not None and x == 0:
        return rule.zero
    if rule.significant and x != 0:
        x = round(x, rule.significant - 1 - magnitude(x))
    text = _fixed(x * rule.scale if rule.scale != 1 else x, rule.places)
    if rule.trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if rule.bare:
        text = text.removeprefix("0")
    if rule.brackets and text.startswith("-"):
        text = f"({text})"
    return text + rule.suffix


def magnitude(x: float) -> int:
    """The power of ten of ``x``'s leading digit as ``repr`` writes it (``999.9999999999999``:
    2; ``1e-05``: -5), exact, where ``floor(log10(x))`` would round; the page reads it from
    ``toExponential()``, which writes the same shortest digits."""
    return Decimal(repr(abs(float(x)))).adjusted()  # float: numpy's repr names its type


def rules_json() -> str:
    """:data:`RULES` as JSON, for a page's script to format by (``Rule``'s fields by name)."""
    return json.dumps({name: asdict(rule) for name, rule in RULES.items()}, ensure_ascii=False)


def _fixed(x: float, places: int) -> str:
    """Fixed-point text with no "-0.00": a value that rounds to zero shows no sign."""
    text = f"{x:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def number(x: float) -> str:
    """A lesson number or a score: whole numbers bare (``3``), others to two places (``1.5``)."""
    return apply(RULES["number"], x)


def score(x: float) -> str:
    """A score in the grid: as :func:`number` (``1.5``), or ``−∞`` where the mask hides it."""
    return apply(RULES["score"], x)


def grid_pull(x: float) -> str:
    """A pull in the grid: as :func:`pull` (``4.48``), or ``0`` for a masked one, e^−∞, which
    is exactly nothing (a visible pull is never 0: its score is at least -12)."""
    return apply(RULES["grid_pull"], x)


def factor(x: float) -> str:
    """A number inside a product: negatives in brackets, so ``2×(-1)`` reads right."""
    return apply(RULES["factor"], x)


def vector(xs: Iterable[float]) -> str:
    """A lesson vector as written on the slides: ``[2, 0, 1, 1]``."""
    return "[" + ", ".join(number(x) for x in xs) + "]"


def pull(x: float) -> str:
    """e^score, a total, or a pull ratio, to two places: ``20.09``."""
    return apply(RULES["pull"], x)


def share(w: float) -> str:
    """A weight as a share of the budget: ``84.4%``."""
    return apply(RULES["share"], w)


def percent(w: float) -> str:
    """A weight as a whole percentage, as a headline rounds it: ``46%``."""
    return apply(RULES["percent"], w)


def budget(w: float) -> str:
    """The whole attention budget, as the slides write it: ``100%``. It is exact, so it needs
    none of the place a rounded share keeps (``84.4%``)."""
    return apply(RULES["budget"], w)


def weight(w: float) -> str:
    """A weight as a multiplier: ``0.844``."""
    return apply(RULES["weight"], w)


def output(xs: Iterable[float]) -> str:
    """A blended output vector: ``[0.84, 0.11, 0.00]``."""
    return "[" + ", ".join(output_entry(x) for x in xs) + "]"


def short_weight(w: float) -> str:
    """One weight in the compact form of the overview slide: ``.84``."""
    return apply(RULES["short_weight"], w)


def short_weights(ws: Iterable[float]) -> str:
    """Weights in the compact form of the overview slide: ``[.84, .11, .04]``."""
    return "[" + ", ".join(short_weight(w) for w in ws) + "]"


def ratio(x: float) -> str:
    """How many of one token match another, to one place: ``20.1``."""
    return apply(RULES["ratio"], x)


def rounded(x: float) -> str:
    """A count rounded to a whole number: ``403``."""
    return apply(RULES["rounded"], x)


def about(x: float) -> str:
    """A rough count to two significant figures, for a quiz option: ``20``, ``400``."""
    return apply(RULES["about"], x)


def tensor(ws: Iterable[float]) -> str:
    """What ``torch.softmax`` prints: ``tensor([0.8438, 0.1142, 0.0420])``."""
    return "tensor([" + ", ".join(apply(RULES["tensor_entry"], w) for w in ws) + "])"


def torch_floats(xs: Iterable[float]) -> str:
    """Scores as a torch float literal: ``[3., 1., 0.]``."""
    return "[" + ", ".join(number(x) + ("." if float(x).is_integer() else "") for x in xs) + "]"


def output_entry(x: float) -> str:
    """One entry of a blended output, as in the output vector: ``0.46``."""
    return apply(RULES["output_entry"], x)


def option(x: float, roughly: str) -> str:
    """A quiz option: the count itself when exact (``3``), else ``roughly`` filled in with it.

    ``roughly`` is the words' template for a rough count, ``"about {count}"`` in English.
    """
    rough = about(x)
    return rough if float(rough) == x else roughly.format(count=rough)


def torch_check(scores: Iterable[float], dots: Iterable[float], d_k: int) -> tuple[str, ...]:
    """The lines of the "check it in code" snippet, ending with what ``torch`` prints.

    Scores are typed as they are (``[3., 1., 0.]``) when two places hold them exactly;
    otherwise the snippet types the dot products and divides by √dₖ itself, so that running
    it really prints the weights shown. The printed line is worked out from what is typed.
    """
    entries, divisor, typed = _typed(scores, dots, d_k)
    literal = f"torch.tensor([{', '.join(entries)}])" + (f" / {divisor}" if divisor else "")
    return (
        "import torch",
        f"scores = {literal}",
        "torch.softmax(scores, dim=0)",
        f"# {tensor(softmax(typed))}",
    )


def torch_said(scores: Iterable[float], dots: Iterable[float], d_k: int) -> tuple[str, str]:
    """What :func:`torch_check` types and prints, as a description says it: the numbers typed
    (``3, 1, 0``; ``6.5, 2, 0 ÷ √3``) and the numbers printed (``0.8438, 0.1142, 0.0420``),
    never the code's symbols (the voice says ÷ and √ in the lesson's words)."""
    entries, divisor, typed = _typed(scores, dots, d_k)
    said = ", ".join(entry.removesuffix(".") for entry in entries)
    if divisor:
        root = math.sqrt(d_k)
        said += f" ÷ {number(root) if root.is_integer() else f'√{d_k}'}"
    printed = ", ".join(apply(RULES["tensor_entry"], w) for w in softmax(typed))
    return said, printed


def _typed(
    scores: Iterable[float], dots: Iterable[float], d_k: int
) -> tuple[list[str], str | None, list[float]]:
    """The snippet's typed literals, what it divides them by (None: nothing) and the scores
    that typing gives."""
    scores, dots = [float(s) for s in scores], [float(d) for d in dots]
    if all(float(number(s)) == s for s in scores):
        return [_torch_literal(s) for s in scores], None, [float(number(s)) for s in scores]
    # Products of two-place numbers have at most four places: these literals are exact.
    root = math.sqrt(d_k)
    divisor = number(root) if root.is_integer() else f"torch.tensor({d_k}.).sqrt()"
    return (
        [_torch_literal(d) for d in dots],
        divisor,
        [float(_torch_literal(d)) / root for d in dots],
    )


def _torch_literal(x: float) -> str:
    """A float literal: ``3.`` or ``1.5`` when two places hold it, else four (``0.0625``)."""
    if float(number(x)) == x:
        return number(x) + ("." if x.is_integer() else "")
    return _fixed(x, 4).rstrip("0")
