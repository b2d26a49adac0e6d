"""The lesson's twin: each step's worked numbers, live, from inputs the viewer may change.

The panel is laid out here with the lesson's own numbers (:mod:`publish.kit.twin_numbers`, from
:func:`attention_core.worked`), and ``twin.js`` (shipped beside this module, inlined so the
page works from ``file:``) recomputes every one of them in the browser whenever an input
changes, formatting by :data:`attention_core.formatting.RULES`, which the page carries as data.
The embed page shows it beside the player, following the step that plays (:func:`panel`,
:data:`FOLLOW`); ``twin.html`` shows it alone, a step picker above it, for a slide deck's iframe.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.model import Quiz as FillerQuiz
from attention_core.model import ShareQuiz
from attention_core.worked import Worked, worked
from publish.kit.twin_numbers import Shown, key, numbers
from publish.kit.webpage import STYLE_BASE, html_attribute, html_text, page

__all__ = ["FOLLOW", "NAME", "SCRIPT", "STYLE", "data", "panel", "script", "twin_html"]

NAME = "twin.html"
"""The standalone twin beside ``index.html``."""


def data(lesson: Lesson) -> dict[str, Any]:
    """What ``twin.js`` computes from: the validated lesson's inputs, the formatting rules and
    the words a number is set in (a quiz option's ``about {count}``) and the line said while a
    field holds no number."""
    quiz: dict[str, Any] | None = None
    if isinstance(lesson.quiz, FillerQuiz):
        quiz = {
            "filler_score": lesson.quiz.filler_score,
            "bonus_filler_score": lesson.quiz.bonus_filler_score,
        }
    elif isinstance(lesson.quiz, ShareQuiz):
        quiz = {"asker": lesson.quiz.asker, "to": lesson.quiz.to, "head": lesson.quiz.head}
    return {
        "lesson": {
            "steps": list(lesson.steps),
            "written_query": not lesson.asks,
            "query": list(lesson.query),
            "tokens": [
                {
                    "key": list(t.key),
                    "value": list(t.value),
                    "query": None if t.query is None else list(t.query),
                    "embedding": None if t.embedding is None else list(t.embedding),
                }
                for t in lesson.tokens
            ],
            "rival": None
            if lesson.rival is None
            else {"key": list(lesson.rival.key), "value": list(lesson.rival.value)},
            "quiz": quiz,
            "mask": lesson.mask,
            "heads": [
                {"w_q": _rows(h.w_q), "w_k": _rows(h.w_k), "w_v": _rows(h.w_v)}
                for h in lesson.heads
            ],
            "w_o": None if lesson.w_o is None else _rows(lesson.w_o),
        },
        "rules": json.loads(fmt.rules_json()),
        "words": {
            "about": lesson.words["common.word.about"],
            "invalid": lesson.words["page.line.invalid"],
        },
    }


def _rows(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    return [list(row) for row in matrix]


def panel(lesson: Lesson, *, picker: bool = False, chapters: Sequence[int] = ()) -> str:
    """The twin: the lesson's inputs as fields, a "back to the lesson" button, and a section
    per step (the first shown); with ``picker``, a choice of step above them. ``chapters``:
    the step (its place in ``lesson.steps``) each chapter of the whole video shows, which
    :data:`FOLLOW` reads."""
    w, words = worked(lesson), lesson.words
    follow = html_attribute(json.dumps(list(chapters)))
    parts = [
        "<section class=twin id=twin aria-labelledby=twin-heading data-twin "
        f'data-chapters="{follow}">',
        f"<h2 id=twin-heading>{html_text(words['page.heading.twin'])}</h2>",
        f"<p class=muted>{html_text(words['page.line.twin'])}</p>",
        _fields(lesson),
        "<p role=status data-twin-status></p>",
        f"<p><button type=button data-twin-back>{html_text(words['page.word.back'])}</button></p>",
    ]
    if picker:
        options = "".join(
            f'<option value="{place}">{html_text(_title(lesson, place, kind, None))}</option>'
            for place, kind in enumerate(lesson.steps)
        )
        parts.append(
            f"<p><label for=twin-step>{html_text(words['page.word.step'])}</label> "
            f"<select id=twin-step data-twin-picker>{options}</select></p>"
        )
    for place, kind in enumerate(lesson.steps):
        shown = numbers(w, kind)
        hidden = " hidden" if place else ""
        parts += [
            f'<section class=twin-step data-kind="{kind}" data-step="{place}"{hidden}>',
            f"<h3>{_title(lesson, place, kind, shown)}</h3>",
            _LAYOUT[kind](w, shown),
            "</section>",
        ]
    payload = json.dumps(data(lesson), ensure_ascii=False).replace("</", "<\\/")
    parts += ["</section>", f'<script type="application/json" id=twin-data>{payload}</script>']
    return "\n".join(parts)


def script(follow: bool) -> str:
    """The page's script for the panel: ``twin.js`` and its mounting; with ``follow``, the
    panel shows the step the whole lesson's player is in (:data:`FOLLOW`)."""
    return SCRIPT + _MOUNT + (FOLLOW if follow else "")


SCRIPT = resources.files("publish.kit").joinpath("twin.js").read_text("utf-8")
"""``twin.js``: the lesson's maths and formatting in the browser."""

_MOUNT = """
const twinPanel = document.querySelector("[data-twin]");
Twin.mount(twinPanel, JSON.parse(document.getElementById("twin-data").textContent));
"""

FOLLOW = """
(() => {
  const video = document.getElementById("whole");
  const chapters = [...document.querySelectorAll("ol.chapters [data-seek]")];
  const starts = chapters.map((button) => Number(button.dataset.seek));
  const places = JSON.parse(twinPanel.dataset.chapters);
  let shown = 0;
  video.addEventListener("timeupdate", () => {
    let chapter = 0;
    starts.forEach((start, i) => { if (video.currentTime + 1e-3 >= start) chapter = i; });
    const place = places[chapter] ?? chapter;
    if (place !== shown) { shown = place; Twin.showStep(twinPanel, place); }
  });
})();
"""
"""Follow the player: the chapter the video is in picks the step shown (chapters and steps
are one to one, in order)."""

STYLE = """
.twin { border: 1px solid #99a; border-radius: 6px; padding: .4rem 1rem 1rem; margin: 1rem 0; }
.twin table { border-collapse: collapse; margin: .4rem 0; }
.twin th, .twin td { border: 1px solid #ccd; padding: .15rem .45rem; text-align: right;
  font-variant-numeric: tabular-nums; }
.twin th { background: #f3f4f8; font-weight: 600; }
.twin input { width: 4.2rem; font: inherit; }
.twin input[aria-invalid="true"] { outline: 2px solid #b00020; }
.twin fieldset { border: 1px solid #ccd; border-radius: 5px; margin: .4rem 0; }
.twin button, .twin select { font: inherit; padding: .25rem .7rem; border-radius: 5px;
  border: 1px solid #99a; background: #f3f4f8; cursor: pointer; }
.twin dl { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; }
.twin dd { margin: 0; }
"""


def twin_html(lesson: Lesson) -> str:
    """``twin.html``: the twin alone, every step behind a picker, for a slide deck's iframe."""
    language = lesson.words["common.word.language"]
    body = f"<main><h1>{html_text(lesson.title)}</h1>\n{panel(lesson, picker=True)}</main>"
    return page(lesson.title, language, STYLE_BASE + STYLE, body, script(follow=False))


# --- the inputs -------------------------------------------------------------------------------


def _fields(lesson: Lesson) -> str:
    """A field per input number, each named by its role (``data-input``) and place."""
    words = lesson.words
    legend = words["page.word.inputs"]
    rows: list[str] = []
    if lesson.heads:
        rows += [
            _vector_row(lesson, "embedding", t, tok.embedding or ())
            for t, tok in enumerate(lesson.tokens)
        ]
        matrices = [
            _matrix_fields(lesson, f"w_{r}", h, getattr(head, f"w_{r}"))
            for h, head in enumerate(lesson.heads)
            for r in "qkv"
        ]
        if lesson.w_o is not None:
            matrices.append(_matrix_fields(lesson, "w_o", None, lesson.w_o))
        return _fieldset(
            legend, _table(["", words["handout.word.embedding"]], rows) + "".join(matrices)
        )
    if not lesson.asks:
        rows.append(_vector_row(lesson, "query", None, lesson.query))
    for t, tok in enumerate(lesson.tokens):
        if tok.query is not None:
            rows.append(_vector_row(lesson, "query", t, tok.query))
        rows += [_vector_row(lesson, "key", t, tok.key), _vector_row(lesson, "value", t, tok.value)]
    if lesson.rival is not None:
        rows += [
            _vector_row(lesson, "key", "rival", lesson.rival.key),
            _vector_row(lesson, "value", "rival", lesson.rival.value),
        ]
    quiz = ""
    if isinstance(lesson.quiz, FillerQuiz):
        quiz = _table(
            [],
            [
                _number_row(lesson, "filler_score", "page.word.filler", lesson.quiz.filler_score),
                _number_row(
                    lesson,
                    "bonus_filler_score",
                    "page.word.bonus_filler",
                    lesson.quiz.bonus_filler_score,
                ),
            ],
        )
    return _fieldset(legend, _table([], rows) + quiz)


def _fieldset(legend: str, inner: str) -> str:
    return f"<fieldset><legend>{html_text(legend)}</legend>{inner}</fieldset>"


def _who(lesson: Lesson, token: object) -> str:
    if token == "rival":
        return lesson.words["page.word.rival"]
    if isinstance(token, int):
        return lesson.tokens[token].short
    return ""


def _vector_row(lesson: Lesson, role: str, token: object, entries: Sequence[float]) -> str:
    name = lesson.words[f"handout.word.{role}"]
    who = _who(lesson, token)
    label = f"{name} · {who}" if who else name
    at = "" if token is None else f' data-token="{html_attribute(str(token))}"'
    cells = "".join(
        f"<td>{_input(f'{label} · {i + 1}', f'data-input={role}{at} data-index={i}', x)}</td>"
        for i, x in enumerate(entries)
    )
    return f"<tr><th scope=row>{html_text(label)}</th>{cells}</tr>"


def _number_row(lesson: Lesson, role: str, entry: str, x: float) -> str:
    label = lesson.words[entry]
    field = _input(label, f"data-input={role} data-index=0", x)
    return f"<tr><th scope=row>{html_text(label)}</th><td>{field}</td></tr>"


def _matrix_fields(
    lesson: Lesson, role: str, head: int | None, matrix: Sequence[Sequence[float]]
) -> str:
    title = f"W{role[2:].upper()}"
    if head is not None:
        title = f"{lesson.words.say('handout.heading.head', number=fmt.number(head + 1))} · {title}"
    at = "" if head is None else f' data-head="{head}"'
    width = len(matrix[0])

    def field(r: int, c: int, x: float) -> str:
        where = f"data-input={role}{at} data-row={r} data-col={c} data-index={r * width + c}"
        return f"<td>{_input(f'{title} · {r + 1} · {c + 1}', where, x)}</td>"

    rows = "".join(
        "<tr>" + "".join(field(r, c, x) for c, x in enumerate(line)) + "</tr>"
        for r, line in enumerate(matrix)
    )
    return f"<table><caption>{html_text(title)}</caption>{rows}</table>"


def _input(label: str, attributes: str, x: float) -> str:
    shown = fmt.number(x)  # a lesson's numbers have at most two places: exact
    return (
        f'<input type=number step=any inputmode=decimal value="{shown}" '
        f'aria-label="{html_attribute(label)}" {attributes}>'
    )


# --- the numbers, step by step ------------------------------------------------------------------


def _n(
    shown: Shown,
    quantity: str,
    token: object = "",
    head: object = "",
    row: object = "",
    col: object = "",
) -> str:
    """One number, carrying its key (``data-quantity`` and where it sits)."""
    k = key(quantity, token, head, row, col)
    attributes = f'data-quantity="{quantity}"'
    for name, value in zip(("token", "head", "row", "col"), k[1:], strict=True):
        if value != "":
            attributes += f' data-{name}="{html_attribute(value)}"'
    return f"<span {attributes}>{html_text(shown[k])}</span>"


def _table(header: Sequence[str], rows: Sequence[str], caption: str = "") -> str:
    head = "".join(f"<th scope=col>{html_text(h)}</th>" for h in header)
    top = f"<caption>{html_text(caption)}</caption>" if caption else ""
    thead = f"<thead><tr>{head}</tr></thead>" if header else ""
    return f"<table>{top}{thead}<tbody>{''.join(rows)}</tbody></table>"


def _row(label: str, *cells: str) -> str:
    return (
        f"<tr><th scope=row>{html_text(label)}</th>{''.join(f'<td>{c}</td>' for c in cells)}</tr>"
    )


def _word(w: Worked, name: str) -> str:
    return w.lesson.words[f"handout.word.{name}"]


def _title(lesson: Lesson, place: int, kind: str, shown: Shown | None) -> str:
    """``Step 3 · Score every token against the query``; the rival's headline carries its
    number, live in the panel (``shown``), as text in the picker."""
    words = lesson.words
    number = f"{words['page.word.step']} {fmt.number(place + 1)} · "
    if kind == "rival":
        share = html_text(worked(lesson).left) if shown is None else _n(shown, "left")
        head, _, tail = words["rival.heading.title"].partition("{share}")
        return html_text(number + head) + share + html_text(tail)
    if kind == "answer" and isinstance(lesson.quiz, ShareQuiz):
        tokens = lesson.tokens
        title = words.say(
            "answer.heading.share",
            asker=tokens[lesson.quiz.asker].short,
            to=tokens[lesson.quiz.to].short,
        )
        return html_text(number + title)
    return html_text(number + words[f"{kind}.heading.title"])


def _overview(w: Worked, shown: Shown) -> str:
    rows = [_row(r.of.short, _n(shown, "short_weight", t)) for t, r in enumerate(w.before.rows)]
    answers = [_row(str(a), _n(shown, "output", col=j)) for j, a in enumerate(w.lesson.answers)]
    return _table(["", _word(w, "weight")], rows) + _table(["", _word(w, "output")], answers)


def _score(w: Worked, shown: Shown) -> str:
    rows = [
        _row(r.of.short, _n(shown, "dot", t), _n(shown, "score", t))
        for t, r in enumerate(w.before.rows)
    ]
    root = f"<p>√dₖ = {_n(shown, 'root_d_k')}</p>"
    return root + _table(["", _word(w, "dot"), _word(w, "score")], rows)


def _softmax(w: Worked, shown: Shown) -> str:
    rows = [
        _row(r.of.short, _n(shown, "score", t), _n(shown, "pull", t), _n(shown, "share", t))
        for t, r in enumerate(w.before.rows)
    ]
    rows.append(_row(_word(w, "total"), "", _n(shown, "total"), html_text(w.budget)))
    return _table(["", _word(w, "score"), _word(w, "pull"), _word(w, "share")], rows)


def _mix(w: Worked, shown: Shown) -> str:
    slots = range(len(w.lesson.answers))
    rows = [
        _row(r.of.short, _n(shown, "weight", t), *(_n(shown, "scaled", t, col=j) for j in slots))
        for t, r in enumerate(w.before.rows)
    ]
    rows.append(_row(_word(w, "output"), "", *(_n(shown, "output", col=j) for j in slots)))
    header = ["", _word(w, "weight"), *(str(a) for a in w.lesson.answers)]
    return _table(header, rows, _word(w, "scaled"))


def _rival(w: Worked, shown: Shown) -> str:
    words = w.lesson.words
    rival = _row(words["page.word.rival"], _n(shown, "dot", "rival"), _n(shown, "score", "rival"))
    scored = _table(["", _word(w, "dot"), _word(w, "score")], [rival])
    rows = [
        _row(r.of.short, _n(shown, "share_before", t), _n(shown, "share", t))
        for t, r in enumerate(w.before.rows)
    ]
    rows.append(_row(words["page.word.rival"], "—", _n(shown, "share", "rival")))
    shares = _table(["", _word(w, "before"), _word(w, "after")], rows)
    slots = range(len(w.lesson.answers))
    outputs = [
        _row(_word(w, "before"), *(_n(shown, "output_before", col=j) for j in slots)),
        _row(_word(w, "after"), *(_n(shown, "output", col=j) for j in slots)),
    ]
    header = ["", *(str(a) for a in w.lesson.answers)]
    return scored + shares + _table(header, outputs, _word(w, "output"))


def _answer(w: Worked, shown: Shown) -> str:
    words = w.lesson.words
    quiz = w.lesson.quiz
    if isinstance(quiz, ShareQuiz):
        head = quiz.head if w.lesson.heads else ""
        rows = [
            _row(tok.short, *(_n(shown, q, t, head) for q in ("score", "pull", "share")))
            for t, tok in enumerate(w.lesson.tokens)
        ]
        rows.append(_row(_word(w, "total"), "", _n(shown, "total", head=head), html_text(w.budget)))
        table = _table(["", _word(w, "score"), _word(w, "pull"), _word(w, "share")], rows)
        answer = words["handout.heading.answer"]
        return table + f"<p>{html_text(answer)}: <b>{_n(shown, 'answer', head=head)}</b></p>"
    if not isinstance(quiz, FillerQuiz):
        return ""
    pairs = [
        (words["page.word.rival"] + " · " + _word(w, "score"), _n(shown, "score", "rival")),
        (words["page.word.gap"], _n(shown, "gap")),
        (words["page.word.ratio"], _n(shown, "ratio")),
        (words["page.word.count"], _n(shown, "count")),
        (words["page.word.bonus_gap"], _n(shown, "bonus_gap")),
        (words["page.word.bonus_count"], _n(shown, "bonus_count")),
    ]
    listed = "".join(f"<dt>{html_text(name)}</dt><dd>{value}</dd>" for name, value in pairs)
    options = "".join(
        f"<li>{chr(ord('A') + i)}: {_n(shown, 'option', col=i)}</li>"
        for i in range(len(w.quiz.options))
    )
    return f"<dl>{listed}</dl><p>{html_text(words['page.word.options'])}</p><ul>{options}</ul>"


def _grid_tables(
    w: Worked, shown: Shown, stages: Sequence[tuple[str, str]], head: object = ""
) -> str:
    tokens = [t.short for t in w.lesson.tokens]
    n = range(len(tokens))
    corner = _word(w, "corner")
    tables = []
    for stage, heading in stages:
        total = stage == "pull" and key("total", head=head, row=0) in shown
        rows = [
            _row(
                tokens[i],
                *(_n(shown, stage, head=head, row=i, col=j) for j in n),
                *([_n(shown, "total", head=head, row=i)] if total else []),
            )
            for i in n
        ]
        extra = [_word(w, "total")] if total else []
        tables.append(_table([corner, *tokens, *extra], rows, heading))
    slots = range(len(w.lesson.answers))  # d_v: one slot per answer
    outputs = [
        _row(tokens[i], *(_n(shown, "output", head=head, row=i, col=c) for c in slots)) for i in n
    ]
    header = ["", *(str(a) for a in w.lesson.answers)]
    tables.append(_table(header, outputs, w.lesson.words["handout.heading.outputs"]))
    return "".join(tables)


def _heading(w: Worked, name: str) -> str:
    return w.lesson.words[f"handout.heading.{name}"]


def _all_queries(w: Worked, shown: Shown) -> str:
    stages = [
        ("dot", _heading(w, "dots")),
        ("score", _heading(w, "scores")),
        ("pull", _heading(w, "pulls")),
        ("share", _heading(w, "shares")),
    ]
    return _grid_tables(w, shown, stages)


def _mask(w: Worked, shown: Shown) -> str:
    stages = [
        ("score", _heading(w, "masked_scores")),
        ("pull", _heading(w, "pulls")),
        ("share", _heading(w, "shares")),
    ]
    return _grid_tables(w, shown, stages)


def _projections(w: Worked, shown: Shown) -> str:
    tables = []
    for h, head in enumerate(w.heads):
        widths = {part: len(getattr(head.projections[0], part).entries) for part in "qkv"}
        rows = [
            _row(
                p.of.short,
                *(_n(shown, part, t, h, col=c) for part in "qkv" for c in range(widths[part])),
            )
            for t, p in enumerate(head.projections)
        ]
        header = ["", *(f"{part}{c + 1}" for part in "qkv" for c in range(widths[part]))]
        tables.append(
            _table(header, rows, w.lesson.words.say("handout.heading.head", number=head.number))
        )
    return "".join(tables)


def _heads(w: Worked, shown: Shown) -> str:
    words = w.lesson.words
    parts = []
    for h, head in enumerate(w.heads):
        title = words.say("handout.heading.head", number=head.number)
        parts.append(f"<h4>{html_text(title)}</h4>")
        parts.append(_grid_tables(w, shown, [("share", _heading(w, "shares"))], head=h))
    tokens = [t.short for t in w.lesson.tokens]
    width = len(w.joined[0]) if w.joined else 0
    rows = [
        _row(tokens[t], *(_n(shown, "joined", t, col=c) for c in range(width)))
        for t in range(len(tokens))
    ]
    parts.append(
        _table(["", *(fmt.number(c + 1) for c in range(width))], rows, _heading(w, "joined"))
    )
    if w.w_o is not None:
        out = len(w.mixed[0])
        rows = [
            _row(tokens[t], *(_n(shown, "mixed", t, col=c) for c in range(out)))
            for t in range(len(tokens))
        ]
        parts.append(
            _table(["", *(fmt.number(c + 1) for c in range(out))], rows, _word(w, "mixed"))
        )
    return "".join(parts)


_LAYOUT = {
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
