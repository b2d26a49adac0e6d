"""``--check-lesson``: what a valid lesson's video will show, worked out without manim."""

from __future__ import annotations

from attention_core import Lesson
from attention_core.worked import Quiz, Run, Worked, worked

__all__ = ["summary"]


def summary(lesson: Lesson) -> list[str]:
    """The lines to print: the scores table, the output, the rival's effect and the quiz."""
    w = worked(lesson)
    return [
        f"lesson: {lesson.title}",
        f"question: {lesson.question}",
        f"query {w.query}, dₖ = {w.d_k}, √dₖ = {w.root_d_k}",
        "",
        *_table(w.before),
        f"output {w.before.output}: {_leaning(w)}",
        "",
        f"with the rival “{lesson.rival_token.text}”:",
        *_table(w.after),
        f"output {w.after.output}: {w.verdict}",
        "",
        *_quiz(w.quiz),
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


def _quiz(q: Quiz) -> list[str]:
    options = ", ".join(f"{Quiz.letter_of(i)} {option}" for i, option in enumerate(q.options))
    return [
        f"quiz: fillers scoring {q.filler} to match one rival scoring {q.rival}?",
        f"  options {options}",
        f"  answer {q.letter}: {q.answer} (e^{q.gap} = {q.ratio})",
        f"  bonus: fillers scoring {q.bonus_filler}: {q.bonus_count}",
    ]
