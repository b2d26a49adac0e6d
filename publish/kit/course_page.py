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
from publish.kit.templating import inline, render
from publish.kit.transcript import SCRIPT as TRANSCRIPT_SCRIPT
from publish.kit.webpage import SCHEME, STYLE_BASE, page
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
    body = render(
        "course.html",
        title=title,
        language=language,
        lessons=lessons,
        transcript=transcript,
        clock=clock,
        direction=direction,
    )
    script = TRANSCRIPT_SCRIPT if any(lesson.player for lesson in lessons) else ""
    return page(title, language, STYLE_BASE + SCHEME + _STYLE + embed.PLAYER_STYLE, body, script)


_STYLE = inline("course_page.css")
