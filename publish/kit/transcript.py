"""The transcript: transcript.txt and transcript.html (the steps as headings, the narration as
paragraphs), and the interactive one the embed page shows beside the whole lesson's player."""

from __future__ import annotations

from collections.abc import Sequence

from attention_core import Lesson
from publish.described.descriptions import step_descriptions
from publish.kit.webpage import STYLE_BASE, html_attribute, html_text, page
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


def _said_html(lesson: Lesson, step: Step) -> str:
    """:func:`_said` as a paragraph of the page, each description marked (in italics): it
    reads as prose, and a reader can still tell what the picture shows from what is said."""
    return " ".join(
        html_text(" ".join(said.split()))
        + (f" <span class=described>{html_text(text)}</span>" if text else "")
        for said, text in _beats(lesson, step)
    ).strip()


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
    """Plain text: the title, then per step its heading and its narration as one paragraph."""
    out = [lesson.title, "=" * len(lesson.title), ""]
    for step in steps:
        out += [_heading(step), "-" * len(_heading(step)), " ".join(_said(lesson, step)), ""]
    return "\n".join(out)


def transcript_html(lesson: Lesson, steps: Sequence[Step]) -> str:
    """The same as a page, in the lesson's language."""
    body = [f"<h1>{html_text(lesson.title)}</h1>"]
    for step in steps:
        body += [
            f"<h2>{html_text(_heading(step))}</h2>",
            f"<p>{_said_html(lesson, step)}</p>",
        ]
    language = lesson.words["common.word.language"]
    style = (
        STYLE_BASE + "body { max-width: 42rem; } .described { color: #445; font-style: italic; }"
    )
    return page(lesson.title, language, style, "\n".join(body))


def interactive(
    lesson: Lesson, steps: Sequence[Step], full: FullEntry, video: str = "whole"
) -> str:
    """The whole lesson's transcript beside the player whose id is ``video``, a button per
    beat: activating one (click, Enter or Space) plays that video from there; :data:`SCRIPT`
    marks the beat being said. Each page that shows one (the embed page, the course page) uses
    this one."""
    words = lesson.words
    heading = f"{video}-transcript"
    parts = [
        f'<section class=transcript aria-labelledby="{html_attribute(heading)}" '
        f'data-video="{html_attribute(video)}">'
        f'<h3 id="{html_attribute(heading)}">{html_text(words["page.heading.transcript"])}</h3>'
        f"<p class=muted>{html_text(words['page.line.transcript'])}</p><div class=lines>"
    ]
    for step, chapter in zip(steps, full.chapters, strict=True):
        parts.append(f"<h4>{html_text(_heading(step))}</h4><ol>")
        for beat, description in zip(step.beats, step_descriptions(words, step), strict=True):
            if not beat.caption.strip():
                continue
            start, end = chapter.start + beat.start, chapter.start + beat.end
            extra = f" <span class=described>{html_text(description)}</span>" if description else ""
            parts.append(
                f'<li><button class=line data-seek="{start:.3f}" data-end="{end:.3f}">'
                f"<span class=muted>{clock(start)}</span> "
                f"{html_text(' '.join(beat.caption.split()))}{extra}</button></li>"
            )
        parts.append("</ol>")
    parts.append("</div></section>")
    return "".join(parts)


STYLE = """
.player { display: grid; gap: 1rem; grid-template-columns: minmax(0, 3fr) minmax(14rem, 2fr);
  align-items: start; }
@media (max-width: 50rem) { .player { grid-template-columns: 1fr; } }
.transcript .lines { max-height: 30rem; overflow-y: auto; border: 1px solid #99a;
  border-radius: 6px; padding: 0 .6rem; }
.transcript h3 { margin-top: 0; }
.transcript h4 { font-size: .95rem; margin: .8rem 0 .2rem; }
.transcript ol { list-style: none; padding: 0; margin: 0; }
button.line { font: inherit; text-align: left; width: 100%; background: none; border: 0;
  border-radius: 4px; padding: .2rem .3rem; cursor: pointer; color: inherit; }
button.line:hover { background: #eef0f6; }
.described { color: #445; font-style: italic; }
button.line[aria-current="true"] { background: #fff2b3; box-shadow: inset 3px 0 #8a6d00; }
"""
"""The player and its transcript side by side (stacked on a narrow screen); the beat being
said is highlighted in yellow with a bar, so it shows without colour too."""

SCRIPT = """
for (const section of document.querySelectorAll("section.transcript[data-video]")) {
  const video = document.getElementById(section.dataset.video);
  if (!video) continue;
  const lines = [...section.querySelectorAll("button.line")];
  const box = section.querySelector(".lines");
  for (const line of lines) {
    line.addEventListener("click", () => {  // a button: Enter and Space click it too
      video.currentTime = Number(line.dataset.seek);
      video.play().catch(() => {});  // a page may not play on its own: the seek still holds
    });
  }
  let current = null;
  video.addEventListener("timeupdate", () => {
    const t = video.currentTime;
    const now = lines.find((b) => Number(b.dataset.seek) <= t && t < Number(b.dataset.end));
    if (now === current) return;
    current?.removeAttribute("aria-current");
    current = now ?? null;
    if (!current) return;
    current.setAttribute("aria-current", "true");
    const top = current.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - current.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 3;  // keep the beat in view, not the page moved
    }
  });
}
"""
"""Each transcript's lines seek its own player; the beat being said is marked
(``aria-current``) as that video plays, scrolling only the transcript's own box."""
