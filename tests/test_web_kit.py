"""The web kit as files: templates and static files shipped as package data, no page text in a
Python string, values escaped by default, the described toggle's time map as data."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from publish.described.holds import Hold, earlier, later
from publish.kit.described_toggle import time_map
from publish.kit.templating import KIT, render

ROOT = Path(__file__).parent.parent
PUBLISH = ROOT / "publish"
WEB_FILES = sorted(
    path
    for folder in ("templates", "static")
    for path in PUBLISH.glob(f"*/{folder}/**/*")
    if path.is_file()
)


def test_every_template_and_static_file_is_package_data() -> None:
    """A non-editable install has them too: pyproject's package-data matches each one."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["publish"]
    shipped = {path for pattern in patterns for path in PUBLISH.glob(pattern)}
    assert len(WEB_FILES) > 40
    assert [path for path in WEB_FILES if path not in shipped] == []


def _strings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


MARKERS = ["<script", "<style", "addEventListener", "border-radius:"]
"""What opens a script or a style sheet, or is written only inside one."""
ELEMENTS = ["<table", "<tr", "<span", "<p>", "<li", "<video", "<section", "<input"]
"""Elements the pages are made of, which Python once wrote as f-strings."""


@pytest.mark.parametrize("marker", MARKERS + ELEMENTS)
def test_no_script_style_sheet_or_page_is_written_in_python(marker: str) -> None:
    """Scripts and style sheets live in ``static/``, pages in ``templates/``: no string of the
    package's Python holds one (docstrings may name an element, not open one)."""
    found = [
        f"{path.relative_to(ROOT)}: {text[:60]!r}"
        for path in PUBLISH.rglob("*.py")
        for text in _strings(path)
        if marker in text and not (marker.startswith("<") and f"``{marker}" in text)
    ]
    assert found == []


def test_every_kit_script_is_type_checked() -> None:
    scripts = [path for path in WEB_FILES if path.suffix == ".js"]
    assert scripts
    for script in scripts:
        assert script.read_text("utf-8").startswith("// @ts-check\n"), script


def test_a_value_is_escaped_unless_it_is_markup_already() -> None:
    """Autoescape is on: a title that looks like markup is shown as text, in the attribute's
    escaping where the template marks nothing (quotes too) and the text's where it says
    ``|text``."""
    page = render("scorm.html", KIT, title='<b>"x"</b>', player="<i>", transcript='a"b', about="&")
    assert page == (
        '<h1>&lt;b&gt;"x"&lt;/b&gt;</h1>&lt;i&gt;<p><a href="a&quot;b">a"b</a>: &amp;</p>'
    )


HOLDS = [Hold(3.0, 1.6), Hold(10.0, 0.4), Hold(12.5, 2.0)]


def test_the_time_map_has_two_corners_per_hold_where_the_holds_put_them() -> None:
    corners = time_map(HOLDS)
    assert corners == [
        (3.0, 3.0),
        (3.0, pytest.approx(4.6)),
        (10.0, pytest.approx(11.6)),
        (10.0, pytest.approx(12.0)),
        (12.5, pytest.approx(14.5)),
        (12.5, pytest.approx(16.5)),
    ]


def _along(corners: list[tuple[float, float]], t: float, start: int, end: int) -> float:
    """``described_toggle.js``'s ``along``, line for line: the page's only time arithmetic."""
    i = -1
    while i + 1 < len(corners) and t >= corners[i + 1][start] - 0.005:
        i += 1
    if i < 0:
        return t
    corner = corners[i]
    following = corners[i + 1] if i + 1 < len(corners) else None
    if following is not None and following[end] == corner[end]:
        return corner[end]
    return corner[end] + t - corner[start]


@pytest.mark.parametrize("t", [0.0, 1.0, 2.999, 3.0, 3.5, 4.6, 7.0, 10.0, 11.7, 12.5, 20.0])
def test_following_the_corners_maps_moments_as_the_holds_do(t: float) -> None:
    corners = time_map(HOLDS)
    assert _along(corners, t, 0, 1) == pytest.approx(later(t, HOLDS))
    assert _along(corners, t, 1, 0) == pytest.approx(earlier(t, HOLDS))
