"""index.html: every step's clip with poster and captions, the whole video with chapters, and a
copyable embed snippet per clip. Self-contained; it links only to files beside it."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from attention_core import Lesson, Words
from publish.kit import quiz_player, transcript, twin
from publish.kit.described_toggle import STYLE as described_toggle_style
from publish.kit.described_toggle import described_toggle
from publish.kit.webpage import STYLE_BASE, html_attribute, html_text, page
from publish.media.clip_beats import Step, clock
from publish.media.manifest import FullEntry

__all__ = ["PLAYER_STYLE", "embed_html", "player", "snippet"]


def snippet(step: Step, mime: str, words: Words) -> str:
    """The HTML a lecturer pastes into a page to show one clip, with its poster and captions."""
    clip = step.clip
    track = f"\n  {_track_tag(step.captions, words)}" if step.captions else ""
    return (
        f'<video controls preload="metadata" width="{clip.width}" height="{clip.height}" '
        f'poster="{html_attribute(clip.poster.file)}">\n'
        f'  <source src="{html_attribute(clip.file)}" type="{mime}">{track}\n</video>'
    )


def embed_html(
    lesson: Lesson,
    steps: Sequence[Step],
    full: FullEntry | None,
    mime: str,
    extras: Sequence[str],
    folder: Path,
) -> str:
    """The page. Tracks are inlined as ``data:`` URLs so captions show even from ``file://``,
    where browsers refuse to fetch a ``.vtt`` beside the page; the snippets name the files."""
    words = lesson.words
    body = [f"<h1>{html_text(lesson.title)}</h1>"]
    if extras:
        links = "".join(_kit_file(name, words) for name in extras)
        body.append(f"<h2>{html_text(words['page.heading.kit'])}</h2><ul>{links}</ul>")
    if full is not None:
        body += _whole(full, steps, mime, folder, lesson)
        body.append(twin.panel(lesson, chapters=[step.clip.step - 1 for step in steps]))
    body.append(f"<h2>{html_text(words['page.heading.steps'])}</h2>")
    for step in steps:
        body += _step(step, mime, folder, words)
    language = words["common.word.language"]
    style = STYLE_BASE + _STYLE + PLAYER_STYLE + twin.STYLE
    script = _SCRIPT + transcript.SCRIPT + (twin.script(follow=True) if full is not None else "")
    return page(lesson.title, language, style, "\n".join(body), script)


def _kit_file(name: str, words: Words) -> str:
    """The file, linked, and what it is: entry ``page.line.handout_pdf`` for handout.pdf."""
    about = words[f"page.line.{name.replace('.', '_')}"]
    return f'<li><a href="{html_attribute(name)}">{html_text(name)}</a>: {html_text(about)}</li>'


def _whole(
    full: FullEntry, steps: Sequence[Step], mime: str, folder: Path, lesson: Lesson
) -> list[str]:
    words = lesson.words
    chapters = "".join(
        f'<li><button data-seek="{chapter.start:.3f}">{clock(chapter.start)} · '
        f"{html_text(chapter.title)}</button></li>"
        for chapter in full.chapters
    )
    return [
        f"<h2>{html_text(words['page.heading.whole'])}</h2>",
        player(lesson, steps, full, mime, folder),
        f"<p class=muted>{html_text(words['page.line.chapters'])}</p>",
        f'<ol class=chapters data-video="whole">{chapters}</ol>',
    ]


def player(
    lesson: Lesson,
    steps: Sequence[Step],
    full: FullEntry,
    mime: str,
    folder: Path,
    *,
    video: str = "whole",
    prefix: str = "",
) -> str:
    """The whole lesson's player, its captions and descriptions tracks inlined, with the
    interactive transcript beside it and the quiz under it (:mod:`publish.kit.quiz_player`);
    ``video``: the player's id, ``prefix``: the lesson's
    folder as the page links to it (``default/`` on the course page, nothing beside it)."""
    words = lesson.words
    poster = f' poster="{html_attribute(prefix + steps[0].clip.poster.file)}"' if steps else ""
    vtt = next((ref.file for ref in full.captions if ref.file.endswith(".vtt")), None)
    screen = (
        f'<video id="{html_attribute(video)}" controls preload="auto"{poster}>'
        f'<source src="{html_attribute(prefix + full.file)}" type="{mime}">'
        f"{_track(vtt, folder, words)}"
        f"{_described(f'{Path(full.file).stem}.descriptions.vtt', folder, words)}</video>"
    )
    toggle = described_toggle(full.file, folder, words, video, prefix)
    if toggle:  # under the video, in the player's first column
        screen = f"<div>{screen}{toggle}</div>"
    return (
        f"<div class=player>{screen}{transcript.interactive(lesson, steps, full, video)}"
        f"{quiz_player.hook(lesson, full, video)}</div>"
    )


def _step(step: Step, mime: str, folder: Path, words: Words) -> list[str]:
    clip = step.clip
    code = html_text(snippet(step, mime, words))
    track = _track(step.captions, folder, words)
    return [
        f'<section class=step id="{html_attribute(step.stem)}">',
        f"<h3>{clip.step} · {html_text(clip.title)} <span class=muted>({clock(clip.duration)})"
        "</span></h3>",
        f'<video controls preload="auto" poster="{html_attribute(clip.poster.file)}">'
        f'<source src="{html_attribute(clip.file)}" type="{mime}">{track}'
        f"{_described(f'{step.stem}.descriptions.vtt', folder, words)}</video>",
        f"<p class=muted>{html_text(words['page.line.embed'])}</p>",
        f"<div class=snippet><pre><code>{code}</code></pre><button class=copy "
        f'data-done="{html_attribute(words["page.word.copied"])}">{html_text(words["page.word.copy"])}'
        "</button></div>",
        "</section>",
    ]


def _track(vtt: str | None, folder: Path, words: Words) -> str:
    if vtt is None:
        return ""
    data = base64.b64encode((folder / vtt).read_bytes()).decode("ascii")
    return _track_tag(f"data:text/vtt;base64,{data}", words)


def _described(vtt: str, folder: Path, words: Words) -> str:
    """The clip's descriptions track (what the screen shows and the voice does not say), for
    screen readers and players that voice it."""
    if not (folder / vtt).is_file():
        return ""
    data = base64.b64encode((folder / vtt).read_bytes()).decode("ascii")
    return (
        f'<track kind="descriptions" src="data:text/vtt;base64,{data}" '
        f'srclang="{html_attribute(words["common.word.language"])}" '
        f'label="{html_attribute(words["page.word.on_screen"])}">'
    )


def _track_tag(src: str, words: Words) -> str:
    """A default captions track in the lesson's language."""
    return (
        f'<track kind="captions" src="{html_attribute(src)}" '
        f'srclang="{html_attribute(words["common.word.language"])}" '
        f'label="{html_attribute(words["page.word.captions"])}" default>'
    )


