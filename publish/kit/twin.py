"""The lesson's twin: each step's worked numbers, live, from inputs the viewer may change.

The panel is laid out here with the lesson's own numbers (:mod:`publish.kit.twin_numbers`, from
:func:`attention_core.worked`), and ``static/twin.js`` (inlined so the page works from
``file:``) recomputes every one of them in the browser whenever an input
changes, formatting by :data:`attention_core.formatting.RULES`, which the page carries as data.
The embed page shows it beside the player, following the step that plays (:func:`panel`,
:data:`FOLLOW`); ``twin.html`` shows it alone, a step picker above it, for a slide deck's iframe.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from attention_core import Lesson, palette
from attention_core import formatting as fmt
from attention_core.model import Quiz as FillerQuiz
from attention_core.model import ShareQuiz
from attention_core.steps import KINDS
from attention_core.twin_spec import numbers_of
from attention_core.worked import worked
from publish.kit.templating import Markup, inline, render, static
from publish.kit.twin_fields import fields
from publish.kit.twin_layout import section, title
from publish.kit.twin_numbers import numbers
from publish.kit.webpage import SCHEME, STYLE_BASE, page

__all__ = ["FOLLOW", "NAME", "SCRIPT", "STYLE", "data", "panel", "script", "twin_html"]

NAME = "twin.html"
"""The standalone twin beside ``index.html``."""


def data(lesson: Lesson) -> dict[str, Any]:
    """What ``twin.js`` computes from: the validated lesson's inputs, the numbers each of its
    steps shows (its kind's twin spec), the formatting rules, and the words a number is set in
    (a quiz option's ``about {count}``) and the line said while a field holds no number."""
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
        "kinds": {kind: _spec(kind) for kind in lesson.steps},
        "rules": json.loads(fmt.rules_json()),
        "shade": {"faintest": palette.FAINTEST, "fullest": palette.FULLEST},
        "words": {
            "about": lesson.words["common.word.about"],
            "invalid": lesson.words["page.line.invalid"],
        },
    }


def _spec(kind: str) -> list[dict[str, Any]]:
    """The numbers ``kind``'s twin spec names, as ``twin.js`` computes them."""
    entry = KINDS[kind]
    listed = numbers_of(entry.twin) + ((entry.headline,) if entry.headline else ())
    return [asdict(number) for number in listed]


def _rows(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    return [list(row) for row in matrix]


def panel(lesson: Lesson, *, picker: bool = False, chapters: Sequence[int] = ()) -> str:
    """The twin: the lesson's inputs as cells, a "back to the lesson" button, and a section
    per step (the first shown) drawn as the video draws it; with ``picker``, a choice of step
    above them. Every number is written empty, and so are the picker's labels: ``twin.js``
    writes them all, so a number it does not compute shows as missing. ``chapters``: the step
    (its place in ``lesson.steps``) each chapter of the whole video shows, which
    :data:`FOLLOW` reads."""
    w, words = worked(lesson), lesson.words
    steps = []
    for place, kind in enumerate(lesson.steps):
        blank = dict.fromkeys(numbers(w, kind), "")
        steps.append(
            {
                "kind": kind,
                "title": Markup(title(lesson, place, kind, blank)),
                "section": Markup(section(w, kind, blank, drawn=True)),
            }
        )
    return render(
        "twin_panel.html",
        chapters=json.dumps(list(chapters)),
        words=words,
        fields=Markup(fields(lesson)),
        picker=range(len(lesson.steps)) if picker else None,
        steps=steps,
        data=data(lesson),
    )


def script(follow: bool) -> str:
    """The page's script for the panel: ``twin.js`` and its mounting; with ``follow``, the
    panel shows the step the whole lesson's player is in (:data:`FOLLOW`)."""
    return SCRIPT + _MOUNT + (FOLLOW if follow else "")


SCRIPT = static("twin.js")
"""``twin.js``: the lesson's maths and formatting in the browser."""

_MOUNT = inline("twin_mount.js")

FOLLOW = inline("twin_follow.js")
"""Follow the player: the chapter the video is in picks the step shown (chapters and steps
are one to one, in order)."""

STYLE = inline("twin.css")
"""The twin's look; a page that shows it also carries :data:`publish.kit.webpage.SCHEME`."""


def twin_html(lesson: Lesson) -> str:
    """``twin.html``: the twin alone, every step behind a picker, for a slide deck's iframe."""
    language = lesson.words["common.word.language"]
    body = render("twin.html", title=lesson.title, panel=Markup(panel(lesson, picker=True)))
    return page(lesson.title, language, STYLE_BASE + SCHEME + STYLE, body, script(follow=False))
