"""The kit's pages at WCAG 2.1 AA: axe-core (pinned, installed by scripts/setup.sh) run in
Debian's Chromium on every page, and the deck worked by keyboard alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.conftest import ROOT, CourseRun, Rendered
from tests.test_lecture_kit import Visit, browser  # noqa: F401 (browser: a fixture)

AXE = ROOT / ".venv" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _violations(browser: Browser, page: Path) -> list[dict[str, Any]]:  # noqa: F811
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run scripts/setup.sh (npm install axe-core@4.14.1)")
    visit = Visit(browser, page)
    visit.page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = visit.page.evaluate(
        "tags => axe.run(document, { runOnly: { type: 'tag', values: tags } })"
        ".then(r => r.violations.map(v => ({ id: v.id, impact: v.impact,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5) })))",
        TAGS,
    )
    visit.check_offline()
    return found


@pytest.mark.render
@pytest.mark.browser
@pytest.mark.parametrize("name", ["index.html", "handout.html", "transcript.html", "slides.html"])
def test_every_kit_page_passes_axe(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
    name: str,
) -> None:
    assert _violations(browser, rendered.folder / name) == []


@pytest.mark.render
@pytest.mark.browser
def test_the_course_index_passes_axe(course: CourseRun, browser: Browser) -> None:  # noqa: F811
    assert _violations(browser, course.folder / "index.html") == []
    page = (course.folder / "index.html").read_text("utf-8")
    assert page.count("/transcript.html") == 2  # each lesson's transcript, linked


@pytest.mark.render
@pytest.mark.browser
def test_the_deck_works_by_keyboard_alone(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    """Space and Enter play the next beat, the left arrow goes back one."""
    visit = Visit(browser, rendered.folder / "slides.html")
    page = visit.page
    page.evaluate("document.querySelectorAll('video').forEach(v => v.playbackRate = 4)")

    for key, slide in (("Space", 0), ("Enter", 1)):
        page.keyboard.press(key)
        page.wait_for_function(
            f"document.body.dataset.slide == '{slide}' && document.body.dataset.state == 'paused'",
            timeout=30_000,
        )
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.body.dataset.slide") == "0"
    visit.check_offline()
