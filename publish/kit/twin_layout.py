"""The twin's step sections: each step kind's numbers in tables, every number carrying its key.

Laid out from the kind's twin spec (:attr:`attention_core.steps.StepKind.twin`) with the
lesson's own numbers (:func:`publish.kit.twin_numbers.numbers`); the page's script replaces each
text when an input changes, finding it by its ``data-`` attributes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.model import ShareQuiz
from attention_core.steps import KINDS
from attention_core.twin_spec import AXES, Choices, EachHead, Line, Number, Part, Table, Terms
from attention_core.worked import Worked
from publish.kit import twin_drawing, twin_numbers
from publish.kit.templating import Markup, macros
from publish.kit.twin_drawing import Row
from publish.kit.twin_numbers import Key, Shown, key
from publish.kit.webpage import html_text

__all__ = ["row", "section", "table", "title"]


def section(w: Worked, kind: str, shown: Shown, *, drawn: bool = False) -> str:
    """Step ``kind``'s numbers of ``shown``, laid out as its twin spec says (``drawn``: its
    tables as the video draws them); nothing for a kind whose spec is empty."""
    return "".join(_part(w, part, shown, drawn) for part in KINDS[kind].twin)


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
    places = [
        (name, value)
        for name, value in zip(("token", "head", "row", "col"), k[1:], strict=True)
        if value != ""
    ]
    return _html("span", quantity, places, shown[k])


def table(header: Sequence[str], rows: Sequence[str], caption: str = "") -> str:
    """A table of ``rows`` (:func:`row`), its column headings and caption escaped."""
    return _html("table", header, Markup("".join(rows)), caption)


def row(label: str, *cells: str) -> str:
    """A row named by ``label`` (escaped), its cells HTML as given."""
    return _html("row", label, [Markup(cell) for cell in cells])


_PARTS = macros("twin_parts.html")


def _html(part: str, *values: object) -> str:
    """The macro ``part`` of ``templates/twin_parts.html`` filled in: its HTML."""
    return str(getattr(_PARTS, part)(*values))


def title(lesson: Lesson, place: int, kind: str, shown: Shown) -> str:
    """``Step 3 · Score every token against the query``; a kind's headline number (the
    rival's) fills its heading's placeholder as a number of ``shown``."""
    words = lesson.words
    number = f"{words['page.word.step']} {fmt.number(place + 1)} · "
    headline = KINDS[kind].headline
    if headline is not None:
        head, _, tail = re.split(r"(\{\w+\})", words[f"{kind}.heading.title"], maxsplit=1)
        return html_text(number + head) + _n(shown, headline.quantity) + html_text(tail)
    if kind == "answer" and isinstance(lesson.quiz, ShareQuiz):
        tokens = lesson.tokens
        question = words.say(
            "answer.heading.share",
            asker=tokens[lesson.quiz.asker].short,
            to=tokens[lesson.quiz.to].short,
        )
        return html_text(number + question)
    return html_text(number + words[f"{kind}.heading.title"])


def _part(w: Worked, part: Part, shown: Shown, drawn: bool) -> str:
    """One part of a spec: nothing when it shows no number of this lesson (a quiz of the
    other kind, a lesson without W_O)."""
    words = w.lesson.words
    if isinstance(part, EachHead):
        parts = []
        for h, work in enumerate(w.heads):
            if part.heading:
                parts.append(_html("heading", words.say(part.heading, number=work.number)))
            parts += [_table(w, t, shown, drawn, str(h), work.number) for t in part.parts]
        return "".join(parts)
    if isinstance(part, Table):
        return _table(w, part, shown, drawn)
    if isinstance(part, Line):
        k = _find(w, part.number, {})
        if k is None:
            return ""
        if part.symbol:
            return _html("line", part.symbol, Markup(_span(shown, k)))
        return _html("said", words[part.said], Markup(_span(shown, k)))
    if isinstance(part, Terms):
        found = [(n, _find(w, n, {})) for n in part.numbers]
        listed = [(_label(w, n), Markup(_span(shown, k))) for n, k in found if k is not None]
        return _html("terms", listed)
    assert isinstance(part, Choices)
    places = _places(w, part.number, "col", {})
    options = [(chr(ord("A") + int(c)), Markup(_span(shown, k))) for c, k in places.items()]
    return _html("choices", words[part.said], options)


def _table(w: Worked, t: Table, shown: Shown, drawn: bool, head: str = "", number: str = "") -> str:
    """A table of the spec, its rows the places of ``t.down`` its numbers have (inside a head,
    that head's); nothing when it has none. ``drawn``: as the video draws it
    (:mod:`publish.kit.twin_drawing`), else as a table of text (the handout's)."""
    fixed = {"head": head} if head else {}
    rows: list[Row]
    if not t.down:  # a row per number, its entries across
        lines = [(n, _places(w, n, "col", fixed)) for n in t.columns]
        lines = [(n, places) for n, places in lines if places]
        if not lines:
            return ""
        across = _ordered(lines[0][1])
        rows = [Row(_label(w, n), "", [(places[c], n) for c in across]) for n, places in lines]
        header = ["", *(_heading(w, t, lines[0][0], c) for c in across)]
        drawn_as = [lines[0][0]] * len(across)
    else:
        found = {i: _cells(w, n, t.down, fixed) for i, n in enumerate(t.columns)}
        columns = [(i, n) for i, n in enumerate(t.columns) if found[i]]
        downs = _ordered(d for i, _ in columns for d in found[i])
        if not downs:
            return ""
        widths = {i: _ordered(c for cells in found[i].values() for c in cells) for i, _ in columns}
        header = [_words(w, t.corner)]
        drawn_as = []
        for i, n in columns:
            header += [_heading(w, t, n, c) for c in widths[i]] if _spread(n, t) else [_label(w, n)]
            drawn_as += [n] * len(widths[i])
        rows = []
        tokens = t.down in ("token", "row")
        for d in downs:
            cells: list[tuple[Key, Number] | str] = []
            for i, n in columns:
                at = found[i].get(d, {})
                cells += [(at[c], n) if c in at else "—" for c in widths[i]]
            rows.append(Row(_down_label(w, t.down, d), d if tokens else "", cells))
        if t.last:
            last = _last(w, t, columns, widths, fixed)
            rows.append(Row(_words(w, t.last_label), "", last))
    caption = _caption(w, t, number)
    if drawn:
        return twin_drawing.figure(caption, header, drawn_as, rows)
    text_rows = [
        row(r.label, *(c if isinstance(c, str) else _span(shown, c[0]) for c in r.cells))
        for r in rows
    ]
    return table(header, text_rows, caption)


def _last(
    w: Worked,
    t: Table,
    columns: list[tuple[int, Number]],
    widths: dict[int, list[str]],
    fixed: dict[str, str],
) -> list[tuple[Key, Number] | str]:
    """The last row's cells: each number of ``t.last`` under its column, entry by entry."""
    cells: list[tuple[Key, Number] | str] = []
    for i, _ in columns:
        under = t.last[i] if i < len(t.last) else None
        if under is None:
            cells += [""] * len(widths[i])
        elif "col" in under.over:
            places = _places(w, under, "col", fixed)
            cells += [(places[c], under) if c in places else "" for c in widths[i]]
        else:
            k = _find(w, under, fixed)
            cells += ["" if k is None else (k, under)] + [""] * (len(widths[i]) - 1)
    return cells


def _spread(n: Number, t: Table) -> bool:
    """Whether ``n`` takes a column per entry of its ``col`` axis."""
    return "col" in n.over and t.down != "col"


def _cells(w: Worked, n: Number, down: str, fixed: dict[str, str]) -> dict[str, dict[str, Key]]:
    """``n``'s keys shown, by their place down and then across ("" when not spread)."""
    found: dict[str, dict[str, Key]] = {}
    spread = "col" in n.over and down not in ("col", "")
    for k in _keys(w, n, fixed):
        parts = dict(zip(AXES, k[1:], strict=True))
        found.setdefault(parts[down], {})[parts["col"] if spread else ""] = k
    return found


def _places(w: Worked, n: Number, axis: str, fixed: dict[str, str]) -> dict[str, Key]:
    """``n``'s keys shown, by their place along ``axis``."""
    return {dict(zip(AXES, k[1:], strict=True))[axis]: k for k in _keys(w, n, fixed)}


def _find(w: Worked, n: Number, fixed: dict[str, str]) -> Key | None:
    return next(iter(_keys(w, n, fixed)), None)


def _keys(w: Worked, n: Number, fixed: dict[str, str]) -> list[Key]:
    """The keys of ``n`` this lesson has, in ``fixed``'s places (a head's)."""
    where = [(AXES.index(axis) + 1, place) for axis, place in fixed.items()]
    keys = (k for k, _ in twin_numbers.shown(w, n))
    return [k for k in keys if all(k[i] == place for i, place in where)]


def _ordered(places: Iterable[str]) -> list[str]:
    """Places in order: numbers up, then the rival."""
    unique = set(places)
    return sorted(unique, key=lambda p: (not p.isdigit(), int(p) if p.isdigit() else 0, p))


def _span(shown: Shown, k: Key) -> str:
    return _n(shown, *k)


def _label(w: Worked, n: Number) -> str:
    return " · ".join(w.lesson.words[name] for name in n.label)


def _words(w: Worked, name: str) -> str:
    return w.lesson.words[name] if name else ""


def _caption(w: Worked, t: Table, number: str) -> str:
    if not t.caption:
        return ""
    return w.lesson.words.say(t.caption, number=number) if number else w.lesson.words[t.caption]


def _heading(w: Worked, t: Table, n: Number, c: str) -> str:
    """The heading of entry ``c`` across."""
    place = int(c)
    if t.across == "answers":
        return str(w.lesson.answers[place])
    if t.across == "tokens":
        return w.lesson.tokens[place].short
    if t.across == "named":
        return f"{n.quantity}{place + 1}"
    return fmt.number(place + 1)


def _down_label(w: Worked, down: str, place: str) -> str:
    if place == "rival":
        return w.lesson.words["page.word.rival"]
    if down == "col":
        return str(w.lesson.answers[int(place)])
    return w.lesson.tokens[int(place)].short
