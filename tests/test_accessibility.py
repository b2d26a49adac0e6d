"""The kit's pages at WCAG 2.1 AA: axe-core (pinned, installed by scripts/setup.sh) run in
Debian's headless Chromium through Selenium and Debian's chromium-driver on every page, and the
deck worked by keyboard alone (playwright, as the other page tests)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from tests.conftest import ROOT, CourseRun, Rendered
from tests.test_lecture_kit import CHROMIUM, Visit, browser  # noqa: F401 (browser: a fixture)

AXE = ROOT / ".venv" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN_AXE = """
const [tags, done] = arguments;
axe.run(document, { runOnly: { type: "tag", values: tags } })
  .then((r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact,
    nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }))))
  .catch((e) => done([{ id: "axe failed", impact: String(e), nodes: [] }]));
"""
"""axe over the page, its violations sent back to Selenium's ``execute_async_script``."""
AWAY = """
return performance.getEntriesByType("resource").map((e) => e.name)
  .filter((url) => !url.startsWith("file:") && !url.startsWith("data:"));
"""
"""Every address the page asked for that is not a file beside it or inlined."""


@pytest.fixture(scope="module")
def driver() -> Iterator[webdriver.Chrome]:
    """Debian's Chromium, headless, through Debian's chromium-driver (never one Selenium
    Manager would fetch: the driver's path is given)."""
    chromedriver = shutil.which("chromedriver")
    if chromedriver is None or not CHROMIUM.exists():
        pytest.fail(
            "chromium-driver is missing: run scripts/setup.sh (apt-get install chromium-driver)"
        )
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,720"):
        options.add_argument(argument)
    launched = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
    launched.set_script_timeout(120)
    yield launched
    launched.quit()


def _violations(driver: webdriver.Chrome, page: Path) -> list[dict[str, Any]]:
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run scripts/setup.sh (npm install axe-core@4.14.1)")
    driver.get(page.resolve().as_uri())
    driver.execute_script(AXE.read_text("utf-8"))
    found: list[dict[str, Any]] = driver.execute_async_script(RUN_AXE, TAGS)
    assert driver.execute_script(AWAY) == [], "the page asked the network"
    return found


@pytest.mark.render
@pytest.mark.browser
@pytest.mark.parametrize(
    "name", ["index.html", "handout.html", "transcript.html", "slides.html", "twin.html"]
)
def test_every_kit_page_passes_axe(rendered: Rendered, driver: webdriver.Chrome, name: str) -> None:
    assert _violations(driver, rendered.folder / name) == []


@pytest.mark.render
@pytest.mark.browser
def test_the_course_index_passes_axe(series: CourseRun, driver: webdriver.Chrome) -> None:
    assert _violations(driver, series.folder / "index.html") == []
    page = (series.folder / "index.html").read_text("utf-8")
    assert page.count("/transcript.html") == 3  # each lesson's transcript, linked


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
