"""The twin's step sections: each step kind's numbers in tables, every number carrying its key.

Laid out from the lesson's own numbers (:func:`publish.kit.twin_numbers.numbers`); the page's
script replaces each text when an input changes, finding it by its ``data-`` attributes.
"""

from __future__ import annotations

from collections.abc import Sequence

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.model import Quiz as FillerQuiz
from attention_core.model import ShareQuiz
from attention_core.worked import Worked, worked
from publish.kit.twin_numbers import Shown, key
from publish.kit.webpage import html_attribute, html_text

__all__ = ["row", "section", "table", "title"]


def section(w: Worked, kind: str, shown: Shown) -> str:
    """Step ``kind``'s numbers of ``shown``, as tables; nothing for a kind the twin does not
    work yet."""
    layout = _LAYOUT.get(kind)
    return "" if layout is None else layout(w, shown)


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


def table(header: Sequence[str], rows: Sequence[str], caption: str = "") -> str:
    """A table of ``rows`` (:func:`row`), its column headings and caption escaped."""
    head = "".join(f"<th scope=col>{html_text(h)}</th>" for h in header)
    top = f"<caption>{html_text(caption)}</caption>" if caption else ""
    thead = f"<thead><tr>{head}</tr></thead>" if header else ""
    return f"<table>{top}{thead}<tbody>{''.join(rows)}</tbody></table>"


def row(label: str, *cells: str) -> str:
    """A row named by ``label`` (escaped), its cells HTML as given."""
    return (
        f"<tr><th scope=row>{html_text(label)}</th>{''.join(f'<td>{c}</td>' for c in cells)}</tr>"
    )


def _word(w: Worked, name: str) -> str:
    return w.lesson.words[f"handout.word.{name}"]


def title(lesson: Lesson, place: int, kind: str, shown: Shown | None) -> str:
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
        question = words.say(
            "answer.heading.share",
            asker=tokens[lesson.quiz.asker].short,
            to=tokens[lesson.quiz.to].short,
        )
        return html_text(number + question)
    return html_text(number + words[f"{kind}.heading.title"])


def _overview(w: Worked, shown: Shown) -> str:
    rows = [row(r.of.short, _n(shown, "short_weight", t)) for t, r in enumerate(w.before.rows)]
    answers = [row(str(a), _n(shown, "output", col=j)) for j, a in enumerate(w.lesson.answers)]
    return table(["", _word(w, "weight")], rows) + table(["", _word(w, "output")], answers)


def _score(w: Worked, shown: Shown) -> str:
    rows = [
        row(r.of.short, _n(shown, "dot", t), _n(shown, "score", t))
        for t, r in enumerate(w.before.rows)
    ]
    root = f"<p>√dₖ = {_n(shown, 'root_d_k')}</p>"
    return root + table(["", _word(w, "dot"), _word(w, "score")], rows)


def _softmax(w: Worked, shown: Shown) -> str:
    rows = [
        row(r.of.short, _n(shown, "score", t), _n(shown, "pull", t), _n(shown, "share", t))
        for t, r in enumerate(w.before.rows)
    ]
    rows.append(row(_word(w, "total"), "", _n(shown, "total"), html_text(w.budget)))
    return table(["", _word(w, "score"), _word(w, "pull"), _word(w, "share")], rows)


def _mix(w: Worked, shown: Shown) -> str:
    slots = range(len(w.lesson.answers))
    rows = [
        row(r.of.short, _n(shown, "weight", t), *(_n(shown, "scaled", t, col=j) for j in slots))
        for t, r in enumerate(w.before.rows)
    ]
    rows.append(row(_word(w, "output"), "", *(_n(shown, "output", col=j) for j in slots)))
    header = ["", _word(w, "weight"), *(str(a) for a in w.lesson.answers)]
    return table(header, rows, _word(w, "scaled"))


