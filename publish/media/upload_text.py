"""The upload text: what to paste under the uploaded video (the site's "description" box),
chapters included, written to ``description.txt``."""

from __future__ import annotations

from collections.abc import Sequence

from attention_core import Lesson
from publish.media.manifest import Chapter

__all__ = ["FILE", "stamp", "upload_text"]

FILE = "description.txt"
"""The upload text's file, beside the whole video: named as video sites name the box."""


def stamp(seconds: float) -> str:
    """A chapter's start as video sites read it: ``0:00``, ``4:05``, ``1:02:03``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def upload_text(lesson: Lesson, chapters: Sequence[Chapter]) -> str:
    """The title and promise, one ``0:00 Title`` line per chapter (the first at 0:00, as video
    sites require), and the references."""
    lines = [lesson.title, "", lesson.promise, ""]
    lines += [f"{stamp(chapter.start)} {chapter.title}" for chapter in chapters]
    if lesson.references:
        lines += ["", lesson.words["handout.heading.references"]]
        lines += [f"- {ref.text}: {ref.where}" for ref in lesson.references]
    return "\n".join(lines) + "\n"
