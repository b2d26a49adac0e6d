"""The player's "Described version" toggle: where the lesson's audio-described video exists, a
button swaps the player's source to it at the same moment of the lesson, and back.

The two videos differ only by the holds (:mod:`publish.described.holds`), whose time map reaches the
page as data (:func:`time_map`); the script maps the moment through it both ways, and moves the
captions track, the transcript's lines and the chapters' seeks to the video playing.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from pathlib import Path

from attention_core import Words
from publish.described.holds import SAME, Hold, described_name, holds_of, later
from publish.kit.templating import Markup, inline, render

__all__ = ["SCRIPT", "described_toggle", "time_map"]


def described_toggle(full: str, folder: Path, words: Words, video: str, prefix: str = "") -> str:
    """The toggle for the player ``video`` of the whole video ``full`` (as the page links to it,
    ``prefix`` before), with its script; nothing where no described video is beside it."""
    target = folder / described_name(full)
    sidecar, captions = target.with_suffix(".json"), target.with_suffix(".vtt")
    if not (target.is_file() and sidecar.is_file()):
        return ""
    holds = holds_of(sidecar)
    swap = {
        "plain": prefix + full,
        "described": prefix + target.name,
        "map": time_map(holds),
        "same": SAME,
    }
    if captions.is_file():
        data = base64.b64encode(captions.read_bytes()).decode("ascii")
        swap["captions"] = f"data:text/vtt;base64,{data}"
    return render(
        "described_toggle.html",
        video=video,
        swap=json.dumps(swap),
        label=words["page.word.described_version"],
        script=Markup(SCRIPT),
    )


def time_map(holds: Sequence[Hold]) -> list[tuple[float, float]]:
    """The two videos' time map as data, for the page: its corners, ``(plain, described)``
    each, two per hold (where the held frame's moment begins and ends in the described video,
    by :func:`publish.described.holds.later`). Between two corners both videos run at one pace,
    or the plain one stands still (a hold); ``described_toggle.js`` only follows the corners."""
    return [
        corner
        for hold in holds
        for corner in (
            (hold.at, later(hold.at, holds, ending=True)),
            (hold.at, later(hold.at, holds)),
        )
    ]


SCRIPT = inline("described_toggle.js")
"""Binds every toggle on the page once, however many players (a course page) include it."""
