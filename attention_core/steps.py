"""The library of step kinds a lesson is built from: each kind's scene and the data it needs.

A lesson names its steps in order (``steps = ["title", "all_queries", "mask", "answer"]``);
without ``steps`` it is the seven steps of Day 004. Each kind names the scene that shows it
(as ``module:Class``, a string: this package never imports manim) and the lesson fields it
reads, which validation checks for that step alone.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_STEPS", "KINDS", "StepKind"]


@dataclass(frozen=True)
class StepKind:
    """One kind of step: the scene that shows it and the lesson fields it needs."""

    scene: str
    """Where its scene class lives: ``scenes.steps.score:Step3Score``."""
    needs: tuple[str, ...] = ()
    """The lesson fields it reads beyond those every lesson has, by their paths in the file:
    ``rival``, ``mask``; ``tokens.query`` (every token's, written or derived by the heads);
    ``heads[1]`` (a second head, so at least two). Validation names the first one missing."""


KINDS: dict[str, StepKind] = {
    "title": StepKind("scenes.steps.title:Step1Title"),
    "big_picture": StepKind("scenes.steps.big_picture:Step2BigPicture"),
    "score": StepKind("scenes.steps.score:Step3Score"),
    "softmax": StepKind("scenes.steps.softmax:Step4Softmax"),
    "mix": StepKind("scenes.steps.mix:Step5Mix"),
    "rival": StepKind("scenes.steps.rival:Step6Rival", ("rival",)),
    "answer": StepKind("scenes.steps.answer:Step7Answer", ("quiz",)),
    "all_queries": StepKind(
        "scenes.steps.all_queries:AllQueries", ("tokens.query", "tokens.key", "tokens.value")
    ),
    "mask": StepKind(
        "scenes.steps.mask:Mask", ("mask", "tokens.query", "tokens.key", "tokens.value")
    ),
    "projections": StepKind("scenes.steps.projections:Projections", ("tokens.embedding", "heads")),
    "heads": StepKind("scenes.steps.heads:Heads", ("tokens.embedding", "heads[1]")),
}
"""Every step kind by the name a lesson's ``steps`` lists it by (also its clips' file-name
part, ``03_score.mp4``, and its words' prefix, ``score.caption.…``)."""

DEFAULT_STEPS: tuple[str, ...] = (
    "title",
    "big_picture",
    "score",
    "softmax",
    "mix",
    "rival",
    "answer",
)
"""The steps of a lesson that names none: Day 004, one query over a few tokens."""
