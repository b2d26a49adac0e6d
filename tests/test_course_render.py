"""A course rendered for real at low quality: lessons/series.toml (the session's ``series``),
the default lesson from the session render's cache and Day 005 and Day 006 rendered, each in its
own folder, with the course's index page and course.json."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import LOW, ROOT, TITLE, CourseRun, Rendered, series_lessons
from .test_lecture_kit import Visit, browser  # noqa: F401  (the module's Chromium)

LESSONS = series_lessons()
"""Each lesson's folder: its number of steps and its whole video's name (after its title)."""
RENDERED = [name for name in LESSONS if name != "default"]
"""The lessons the course renders; the default lesson's clips come from the cache."""


@pytest.mark.render
def test_each_lesson_gets_a_complete_folder_of_its_own(series: CourseRun) -> None:
    for name, (steps, whole) in LESSONS.items():
        folder = series.folder / name
        manifest = series.manifest(name)
        assert len(manifest["clips"]) == steps
        for clip in manifest["clips"]:
            for file in (clip["file"], clip["poster"]["file"], clip["captions"]["file"]):
                assert (folder / file).is_file(), f"{name}/{file}"
        assert manifest["full"]["file"] == f"{whole}.mp4"
        assert (folder / f"{whole}.mp4").stat().st_size == manifest["full"]["size"]
        assert (folder / "index.html").is_file()
        assert (folder / "handout.html").is_file()
    titles = [series.manifest(name)["lesson"] for name in LESSONS]
    assert len(set(titles)) == len(titles)


@pytest.mark.render
def test_the_default_lesson_is_copied_from_the_cache_byte_for_byte(
    series: CourseRun, rendered: Rendered
) -> None:
    assert "running  default/" not in series.stdout
    for clip in rendered.manifest["clips"]:
        assert f"cached   default/{Path(clip['file']).stem}" in series.stdout
    for name in RENDERED:
        for clip in series.manifest(name)["clips"]:
            assert f"done     {name}/{Path(clip['file']).stem}" in series.stdout
    ours = {clip["file"]: clip["sha256"] for clip in series.manifest("default")["clips"]}
    assert ours == {clip["file"]: clip["sha256"] for clip in rendered.manifest["clips"]}


@pytest.mark.render
def test_progress_counts_the_clips_of_the_whole_course(series: CourseRun) -> None:
    """Counted over the clips the course renders, every lesson's together."""
    rendering = sum(LESSONS[name][0] for name in RENDERED)
    counts = re.findall(r"^done     \S+  \(.*\)  \[(\d+)/(\d+) clips", series.stdout, re.M)
    assert [int(done) for done, _ in counts] == list(range(1, rendering + 1))
    assert {int(total) for _, total in counts} == {rendering}


@pytest.mark.render
def test_course_json_lists_the_lessons_in_order(series: CourseRun) -> None:
    data = json.loads((series.folder / "course.json").read_text())
    assert data["title"] == TITLE
    assert [lesson["folder"] for lesson in data["lessons"]] == list(LESSONS)
    for lesson in data["lessons"]:
        manifest = json.loads((series.folder / lesson["manifest"]).read_text())
        assert lesson["title"] == manifest["lesson"]
        assert lesson["duration"] == manifest["full"]["duration"]
        assert lesson["page"] == f"{lesson['folder']}/index.html"


@pytest.mark.render
@pytest.mark.browser
def test_the_index_links_every_lesson_in_order_and_loads_offline(
    series: CourseRun,
    browser: Browser,  # noqa: F811
) -> None:
    visit = Visit(browser, series.folder / "index.html")
    links = lesson_links(visit)
    pages = [series.folder / name / "index.html" for name in LESSONS]
    said = [page.with_name("transcript.html") for page in pages]
    assert links == [p.resolve().as_uri() for pair in zip(pages, said, strict=True) for p in pair]
    assert visit.page.evaluate(
        "[...document.images].every(image => image.complete && image.naturalWidth > 0)"
    )
    visit.check_offline()
    for page in pages:
        lesson = Visit(browser, page)
        lesson.check_offline()


def lesson_links(index: Visit) -> list[str]:
    """Where the course index links each lesson, its page then its transcript, in order: not
    the references a lesson's transcript gives to read further."""
    own = "ol.lessons > li > h2 > a, ol.lessons > li > p > a.transcript"
    links: list[str] = index.page.eval_on_selector_all(own, "as => as.map(a => a.href)")
    return links


def _tiny_course(out: Path, scheduler: str | None = None) -> tuple[int, str]:
    """A Greek lesson then the built-in English one, each as one tiny clip, rendered as a
    course by the pipeline itself: its exit code and progress."""
    from attention_core import default_lesson, load_lesson
    from publish.course import Course, CourseLesson
    from publish.render.pipeline import RunOptions, plan, publish
    from publish.render.progress import PlainDisplay

    from .render_scenes import TinyCircle

    greek = load_lesson(ROOT / "lessons" / "greek.toml")
    english = default_lesson()
    course = Course(TITLE, (CourseLesson("greek", greek), CourseLesson("default", english)))
    run = RunOptions(LOW, "mp4", transparent=False, out=out, jobs=2, scheduler=scheduler)
    tiny = lambda _: (TinyCircle,)  # noqa: E731
    plans = [
        plan(entry.lesson, run.lesson(None, entry.name, entry.name), scenes_of=tiny)
        for entry in course.lessons
    ]
    log = io.StringIO()
    with PlainDisplay(log) as display:
        code = publish(run, plans, display, course.page)
    return code, log.getvalue()


@pytest.mark.render
def test_a_course_whose_first_lesson_is_greek_gets_an_english_index(tmp_path: Path) -> None:
    code, printed = _tiny_course(tmp_path)
    assert code == 0, printed
    folder = tmp_path / LOW.name
    index = (folder / "index.html").read_text("utf-8")
    assert '<html lang="en">' in index
    assert index.count(">Transcript</a>") == 2  # each lesson's transcript link
    assert (folder / "greek" / "transcript.html").is_file()
    data = json.loads((folder / "course.json").read_text())
    assert (data["quality"], data["format"]) == (LOW.name, "mp4")
    assert [lesson["folder"] for lesson in data["lessons"]] == ["greek", "default"]


@pytest.mark.render
def test_the_scheduler_is_the_runs_for_every_lesson(tmp_path: Path) -> None:
    from publish.render.cluster import ClusterError

    address = "tcp://127.0.0.1:9"  # the discard port: no scheduler answers there
    with pytest.raises(ClusterError, match=f"--scheduler {address}: cannot reach"):
        _tiny_course(tmp_path, scheduler=address)
