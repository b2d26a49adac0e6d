"""index.html: every step's clip with poster and captions, the whole video with chapters, and a
copyable embed snippet per clip. Self-contained; it links only to files beside it."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from attention_core import Lesson, Words
from publish.kit import quiz_player, transcript, twin
from publish.kit.described_toggle import described_toggle
from publish.kit.templating import Markup, inline, render
from publish.kit.webpage import SCHEME, STYLE_BASE, page
from publish.media.clip_beats import Step, clock
from publish.media.manifest import FullEntry

__all__ = ["PLAYER_STYLE", "embed_html", "player", "snippet"]


def snippet(step: Step, mime: str, words: Words) -> str:
    """The HTML a lecturer pastes into a page to show one clip, with its poster and captions."""
    return render("snippet.html", clip=step.clip, mime=mime, track=step.captions, words=words)


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
    body = render(
        "embed.html",
        lesson=lesson,
        words=words,
        extras=extras,
        player=Markup(player(lesson, steps, full, mime, folder)) if full else None,
        chapters=full.chapters if full else (),
        twin=Markup(twin.panel(lesson, chapters=[step.clip.step - 1 for step in steps]))
        if full
        else None,
        steps=[
            {
                "stem": step.stem,
                "clip": step.clip,
                "track": _data(step.captions, folder),
                "described": _data(f"{step.stem}.descriptions.vtt", folder),
                "snippet": snippet(step, mime, words),
            }
            for step in steps
        ],
        mime=mime,
        clock=clock,
    )
    language = words["common.word.language"]
    style = STYLE_BASE + SCHEME + _STYLE + PLAYER_STYLE + twin.STYLE
    script = _SCRIPT + transcript.SCRIPT + (twin.script(follow=True) if full is not None else "")
    return page(lesson.title, language, style, body, script)


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
    vtt = next((ref.file for ref in full.captions if ref.file.endswith(".vtt")), None)
    return render(
        "player.html",
        video=video,
        poster=prefix + steps[0].clip.poster.file if steps else None,
        source=prefix + full.file,
        mime=mime,
        track=_data(vtt, folder),
        described=_data(f"{Path(full.file).stem}.descriptions.vtt", folder),
        toggle=Markup(described_toggle(full.file, folder, words, video, prefix)),
        transcript=Markup(transcript.interactive(lesson, steps, full, video)),
        quiz=Markup(quiz_player.hook(lesson, full, video)),
        words=words,
    )


def _data(vtt: str | None, folder: Path) -> str | None:
    """The track ``vtt`` beside the page as a ``data:`` URL; None where there is none (a
    clip's descriptions track: what the screen shows and the voice does not say)."""
    if vtt is None or not (folder / vtt).is_file():
        return None
    return "data:text/vtt;base64," + base64.b64encode((folder / vtt).read_bytes()).decode("ascii")


PLAYER_STYLE = inline("player.css", "transcript.css", "described_toggle.css", "quiz.css")
"""What :func:`player` needs of a page's style: the video, its transcript beside it (stacked on
a narrow screen, the beat being said marked in yellow with a bar, so it shows without colour
too), the described version's toggle and the quiz's form."""

_STYLE = inline("embed.css")

_SCRIPT = inline("embed.js")
