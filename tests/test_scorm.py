"""render.py --package scorm: the SCORM 1.2 package of a lesson, its manifest validated against
the schema files it ships (lxml), and the package driven to completion in Chromium under a real
SCORM 1.2 runtime, scorm-again's ``Scorm12API`` (pinned, installed by scripts/setup.sh)."""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from playwright.sync_api import Browser, Frame, Page, sync_playwright

from attention_core import default_lesson
from publish.kit import scorm
from publish.media.files import PARTIAL
from tests.conftest import ROOT, SERIES, CourseRun, cli
from tests.test_lecture_kit import CHROMIUM
from tests.test_quiz_player import right_option

RUNTIME = ROOT / ".venv" / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
SESSION_TIME = re.compile(r"^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$")
"""SCORM 1.2's CMITimespan (the page writes HHHH:MM:SS.SS; the runtime keeps HH:MM:SS.SS)."""
ZIP = "attention_by_hand_scorm12.zip"


def test_an_unknown_package_kind_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = cli(tmp_path, "--package", "zip")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "render.py: --package zip: unknown kind; the one there is: --package scorm"
    ]
    assert not list(tmp_path.rglob("*.zip"))


def test_the_manifest_validates_and_a_broken_one_does_not() -> None:
    """The schema files as installed: a manifest without its SCO's scormtype is refused, so
    the validation the package test relies on can fail."""
    schema = etree.XMLSchema(etree.parse(str(scorm.SCHEMAS / "adlcp_rootv1p2.xsd")))
    from attention_core import default_lesson
    from tests.test_quiz_player import _full

    lesson = default_lesson()
    good = etree.fromstring(scorm.manifest_xml(lesson, _full(lesson), ["index.html"]))
    assert schema.validate(good), schema.error_log
    broken = etree.fromstring(
        scorm.manifest_xml(lesson, _full(lesson), ["index.html"]).replace(
            b'adlcp:scormtype="sco"', b'adlcp:scormtype="lesson"'
        )
    )
    assert not schema.validate(broken)


@pytest.fixture(scope="module")
def lms_browser() -> Iterator[Browser]:
    """Chromium that lets a file:// page reach into its file:// frame, as an LMS serving the
    package and its own page from one origin does (else each file is an origin of its own)."""
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: run scripts/setup.sh (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--autoplay-policy=no-user-gesture-required",
                "--allow-file-access-from-files",
            ],
        )
        yield launched
        launched.close()


def lms_page(folder: Path, *, window: bool = False) -> Path:
    """The test's LMS: scorm-again's SCORM 1.2 runtime as ``window.API``, the package's page
    (``package/index.html``, as an LMS launches the resource's href) in a frame; with
    ``window``, no frame: :func:`take_lesson` then opens the page in a window of its own (the
    SCO finds the API through ``window.opener``)."""
    if not RUNTIME.is_file():
        pytest.fail("scorm-again is missing: run scripts/setup.sh (npm install scorm-again)")
    frame = (
        ""
        if window
        else '<iframe id=sco title="the lesson" src="package/index.html" width=1200 height=800>'
        "</iframe>"
    )
    page = folder / ("lms_window.html" if window else "lms.html")
    page.write_text(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>LMS</title>"
        f"<script>{RUNTIME.read_text('utf-8')}</script>"
        "<script>window.API = new Scorm12API({ logLevel: 5 });</script></head><body>"
        f"{frame}</body></html>",
        "utf-8",
    )
    return page


def take_lesson(browser: Browser, lms: Path, right: bool) -> dict[str, Any]:
    """Launch the package (in ``lms``'s frame, or in a window it opens where it has none),
    watch to the end with the quiz answered (right or not, by worked()'s letter), leave it;
    the runtime's cmi values and state."""
    tab: Page = browser.new_page(viewport={"width": 1280, "height": 900})
    tab.goto(lms.resolve().as_uri())
    sco: Page | Frame | None = tab.frame(url=re.compile(r"package/index\.html"))
    keys = tab.keyboard
    if sco is None:
        with tab.expect_popup() as opened:
            tab.evaluate("window.open('package/index.html', 'sco', 'width=1200,height=800')")
        sco = opened.value
        keys = sco.keyboard
    sco.wait_for_function("document.getElementById('whole').readyState >= 2", timeout=30_000)
    started = tab.evaluate("[API.isInitialized(), API.cmi.core.lesson_status]")
    assert started == [True, "incomplete"]
    sco.evaluate("window.v = document.getElementById('whole'); v.muted = true")
    at = sco.evaluate(
        "JSON.parse(document.querySelector('.player script').textContent"
        ".match(/\\}\\)\\((\\{.*\\})\\);$/s)[1])"
    )
    sco.evaluate(f"v.currentTime = {at['at'] - 1.0}")
    sco.wait_for_function("!v.seeking")
    sco.evaluate("v.play()")
    sco.wait_for_function("document.querySelector('form.quiz').dataset.state == 'asking'")
    keys.press("Space")
    correct = right_option(sco, default_lesson())
    pick = correct if right else (correct + 1) % 4
    for _ in range(pick):
        keys.press("ArrowDown")
    keys.press("Tab")
    keys.press("Enter")
    sco.wait_for_function("document.querySelector('form.quiz').dataset.state == 'answered'")
    scored = tab.evaluate("[API.cmi.core.lesson_status, API.cmi.core.score.raw]")
    keys.press("Enter")  # continue
    sco.wait_for_function("!v.paused")
    sco.evaluate("v.currentTime = v.duration - 0.5")
    sco.wait_for_function("v.ended", timeout=30_000)
    tab.wait_for_function("API.cmi.core.lesson_status != 'incomplete'")
    before_leaving = tab.evaluate("API.isTerminated()")
    if isinstance(sco, Page):  # the learner leaves
        sco.goto("about:blank")
    else:
        tab.evaluate("document.getElementById('sco').src = 'about:blank'")
    tab.wait_for_function("API.isTerminated()")
    values: dict[str, Any] = tab.evaluate(
        """({ status: API.cmi.core.lesson_status, raw: API.cmi.core.score.raw,
             min: API.cmi.core.score.min, max: API.cmi.core.score.max,
             sent: API.renderCommitCMI(true), error: API.lastErrorCode })"""
    )
    tab.close()
    return {**values, "scored": scored, "terminated_early": before_leaving}


