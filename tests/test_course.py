"""A course without rendering: the course file, every bad lesson named, the one queue's order,
the progress over the whole course."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

import render
from attention_core import default_lesson
from publish.course import BUILT_IN, Course, CourseError, LessonSpec, load_lessons, read_course
from publish.presets import FULL_NAME, QUALITIES, full_name
from publish.render.pipeline import RunOptions, plan, publish
from publish.render.progress import PlainDisplay, Row, Tally
from publish.render.schedule import _Lesson, _rendering_before_titles, queue_order
from scenes import SCENES

ROOT = Path(__file__).parent.parent
TITLE, OVERVIEW, SCORE, SOFTMAX = SCENES[0], SCENES[1], SCENES[2], SCENES[3]
BAD_NUMBER = 'title = "Broken"\n'
"""A lesson file that fails at its first missing field."""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_course_file_names_its_lessons_relative_to_itself(tmp_path: Path) -> None:
    course = _write(
        tmp_path / "courses" / "week.toml",
        'title = "Week one"\n'
        '[[lessons]]\nfile = "default"\n'
        '[[lessons]]\nfile = "../lessons/four_tokens.toml"\nvoice = "espeak"\n',
    )
    file = read_course(course)
    title, specs = file.title, file.lessons
    assert title == "Week one"
    assert specs == [
        LessonSpec(BUILT_IN),
        LessonSpec(str(tmp_path / "courses" / "../lessons/four_tokens.toml"), "espeak"),
    ]
    assert [spec.name for spec in specs] == ["default", "four_tokens"]


@pytest.mark.parametrize(
    ("text", "problems"),
    [
        ("", ["title: expected a text", "lessons: expected [[lessons]] tables"]),
        ('title = "T"\nlessons = []\n', ["lessons: expected [[lessons]] tables"]),
        ('title = "T"\ncolour = 1\n[[lessons]]\nfile = "a.toml"\n', ["unknown key 'colour'"]),
        (
            'title = "T"\n[[lessons]]\nfile = "a.toml"\nquality = "high"\n'
            '[[lessons]]\nvoice = "joe"\n',
            [
                "lessons[1]: quality: a course renders at one --quality",
                "lessons[2]: file: expected a lesson file",
            ],
        ),
        ('title = "T"\n[[lessons]]\nfile = "a.toml"\nspeed = 2\n', ["unknown key 'speed'"]),
        ('title = "two\\nlines"\n[[lessons]]\nfile = "a.toml"\n', ["title: one line"]),
        ("title = [", ["not valid TOML"]),
    ],
)
def test_every_problem_of_a_course_file_is_a_line_of_its_own(
    tmp_path: Path, text: str, problems: list[str]
) -> None:
    course = _write(tmp_path / "course.toml", text)
    with pytest.raises(CourseError) as raised:
        read_course(course)
    lines = str(raised.value).splitlines()
    assert len(lines) == len(problems)
    for line, problem in zip(lines, problems, strict=True):
        assert line.startswith(f"course {course}: ")
        assert problem in line


def test_every_bad_lesson_is_named_and_the_good_ones_load(tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad.toml", BAD_NUMBER)
    specs = [
        LessonSpec(BUILT_IN),
        LessonSpec(str(bad)),
        LessonSpec(str(tmp_path / "missing.toml")),
        LessonSpec(str(ROOT / "lessons" / "four_tokens.toml")),
        LessonSpec(str(tmp_path / "other" / "four_tokens.toml")),
    ]
    lessons, problems = load_lessons(specs)
    assert [lesson.name for lesson in lessons] == ["default", "four_tokens"]
    assert len(problems) == 3
    assert problems[0].startswith(f"lesson 2 ({bad}): ")
    assert problems[1].startswith(f"lesson 3 ({tmp_path / 'missing.toml'}): ")
    assert problems[2].startswith("lesson 5 (")
    assert "its folder four_tokens/ is also" in problems[2]


def test_a_course_with_two_bad_lessons_names_both_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "first.toml", BAD_NUMBER)
    _write(tmp_path / "second.toml", "tokens = 3\n")
    course = _write(
        tmp_path / "course.toml",
        'title = "T"\n[[lessons]]\nfile = "first.toml"\n'
        '[[lessons]]\nfile = "default"\n[[lessons]]\nfile = "second.toml"\n',
    )
    out = tmp_path / "media"
    assert render.main(["--course", str(course), "--out", str(out), "--quality", "low"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"render.py: lesson 1 ({tmp_path / 'first.toml'}): ")
    assert lines[1].startswith(f"render.py: lesson 3 ({tmp_path / 'second.toml'}): ")
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--course", "c.toml", "--lesson", "default"], "--course and --lesson"),
        (["--lesson", "default", "--lesson", "x.toml", "--list"], "--list takes one lesson"),
        (["--lesson", "default", "--lesson", "x.toml", "--dry-run"], "--dry-run takes one"),
    ],
)
def test_what_takes_one_lesson_refuses_a_course(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], problem: str
) -> None:
    assert render.main([*args, "--out", str(tmp_path / "media")]) == 2
    assert problem in capsys.readouterr().err
    assert not (tmp_path / "media").exists()


def test_one_queue_takes_the_longest_clip_first_whatever_its_lesson() -> None:
    lengths = {(0, SCORE): 30.0, (1, SCORE): 50.0, (0, SOFTMAX): 40.0, (1, OVERVIEW): 45.0}
    clips = [(0, SCORE), (0, SOFTMAX), (0, TITLE), (1, TITLE), (1, OVERVIEW), (1, SCORE)]
    clips += [(0, OVERVIEW), (1, SOFTMAX)]  # never made: no length yet
    assert queue_order(clips, lengths) == [
        (1, SCORE),
        (1, OVERVIEW),
        (0, SOFTMAX),
        (0, SCORE),
        (0, OVERVIEW),
        (1, SOFTMAX),
        (0, TITLE),
        (1, TITLE),
    ]


def test_the_tally_counts_the_whole_course_and_the_time_left() -> None:
    tally = Tally()
    tally.plan([Row("a/01", "", 10.0), Row("a/02", "", 30.0), Row("b/01", "", 0.0)])
    tally.cached("a/01")
    assert tally.line(5.0) == "0/2 clips"
    tally.running(100.0)
    tally.finished("a/02")  # 30 s of video in 60 s: half speed
    assert tally.left(160.0) == pytest.approx(40.0)  # b/01 counts as the average, 20 s
    assert tally.line(160.0) == "1/2 clips, about 0:40 left"
    tally.finished("b/01")
    assert tally.line(200.0) == "2/2 clips"


def test_plain_progress_names_the_lesson_and_counts_the_course(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with log.open("w") as stream, PlainDisplay(stream) as display:
        display.plan([Row("a/01_title", "", 5.0), Row("b/01_title", "", 5.0)])
        display.cached("a/01_title")
        display.running("b/01_title")
        display.done("b/01_title", 5.0, 2.0)
    assert log.read_text().splitlines()[-1] == (
        "done     b/01_title  (5.0 s of video in 2.0 s)  [1/1 clips]"
    )


@pytest.mark.parametrize(
    ("file", "name"),
    [
        (BUILT_IN, FULL_NAME),  # "Attention, by hand": the name it always had
        ("lessons/day005_masked.toml", "masked_attention_by_hand"),
        ("lessons/day006_heads.toml", "many_heads_by_hand"),
        ("lessons/tie_root_three.toml", "a_tie_a_sliver_and_3"),  # √ has no ASCII
        ("lessons/greek.toml", "greek"),  # no ASCII letter in its title: its file's stem
        ("lessons/day005_masked_greek.toml", "day005_masked_greek"),
    ],
)
def test_each_lessons_whole_video_is_named_after_it(file: str, name: str) -> None:
    args = render.parser().parse_args([] if file == BUILT_IN else ["--lesson", str(ROOT / file)])
    course = render.load_course(args)
    assert not isinstance(course, str), course
    (entry,) = course.lessons
    assert full_name(entry.lesson, entry.stem) == name
    assert entry.stem == Path(file).stem  # what a lone lesson's file is called, too


@pytest.mark.parametrize(
    ("title", "stem", "name"),
    [
        ("Café, 2024!", "x", "cafe_2024"),
        ("  Attention -- by   hand ", "x", "attention_by_hand"),
        ("2024", "day_7", "day_7"),  # digits alone are no name
        ("Ημέρα 005", "μάθημα", "μάθημα"),  # nothing ASCII at all: the stem as it is
    ],
)
def test_a_whole_videos_name_is_ascii_when_it_can_be(title: str, stem: str, name: str) -> None:
    lesson = replace(default_lesson(), title=title)
    assert full_name(lesson, stem) == name


GREEK = ROOT / "lessons" / "greek.toml"
LOW = QUALITIES["low"]


def _course(*files: str, language: str | None = None) -> Course:
    specs = [LessonSpec(file) for file in files]
    lessons, problems = load_lessons(specs)
    assert not problems
    return Course("Mixed", tuple(lessons), language)


@pytest.mark.parametrize(
    ("files", "language", "lang", "transcript"),
    [
        # lessons in two languages, the course silent: English, whichever lesson comes first
        ((str(GREEK), BUILT_IN), None, "en", "Transcript"),
        ((BUILT_IN, str(GREEK)), None, "en", "Transcript"),
        # every lesson in one language: that language, in its words
        ((str(GREEK),), None, "el", "Απομαγνητοφώνηση"),
        # the course file names it: its words from a lesson that speaks it
        ((BUILT_IN, str(GREEK)), "el", "el", "Απομαγνητοφώνηση"),
        ((str(GREEK), BUILT_IN), "en", "en", "Transcript"),
    ],
)
def test_the_course_page_speaks_the_courses_language_not_the_first_lessons(
    files: tuple[str, ...], language: str | None, lang: str, transcript: str
) -> None:
    page = _course(*files, language=language).page
    assert page is not None
    assert page.language == lang
    assert page.words["page.heading.transcript"] == transcript


def test_a_lesson_in_another_language_than_the_page_says_so_on_it() -> None:
    from publish.kit.course_page import LessonLink, course_html

    def link(title: str, language: str) -> LessonLink:
        return LessonLink(title, "Day 4", 300.0, "a/index.html", None, "a/t.html", "", language)

    page = course_html(
        "Attention", "en", [link("By hand", "en"), link("Με το χέρι", "el"), link("باليد", "ar")]
    )
    assert '<h2><a href="a/index.html"><span class=title>1 · By hand' in page
    assert '<h2 lang="el" dir="ltr"><a href="a/index.html"><span class=title>2 · Με' in page
    assert '<h2 lang="ar" dir="rtl">' in page
    assert page.count('<span class=muted lang="el" dir="ltr">') == 1
    assert page.count(">Transcript</a>") == 3  # the page's words, in the page's language


def test_a_lone_lesson_has_no_course_page() -> None:
    assert Course.of(default_lesson()).page is None


def test_a_course_language_no_lesson_speaks_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = _write(
        tmp_path / "course.toml",
        f'title = "T"\nlanguage = "fr"\n[[lessons]]\nfile = "default"\n'
        f'[[lessons]]\nfile = "{GREEK}"\n',
    )
    assert read_course(course).language == "fr"
    assert render.main(["--course", str(course), "--out", str(tmp_path / "media")]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line == (
        f"render.py: course {course}: language: no lesson of the course is in 'fr' (they are "
        "in el, en); the index page takes its words from a lesson in its language"
    )
    assert not (tmp_path / "media").exists()


def test_a_course_language_must_be_a_tag(tmp_path: Path) -> None:
    course = _write(tmp_path / "c.toml", 'title = "T"\nlanguage = 3\n[[lessons]]\nfile = "a"\n')
    with pytest.raises(CourseError, match="language: expected a language tag"):
        read_course(course)


def test_each_lesson_of_a_run_holds_the_runs_options_and_nothing_run_wide() -> None:
    run = RunOptions(quality=LOW, fmt="mp4", transparent=False, out=Path("m"), jobs=2)
    lesson = run.lesson(name="four_tokens", stem="four_tokens")
    assert lesson.run is run
    for run_wide in ("quality", "fmt", "transparent", "out", "jobs", "force", "scheduler"):
        assert not hasattr(lesson, run_wide), run_wide
    assert lesson.folder == Path("m") / "low" / "four_tokens"


def test_a_run_refuses_a_lesson_made_for_another_run(tmp_path: Path) -> None:
    run = RunOptions(quality=LOW, fmt="mp4", transparent=False, out=tmp_path, jobs=1)
    other = replace(run, scheduler="tcp://127.0.0.1:9")
    refused = pytest.raises(ValueError, match="another run's options")
    with PlainDisplay(io.StringIO()) as display, refused:
        publish(run, [plan(default_lesson(), other.lesson())], display)
    assert not (tmp_path / LOW.name).exists()


def test_an_idle_worker_measures_only_the_clips_a_title_still_waits_for() -> None:
    run = cast(Any, None)  # the choice reads the queue, not the lesson's run
    waiting = _Lesson(0, run, titles=[TITLE], others=[SCORE, SOFTMAX], measuring=[TITLE])
    waiting.probed.add(SOFTMAX)
    sent = _Lesson(1, run, titles=[TITLE], others=[SCORE], measuring=[], titles_sent=True)
    rendering = [
        (waiting, SCORE, False),  # rendering, its length unknown: measured now
        (waiting, SOFTMAX, False),  # already being measured
        (waiting, TITLE, True),  # the title's own dry run
        (sent, SCORE, False),  # its title already has its minutes
    ]
    assert _rendering_before_titles(rendering) == [(waiting, SCORE)]
