"""The handout: the lesson's worked maths on paper, every number from attention_core's formatter.

``handout.html`` prints on A4 (print CSS); ``handout.pdf`` is printed from it by headless
Chromium when set-up installed it. The prose comes from the lesson's words catalogue (the
``handout`` entries, and the video's own where it says the same), filled with the lesson's texts
and the formatter's numbers.
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
    SCALING_SECTION,
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

__all__ = ["CHROMIUM", "NAME", "handout_html", "print_pdf", "write_handout"]

NAME = "handout"
"""Stem of the handout's files: ``handout.html``, ``handout.pdf``."""
CHROMIUM = Tool("chromium", "chromium", "prints the handout as PDF")


def say(lesson: Lesson, name: str, **values: str) -> str:
    """The catalogue entry ``name`` filled in, as HTML-safe text with ``e^x`` set as a power."""
    text = html.escape(lesson.words.say(name, **values), quote=False)
    return re.sub(r"e\^(-?\w+(?:\.\d+)?)", r"e<sup>\1</sup>", text)


def handout_html(lesson: Lesson) -> str:
    """The whole handout as one self-contained HTML page."""
    a = attend(lesson)
    body = [
        f"<header><h1>{_text(lesson.title)}</h1>",
        f"<p class=lead>{_text(lesson.promise)}</p>",
        f"<p class=muted>{say(lesson, 'handout.line.subtitle')}</p>",
        "<p>"
        + say(
            lesson,
            "handout.line.setup",
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
        f"<section><h2>{say(lesson, 'handout.heading.takeaway')}</h2>",
        f"<p class=lead>{_text(lesson.takeaway)}</p>",
        f"<p class=muted>{_text(lesson.citation.source)}: {_text(lesson.citation.finding)}</p>",
        f"<h2>{say(lesson, 'handout.heading.references')}</h2><ul>",
        *(f"<li>{_text(r.text)} — {_text(r.where)}</li>" for r in lesson.references),
        "</ul></section>",
    ]
    language = lesson.words["common.word.language"]
    return page(lesson.title, language, STYLE_BASE + _STYLE, "\n".join(body))


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
        _step_heading(lesson, 1, "score"),
        "<p>"
        + say(lesson, "handout.line.score", d_k=fmt.number(a.d_k), root=fmt.number(a.root_d_k))
        + "</p>",
        _table(lesson, ["token", "key", "products", "dot", "root", "score"], rows),
        f"<p class=muted>{say(lesson, 'score.line.why_title')} {say(lesson, 'score.line.why')} "
        f"({say(lesson, 'score.line.why_source', section=SCALING_SECTION)})</p>",
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
        [
            f"<b>{say(lesson, 'handout.word.total')}</b>",
            "",
            f"<b>{fmt.pull(a.total)}</b>",
            fmt.budget(BUDGET),
        ]
    )
    step, factor = fmt.number(SCORE_STEP), fmt.pull(PULL_PER_SCORE_POINT)
    rule = lesson.words.say("softmax.line.rule", step=step, factor=factor)
    return [
        _step_heading(lesson, 2, "softmax"),
        f"<p>{say(lesson, 'handout.line.softmax', rule=rule)}</p>",
        _table(lesson, ["token", "score", "pull", "share"], rows),
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
    rows.append(
        [f"<b>{say(lesson, 'handout.word.output')}</b>", "", "", f"<b>{fmt.output(a.output)}</b>"]
    )
    answers = ", ".join(
        f"{_text(answer)} → {fmt.output_entry(x)}"
        for answer, x in zip(lesson.answers, a.output, strict=True)
    )
    return [
        _step_heading(lesson, 3, "mix"),
        f"<p>{say(lesson, 'handout.line.mix')}</p>",
        _table(lesson, ["token", "weight", "value", "scaled"], rows),
        f"<p>{say(lesson, 'handout.word.answers')}: {answers}. "
        f"<b>{say(lesson, 'handout.line.leans', answer=lesson.answers[a.winner])}</b></p>",
        "</section>",
    ]


def _rival(lesson: Lesson, a: Attention) -> list[str]:
    b = attend(with_rival(lesson))
    rival = len(lesson.tokens)
    left = fmt.percent(b.weights[rival_outcome(lesson).top_token])  # as the video's headline
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
        f"<section><h2>{say(lesson, 'rival.heading.title', share=left)}</h2>",
        "<p>"
        + say(
            lesson, "handout.line.rival", text=lesson.rival.text, key=fmt.vector(lesson.rival.key)
        )
        + "</p>",
        _table(lesson, ["token", "key", "products", "dot", "root", "score"], scored),
        f"<p>{say(lesson, 'handout.line.split')}</p>",
        _table(lesson, ["token", "before", "after"], shares),
        "<p>"
        + say(
            lesson, "handout.line.output", before=fmt.output(a.output), after=fmt.output(b.output)
        )
        + f" <b>{_verdict(lesson, a, b)}</b></p>",
        "</section>",
    ]


