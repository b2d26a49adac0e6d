"""The transcript: transcript.txt and transcript.html (the steps as headings, the narration as
paragraphs), and the interactive one the embed page shows beside the whole lesson's player."""

from __future__ import annotations

from collections.abc import Sequence

from attention_core import Lesson
from publish.described.descriptions import step_descriptions
from publish.kit.templating import inline, render, static
from publish.kit.webpage import STYLE_BASE, page
from publish.media.captions import Cue, to_vtt
from publish.media.clip_beats import Step, clock
from publish.media.manifest import FullEntry

__all__ = [
    "HTML_NAME",
    "TEXT_NAME",
    "descriptions_vtt",
    "interactive",
    "transcript_html",
    "transcript_text",
]

HTML_NAME, TEXT_NAME = "transcript.html", "transcript.txt"


def _heading(step: Step) -> str:
    return f"{step.clip.step} · {step.clip.title}"


def _said(lesson: Lesson, step: Step) -> list[str]:
    """The step's narration, beat by beat, as the captions write it (dₖ, √4, e^score), each
    followed by its description where the screen shows what is not said: the description's
    own sentences, in place, so the step reads as one paragraph of prose."""
    return [" ".join(f"{said} {description}".split()) for said, description in _beats(lesson, step)]


def _beats(lesson: Lesson, step: Step) -> list[tuple[str, str]]:
    """Per beat with anything in it, its caption and its description ("" where none)."""
    pairs = zip(step.beats, step_descriptions(lesson.words, step), strict=True)
    return [(beat.caption, text) for beat, text in pairs if beat.caption.strip() or text]


def descriptions_vtt(lesson: Lesson, steps: Sequence[Step], offsets: Sequence[float]) -> str:
    """A WebVTT ``kind="descriptions"`` track: each beat's description over the beat, the
    steps played from ``offsets`` (s)."""
    cues = []
    for step, offset in zip(steps, offsets, strict=True):
        for beat, text in zip(step.beats, step_descriptions(lesson.words, step), strict=True):
            if text:
                start, end = round((offset + beat.start) * 1000), round((offset + beat.end) * 1000)
                cues.append(Cue(start, end, text))
    return to_vtt(cues)


def transcript_text(lesson: Lesson, steps: Sequence[Step]) -> str:
    """Plain text: the title, then per step its heading and its narration as one paragraph;
    last, the references, each with its address (the descriptions name them, and say so)."""
    out = [lesson.title, "=" * len(lesson.title), ""]
    for step in steps:
        out += [_heading(step), "-" * len(_heading(step)), " ".join(_said(lesson, step)), ""]
    if lesson.references:
        heading = lesson.words["page.heading.references"]
        out += [heading, "-" * len(heading)]
        out += [f"- {r.named}: {r.link}" for r in lesson.references] + [""]
    return "\n".join(out)


def transcript_html(lesson: Lesson, steps: Sequence[Step]) -> str:
    """The same as a page, in the lesson's language; each description marked (in italics): it
    reads as prose, and a reader can still tell what the picture shows from what is said."""
    body = render(
        "transcript.html",
        title=lesson.title,
        words=lesson.words,
        references=lesson.references,
        steps=[
            (
                _heading(step),
                [(" ".join(said.split()), text) for said, text in _beats(lesson, step)],
            )
            for step in steps
        ],
    )
    language = lesson.words["common.word.language"]
    return page(lesson.title, language, STYLE_BASE + _PAGE_STYLE, body)


def interactive(
    lesson: Lesson, steps: Sequence[Step], full: FullEntry, video: str = "whole"
) -> str:
    """The whole lesson's transcript beside the player whose id is ``video``, a button per
    beat: activating one (click, Enter or Space) plays that video from there; :data:`SCRIPT`
    marks the beat being said. Each page that shows one (the embed page, the course page) uses
    this one."""
    words = lesson.words
    shown = []
    for step, chapter in zip(steps, full.chapters, strict=True):
        lines = [
            {
                "start": chapter.start + beat.start,
                "end": chapter.start + beat.end,
                "said": " ".join(beat.caption.split()),
                "described": description,
            }
            for beat, description in zip(step.beats, step_descriptions(words, step), strict=True)
            if beat.caption.strip()
        ]
        shown.append((_heading(step), lines))
    return render(
        "transcript_interactive.html",
        video=video,
        words=words,
        steps=shown,
        references=lesson.references,
        clock=clock,
    )


_PAGE_STYLE = static("transcript_page.css").rstrip("\n")
"""transcript.html's style after the base: its measure, the descriptions in italics."""


SCRIPT = inline("transcript.js")
"""Each transcript's lines seek its own player; the beat being said is marked
(``aria-current``) as that video plays, scrolling only the transcript's own box."""
