"""The library of step kinds a lesson is built from: one entry per kind, all it is known by.

A lesson names its steps in order (``steps = ["title", "all_queries", "mask", "answer"]``);
without ``steps`` it is the seven steps of Day 004. Each kind's :class:`StepKind` says, as data,
everything the project does with it (as Remotion's ``<Composition id component schema>`` is
read by its studio, renderer and player): the scene that shows it (as ``module:Class``, a
string: this package never imports manim), the lesson fields it reads (validation checks them
for that step alone), its section of the handout, whether its scene writes sums out, which
query it works, and what the lesson's twin shows of it (:mod:`attention_core.twin_spec`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .twin_spec import Choices, EachHead, Line, Number, Part, Table, Terms

__all__ = ["DEFAULT_STEPS", "KINDS", "QUERIES", "StepKind"]

QUERIES = ("", "one", "every", "heads")
"""What a kind's step works (:attr:`StepKind.query`): nothing in particular (the title, the
big picture, a recap), Day 004's ``one`` query, ``every`` token asking (the grid), or every token
asking in each of the ``heads``. The last two are the series' kinds."""


@dataclass(frozen=True)
class StepKind:
    """One kind of step: everything the project knows about it."""

    scene: str
    """Where its scene class lives: ``scenes.steps.score:Step3Score``."""
    needs: tuple[str, ...] = ()
    """The lesson fields it reads beyond those every lesson has, by their paths in the file:
    ``rival``, ``mask``; ``tokens.query`` (every token's, written or derived by the heads);
    ``heads[1]`` (a second head, so at least two). Validation names the first one missing."""
    twin: tuple[Part, ...] = ()
    """What the lesson's twin shows of it: its numbers in tables (:mod:`.twin_spec`); none:
    its heading only."""
    headline: Number | None = None
    """A number in its heading, filling the heading's one ``{placeholder}``."""
    paper: str | None = ""
    """Its handout section: one of the handout's own sections by name (``score``); "" for the
    generic one (its heading and its twin's tables); None for none (what the title and the
    big picture say, the handout's header says)."""
    numbered: bool = True
    """Whether its handout section is a worked step, numbered among them (``Step 2 · …``)."""
    sums: bool = False
    """Whether its scene writes sums out (q·k term by term, pulls added up), which the scene
    tests then add up as a viewer would."""
    query: str = ""
    """What it works: one of :data:`QUERIES`."""

    def __post_init__(self) -> None:
        if self.headline is not None and self.headline.over:
            raise ValueError(
                f"step kind {self.scene}: a headline is one number, not {self.headline.over}"
            )
        if self.query not in QUERIES:
            raise ValueError(
                f"step kind {self.scene}: query {self.query!r} is not one of {QUERIES}"
            )


W, H = "handout.word.", "handout.heading."
T, RC = ("token",), ("row", "col")
B, SH = "bar", "share"  # looks (twin_spec.LOOKS): a number's length, a slice of the budget

_OVERVIEW = (
    Table((Number("short_weight", "one.weights", "short_weight", T, (W + "weight",), look=SH),)),
    Table(
        (
            Number(
                "output",
                "one.output",
                "output_entry",
                ("col",),
                (W + "output",),
                look=B,
                role="value",
            ),
        ),
        down="col",
    ),
)
_BUDGET = Number("budget", "budget", "budget")


def _grid(source: str, stages: tuple[tuple[str, str, str, str], ...]) -> tuple[Table, ...]:
    """A table per stage of a grid (its quantity, its source's field, rule and caption), then
    the outputs."""
    tables = [
        Table(
            (
                Number(stage, f"{source}.{field}", rule, RC),
                *(
                    [Number("total", f"{source}.totals", "pull", ("row",), (W + "total",), look=B)]
                    if stage == "pull"
                    else []
                ),
            ),
            down="row",
            across="tokens",
            caption=H + caption,
            corner=W + "corner",
        )
        for stage, field, rule, caption in stages
    ]
    output = Number("output", f"{source}.outputs", "output_entry", RC, role="value")
    return (*tables, Table((output,), down="row", caption=H + "outputs"))


_STAGES = (("pull", "pulls", "grid_pull", "pulls"), ("share", "weights", "share", "shares"))
_HRC = ("head", "row", "col")

