"""The web pages from files: autoescaped Jinja2 templates, and the static files they inline.

Both are package data (``templates/`` and ``static/`` beside the page code). Every page is
self-contained (it must play from ``file://`` and inside a SCORM zip), so its style sheets and
scripts are read from ``static/`` when it is written and inlined, never linked.
"""

from __future__ import annotations

import html
import json
from functools import cache
from importlib.resources import files
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

__all__ = ["KIT", "Markup", "inline", "json_script", "macros", "render", "static"]

KIT = "publish.kit"
"""The package whose ``templates/`` and ``static/`` the lecture kit's pages come from."""


def render(template: str, package: str = KIT, /, **context: Any) -> str:
    """The template ``template`` of ``package`` filled in with ``context``; a value in it that
    is HTML already (a part another template made) is passed as :class:`~markupsafe.Markup`."""
    return _environment(package).get_template(template).render(**context)


def macros(template: str, package: str = KIT, /) -> Any:
    """The macros of ``template``, to call from Python: each returns its HTML as
    :class:`~markupsafe.Markup` (``str()`` it before adding it to a plain string)."""
    return _environment(package).get_template(template).module


def static(name: str, package: str = KIT) -> str:
    """The text of ``static/name``: a style sheet or script, trusted as it is written."""
    return files(package).joinpath("static", name).read_text("utf-8")


def inline(*names: str, package: str = KIT) -> str:
    """The static files ``names`` one after another, each from a line of its own: what a
    page's ``<style>`` or ``<script>`` holds."""
    return "".join("\n" + static(name, package) for name in names)


def json_script(value: object) -> Markup:
    """``value`` as JSON to go inside a ``<script>`` element: ``</`` written ``<\\/`` (which
    JSON allows), so no string in it can close the element."""
    return Markup(json.dumps(value, ensure_ascii=False).replace("</", "<\\/"))


def _text(value: object) -> Markup:
    """``value`` escaped for an element's text: quotes kept as they are (``|text``)."""
    return Markup(html.escape(str(value), quote=False))


def _finalize(value: object) -> object:
    """Every value a template prints, escaped for a quoted attribute (quotes too) unless it is
    markup already or marked ``|text``: safe anywhere, as :func:`html.escape` writes it."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=True))


@cache
def _environment(package: str) -> Environment:
    environment = Environment(
        loader=PackageLoader(package, "templates"),
        autoescape=True,
        finalize=_finalize,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["text"] = _text
    environment.filters["json_script"] = json_script
    environment.globals["static"] = lambda name: Markup(static(name, package))
    return environment
