"""The course's index.html: its title and every lesson in order, each linked to its own page
and transcript, with its length, its whole video and the interactive transcript beside it.
Self-contained; it links only to the lessons' folders beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from attention_core import Lesson
from publish.kit import embed
from publish.kit.direction import direction
from publish.kit.lecture import WEB_FORMATS
from publish.kit.transcript import SCRIPT as TRANSCRIPT_SCRIPT
from publish.kit.webpage import STYLE_BASE, html_attribute, html_text, page
from publish.media.clip_beats import clock, steps_of
from publish.media.manifest import Manifest

__all__ = ["LessonLink", "course_html", "lesson_player"]


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
    player: str = ""
    """Its whole video with the interactive transcript beside it (:func:`lesson_player`);
    empty when it has none."""
    language: str = ""
    """Its language (a BCP 47 tag), when it may not be the page's: its entry says so, and is
    written in its direction, so that a screen reader reads a Greek lesson on an English
    course's page in Greek."""


def lesson_player(lesson: Lesson, manifest: Manifest, folder: Path, name: str, number: int) -> str:
    """The embed page's player and interactive transcript for the lesson in ``folder`` (the
    index's ``name``/), the ``number``-th of the course; empty without a whole video a
    browser plays, its chapters one per step."""
    full, mime = manifest.full, WEB_FORMATS.get(manifest.format)
    if full is None or mime is None or len(full.chapters) != len(manifest.clips):
        return ""
    steps = steps_of(folder, manifest.clips, write=False)
    return embed.player(
        lesson, steps, full, mime, folder, video=f"lesson-{number}", prefix=f"{name}/"
    )


def course_html(
    title: str, language: str, lessons: Sequence[LessonLink], transcript: str = "Transcript"
) -> str:
    """The index page, in ``language`` (a BCP 47 tag: the course's, ``Course.page``); ``transcript``
    names each lesson's transcript link in that language."""
    items = "\n".join(
        _lesson(number, lesson, transcript, language)
        for number, lesson in enumerate(lessons, start=1)
    )
    body = f"<h1>{html_text(title)}</h1>\n<ol class=lessons>\n{items}\n</ol>"
    script = TRANSCRIPT_SCRIPT if any(lesson.player for lesson in lessons) else ""
    return page(title, language, STYLE_BASE + _STYLE + embed.PLAYER_STYLE, body, script)


def _lesson(number: int, lesson: LessonLink, transcript: str, page_language: str) -> str:
    poster = (
        f'<img src="{html_attribute(lesson.poster)}" alt="" width="320" height="180">'
        if lesson.poster and not lesson.player  # the player shows the poster itself
        else ""
    )
    said = (
        f'<a class=transcript href="{html_attribute(lesson.transcript)}">'
        f"{html_text(transcript)}</a>"
        if lesson.transcript
        else ""
    )
    # The lesson's own words (its title, series and player) in its language; the link to its
    # transcript is the page's.
    own = ""
    if lesson.language and lesson.language != page_language:
        own = f' lang="{html_attribute(lesson.language)}" dir="{direction(lesson.language)}"'
    player = f"<div{own}>{lesson.player}</div>" if own and lesson.player else lesson.player
    return (
        f'<li><h2{own}><a href="{html_attribute(lesson.page)}">{poster}'
        f"<span class=title>{number} · {html_text(lesson.title)}</span></a></h2>"
        f"<p><span class=muted{own}>{html_text(lesson.series)} · {clock(lesson.duration)}</span> "
        f"{said}</p>{player}</li>"
    )


_STYLE = """
body { max-width: 72rem; }
ol.lessons { list-style: none; padding: 0; display: flex; flex-direction: column; gap: 2rem; }
ol.lessons > li > h2 { margin-bottom: .1rem; }
ol.lessons h2 a { color: inherit; display: flex; flex-direction: column; gap: .4rem; }
ol.lessons img { width: 100%; max-width: 20rem; height: auto; border-radius: 6px;
  background: #000; }
ol.lessons p { margin: 0 0 .6rem; }
ol.lessons a.transcript { color: #1a4fb5; text-decoration: underline; margin-left: .4rem; }
"""
