"""``--check-lesson``: what a valid lesson's video will show, worked out without manim."""

from __future__ import annotations

from attention_core import Lesson, Quiz, ShareQuiz
from attention_core.worked import Grid, Run, ShareQuizWork, Worked, worked
from attention_core.worked import Quiz as QuizWork

__all__ = ["summary"]


def summary(lesson: Lesson) -> list[str]:
    """The lines to print: the scores table and the output, then what the lesson has of the
    rival's effect, every token asking (masked), the heads and the quiz."""
    w = worked(lesson)
    lines = [
        f"lesson: {lesson.title}",
        f"question: {lesson.question}",
        f"query {w.query}, dₖ = {w.d_k}, √dₖ = {w.root_d_k}",
        "",
        *_table(w.before),
        f"output {w.before.output}: {_leaning(w)}",
    ]
    if lesson.rival is not None:
        lines += [
            "",
            f"with the rival “{lesson.rival.text}”:",
            *_table(w.after),
            f"output {w.after.output}: {w.verdict}",
        ]
    if lesson.asks and not lesson.heads:
        lines += ["", *_grid("every token asks", lesson, w.grid)]
    for head in w.heads:
        lines += ["", *_grid(f"head {head.number}", lesson, head.grid)]
        lines += [
            f"  {p.of.short}: x [{', '.join(p.embedding)}] → q {p.q.vector}, k {p.k.vector}, "
            f"v {p.v.vector}"
            for p in head.projections
        ]
    if lesson.heads:
        lines += ["", "joined, then × W_O:" if lesson.w_o is not None else "joined:"]
        lines += [
            f"  {t.short}: [{', '.join(joined)}] → [{', '.join(mixed)}]"
            for t, joined, mixed in zip(lesson.tokens, w.joined, w.mixed, strict=True)
        ]
    if isinstance(lesson.quiz, Quiz):
        lines += ["", *_quiz(w.quiz)]
    elif isinstance(lesson.quiz, ShareQuiz):
        lines += ["", *_share_quiz(w.share_quiz)]
    return lines


def _grid(title: str, lesson: Lesson, grid: Grid) -> list[str]:
    """Each row's shares (− where the mask hides a token) and its output."""
    masked = f", {lesson.mask} mask" if lesson.mask else ""
    width = max(len(row.of.short) for row in grid.rows)
    lines = [f"{title}{masked}: shares of each row, then its output"]
    for row, cells in zip(grid.rows, grid.cells, strict=True):
        shares = "  ".join(f"{'−' if c.hidden else c.share:>6}" for c in cells)
        lines.append(f"  {row.of.short:<{width}}  {shares}  {row.output}")
    return lines


def _share_quiz(q: ShareQuizWork) -> list[str]:
    head = f" in head {q.head}" if q.head else ""
    options = ", ".join(f"{QuizWork.letter_of(i)} {o}" for i, o in enumerate(q.options))
    return [
        f"quiz: how much of “{q.asker.short}”'s attention goes to “{q.to.short}”{head}?",
        f"  options {options}",
        f"  answer {q.letter}: {q.answer}",
    ]


def _table(run: Run) -> list[str]:
    width = max(len(row.token) for row in run.rows)
    lines = [f"  {'token':<{width}}  {'dot':>7}  {'score':>6}  {'pull':>9}  {'share':>6}"]
    lines += [
        f"  {r.token:<{width}}  {r.dot:>7}  {r.score:>6}  {r.pull:>9}  {r.share:>6}"
        for r in run.rows
    ]
    lines.append(f"  {'total':<{width}}  {'':>7}  {'':>6}  {run.total:>9}")
    return lines


def _leaning(w: Worked) -> str:
    """The answer the output leans to, or the answers that tie as the viewer reads them."""
    tied = [f"“{w.lesson.answers[j]}”" for j in w.before.leaning]
    if len(tied) > 1:
        return f"{', '.join(tied[:-1])} and {tied[-1]} tie"
    return f"leans to {tied[0]}"


def _quiz(q: QuizWork) -> list[str]:
    options = ", ".join(f"{QuizWork.letter_of(i)} {option}" for i, option in enumerate(q.options))
    return [
        f"quiz: fillers scoring {q.filler} to match one rival scoring {q.rival}?",
        f"  options {options}",
        f"  answer {q.letter}: {q.answer} (e^{q.gap} = {q.ratio})",
        f"  bonus: fillers scoring {q.bonus_filler}: {q.bonus_count}",
    ]