def _rival(w: Worked, shown: Shown) -> str:
    words = w.lesson.words
    rival = row(words["page.word.rival"], _n(shown, "dot", "rival"), _n(shown, "score", "rival"))
    scored = table(["", _word(w, "dot"), _word(w, "score")], [rival])
    rows = [
        row(r.of.short, _n(shown, "share_before", t), _n(shown, "share", t))
        for t, r in enumerate(w.before.rows)
    ]
    rows.append(row(words["page.word.rival"], "—", _n(shown, "share", "rival")))
    shares = table(["", _word(w, "before"), _word(w, "after")], rows)
    slots = range(len(w.lesson.answers))
    outputs = [
        row(_word(w, "before"), *(_n(shown, "output_before", col=j) for j in slots)),
        row(_word(w, "after"), *(_n(shown, "output", col=j) for j in slots)),
    ]
    header = ["", *(str(a) for a in w.lesson.answers)]
    return scored + shares + table(header, outputs, _word(w, "output"))


def _answer(w: Worked, shown: Shown) -> str:
    words = w.lesson.words
    quiz = w.lesson.quiz
    if isinstance(quiz, ShareQuiz):
        head = quiz.head if w.lesson.heads else ""
        rows = [
            row(tok.short, *(_n(shown, q, t, head) for q in ("score", "pull", "share")))
            for t, tok in enumerate(w.lesson.tokens)
        ]
        rows.append(row(_word(w, "total"), "", _n(shown, "total", head=head), html_text(w.budget)))
        working = table(["", _word(w, "score"), _word(w, "pull"), _word(w, "share")], rows)
        answer = words["handout.heading.answer"]
        return working + f"<p>{html_text(answer)}: <b>{_n(shown, 'answer', head=head)}</b></p>"
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
            row(
                tokens[i],
                *(_n(shown, stage, head=head, row=i, col=j) for j in n),
                *([_n(shown, "total", head=head, row=i)] if total else []),
            )
            for i in n
        ]
        extra = [_word(w, "total")] if total else []
        tables.append(table([corner, *tokens, *extra], rows, heading))
    slots = range(len(w.lesson.answers))  # d_v: one slot per answer
    outputs = [
        row(tokens[i], *(_n(shown, "output", head=head, row=i, col=c) for c in slots)) for i in n
    ]
    header = ["", *(str(a) for a in w.lesson.answers)]
    tables.append(table(header, outputs, w.lesson.words["handout.heading.outputs"]))
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
            row(
                p.of.short,
                *(_n(shown, part, t, h, col=c) for part in "qkv" for c in range(widths[part])),
            )
            for t, p in enumerate(head.projections)
        ]
        header = ["", *(f"{part}{c + 1}" for part in "qkv" for c in range(widths[part]))]
        tables.append(
            table(header, rows, w.lesson.words.say("handout.heading.head", number=head.number))
        )
    return "".join(tables)


def _heads(w: Worked, shown: Shown) -> str:
    words = w.lesson.words
    parts = []
    for h, head in enumerate(w.heads):
        named = words.say("handout.heading.head", number=head.number)
        parts.append(f"<h4>{html_text(named)}</h4>")
        parts.append(_grid_tables(w, shown, [("share", _heading(w, "shares"))], head=h))
    tokens = [t.short for t in w.lesson.tokens]
    width = len(w.joined[0]) if w.joined else 0
    rows = [
        row(tokens[t], *(_n(shown, "joined", t, col=c) for c in range(width)))
        for t in range(len(tokens))
    ]
    parts.append(
        table(["", *(fmt.number(c + 1) for c in range(width))], rows, _heading(w, "joined"))
    )
    if w.w_o is not None:
        out = len(w.mixed[0])
        rows = [
            row(tokens[t], *(_n(shown, "mixed", t, col=c) for c in range(out)))
            for t in range(len(tokens))
        ]
        parts.append(table(["", *(fmt.number(c + 1) for c in range(out))], rows, _word(w, "mixed")))
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