KINDS: dict[str, StepKind] = {
    "title": StepKind("scenes.steps.title:Step1Title", twin=_OVERVIEW, paper=None),
    "big_picture": StepKind(
        "scenes.steps.big_picture:Step2BigPicture", twin=_OVERVIEW, paper=None, sums=True
    ),
    "score": StepKind(
        "scenes.steps.score:Step3Score",
        twin=(
            Line(Number("root_d_k", "one.root_d_k", "number"), symbol="√dₖ"),
            Table(
                (
                    Number("product", "one.products", "number", ("token", "col"), role="key"),
                    Number("dot", "one.dots", "number", T, (W + "dot",)),
                    Number("score", "one.scores", "number", T, (W + "score",), look=B),
                ),
                across="numbered",
            ),
        ),
        paper="score",
        sums=True,
        query="one",
    ),
    "softmax": StepKind(
        "scenes.steps.softmax:Step4Softmax",
        twin=(
            Table(
                (
                    Number("score", "one.scores", "number", T, (W + "score",)),
                    Number("pull", "one.pulls", "pull", T, (W + "pull",), look=B),
                    Number("share", "one.weights", "share", T, (W + "share",), look=SH),
                ),
                last=(None, Number("total", "one.total", "pull"), _BUDGET),
                last_label=W + "total",
            ),
        ),
        paper="softmax",
        sums=True,
        query="one",
    ),
    "mix": StepKind(
        "scenes.steps.mix:Step5Mix",
        twin=(
            Table(
                (
                    Number("weight", "one.weights", "weight", T, (W + "weight",)),
                    Number("scaled", "one.scaled", "output_entry", ("token", "col"), role="value"),
                ),
                caption=W + "scaled",
                last=(
                    None,
                    Number("output", "one.output", "output_entry", ("col",), look=B, role="value"),
                ),
                last_label=W + "output",
            ),
        ),
        paper="mix",
        query="one",
    ),
    "rival": StepKind(
        "scenes.steps.rival:Step6Rival",
        ("rival",),
        twin=(
            Table(
                (
                    Number("dot", "rival.dot", "number", T, (W + "dot",)),
                    Number("score", "rival.score", "number", T, (W + "score",), look=B),
                )
            ),
            Table(
                (
                    Number("share_before", "one.weights", "share", T, (W + "before",), look=SH),
                    Number("share", "rival.weights", "share", T, (W + "after",), look=SH),
                )
            ),
            Table(
                (
                    Number(
                        "output_before",
                        "one.output",
                        "output_entry",
                        ("col",),
                        (W + "before",),
                        look=B,
                        role="value",
                    ),
                    Number(
                        "output",
                        "rival.output",
                        "output_entry",
                        ("col",),
                        (W + "after",),
                        look=B,
                        role="value",
                    ),
                ),
                down="",
                caption=W + "output",
            ),
        ),
        headline=Number("left", "rival.left", "percent"),
        paper="rival",
        numbered=False,
        sums=True,
        query="one",
    ),
    "answer": StepKind(
        "scenes.steps.answer:Step7Answer",
        ("quiz",),
        twin=(
            # the filler quiz (Day 004's)
            Terms(
                (
                    Number(
                        "score", "quiz.rival_score", "number", T, ("page.word.rival", W + "score")
                    ),
                    Number("gap", "quiz.gap", "number", (), ("page.word.gap",)),
                    Number("ratio", "quiz.needed", "ratio", (), ("page.word.ratio",)),
                    Number("count", "quiz.needed", "rounded", (), ("page.word.count",)),
                    Number("bonus_gap", "quiz.bonus_gap", "number", (), ("page.word.bonus_gap",)),
                    Number(
                        "bonus_count",
                        "quiz.bonus_needed",
                        "rounded",
                        (),
                        ("page.word.bonus_count",),
                    ),
                )
            ),
            Choices(
                Number("option", "quiz.options", "about", ("col",), roughly=True),
                said="page.word.options",
            ),
            # the share quiz (a lesson where every token asks)
            Table(
                (
                    Number(
                        "score", "share_quiz.scores", "score", ("head", "token"), (W + "score",)
                    ),
                    Number(
                        "pull",
                        "share_quiz.pulls",
                        "grid_pull",
                        ("head", "token"),
                        (W + "pull",),
                        look=B,
                    ),
                    Number(
                        "share",
                        "share_quiz.weights",
                        "share",
                        ("head", "token"),
                        (W + "share",),
                        look=SH,
                    ),
                ),
                last=(None, Number("total", "share_quiz.total", "pull", ("head",)), _BUDGET),
                last_label=W + "total",
            ),
            Line(Number("answer", "share_quiz.answer", "share", ("head",)), said=H + "answer"),
        ),
        paper="answer",
        numbered=False,
        sums=True,
    ),
    "all_queries": StepKind(
        "scenes.steps.all_queries:AllQueries",
        ("tokens.query", "tokens.key", "tokens.value"),
        twin=_grid(
            "first_grid",
            (("dot", "dots", "number", "dots"), ("score", "scores", "score", "scores"), *_STAGES),
        ),
        paper="all_queries",
        sums=True,
        query="every",
    ),
    "mask": StepKind(
        "scenes.steps.mask:Mask",
        ("mask", "tokens.query", "tokens.key", "tokens.value"),
        twin=_grid("grid", (("score", "scores", "score", "masked_scores"), *_STAGES)),
        paper="mask",
        sums=True,
        query="every",
    ),
    "projections": StepKind(
        "scenes.steps.projections:Projections",
        ("tokens.embedding", "heads"),
        twin=(
            EachHead(
                (
                    Table(
                        tuple(
                            Number(
                                part,
                                f"heads.{part}",
                                "number",
                                ("head", "token", "col"),
                                role={"q": "query", "k": "key", "v": "value"}[part],
                            )
                            for part in "qkv"
                        ),
                        across="named",
                        caption=H + "head",
                    ),
                )
            ),
        ),
        paper="projections",
        sums=True,
        query="heads",
    ),
    "heads": StepKind(
        "scenes.steps.heads:Heads",
        ("tokens.embedding", "heads[1]"),
        twin=(
            EachHead(
                (
                    Table(
                        (Number("share", "heads.weights", "share", _HRC),),
                        down="row",
                        across="tokens",
                        caption=H + "shares",
                        corner=W + "corner",
                    ),
                    Table(
                        (Number("output", "heads.outputs", "output_entry", _HRC, role="value"),),
                        down="row",
                        caption=H + "outputs",
                    ),
                ),
                heading=H + "head",
            ),
            Table(
                (Number("joined", "heads.joined", "output_entry", ("token", "col"), role="value"),),
                across="numbered",
                caption=H + "joined",
            ),
            Table(
                (Number("mixed", "heads.mixed", "output_entry", ("token", "col"), role="value"),),
                across="numbered",
                caption=W + "mixed",
            ),
        ),
        paper="heads",
        query="heads",
    ),
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
