"""The pages a student opens, at a phone's size and a desktop's: index.html, twin.html and the
course page screenshotted at 375×812 and 1440×900 (kept under the test's folder to look at), none
scrolling sideways, the video leading (at least 900 px wide at 1440), dark where the system is;
and the twin's cells worked by keyboard alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from attention_core import default_lesson, parse_lesson
from attention_core.palette import BACKGROUND

from .conftest import CourseRun, Rendered
from .lessons import default_data
from .test_lecture_kit import Visit, browser  # noqa: F401 (browser: a fixture)
from .test_twin import check

SIZES = [(375, 812), (1440, 900)]
PAGES = ["index.html", "twin.html", "course"]

WIDE = """
() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
  [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right >
    document.documentElement.clientWidth + 1 && e.getClientRects().length).map((e) =>
    e.tagName + "." + e.className).slice(0, 5)]
"""
"""How wide the page is against the window, and the first elements reaching past it."""


def _path(name: str, rendered: Rendered, course: CourseRun) -> Path:
    return course.folder / "index.html" if name == "course" else rendered.folder / name


@pytest.mark.render
@pytest.mark.browser
@pytest.mark.parametrize("name", PAGES)
def test_each_page_fits_a_phone_and_a_desktop(
    name: str,
    rendered: Rendered,
    series: CourseRun,
    browser: Browser,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    shots = tmp_path_factory.mktemp("screens")
    for width, height in SIZES:
        for scheme in ("light", "dark"):
            page = browser.new_page(
                viewport={"width": width, "height": height}, color_scheme=scheme
            )
            page.goto(_path(name, rendered, series).as_uri())
            page.wait_for_load_state("load")
            scrolled, window, past = page.evaluate(WIDE)
            assert scrolled <= window, f"{name} at {width} px scrolls sideways: {past}"
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            dark = "rgb({}, {}, {})".format(*(int(BACKGROUND[i : i + 2], 16) for i in (1, 3, 5)))
            assert (background == dark) == (scheme == "dark"), (name, scheme, background)
            if width == 1440 and name != "twin.html":
                video = page.evaluate(
                    "document.querySelector('video').getBoundingClientRect().width"
                )
                assert video >= 900, f"{name}: the video is {video} px wide at 1440"
            page.screenshot(path=str(shots / f"{name}-{width}x{height}-{scheme}.png"))
            page.close()
    print(f"\nscreenshots: {shots}")


@pytest.mark.render
@pytest.mark.browser
def test_a_twin_cell_steps_by_arrow_key_and_the_numbers_follow(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    """Tab to the query's first cell, press the up arrow: it steps by one, every number follows
    and the cell's shade changes; a phone's width, where the cells wrap."""
    page = browser.new_page(viewport={"width": 375, "height": 812})
    page.goto((rendered.folder / "twin.html").as_uri())
    cell = '[data-input="query"][data-index="1"]'
    before = page.eval_on_selector(cell, "(e) => e.style.getPropertyValue('--shade')")
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches('{cell}')"):
            break
    else:
        pytest.fail("Tab never reached the query's cell")
    page.keyboard.press("ArrowUp")
    document = default_data()
    document["query"][1] += 1
    check(page, parse_lesson(document))
    assert page.eval_on_selector(cell, "(e) => e.style.getPropertyValue('--shade')") != before
    page.click("[data-twin-back]")
    check(page, default_lesson())
    page.close()
