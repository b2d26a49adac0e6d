"""``--check-lesson``: what a valid lesson's video will show, worked out without manim."""

from __future__ import annotations

from attention_core import Attention, Lesson, attend, quiz_answer, rival_outcome, with_rival
from attention_core import formatting as fmt

__all__ = ["summary"]

VERDICTS = {
    "tie": "ties “{leader}” with “{other}”",
    "overturns": "overturns “{leader}”: “{other}” now leads",
    "dents": "dents “{leader}”, which still leads",
    "backs": "backs “{leader}”, which still leads",
}


def summary(lesson: Lesson) -> list[str]:
    """The lines to print: the scores table, the output, the rival's effect and the quiz."""
    before, after = attend(lesson), attend(with_rival(lesson))
    root = fmt.number(before.root_d_k)
    lines = [
        f"lesson: {lesson.title}",
        f"question: {lesson.question}",
        f"query {fmt.vector(lesson.query)}, dₖ = {before.d_k}, √dₖ = {root}",
        "",
        *_table(lesson, before),
        f"output {fmt.output(before.output)}: {_leaning(lesson, before)}",
        "",
        f"with the rival “{lesson.rival.text}”:",
        *_table(with_rival(lesson), after),
        f"output {fmt.output(after.output)}: the rival {_verdict(lesson)}",
        "",
        *_quiz(lesson),
    ]
    return lines


def _table(lesson: Lesson, result: Attention) -> list[str]:
    width = max(len(token.text) for token in lesson.tokens)
    rows = [f"  {'token':<{width}}  {'dot':>7}  {'score':>6}  {'pull':>9}  {'share':>6}"]
    for i, token in enumerate(lesson.tokens):
        rows.append(
            f"  {token.text:<{width}}  {fmt.number(result.dots[i]):>7}  "
            f"{fmt.number(result.scores[i]):>6}  {fmt.pull(result.pulls[i]):>9}  "
            f"{fmt.share(result.weights[i]):>6}"
        )
    rows.append(f"  {'total':<{width}}  {'':>7}  {'':>6}  {fmt.pull(result.total):>9}")
    return rows


def _leaning(lesson: Lesson, result: Attention) -> str:
    """The answer the output leans to, or the answers that tie as the viewer reads them."""
    top = fmt.output_entry(result.output[result.winner])
    tied = [
        a for a, x in zip(lesson.answers, result.output, strict=True) if fmt.output_entry(x) == top
    ]
    quoted = [f"“{answer}”" for answer in tied]
    if len(quoted) > 1:
        return f"{', '.join(quoted[:-1])} and {quoted[-1]} tie"
    return f"leans to {quoted[0]}"


def _verdict(lesson: Lesson) -> str:
    outcome = rival_outcome(lesson)
    leader = lesson.answers[outcome.leader]
    other = "" if outcome.challenger is None else lesson.answers[outcome.challenger]
    return VERDICTS[outcome.kind].format(leader=leader, other=other)


def _quiz(lesson: Lesson) -> list[str]:
    q, roughly = quiz_answer(lesson), lesson.words["common.word.about"]
    options = ", ".join(
        f"{chr(ord('A') + i)} {fmt.option(x, roughly)}" for i, x in enumerate(q.options)
    )
    return [
        f"quiz: fillers scoring {fmt.number(q.filler_score)} to match one rival scoring "
        f"{fmt.number(q.rival_score)}?",
        f"  options {options}",
        f"  answer {chr(ord('A') + q.correct)}: {fmt.option(q.fillers_needed, roughly)} "
        f"(e^{fmt.number(q.gap)} = {fmt.ratio(q.fillers_needed)})",
        f"  bonus: fillers scoring {fmt.number(q.bonus_filler_score)}: "
        f"{fmt.rounded(q.bonus_fillers_needed)}",
    ]
