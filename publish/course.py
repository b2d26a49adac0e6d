"""A course: lessons in order, each rendered into a folder of its own, named from its file.

A course file is TOML, data only::

    title = "Transformers, by hand"
    language = "el"                     # optional: the index page's language (see Course.page)

    [[lessons]]
    file = "default"                    # the built-in lesson
    [[lessons]]
    file = "lessons/four_tokens.toml"   # relative to the course file
    voice = "espeak"                    # optional: who narrates this lesson

Every problem, in the course file and in each lesson, is collected before anything renders,
so that one run names them all.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from attention_core import Lesson, LessonError, Words, default_lesson, english, load_lesson
from attention_core.text_file import TextFileError, read_small_text

__all__ = [
    "BUILT_IN",
    "Course",
    "CourseError",
    "CourseFile",
    "CourseLesson",
    "CoursePage",
    "LessonSpec",
    "load_lessons",
    "read_course",
]

BUILT_IN = "default"
"""What names the built-in lesson, as a course's ``file`` or a ``--lesson``: its folder too."""
MAX_TITLE = 80
MAX_FILE_BYTES = 64 * 1024
LESSON_KEYS = frozenset({"file", "voice"})
COURSE_KEYS = frozenset({"title", "language", "lessons"})
LANGUAGE = "common.word.language"
"""The words entry that names a catalogue's language (a BCP 47 tag: ``en``, ``el``)."""


class CourseError(ValueError):
    """A course that cannot be rendered; each line of the message names one problem."""


@dataclass(frozen=True)
class LessonSpec:
    """A lesson as a course names it: its file (or :data:`BUILT_IN`) and optional overrides."""

    file: str
    voice: str | None = None

    @property
    def name(self) -> str:
        """Its folder's name: the file's stem (``four_tokens``), or ``default``."""
        return BUILT_IN if self.file == BUILT_IN else Path(self.file).stem


@dataclass(frozen=True)
class CourseLesson:
    """One lesson of a run, loaded and valid."""

    name: str
    """The folder it renders into under ``media/<quality>/``; empty for a lone lesson, which
    renders into ``media/<quality>/`` itself, as it always has."""
    lesson: Lesson
    voice: str | None = None
    """The course's ``voice`` for it; the command line's ``--voice`` wins over it."""
    source: str = BUILT_IN

    @property
    def stem(self) -> str:
        """Its file's stem (``greek``), ``default`` for the built-in lesson: its folder's name
        in a course, and what names its whole video when its title cannot."""
        return LessonSpec(self.source).name


@dataclass(frozen=True)
class CoursePage:
    """What the course's index page says for the whole course: its title, in its language."""

    title: str
    words: Words
    """The page's words: ``common.word.language`` is its language, ``page.heading.transcript``
    names each lesson's transcript link."""

    @property
    def language(self) -> str:
        return self.words[LANGUAGE]


@dataclass(frozen=True)
class Course:
    """What one run renders: a lone lesson (no title), or a course of lessons in order."""

    title: str | None
    lessons: tuple[CourseLesson, ...]
    language: str | None = None
    """The index page's language as the course file names it; None to let its lessons decide
    (:attr:`page`)."""

    @classmethod
    def of(cls, lesson: Lesson, source: str = BUILT_IN) -> Course:
        """One lesson (from the file ``source``) rendered as before, into the quality folder
        itself."""
        return cls(None, (CourseLesson("", lesson, source=source),))

    @property
    def is_course(self) -> bool:
        """Whether the lessons get folders of their own, an index page and ``course.json``."""
        return self.title is not None

    @property
    def page(self) -> CoursePage | None:
        """The index page's title and words; None for a lone lesson, which has no index.

        The page speaks the language the course file names; without one, the language every
        lesson shares; lessons in several languages get an English page. A language's words
        are those of the first lesson that speaks it (English's, the built-in catalogue's).
        """
        if self.title is None:
            return None
        spoken = {entry.lesson.words[LANGUAGE] for entry in self.lessons}
        language = self.language or (spoken.pop() if len(spoken) == 1 else "en")
        words = next(
            (e.lesson.words for e in self.lessons if e.lesson.words[LANGUAGE] == language),
            english(),
        )
        return CoursePage(self.title, words)

    def language_problem(self) -> str | None:
        """What is wrong with the language the course file names: no lesson speaks it, so
        the index page would have no words in it."""
        spoken = sorted({entry.lesson.words[LANGUAGE] for entry in self.lessons})
        if self.language is None or self.language in spoken:
            return None
        return (
            f"language: no lesson of the course is in {self.language!r} (they are in "
            f"{', '.join(spoken)}); the index page takes its words from a lesson in its language"
        )


