"""slides.html: the lesson as an offline slide deck that plays one beat at a time and pauses.

One ``<video>`` per step (the clips beside the page); the beats come from the captions, which
are also the speaker notes. Keys: → / space / click next, ← back, N notes, F full screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from attention_core import Lesson
from publish.kit.templating import inline, render
from publish.kit.webpage import page
from publish.media.clip_beats import Step

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
    script_words = {name: words[f"deck.word.{name}"] for name in ("step", "beat", "end")}
    body = render(
        "deck.html",
        title=lesson.title,
        words=words,
        steps=steps,
        mime=mime,
        data={"steps": deck_data(steps), "words": script_words},
    )
    return page(lesson.title, words["common.word.language"], _STYLE, body, _SCRIPT)


_STYLE = inline("deck.css")

_SCRIPT = inline("deck.js")
