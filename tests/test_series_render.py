"""lessons/series.toml rendered for real as a course, at low quality and silent: Day 004 (from the
session render's cache), Day 005 and Day 006, each a complete folder, linked in order."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser

from .conftest import CourseRun, series_lessons
from .test_course_render import lesson_links
from .test_lecture_kit import Visit, browser  # noqa: F401  (the module's Chromium)

LESSONS = series_lessons()


def test_the_series_lists_day_004_005_and_006_in_order() -> None:
    assert list(LESSONS) == ["default", "day005_masked", "day006_heads"]
    # each whole video named after its lesson, so that three uploads are three names
    assert [whole for _, whole in LESSONS.values()] == [
        "attention_by_hand",
        "masked_attention_by_hand",
        "many_heads_by_hand",
    ]


@pytest.mark.render
def test_each_lesson_of_the_series_gets_a_complete_folder(series: CourseRun) -> None:
    for name, (steps, whole) in LESSONS.items():
        folder = series.folder / name
        manifest = series.manifest(name)
        assert len(manifest["clips"]) == steps
        for clip in manifest["clips"]:
            for file in (clip["file"], clip["poster"]["file"], clip["captions"]["file"]):
                assert (folder / file).is_file(), f"{name}/{file}"
        assert manifest["full"]["file"] == f"{whole}.mp4"
        assert (folder / f"{whole}.mp4").stat().st_size == manifest["full"]["size"]
        for sidecar in (".srt", ".vtt", ".descriptions.vtt"):
            assert (folder / f"{whole}{sidecar}").is_file(), f"{name}/{whole}{sidecar}"
        assert f'src="{whole}.mp4"' in (folder / "index.html").read_text("utf-8")
        for page in ("index.html", "handout.html"):
            assert (folder / page).is_file(), f"{name}/{page}"
    data = json.loads((series.folder / "course.json").read_text())
    assert [lesson["folder"] for lesson in data["lessons"]] == list(LESSONS)


@pytest.mark.render
@pytest.mark.browser
def test_the_series_index_links_all_three_and_loads_offline(
    series: CourseRun,
    browser: Browser,  # noqa: F811
) -> None:
    visit = Visit(browser, series.folder / "index.html")
    links = lesson_links(visit)
    pages = [series.folder / name / "index.html" for name in LESSONS]
    each = [(page, page.with_name("transcript.html")) for page in pages]  # its page, its words
    assert links == [file.resolve().as_uri() for pair in each for file in pair]
    visit.check_offline()
    for page in pages:
        Visit(browser, page).check_offline()
