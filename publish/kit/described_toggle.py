"""The player's "Described version" toggle: where the lesson's audio-described video exists, a
button swaps the player's source to it at the same moment of the lesson, and back.

The two videos differ only by the holds (:mod:`publish.media.holds`), exported into the page as
JSON; the script maps the moment through them both ways, and moves the captions track, the
transcript's lines and the chapters' seeks to the video playing.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from attention_core import Words
from publish.kit.templating import inline
from publish.kit.webpage import html_attribute, html_text
from publish.media.holds import SAME, described_name, holds_of

__all__ = ["SCRIPT", "STYLE", "described_toggle"]


def described_toggle(full: str, folder: Path, words: Words, video: str, prefix: str = "") -> str:
    """The toggle for the player ``video`` of the whole video ``full`` (as the page links to it,
    ``prefix`` before), with its script; nothing where no described video is beside it."""
    target = folder / described_name(full)
    sidecar, captions = target.with_suffix(".json"), target.with_suffix(".vtt")
    if not (target.is_file() and sidecar.is_file()):
        return ""
    swap = {
        "plain": prefix + full,
        "described": prefix + target.name,
        "holds": [[hold.at, hold.length] for hold in holds_of(sidecar)],
        "same": SAME,
    }
    if captions.is_file():
        data = base64.b64encode(captions.read_bytes()).decode("ascii")
        swap["captions"] = f"data:text/vtt;base64,{data}"
    return (
        f'<button type="button" class=described-toggle aria-pressed="false" '
        f'data-video="{html_attribute(video)}" data-swap="{html_attribute(json.dumps(swap))}">'
        f"{html_text(words['page.word.described_version'])}</button><script>{SCRIPT}</script>"
    )


STYLE = inline("described_toggle.css")

SCRIPT = inline("described_toggle.js")
"""Binds every toggle on the page once, however many players (a course page) include it."""
