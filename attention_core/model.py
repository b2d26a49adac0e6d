"""The lesson's frozen dataclasses: what a validated lesson file holds (and derives at load)."""

from __future__ import annotations

from dataclasses import dataclass

from .limits import LessonError
from .steps import DEFAULT_STEPS
from .words import Words

__all__ = [
    "Citation",
    "Head",
    "Lesson",
    "Matrix",
    "Quiz",
    "Reference",
    "ShareQuiz",
    "Token",
]

Matrix = tuple[tuple[float, ...], ...]
"""A matrix as its rows, as a TOML list of rows writes it."""


@dataclass(frozen=True)
class Token:
    """One statement squeezed into one token: what it says, its key and its value.

    In a heads lesson its ``query``, ``key`` and ``value`` are not written but derived from
    its ``embedding`` through the first head (q = x·W_Q, k = x·W_K, v = x·W_V).
    """

    text: str
    short: str
    key: tuple[float, ...]
    value: tuple[float, ...]
    query: tuple[float, ...] | None = None
    """Its own query, when every token asks (written, or derived in a heads lesson)."""
    embedding: tuple[float, ...] | None = None
    """The token as d_model numbers, in a heads lesson; None otherwise."""


@dataclass(frozen=True)
class Head:
    """One attention head: its learned projections, each d_model rows."""

    w_q: Matrix
    """d_model × dₖ: an embedding to its query."""
    w_k: Matrix
    """d_model × dₖ: an embedding to its key."""
    w_v: Matrix
    """d_model × d_v (the number of answers): an embedding to its value."""


@dataclass(frozen=True)
class Quiz:
    """The quick check of Day 004: what filler tokens score, in the question and in the bonus."""

    filler_score: float
    bonus_filler_score: float


@dataclass(frozen=True)
class ShareQuiz:
    """The quick check of a lesson where every token asks: how much of one token's attention
    goes to another (in one head)? Its options are derived from the maths."""

    asker: int
    """The asking token, by its place in ``tokens`` (0 is the first)."""
    to: int
    """The token it attends to, by its place in ``tokens``."""
    head: int = 0
    """In a heads lesson, which head's attention, by its place in ``heads``; else 0."""


@dataclass(frozen=True)
class Citation:
    """A published result the lesson cites as where attention matters."""

    source: str
    finding: str


@dataclass(frozen=True)
class Reference:
    """A pointer to read further: its ``text`` (the title) and ``where`` it is, an address
    then any notes, each after a `` · `` (``arxiv.org/abs/1706.03762 · §3.2.3, the mask``)."""

    text: str
    where: str

    @property
    def address(self) -> str:
        """Where it is on the web, as written (``arxiv.org/abs/1706.03762``)."""
        return self.where.split(" · ")[0]

    @property
    def notes(self) -> tuple[str, ...]:
        """What ``where`` says after the address (``§3.2.3, the mask``)."""
        return tuple(self.where.split(" · ")[1:])

    @property
    def link(self) -> str:
        """The address as a link a page can follow."""
        return self.address if "://" in self.address else f"https://{self.address}"

    @property
    def named(self) -> str:
        """The reference as a description names it: its title and notes, never its address."""
        return ", ".join([self.text, *self.notes])


@dataclass(frozen=True)
class Lesson:
    """Everything the slides show that is not computed."""

    title: str
    series: str
    """The series the lesson belongs to, named on its title card: ``Day 004 · Transformers``."""
    promise: str
    question: str
    query: tuple[float, ...]
    """The one query Day 004's steps work on: written, or else the newest (last) token's own."""
    answers: tuple[str, ...]
    tokens: tuple[Token, ...]
    rival: Token | None
    """The lookalike token of the ``rival`` step; None when the lesson has none."""
    quiz: Quiz | ShareQuiz | None
    """The ``answer`` step's quick check, of either variant; None when the lesson has none."""
    takeaway: str
    citation: Citation
    references: tuple[Reference, ...]
    words: Words
    """Every word the scenes show or say: the English template with the lesson's [words]."""
    voice: str | None = None
    """Who narrates it (one of :data:`VOICES`); None: the default for its language."""
    steps: tuple[str, ...] = DEFAULT_STEPS
    """Its steps in order, each a kind of :data:`attention_core.steps.KINDS`."""
    mask: str | None = None
    """``"causal"``: token i sees tokens 0…i only (:data:`attention_core.matrix.MASKS`)."""
    heads: tuple[Head, ...] = ()
    """Its attention heads, each with its own projections; () when it has none."""
    w_o: Matrix | None = None
    """(heads × d_v) rows × d_out: what the joined heads' outputs are multiplied by."""

    @property
    def d_k(self) -> int:
        """The length of the query and of every key."""
        return len(self.query)

    @property
    def rival_token(self) -> Token:
        """The rival, for what shows it; LessonError when the lesson has none."""
        if self.rival is None:
            raise LessonError("rival: missing")
        return self.rival

    @property
    def filler_quiz(self) -> Quiz:
        """Day 004's quiz, for what shows it; LessonError when the lesson asks another."""
        if not isinstance(self.quiz, Quiz):
            raise LessonError("quiz: this lesson has no filler_score quiz")
        return self.quiz

    @property
    def share_quiz(self) -> ShareQuiz:
        """The quiz of a lesson where every token asks; LessonError when it asks another."""
        if not isinstance(self.quiz, ShareQuiz):
            raise LessonError("quiz: this lesson has no asker/to quiz")
        return self.quiz

    @property
    def asks(self) -> bool:
        """Whether every token has its own query (written, or derived by the heads)."""
        return all(token.query is not None for token in self.tokens)