@pytest.mark.render
@pytest.mark.browser
def test_the_scorm_package_is_complete_and_an_lms_grades_it(
    copy_of: Path,
    tmp_path: Path,
    lms_browser: Browser,
) -> None:
    done = cli(copy_of, "--slides", "--package", "scorm")
    assert done.returncode == 0, done.stdout + done.stderr
    drawn = [line for line in done.stdout.splitlines() if re.search(r"\brendered\b", line)]
    assert drawn == [], "the package reuses every cached clip"
    package = copy_of / "low" / ZIP
    assert package.is_file()
    assert not [p.name for p in package.parent.iterdir() if PARTIAL in p.name]

    unpacked = tmp_path / "package"
    with zipfile.ZipFile(package) as zipped:
        names = zipped.namelist()
        zipped.extractall(unpacked)
    assert names[0] == "imsmanifest.xml"
    manifest = etree.parse(str(unpacked / "imsmanifest.xml"))
    schema = etree.XMLSchema(etree.parse(str(unpacked / "adlcp_rootv1p2.xsd")))
    assert schema.validate(manifest), schema.error_log
    ns = {"cp": scorm.IMSCP, "adlcp": scorm.ADLCP}
    (resource,) = manifest.findall(".//cp:resource", ns)
    assert resource.get(f"{{{scorm.ADLCP}}}scormtype") == "sco"
    assert resource.get("href") == "index.html"
    listed = [f.get("href") for f in resource.findall("cp:file", ns)]
    assert sorted([*listed, "imsmanifest.xml", *scorm.SCHEMA_FILES]) == sorted(names)
    stem = ZIP.removesuffix("_scorm12.zip")
    for name in (f"{stem}.mp4", f"{stem}.vtt", f"{stem}.descriptions.vtt", "transcript.html"):
        assert name in listed
        assert (unpacked / name).read_bytes() == (copy_of / "low" / name).read_bytes()

    lms = lms_page(tmp_path)
    passed = take_lesson(lms_browser, lms, right=True)
    failed = take_lesson(lms_browser, lms, right=False)
    opened = take_lesson(lms_browser, lms_page(tmp_path, window=True), right=True)
    assert passed["scored"] == ["incomplete", "100"], "the score is in; not complete until watched"
    assert passed["terminated_early"] is False
    assert (passed["status"], passed["raw"], passed["min"], passed["max"]) == (
        "passed",
        "100",
        "0",
        "100",
    )
    assert (failed["status"], failed["raw"]) == ("failed", "0")
    # launched in a window of its own, the SCO finds the LMS's API through window.opener
    assert (opened["status"], opened["raw"], opened["scored"]) == (
        "passed",
        "100",
        passed["scored"],
    )
    for run in (passed, failed, opened):
        # write-only to the SCO: read from what the runtime commits to the LMS
        session = run["sent"]["cmi"]["core"]["session_time"]
        assert SESSION_TIME.match(session), session
        assert session not in ("00:00:00", "00:00:00.00"), "the page's time, not the default"
        assert run["error"] in ("0", 0)


@pytest.mark.render
def test_a_course_writes_one_package_per_lesson(series: CourseRun, tmp_path: Path) -> None:
    """Into a copy of the series' folder: every clip is cached, only the packages are new."""
    out = tmp_path / "media"
    shutil.copytree(series.folder.parent, out, symlinks=True)
    done = cli(out, "--course", str(SERIES), "--package", "scorm")
    assert done.returncode == 0, done.stdout + done.stderr
    made = sorted(p.relative_to(out / "low").as_posix() for p in out.rglob("*_scorm12.zip"))
    assert made == [
        "day005_masked/masked_attention_by_hand_scorm12.zip",
        "day006_heads/many_heads_by_hand_scorm12.zip",
        "default/attention_by_hand_scorm12.zip",
    ]
    schema = etree.XMLSchema(etree.parse(str(scorm.SCHEMAS / "adlcp_rootv1p2.xsd")))
    for name in made:
        with zipfile.ZipFile(out / "low" / name) as zipped:
            manifest = etree.fromstring(zipped.read("imsmanifest.xml"))
            assert schema.validate(manifest), (name, schema.error_log)
            assert name.split("/")[1].replace("_scorm12.zip", ".mp4") in zipped.namelist()
