"""The course's index.html: its title and every lesson in order, each linked to its own page
with its poster and length. Self-contained; it links only to the lessons' folders beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from publish.kit.beats import clock
from publish.kit.webpage import STYLE_BASE, html_attribute, html_text, page

__all__ = ["LessonLink", "course_html"]


@dataclass(frozen=True)
class LessonLink:
    """A lesson as the index shows it: where its page is, what it is called, how long it runs."""

    title: str
    series: str
    duration: float
    page: str
    """Its page, relative to the index: ``four_tokens/index.html``."""
    poster: str | None
    """Its first clip's poster, relative to the index; None when no clip was made."""
    transcript: str | None = None
    """Its transcript.html, relative to the index; None when none was written."""


def course_html(
    title: str, language: str, lessons: Sequence[LessonLink], transcript: str = "Transcript"
) -> str:
    """The index page, in ``language`` (a BCP 47 tag: the first lesson's); ``transcript``
    names each lesson's transcript link in that language."""
    items = "\n".join(
        _lesson(number, lesson, transcript) for number, lesson in enumerate(lessons, start=1)
    )
    body = f"<h1>{html_text(title)}</h1>\n<ol class=lessons>\n{items}\n</ol>"
    return page(title, language, STYLE_BASE + _STYLE, body)


def _lesson(number: int, lesson: LessonLink, transcript: str) -> str:
    poster = (
        f'<img src="{html_attribute(lesson.poster)}" alt="" width="320" height="180">'
        if lesson.poster
        else ""
    )
    return (
        f'<li><a href="{html_attribute(lesson.page)}">{poster}'
        f"<span class=title>{number} · {html_text(lesson.title)}</span></a>"
        f"<span class=muted>{html_text(lesson.series)} · {clock(lesson.duration)}</span>"
        + (
            f'<a class=transcript href="{html_attribute(lesson.transcript)}">'
            f"{html_text(transcript)}</a>"
            if lesson.transcript
            else ""
        )
        + "</li>"
    )


_STYLE = """
body { max-width: 60rem; }
ol.lessons { list-style: none; padding: 0; display: grid; gap: 1.2rem;
  grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
ol.lessons li { display: flex; flex-direction: column; gap: .3rem; }
ol.lessons a { color: inherit; text-decoration: none; display: flex; flex-direction: column;
  gap: .4rem; }
ol.lessons img { width: 100%; height: auto; border-radius: 6px; background: #000; }
ol.lessons .title { font-weight: 600; }
ol.lessons a:hover .title { text-decoration: underline; }
ol.lessons a.transcript { color: #1a4fb5; text-decoration: underline; }
"""
