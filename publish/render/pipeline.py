"""A render run: one lesson, or a course of them, through one queue of workers; each lesson
finished (joined, its kit and manifest written) as its clips come in; a course's index last."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from publish.beats import BeatStore
from publish.code_digest import source_digest
from publish.kit.course_page import LessonLink, course_html, lesson_player
from publish.kit.lecture import PAGE_NAME
from publish.kit.transcript import HTML_NAME as TRANSCRIPT
from publish.media.files import clean_partials, write_text
from publish.media.manifest import CourseEntry, CourseManifest, write_course_manifest
from publish.render import shelf, toolchain
from publish.render.cache import SOURCE_PACKAGES
from publish.render.lesson_run import LessonRun, Outcome
from publish.render.options import LessonOptions, RunOptions
from publish.render.plan import Plan, plan
from publish.render.progress import Display
from publish.render.schedule import render_course

if TYPE_CHECKING:
    from publish.course import CoursePage

__all__ = [
    "COURSE_MANIFEST",
    "LessonOptions",
    "Plan",
    "RunOptions",
    "plan",
    "publish",
]

COURSE_MANIFEST = "course.json"
"""Beside a course's index page: its title and lessons in order, each with its folder."""


def publish(
    run: RunOptions,
    plans: Sequence[Plan],
    display: Display,
    course: CoursePage | None = None,
) -> int:
    """Render each lesson's chosen scenes (its :class:`Plan`) into its folder, reusing what
    is cached; join, describe and write each lesson's kit and manifest; with a ``course``
    page, write the course's index page and ``course.json`` beside the lessons' folders.
    ``run`` is every lesson's run-wide options (each plan's ``options.run``).

    Returns 0 when every clip and join succeeded, 1 otherwise.
    """
    for each in plans:
        if each.options.run != run:
            name = each.options.lesson or each.options.stem
            raise ValueError(f"lesson {name}: another run's options")
    sources, tools = source_digest(SOURCE_PACKAGES), toolchain.digest()
    folders = [each.options.folder for each in plans]
    runs = []
    for each in plans:
        options = each.options
        options.folder.mkdir(parents=True, exist_ok=True)
        for folder in (options.folder, options.folder / ".keys", run.beats):
            clean_partials(folder)
        # A course's lesson copies a clip current in another folder of the quality; a lesson
        # alone, one current in a course's lesson folder there (Day 005 alone after the series).
        elsewhere = [run.quality_folder, *folders] if options.lesson else _lesson_folders(run)
        others = tuple(folder for folder in elsewhere if folder != options.folder)
        lesson_run = LessonRun(
            replace(each, elsewhere=others, sources=sources, tools=tools), display
        )
        lesson_run.find_cached(each.chosen if run.force else [])
        runs.append(lesson_run)

    outcomes: dict[int, Outcome] = {}

    def finish(lesson_run: LessonRun) -> None:
        outcomes[id(lesson_run)] = lesson_run.complete()

    render_course(run, runs, display, finish)
    BeatStore(run.beats, f".{run.fmt}").prune()  # the run is over: nothing writes the store
    shelf.prune(run.typeset)
    finished = [outcomes[id(each)] for each in runs]
    display.summary([row for outcome in finished for row in outcome.rows])
    for outcome in finished:
        for note in outcome.notes:
            display.note(note)
    if course is not None:
        index = _write_course(course, run, runs, finished)
        display.note(f"course: {index} and {COURSE_MANIFEST} beside it")
    return 1 if any(outcome.failed for outcome in finished) else 0


def _write_course(
    course: CoursePage, run: RunOptions, runs: Sequence[LessonRun], outcomes: Sequence[Outcome]
) -> str:
    """The course's index page, in the course's language (:attr:`Course.page`), and
    ``course.json``, in the run's quality folder; the page's path."""
    folder, title = run.quality_folder, course.title
    links, entries = [], []
    for number, (each, outcome) in enumerate(zip(runs, outcomes, strict=True), start=1):
        manifest, name, lesson_folder = outcome.manifest, each.name, each.options.folder
        full = manifest.full
        duration = full.duration if full else sum(clip.duration for clip in manifest.clips)
        page = f"{name}/{PAGE_NAME}" if (lesson_folder / PAGE_NAME).is_file() else None
        poster = f"{name}/{manifest.clips[0].poster.file}" if manifest.clips else None
        lesson = each.lesson
        entries.append(
            CourseEntry(name, lesson.title, name, f"{name}/manifest.json", page, duration)
        )
        target = page or entries[-1].manifest
        said = f"{name}/{TRANSCRIPT}" if (lesson_folder / TRANSCRIPT).is_file() else None
        player = lesson_player(lesson, manifest, lesson_folder, name, number)
        language = lesson.words["common.word.language"]
        links.append(
            LessonLink(
                lesson.title, lesson.series, duration, target, poster, said, player, language
            )
        )
    index = folder / PAGE_NAME
    label = course.words["page.heading.transcript"]
    write_text(index, course_html(title, course.language, links, label))
    write_course_manifest(
        folder / COURSE_MANIFEST,
        CourseManifest(title, run.quality.name, run.fmt, tuple(entries)),
    )
    return str(index)


def _lesson_folders(run: RunOptions) -> list[Path]:
    """The folders a course rendered its lessons into in ``run``'s quality folder."""
    try:
        return sorted(path.parent for path in run.quality_folder.glob("*/.keys") if path.is_dir())
    except OSError:
        return []
