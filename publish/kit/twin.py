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
from dataclasses import asdict
from importlib import resources
from typing import Any

from attention_core import Lesson
from attention_core import formatting as fmt
from attention_core.model import Quiz as FillerQuiz
from attention_core.model import ShareQuiz
from attention_core.steps import KINDS
from attention_core.twin_spec import numbers_of
from attention_core.worked import worked
from publish.kit.twin_fields import fields
from publish.kit.twin_layout import section, title
from publish.kit.twin_numbers import numbers
from publish.kit.webpage import STYLE_BASE, html_attribute, html_text, page

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
        fields(lesson),
        "<p role=status data-twin-status></p>",
        f"<p><button type=button data-twin-back>{html_text(words['page.word.back'])}</button></p>",
    ]
    if picker:
        options = "".join(
            f'<option value="{place}">{html_text(title(lesson, place, kind, None))}</option>'
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
            f"<h3>{title(lesson, place, kind, shown)}</h3>",
            section(w, kind, shown),
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
  const places = JSON.parse(twinPanel.dataset.chapters);
  let shown = 0;
  video.addEventListener("timeupdate", () => {
    // read each time: the described version's toggle moves the chapters to its video's times
    let chapter = 0;
    chapters.forEach((button, i) => {
      if (video.currentTime + 1e-3 >= Number(button.dataset.seek)) chapter = i;
    });
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
