"""What the twin shows of each step: every number, by the key its element carries on the page.

A key is ``(quantity, token, head, row, col)``, each as its ``data-`` attribute holds it ("" when
it does not apply). The strings come from :func:`attention_core.worked`; ``twin.js`` computes
the same keys in the browser, and tests/test_twin.py proves the two agree.
"""

from __future__ import annotations

from collections.abc import Callable

from attention_core.model import Quiz as FillerQuiz
from attention_core.model import ShareQuiz
from attention_core.worked import Grid, Worked

__all__ = ["KINDS_SHOWN", "Key", "Shown", "key", "numbers"]

Key = tuple[str, str, str, str, str]
Shown = dict[Key, str]


def key(
    quantity: str, token: object = "", head: object = "", row: object = "", col: object = ""
) -> Key:
    """A number's key, each part as its ``data-`` attribute holds it."""
    return (quantity, str(token), str(head), str(row), str(col))


def numbers(w: Worked, kind: str) -> Shown:
    """Every number step ``kind`` shows in the twin, by key; {} for a kind the twin does not
    work yet (one added by the README's recipe): the panel shows its heading only."""
    by_kind = _BY_KIND.get(kind)
    return {} if by_kind is None else by_kind(w)


def _overview(w: Worked) -> Shown:
    """The title and the big picture: where the one query's budget goes, and the answer."""
    shown = {key("short_weight", t): r.short_weight for t, r in enumerate(w.before.rows)}
    shown |= {key("output", col=j): x for j, x in enumerate(w.before.entries)}
    return shown


def _score(w: Worked) -> Shown:
    shown = {key("root_d_k"): w.root_d_k}
    for t, r in enumerate(w.before.rows):
        shown |= {key("dot", t): r.dot, key("score", t): r.score}
    return shown


def _softmax(w: Worked) -> Shown:
    shown = {key("total"): w.before.total}
    for t, r in enumerate(w.before.rows):
        shown |= {key("score", t): r.score, key("pull", t): r.pull, key("share", t): r.share}
    return shown


def _mix(w: Worked) -> Shown:
    shown = {key("output", col=j): x for j, x in enumerate(w.before.entries)}
    for t, r in enumerate(w.before.rows):
        shown[key("weight", t)] = r.weight
        shown |= {key("scaled", t, col=j): x for j, x in enumerate(r.scaled_entries)}
    return shown


def _rival(w: Worked) -> Shown:
    n = len(w.before.rows)
    shown = {key("dot", "rival"): w.rival.dot, key("score", "rival"): w.rival.score}
    shown |= {key("share_before", t): r.share for t, r in enumerate(w.before.rows)}
    shown |= {key("share", "rival" if t == n else t): r.share for t, r in enumerate(w.after.rows)}
    shown |= {key("output_before", col=j): x for j, x in enumerate(w.before.entries)}
    shown |= {key("output", col=j): x for j, x in enumerate(w.after.entries)}
    shown[key("left")] = w.left
    return shown


def _answer(w: Worked) -> Shown:
    quiz = w.lesson.quiz
    if isinstance(quiz, FillerQuiz):
        q = w.quiz
        shown = {key("score", "rival"): q.rival, key("gap"): q.gap, key("ratio"): q.ratio}
        shown |= {key("count"): q.count, key("bonus_gap"): q.bonus_gap}
        shown |= {key("bonus_count"): q.bonus_count}
        shown |= {key("option", col=i): option for i, option in enumerate(q.options)}
        return shown
    if isinstance(quiz, ShareQuiz):
        s = w.share_quiz
        head = quiz.head if w.lesson.heads else ""
        cells, row = s.grid.cells[quiz.asker], s.grid.rows[quiz.asker]
        shown = {key("total", head=head): row.total, key("answer", head=head): s.answer}
        for t, c in enumerate(cells):
            shown |= {key("score", t, head): c.score, key("pull", t, head): c.pull}
            shown[key("share", t, head)] = c.share
        return shown
    return {}


def _grid(grid: Grid, stages: tuple[str, ...], head: object = "") -> Shown:
    shown: Shown = {}
    for i, (cells, row) in enumerate(zip(grid.cells, grid.rows, strict=True)):
        for j, cell in enumerate(cells):
            shown |= {key(stage, head=head, row=i, col=j): getattr(cell, stage) for stage in stages}
        if "pull" in stages:
            shown[key("total", head=head, row=i)] = row.total
        shown |= {
            key("output", head=head, row=i, col=c): x for c, x in enumerate(row.output_entries)
        }
    return shown


def _all_queries(w: Worked) -> Shown:
    """The grid before the mask when a mask step follows to show it, else the lesson's own."""
    grid = w.open_grid if "mask" in w.lesson.steps else w.grid
    return _grid(grid, ("dot", "score", "pull", "share"))


def _mask(w: Worked) -> Shown:
    return _grid(w.grid, ("score", "pull", "share"))


def _projections(w: Worked) -> Shown:
    shown: Shown = {}
    for h, head in enumerate(w.heads):
        for t, p in enumerate(head.projections):
            for part in ("q", "k", "v"):
                entries = getattr(p, part).entries
                shown |= {key(part, t, h, col=c): x for c, x in enumerate(entries)}
    return shown


def _heads(w: Worked) -> Shown:
    shown: Shown = {}
    for h, head in enumerate(w.heads):
        for i, cells in enumerate(head.grid.cells):
            shown |= {key("share", head=h, row=i, col=j): c.share for j, c in enumerate(cells)}
        for i, row in enumerate(head.grid.rows):
            outputs = row.output_entries
            shown |= {key("output", head=h, row=i, col=c): x for c, x in enumerate(outputs)}
    for t, joined in enumerate(w.joined):
        shown |= {key("joined", t, col=c): x for c, x in enumerate(joined)}
    if w.w_o is not None:
        for t, mixed in enumerate(w.mixed):
            shown |= {key("mixed", t, col=c): x for c, x in enumerate(mixed)}
    return shown


_BY_KIND: dict[str, Callable[[Worked], Shown]] = {
    "title": _overview,
    "big_picture": _overview,
    "score": _score,
    "softmax": _softmax,
    "mix": _mix,
    "rival": _rival,
    "answer": _answer,
    "all_queries": _all_queries,
    "mask": _mask,
    "projections": _projections,
    "heads": _heads,
}
KINDS_SHOWN = tuple(_BY_KIND)
"""Every step kind the twin shows (a test keeps this equal to attention_core.steps.KINDS)."""
