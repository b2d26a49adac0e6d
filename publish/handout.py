"""The handout: the lesson's worked maths on paper, every number from attention_core's formatter.

``handout.html`` prints on A4 (print CSS); ``handout.pdf`` is printed from it by headless
Chromium when set-up installed it. The prose is the small set of English templates in ``WORDS``,
filled with the lesson's own texts and the formatter's numbers, so that it can move into a
translatable catalogue as it is.
"""

from __future__ import annotations

import html
import re
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from attention_core import (
    BUDGET,
    PULL_PER_SCORE_POINT,
    SCORE_STEP,
    Attention,
    Lesson,
    attend,
    quiz_answer,
    rival_outcome,
    with_rival,
)
from attention_core import formatting as fmt

from .files import replacing, write_text
from .tools import Tool, install_line, missing_tools
from .webpage import STYLE_BASE, page

__all__ = ["CHROMIUM", "NAME", "WORDS", "handout_html", "print_pdf", "write_handout"]

NAME = "handout"
"""Stem of the handout's files: ``handout.html``, ``handout.pdf``."""
CHROMIUM = Tool("chromium", "chromium", "prints the handout as PDF")

WORDS: dict[str, str] = {
    "subtitle": "The worked maths, step by step: the same numbers as the video.",
    "setup": "The question: {question} The query is q = {query}, so dₖ = {d_k}.",
    "score.heading": "Step 1 · Score every token against the query",
    "score.intro": (
        "Multiply the query and each key entry by entry, add the products up (the dot "
        "product q · k), then divide by √dₖ = √{d_k} = {root}."
    ),
    "softmax.heading": "Step 2 · Turn scores into shares of one budget",
    "softmax.intro": (
        "Each token pulls with e^score. The pulls add up to the total; each token's share "
        "of the budget is its pull ÷ the total. Rule of thumb: {rule}."
    ),
    "mix.heading": "Step 3 · Mix the values by their weights",
    "mix.intro": (
        "Scale each token's value vector by its weight, then add the scaled vectors slot by "
        "slot. Each slot stands for one answer."
    ),
    "mix.leans": "The output leans towards {answer}.",
    "rival.heading": "The rival: a lookalike token",
    "rival.intro": "One more token arrives: “{text}”, with key {key}. Score it as before:",
    "rival.split": "The budget cannot grow, so the rival's share comes out of the others:",
    "rival.output": "The output goes from {before} to {after}.",
    "verdict.tie": "“{leader}” and “{other}” are tied at {lead}: a coin flip.",
    "verdict.overturns": "“{other}” now leads, {best} to {lead}: the rival wins.",
    "verdict.dents": "“{leader}” still leads, {lead} to {best}: the rival only dents it.",
    "verdict.backs": "“{leader}” still leads, {lead} to {best}: the rival backs it up.",
    "verdict.alone": "“{leader}” goes from {before} to {after}.",
    "quiz.heading": "Quick check",
    "quiz.question": (
        "Filler tokens score {filler}. How many would it take to pull as much attention as "
        "one rival scoring {rival}?"
    ),
    "answer.heading": "Answer",
    "answer.pick": "{letter}: {option}.",
    "answer.why": (
        "A token's pull is e^score, so one rival = e^{rival} ÷ e^{filler} = {ratio} filler "
        "tokens: it takes {count} of them."
    ),
    "answer.bonus": (
        "Bonus: at a filler score of {filler}, you would need e^{gap}: about {count} of them."
    ),
    "code.heading": "Check it in code",
    "takeaway.heading": "Takeaway",
    "references.heading": "To read further",
    "col.token": "Token",
    "col.key": "Key k",
    "col.products": "q · k, entry by entry",
    "col.dot": "q · k",
    "col.root": "÷ √dₖ",
    "col.score": "Score",
    "col.pull": "Pull = e^score",
    "col.share": "Share = pull ÷ total",
    "col.weight": "Weight",
    "col.value": "Value v",
    "col.scaled": "Weight × v",
    "col.before": "Share before",
    "col.after": "Share after",
    "row.total": "Total",
    "row.output": "Output (sum)",
    "row.answers": "Answers",
}
"""Every English word of the handout, by name; numbers and lesson texts fill the braces."""


def say(name: str, **values: str) -> str:
    """The template ``name`` filled in, as HTML-safe text with ``e^x`` set as a power."""
    text = html.escape(WORDS[name].format(**values), quote=False)
    return re.sub(r"e\^(-?[\w.]+)", r"e<sup>\1</sup>", text)


