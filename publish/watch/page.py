"""The preview page: the lesson's clips one after another, its beats listed, kept up to date."""

from __future__ import annotations

from publish.kit.templating import render

__all__ = ["PAGE"]

PAGE = render("preview.html", "publish.watch") + "\n"
"""``templates/preview.html`` with its style sheet and script (``static/``) inlined."""
