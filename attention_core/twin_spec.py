"""What the twin shows of a step kind, as data: its numbers, each with its rule and index space.

A step kind's entry in :mod:`attention_core.steps` lists the parts of its twin section. Each
:class:`Number` names a quantity the page computes (one of :data:`SOURCES`, which Python's
``publish/kit/twin_numbers.py`` reads from :func:`attention_core.worked` and the page's
``twin.js`` computes in the browser), the rule it is shown by (a key of
:data:`attention_core.formatting.RULES`) and the index space it runs over. Nothing here is code
per kind: a new kind lists sources the page already knows, and the twin, its proof and the
handout's generic section all follow.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AXES",
    "LOOKS",
    "ROLES",
    "SOURCES",
    "Choices",
    "EachHead",
    "Line",
    "Number",
    "Part",
    "Table",
    "Terms",
    "numbers_of",
]

AXES = ("token", "head", "row", "col")
"""The parts of a number's key after its quantity, as its ``data-`` attributes: a token's place
(or ``rival``), a head's, a grid's row (the asking token) and column (an entry, or the key's
token in a grid)."""

_GRID = {name: ("row", "col") for name in ("dots", "scores", "pulls", "weights", "outputs")} | {
    "totals": ("row",)
}

SOURCES: dict[str, tuple[str, ...]] = {
    # Day 004's one query over the lesson's tokens
    "one.root_d_k": (),
    "one.products": ("token", "col"),
    "one.dots": ("token",),
    "one.scores": ("token",),
    "one.pulls": ("token",),
    "one.total": (),
    "one.weights": ("token",),
    "one.scaled": ("token", "col"),
    "one.output": ("col",),
    "budget": (),
    # the same with the rival added last (its place is ``rival``)
    "rival.dot": ("token",),
    "rival.score": ("token",),
    "rival.weights": ("token",),
    "rival.output": ("col",),
    "rival.left": (),
    # the filler quiz
    "quiz.rival_score": ("token",),
    "quiz.gap": (),
    "quiz.needed": (),
    "quiz.options": ("col",),
    "quiz.bonus_gap": (),
    "quiz.bonus_needed": (),
    # the share quiz: the asking token's row (of the head asked about, in a heads lesson)
    "share_quiz.scores": ("head", "token"),
    "share_quiz.pulls": ("head", "token"),
    "share_quiz.weights": ("head", "token"),
    "share_quiz.total": ("head",),
    "share_quiz.answer": ("head",),
    # every token asks: the lesson's grid (its mask applied), and the grid it first shows (the
    # open one when a mask step follows to apply it)
    **{f"grid.{name}": axes for name, axes in _GRID.items()},
    **{f"first_grid.{name}": axes for name, axes in _GRID.items()},
    # the heads
    "heads.q": ("head", "token", "col"),
    "heads.k": ("head", "token", "col"),
    "heads.v": ("head", "token", "col"),
    "heads.weights": ("head", "row", "col"),
    "heads.outputs": ("head", "row", "col"),
    "heads.joined": ("token", "col"),
    "heads.mixed": ("token", "col"),
}
"""Every quantity the page knows how to compute, by name, with the index space it runs over
(outermost first). A source a lesson cannot have (the rival's without a rival, ``heads.mixed``
without W_O) shows nothing."""


LOOKS = ("cell", "bar", "share")
"""How the twin draws a number, as the video does: a ``cell`` shaded by its size (a heat map
where it runs over a grid), a ``bar`` as long as it is (``e^score``, an output), or a ``share``
of the budget bar (its place's slice of the row, in the token's colour)."""

ROLES = ("", "query", "key", "value")
"""The role whose colour a number's cell takes (:data:`attention_core.palette.ROLES`); "" for
the scores' heat, in the query's colour as the video's grids."""


@dataclass(frozen=True)
class Number:
    """One quantity the twin shows: ``Number("share", "one.weights", "share", ("token",))``."""

    quantity: str
    """Its name on the page (``data-quantity``), the first part of its key."""
    source: str
    """What it is computed from: a key of :data:`SOURCES`."""
    rule: str
    """How it is shown: a key of :data:`attention_core.formatting.RULES` (which imports this
    package's maths, so tests/test_steps.py checks it rather than this class)."""
    over: tuple[str, ...] = ()
    """Its index space, the source's own (:data:`SOURCES`), written out so the entry says it."""
    label: tuple[str, ...] = ()
    """The words entries naming it (a column's heading, a term), joined by `` · ``."""
    roughly: bool = False
    """Set in the words' ``about {count}`` when the rule's text is not the number exactly."""
    look: str = "cell"
    """How it is drawn: one of :data:`LOOKS`."""
    role: str = ""
    """Whose colour its cell takes: one of :data:`ROLES`."""

    def __post_init__(self) -> None:
        if self.look not in LOOKS or self.role not in ROLES:
            raise ValueError(
                f"twin number {self.quantity!r}: look {self.look!r} or role {self.role!r} unknown"
            )
        if self.source not in SOURCES:
            raise ValueError(f"twin number {self.quantity!r}: no source {self.source!r}")
        if self.over != SOURCES[self.source]:
            raise ValueError(
                f"twin number {self.quantity!r}: {self.source} runs over "
                f"{SOURCES[self.source]}, not {self.over}"
            )


@dataclass(frozen=True)
class Table:
    """Numbers in a table: a row per place of the ``down`` axis, a column per number (one per
    entry of a number's ``col`` axis when it has one and ``down`` is another)."""

    columns: tuple[Number, ...]
    down: str = "token"
    """The axis down the rows (``token``, ``row``, ``col``); "" for a row per number, named by
    its label, its entries across."""
    across: str = "answers"
    """How a ``col`` axis across is headed: ``answers``, ``tokens``, ``numbered`` (1, 2, …) or
    ``named`` (the quantity and its place: ``q1``)."""
    caption: str = ""
    """A words entry (inside :class:`EachHead`, filled with the head's ``number``)."""
    corner: str = ""
    """A words entry for the top-left heading."""
    last: tuple[Number | None, ...] = ()
    """A last row, a cell under each column (None: empty)."""
    last_label: str = ""
    """The words entry naming the last row."""


@dataclass(frozen=True)
class Line:
    """One number in a sentence: ``√dₖ = 2`` (a ``symbol``) or ``Answer: 38.2%`` (``said``, a
    words entry, the number in bold)."""

    number: Number
    symbol: str = ""
    said: str = ""


@dataclass(frozen=True)
class Terms:
    """Numbers named one by one (a definition list), each by its label."""

    numbers: tuple[Number, ...]


@dataclass(frozen=True)
class Choices:
    """A number's entries as lettered choices (``A: 1``), under a words entry."""

    number: Number
    said: str


@dataclass(frozen=True)
class EachHead:
    """Its parts once per head of the lesson (the ``head`` part of each key fixed), each under
    ``heading`` (a words entry filled with the head's ``number``) when given."""

    parts: tuple[Table, ...]
    heading: str = ""


Part = Table | Line | Terms | Choices | EachHead
"""One part of a kind's twin section."""


def numbers_of(parts: tuple[Part, ...]) -> tuple[Number, ...]:
    """Every number the parts show, in order, each once."""
    found: list[Number] = []
    for part in parts:
        if isinstance(part, Table):
            found += [*part.columns, *(n for n in part.last if n is not None)]
        elif isinstance(part, Line | Choices):
            found.append(part.number)
        elif isinstance(part, Terms):
            found += part.numbers
        else:
            found += numbers_of(part.parts)
    return tuple(dict.fromkeys(found))
