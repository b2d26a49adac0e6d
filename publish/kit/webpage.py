"""The frame of every page the lecture kit writes (templates/page.html): self-contained, offline."""

from __future__ import annotations

import html

from publish.kit.direction import direction
from publish.kit.templating import Markup, inline, render

__all__ = ["STYLE_BASE", "html_text", "page"]

STYLE_BASE = inline("base.css")
"""Type and colours shared by the embed page and the handout."""


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