def _verdict(lesson: Lesson, a: Attention, b: Attention) -> str:
    o = rival_outcome(lesson)
    leader = lesson.answers[o.leader]
    if o.challenger is None:
        return say(
            lesson,
            "rival.line.goes",
            leader=leader,
            before=fmt.output_entry(a.output[o.leader]),
            after=fmt.output_entry(b.output[o.leader]),
        )
    lead = fmt.output_entry(b.output[o.leader])
    best = fmt.output_entry(b.output[o.challenger])
    other = lesson.answers[o.challenger]
    return say(lesson, f"rival.line.{o.kind}", leader=leader, other=other, lead=lead, best=best)


def _quiz(lesson: Lesson) -> list[str]:
    q, roughly = quiz_answer(lesson), lesson.words["common.word.about"]
    options = "".join(
        f"<li><b>{_letter(i)}</b> {fmt.option(x, roughly)}</li>" for i, x in enumerate(q.options)
    )
    code = "\n".join(fmt.torch_check(attend(lesson).scores, attend(lesson).dots, lesson.d_k))
    return [
        f"<section class=quiz><h2>{say(lesson, 'handout.heading.quiz')}</h2>",
        "<p>"
        + say(
            lesson,
            "rival.line.question",
            filler=fmt.number(q.filler_score),
            rival=fmt.number(q.rival_score),
        )
        + "</p>",
        f"<ol class=options>{options}</ol></section>",
        f"<section class=answer><h2>{say(lesson, 'handout.heading.answer')}</h2>",
        "<p><b>"
        + say(
            lesson,
            "handout.line.pick",
            letter=_letter(q.correct),
            option=fmt.option(q.fillers_needed, roughly),
        )
        + "</b> "
        + say(
            lesson,
            "handout.line.why",
            rival=fmt.number(q.rival_score),
            filler=fmt.number(q.filler_score),
            ratio=fmt.ratio(q.fillers_needed),
            count=fmt.rounded(q.fillers_needed),
        )
        + "</p><p>"
        + say(
            lesson,
            "handout.line.bonus",
            filler=fmt.number(q.bonus_filler_score),
            gap=fmt.number(q.bonus_gap),
            count=fmt.rounded(q.bonus_fillers_needed),
        )
        + "</p>",
        f"<h3>{say(lesson, 'handout.heading.code')}</h3><pre>{_text(code)}</pre></section>",
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


def _step_heading(lesson: Lesson, number: int, scene: str) -> str:
    """A worked step's heading: its number and the title the video gives it."""
    title = lesson.words[f"{scene}.heading.title"]
    heading = say(lesson, "handout.heading.step", number=fmt.number(number), title=title)
    return f"<section><h2>{heading}</h2>"


def _letter(i: int) -> str:
    return chr(ord("A") + i)


def _table(lesson: Lesson, columns: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table whose header names ``handout.word`` entries."""
    head = "".join(f"<th>{say(lesson, f'handout.word.{c}')}</th>" for c in columns)
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
