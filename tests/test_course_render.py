"""A course rendered for real at low quality: the default lesson (from the session render's
cache) and lessons/four_tokens.toml (rendered once for this module), each in its own folder,
with the course's index page and course.json."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from publish.presets import FULL_NAME
from scenes import SCENES

from .conftest import LESSONS, LOW, ROOT, TITLE, CourseRun, Rendered
from .test_lecture_kit import Visit, browser  # noqa: F401  (the module's Chromium)

WHOLE = {"default": FULL_NAME, "four_tokens": "attention_with_four_tokens"}
"""Each lesson's whole video, named after its title ("Attention with four tokens")."""


@pytest.mark.render
def test_each_lesson_gets_a_complete_folder_of_its_own(course: CourseRun) -> None:
    for name in LESSONS:
        folder = course.folder / name
        manifest = course.manifest(name)
        assert len(manifest["clips"]) == len(SCENES)
        for clip in manifest["clips"]:
            for file in (clip["file"], clip["poster"]["file"], clip["captions"]["file"]):
                assert (folder / file).is_file(), f"{name}/{file}"
        whole = WHOLE[name]
        assert manifest["full"]["file"] == f"{whole}.mp4"
        assert (folder / f"{whole}.mp4").stat().st_size == manifest["full"]["size"]
        assert (folder / "index.html").is_file()
        assert (folder / "handout.html").is_file()
    assert course.manifest("four_tokens")["lesson"] != course.manifest("default")["lesson"]


@pytest.mark.render
def test_the_default_lesson_is_copied_from_the_cache_byte_for_byte(
    course: CourseRun, rendered: Rendered
) -> None:
    assert "running  default/" not in course.stdout
    for clip in rendered.manifest["clips"]:
        stem = Path(clip["file"]).stem
        assert f"cached   default/{stem}" in course.stdout
        assert f"done     four_tokens/{stem}" in course.stdout
    ours = {clip["file"]: clip["sha256"] for clip in course.manifest("default")["clips"]}
    assert ours == {clip["file"]: clip["sha256"] for clip in rendered.manifest["clips"]}


@pytest.mark.render
def test_progress_counts_the_clips_of_the_whole_course(course: CourseRun) -> None:
    counts = re.findall(r"^done     \S+  \(.*\)  \[(\d+)/(\d+) clips", course.stdout, re.M)
    assert [int(done) for done, _ in counts] == list(range(1, len(SCENES) + 1))
    assert {int(total) for _, total in counts} == {len(SCENES)}


@pytest.mark.render
def test_course_json_lists_the_lessons_in_order(course: CourseRun) -> None:
    data = json.loads((course.folder / "course.json").read_text())
    assert data["title"] == TITLE
    assert [lesson["folder"] for lesson in data["lessons"]] == list(LESSONS)
    for lesson in data["lessons"]:
        manifest = json.loads((course.folder / lesson["manifest"]).read_text())
        assert lesson["title"] == manifest["lesson"]
        assert lesson["duration"] == manifest["full"]["duration"]
        assert lesson["page"] == f"{lesson['folder']}/index.html"


@pytest.mark.render
@pytest.mark.browser
def test_the_index_links_every_lesson_in_order_and_loads_offline(
    course: CourseRun,
    browser: Browser,  # noqa: F811
) -> None:
    visit = Visit(browser, course.folder / "index.html")
    links = visit.page.eval_on_selector_all("ol.lessons a", "as => as.map(a => a.href)")
    pages = [course.folder / name / "index.html" for name in LESSONS]
    said = [page.with_name("transcript.html") for page in pages]
    assert links == [p.resolve().as_uri() for pair in zip(pages, said, strict=True) for p in pair]
    assert visit.page.evaluate(
        "[...document.images].every(image => image.complete && image.naturalWidth > 0)"
    )
    visit.check_offline()
    for page in pages:
        lesson = Visit(browser, page)
        lesson.check_offline()


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