def handout_html(lesson: Lesson) -> str:
    """The whole handout as one self-contained HTML page."""
    a = attend(lesson)
    body = [
        f"<header><h1>{_text(lesson.title)}</h1>",
        f"<p class=lead>{_text(lesson.promise)}</p>",
        f"<p class=muted>{say('subtitle')}</p>",
        "<p>"
        + say(
            "setup",
            question=lesson.question,
            query=fmt.vector(lesson.query),
            d_k=fmt.number(lesson.d_k),
        )
        + "</p></header>",
        *_score(lesson, a),
        *_softmax(lesson, a),
        *_mix(lesson, a),
        *_rival(lesson, a),
        *_quiz(lesson),
        f"<section><h2>{say('takeaway.heading')}</h2><p class=lead>{_text(lesson.takeaway)}</p>",
        f"<p class=muted>{_text(lesson.citation.source)}: {_text(lesson.citation.finding)}</p>",
        f"<h2>{say('references.heading')}</h2><ul>",
        *(f"<li>{_text(r.text)} — {_text(r.where)}</li>" for r in lesson.references),
        "</ul></section>",
    ]
    return page(lesson.title, STYLE_BASE + _STYLE, "\n".join(body))


def write_handout(folder: Path, lesson: Lesson) -> bool:
    """Write ``handout.html``; True when it changed (so its PDF needs printing again)."""
    target = folder / f"{NAME}.html"
    text = handout_html(lesson)
    if target.is_file() and target.read_text("utf-8") == text:
        return False
    write_text(target, text)
    return True


def print_pdf(folder: Path) -> list[str]:
    """Print ``handout.html`` to ``handout.pdf`` with headless Chromium; notes if it could not."""
    if missing_tools([CHROMIUM]):
        return [f"{NAME}.pdf skipped: no chromium ({install_line([CHROMIUM])})"]
    source = (folder / f"{NAME}.html").resolve()
    try:
        with (
            tempfile.TemporaryDirectory() as profile,
            replacing(folder / f"{NAME}.pdf") as target,
        ):
            subprocess.run(
                [
                    CHROMIUM.name,
                    "--headless",
                    "--no-sandbox",  # as root (CI) Chromium refuses to start sandboxed
                    "--disable-gpu",
                    f"--user-data-dir={profile}",
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={target.resolve()}",
                    source.as_uri(),
                ],
                capture_output=True,
                timeout=120,
                check=True,
            )
    except (OSError, subprocess.SubprocessError) as error:  # FileNotFoundError: no PDF came
        return [f"{NAME}.pdf not printed: chromium failed ({error})"]
    return []


# --- the steps ----------------------------------------------------------------------------


def _score(lesson: Lesson, a: Attention) -> list[str]:
    rows = [
        [
            _text(token.text),
            fmt.vector(token.key),
            _products(a, i),
            fmt.number(a.dots[i]),
            f"÷ {fmt.number(a.root_d_k)}",
            f"<b>{fmt.number(a.scores[i])}</b>",
        ]
        for i, token in enumerate(lesson.tokens)
    ]
    return [
        f"<section><h2>{say('score.heading')}</h2>",
        "<p>" + say("score.intro", d_k=fmt.number(a.d_k), root=fmt.number(a.root_d_k)) + "</p>",
        _table(["col.token", "col.key", "col.products", "col.dot", "col.root", "col.score"], rows),
        "</section>",
    ]


def _softmax(lesson: Lesson, a: Attention) -> list[str]:
    rows = [
        [
            _text(token.text),
            fmt.number(a.scores[i]),
            f"{_power(a.scores[i])} = {fmt.pull(a.pulls[i])}",
            f"{fmt.pull(a.pulls[i])} ÷ {fmt.pull(a.total)} = <b>{fmt.share(a.weights[i])}</b>",
        ]
        for i, token in enumerate(lesson.tokens)
    ]
    rows.append(
        [f"<b>{say('row.total')}</b>", "", f"<b>{fmt.pull(a.total)}</b>", fmt.share(BUDGET)]
    )
    rule = f"+{fmt.number(SCORE_STEP)} score = ×{fmt.pull(PULL_PER_SCORE_POINT)}"
    return [
        f"<section><h2>{say('softmax.heading')}</h2>",
        f"<p>{say('softmax.intro', rule=rule)}</p>",
        _table(["col.token", "col.score", "col.pull", "col.share"], rows),
        "</section>",
    ]


def _mix(lesson: Lesson, a: Attention) -> list[str]:
    rows = [
        [
            _text(token.text),
            fmt.weight(a.weights[i]),
            fmt.vector(a.values[i]),
            fmt.output(a.weighted_values[i]),
        ]
        for i, token in enumerate(lesson.tokens)
    ]
    rows.append([f"<b>{say('row.output')}</b>", "", "", f"<b>{fmt.output(a.output)}</b>"])
    answers = ", ".join(
        f"{_text(answer)} → {fmt.output_entry(x)}"
        for answer, x in zip(lesson.answers, a.output, strict=True)
    )
    return [
        f"<section><h2>{say('mix.heading')}</h2>",
        f"<p>{say('mix.intro')}</p>",
        _table(["col.token", "col.weight", "col.value", "col.scaled"], rows),
        f"<p>{say('row.answers')}: {answers}. "
        f"<b>{say('mix.leans', answer=lesson.answers[a.winner])}</b></p>",
        "</section>",
    ]


