"""The frame of every page the lecture kit writes: one self-contained HTML file, no network."""

from __future__ import annotations

import html

from publish.kit.direction import direction

__all__ = ["STYLE_BASE", "html_attribute", "html_text", "page"]

STYLE_BASE = """
:root { color-scheme: light; }
body { font: 16px/1.5 Inter, "DejaVu Sans", system-ui, sans-serif; color: #1d1f2b;
  margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 2rem; margin: 0 0 .3rem; }
h2 { font-size: 1.3rem; margin: 1.4rem 0 .4rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
.lead { font-size: 1.15rem; }
.muted { color: #556; }
code, pre { font: .9rem/1.4 "DejaVu Sans Mono", ui-monospace, monospace; }
"""
"""Type and colours shared by the embed page and the handout."""


def page(title: str, language: str, style: str, body: str, script: str = "") -> str:
    """A complete HTML document in ``language`` (a BCP 47 tag), written in its direction
    (``dir="rtl"`` for Arabic, Hebrew, Persian, Urdu...), its style and script inline."""
    scripts = f"<script>{script}</script>\n" if script else ""
    rtl = ' dir="rtl"' if direction(language) == "rtl" else ""  # left to right is the default
    return (
        "<!doctype html>\n"
        f'<html lang="{html.escape(language)}"{rtl}>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{style}</style>\n</head>\n"
        f"<body>\n{body}\n{scripts}</body>\n</html>\n"
    )


def html_text(value: str) -> str:
    """``value`` escaped for an element's text."""
    return html.escape(value, quote=False)


def html_attribute(value: str) -> str:
    """``value`` escaped for a quoted attribute."""
    return html.escape(value, quote=True)
