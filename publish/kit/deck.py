"""slides.html: the lesson as an offline slide deck that plays one beat at a time and pauses.

One ``<video>`` per step (the clips beside the page); the beats come from the captions, which
are also the speaker notes. Keys: → / space / click next, ← back, N notes, F full screen.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from attention_core import Lesson
from publish.kit.beats import Step
from publish.kit.templating import inline
from publish.kit.webpage import page

__all__ = ["deck_data", "deck_html"]


def deck_data(steps: Sequence[Step]) -> list[dict[str, object]]:
    """What the deck's script plays: per step its clip and beats (seconds, caption)."""
    return [
        {
            "file": step.clip.file,
            "title": step.clip.title,
            "step": step.clip.step,
            "beats": [[beat.start, beat.end, beat.caption] for beat in step.beats],
        }
        for step in steps
    ]


def deck_html(lesson: Lesson, steps: Sequence[Step], mime: str) -> str:
    """The deck page, in the lesson's words; it finds its clips beside it."""
    words = lesson.words
    videos = "\n".join(
        f'<video class=step preload="auto" playsinline poster="{_attr(step.clip.poster.file)}"'
        f' hidden><source src="{_attr(step.clip.file)}" type="{mime}"></video>'
        for step in steps
    )
    script_words = {name: words[f"deck.word.{name}"] for name in ("step", "beat", "end")}
    data = json.dumps({"steps": deck_data(steps), "words": script_words}, ensure_ascii=False)
    body = f"""<main id=stage>
{videos}
<div id=cover><h1>{_text(lesson.title)}</h1><p>{_text(words["deck.line.start"])}</p>
<p class=keys>{_text(words["deck.line.keys"])}</p></div>
</main>
<footer><span id=where></span><span id=progress><span></span></span></footer>
<aside id=notes hidden><h2>{_text(words["deck.word.notes"])}</h2>
<p><b>{_text(words["deck.word.now"])}:</b> <span id=now></span></p>
<p class=next><b>{_text(words["deck.word.next"])}:</b> <span id=upcoming></span></p></aside>
<script type="application/json" id=deck-data>{_script_safe(data)}</script>"""
    return page(lesson.title, words["common.word.language"], _STYLE, body, _SCRIPT)


def _script_safe(text: str) -> str:
    """JSON inside <script>: a caption must not be able to close the element."""
    return text.replace("</", "<\\/")


def _text(value: str) -> str:
    return html.escape(value, quote=False)


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


_STYLE = inline("deck.css")

_SCRIPT = inline("deck.js")