@dataclass(frozen=True)
class CourseFile:
    """A course file as read: its title, its lessons, and the index page's language if named."""

    title: str
    lessons: list[LessonSpec]
    language: str | None = None


def read_course(path: Path) -> CourseFile:
    """The course file's title, lessons (their files made relative to the course file) and
    language; raise :class:`CourseError` with a line per problem."""
    where = f"course {path}"
    try:
        data = tomllib.loads(read_small_text(path, MAX_FILE_BYTES, "a course file"))
    except TextFileError as error:
        raise CourseError(f"{where}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise CourseError(f"{where}: not valid TOML ({error})") from None
    problems = [f"{where}: unknown key {key!r}" for key in data if key not in COURSE_KEYS]
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        problems.append(f'{where}: title: expected a text, e.g. title = "Transformers, by hand"')
    elif len(title) > MAX_TITLE or not title.isprintable():
        problems.append(f"{where}: title: one line of at most {MAX_TITLE} characters")
    language = data.get("language")
    if language is not None and (not isinstance(language, str) or not language.strip()):
        problems.append(f'{where}: language: expected a language tag, e.g. language = "en"')
    lessons = data.get("lessons")
    specs = []
    if not isinstance(lessons, list) or not lessons:
        problems.append(f'{where}: lessons: expected [[lessons]] tables, each with file = "…"')
    else:
        for number, table in enumerate(lessons, start=1):
            spec = _spec(table, path.parent, f"{where}: lessons[{number}]")
            if isinstance(spec, str):
                problems.append(spec)
            else:
                specs.append(spec)
    if problems:
        raise CourseError("\n".join(problems))
    assert isinstance(title, str)
    return CourseFile(title, specs, language)


def _spec(table: object, folder: Path, where: str) -> LessonSpec | str:
    """One ``[[lessons]]`` table as a spec, or the line saying what is wrong with it."""
    if not isinstance(table, dict):
        return f'{where}: expected a table with file = "…"'
    if "quality" in table:
        return (
            f"{where}: quality: a course renders at one --quality, into one folder; "
            "run the course again for another quality"
        )
    unknown = sorted(set(table) - LESSON_KEYS)
    if unknown:
        return f"{where}: unknown key {unknown[0]!r}; a lesson takes file and voice"
    file, voice = table.get("file"), table.get("voice")
    if not isinstance(file, str) or not file:
        return f'{where}: file: expected a lesson file, e.g. file = "lessons/four_tokens.toml"'
    if voice is not None and not isinstance(voice, str):
        return f'{where}: voice: expected a text, e.g. voice = "espeak"'
    return LessonSpec(file if file == BUILT_IN else str(folder / file), voice)


def load_lessons(specs: Sequence[LessonSpec]) -> tuple[list[CourseLesson], list[str]]:
    """Every lesson loaded, and a line per problem: a lesson that does not load, or a folder
    name that two lessons would share."""
    lessons, problems = [], []
    seen: dict[str, str] = {}
    for number, spec in enumerate(specs, start=1):
        where = f"lesson {number} ({spec.file})"
        if spec.name in seen:
            problems.append(
                f"{where}: its folder {spec.name}/ is also {seen[spec.name]}'s; "
                "rename one of the files"
            )
            continue
        seen[spec.name] = spec.file
        try:
            lesson = default_lesson() if spec.file == BUILT_IN else load_lesson(spec.file)
        except LessonError as error:
            problems.append(f"{where}: {error}")
            continue
        lessons.append(CourseLesson(spec.name, lesson, spec.voice, spec.file))
    return lessons, problems