def _rival(lesson: Lesson, a: Attention) -> list[str]:
    b = attend(with_rival(lesson))
    rival = len(lesson.tokens)
    scored = [
        [
            _text(lesson.rival.text),
            fmt.vector(lesson.rival.key),
            _products(b, rival),
            fmt.number(b.dots[rival]),
            f"÷ {fmt.number(b.root_d_k)}",
            f"<b>{fmt.number(b.scores[rival])}</b>",
        ]
    ]
    tokens = [*lesson.tokens, lesson.rival]
    shares = [
        [
            _text(token.text),
            fmt.share(a.weights[i]) if i < rival else "—",
            f"<b>{fmt.share(b.weights[i])}</b>",
        ]
        for i, token in enumerate(tokens)
    ]
    return [
        f"<section><h2>{say('rival.heading')}</h2>",
        "<p>"
        + say("rival.intro", text=lesson.rival.text, key=fmt.vector(lesson.rival.key))
        + "</p>",
        _table(
            ["col.token", "col.key", "col.products", "col.dot", "col.root", "col.score"], scored
        ),
        f"<p>{say('rival.split')}</p>",
        _table(["col.token", "col.before", "col.after"], shares),
        "<p>"
        + say("rival.output", before=fmt.output(a.output), after=fmt.output(b.output))
        + f" <b>{_verdict(lesson, a, b)}</b></p>",
        "</section>",
    ]


def _verdict(lesson: Lesson, a: Attention, b: Attention) -> str:
    o = rival_outcome(lesson)
    leader = lesson.answers[o.leader]
    if o.challenger is None:
        return say(
            "verdict.alone",
            leader=leader,
            before=fmt.output_entry(a.output[o.leader]),
            after=fmt.output_entry(b.output[o.leader]),
        )
    lead = fmt.output_entry(b.output[o.leader])
    best = fmt.output_entry(b.output[o.challenger])
    other = lesson.answers[o.challenger]
    return say(f"verdict.{o.kind}", leader=leader, other=other, lead=lead, best=best)


def _quiz(lesson: Lesson) -> list[str]:
    q, roughly = quiz_answer(lesson), lesson.words["common.word.about"]
    options = "".join(
        f"<li><b>{_letter(i)}</b> {fmt.option(x, roughly)}</li>" for i, x in enumerate(q.options)
    )
    code = "\n".join(fmt.torch_check(attend(lesson).scores, attend(lesson).dots, lesson.d_k))
    return [
        f"<section class=quiz><h2>{say('quiz.heading')}</h2>",
        "<p>"
        + say("quiz.question", filler=fmt.number(q.filler_score), rival=fmt.number(q.rival_score))
        + "</p>",
        f"<ol class=options>{options}</ol></section>",
        f"<section class=answer><h2>{say('answer.heading')}</h2>",
        "<p><b>"
        + say(
            "answer.pick", letter=_letter(q.correct), option=fmt.option(q.fillers_needed, roughly)
        )
        + "</b> "
        + say(
            "answer.why",
            rival=fmt.number(q.rival_score),
            filler=fmt.number(q.filler_score),
            ratio=fmt.ratio(q.fillers_needed),
            count=fmt.rounded(q.fillers_needed),
        )
        + "</p><p>"
        + say(
            "answer.bonus",
            filler=fmt.number(q.bonus_filler_score),
            gap=fmt.number(q.bonus_gap),
            count=fmt.rounded(q.bonus_fillers_needed),
        )
        + "</p>",
        f"<h3>{say('code.heading')}</h3><pre>{_text(code)}</pre></section>",
    ]


# --- pieces -------------------------------------------------------------------------------


def _products(a: Attention, row: int) -> str:
    """``2×2 + 0×0 + 1×1 + 1×1 = 4 + 0 + 1 + 1``, as the score scene writes it."""
    pairs = " + ".join(
        f"{fmt.factor(q)}×{fmt.factor(k)}" for q, k in zip(a.query, a.keys[row], strict=True)
    )
    return f"{pairs} = {' + '.join(fmt.factor(p) for p in a.products[row])}"


def _power(score: float) -> str:
    return f"e<sup>{fmt.number(score)}</sup>"


def _letter(i: int) -> str:
    return chr(ord("A") + i)


def _table(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    head = "".join(f"<th>{say(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _text(value: str) -> str:
    return html.escape(value, quote=False)


_STYLE = """
body { max-width: 52rem; }
section { break-inside: avoid; margin: 1.6rem 0; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0;
  font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #ccd; padding: .3rem .5rem; text-align: left; }
th { font-size: .85rem; font-weight: 600; color: #556; white-space: nowrap; }
td:not(:first-child) { white-space: nowrap; }
td:first-child { min-width: 9rem; }
pre { background: #f3f4f8; padding: .6rem .8rem; border-radius: 4px; }
ol.options { list-style: none; padding: 0; display: flex; gap: 1rem; }
ol.options li { border: 1px solid #99a; border-radius: 6px; padding: .4rem .9rem; }
section.answer { border-top: 2px dashed #99a; padding-top: 1rem; }
@page { size: A4; margin: 16mm; }
@media print { body { font-size: 10.5pt; } section.answer { break-before: page; } }
"""
