"""The frame of every page the lecture kit writes (templates/page.html): self-contained, offline."""

from __future__ import annotations

import html

from attention_core import palette
from publish.kit.direction import direction
from publish.kit.templating import Markup, inline, render

__all__ = ["PALETTE", "SCHEME", "STYLE_BASE", "html_text", "page"]

STYLE_BASE = inline("base.css")
"""Type and colours shared by the embed page and the handout."""

PALETTE = "\n" + render("palette.css", p=palette)
"""The video's colours (:mod:`attention_core.palette`) as custom properties: ``--query``,
``--key``, ``--value``, ``--rival``, ``--t0`` … (the tokens'), the scene's own."""

SCHEME = PALETTE + inline("scheme.css")
"""What makes a page follow ``prefers-color-scheme``: dark is the video's own background."""


def page(title: str, language: str, style: str, body: str, script: str = "") -> str:
    """A complete HTML document in ``language`` (a BCP 47 tag), written in its direction
    (``dir="rtl"`` for Arabic, Hebrew, Persian, Urdu...), its style and script inline."""
    return (
        render(
            "page.html",
            title=title,
            language=language,
            rtl=direction(language) == "rtl",  # left to right is the default
            style=Markup(style),
            body=Markup(body),
            script=Markup(script),
        )
        + "\n"
    )  # the template's own last newline is dropped, as every template's is


def html_text(value: str) -> str:
    """``value`` escaped for an element's text."""
    return html.escape(value, quote=False)