PLAYER_STYLE = (
    """
video { width: 100%; max-width: 854px; background: #000; border-radius: 6px; display: block; }
"""
    + transcript.STYLE
    + described_toggle_style
    + quiz_player.QUIZ_STYLE
)
"""What :func:`player` needs of a page's style."""

_STYLE = """
body { max-width: 60rem; }
ol.chapters { display: flex; flex-wrap: wrap; gap: .4rem; padding: 0; list-style: none; }
ol.chapters button, button.copy { font: inherit; padding: .25rem .7rem; border-radius: 5px;
  border: 1px solid #99a; background: #f3f4f8; cursor: pointer; }
section.step { margin: 2rem 0; }
.snippet { position: relative; }
.snippet pre { background: #f3f4f8; padding: .7rem .9rem; border-radius: 5px; overflow-x: auto; }
button.copy { position: absolute; top: .4rem; right: .4rem; }
"""

_SCRIPT = """
const whole = document.getElementById("whole");
for (const button of document.querySelectorAll("ol.chapters [data-seek]")) {
  button.addEventListener("click", () => {
    whole.currentTime = Number(button.dataset.seek);
    whole.play();
  });
}
for (const button of document.querySelectorAll("button.copy")) {
  button.addEventListener("click", async () => {
    const code = button.previousElementSibling.textContent;
    try {
      await navigator.clipboard.writeText(code);
    } catch {
      const range = document.createRange();  // file:// pages may not use the clipboard API
      range.selectNodeContents(button.previousElementSibling);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      document.execCommand("copy");
    }
    button.textContent = button.dataset.done;
  });
}
"""
