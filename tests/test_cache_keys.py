"""Per-scene cache keys: a clip's key changes exactly when something its scene reads changes.

Each scene's reads are recorded in its (shared) dry run. Changing any one field of the lesson,
or any one words entry, must change the key of every scene that read it and of no other; and a
scene must show exactly the same when everything it did not read changes at once, so that no
read can escape the record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from attention_core import Lesson, Words, default_lesson, load_lesson
from attention_core.reads import ALL, Path
from attention_core.worked import worked
from publish.code_digest import source_digest
from publish.render.cache import LESSON_WIDE, SOURCE_PACKAGES, clip_key
from scenes import SCENES, LessonScene
from scenes.helpers import text
from scenes.probe import Probe, run_dry
from scenes.steps.score import Step3Score
from scenes.timing import length_arguments

from .test_render import ROOT

LESSON = default_lesson()
GREEK = load_lesson(ROOT / "lessons" / "greek.toml")


def dry(scene: type[LessonScene], lesson: Lesson) -> Probe:
    """The scene's dry run; the title with the minutes a render gives it."""
    return run_dry(scene, lesson, **length_arguments(scene, 5))


def leaves(node: Any, path: Path = ()) -> Iterator[Path]:
    """Every field of a lesson that can change on its own; a list of objects is one (its length)."""
    if dataclasses.is_dataclass(node):
        for field in dataclasses.fields(node):
            yield from leaves(getattr(node, field.name), (*path, field.name))
    elif isinstance(node, Words):
        yield from ((*path, name) for name in node)
    elif isinstance(node, tuple) and node and dataclasses.is_dataclass(node[0]):
        for i, item in enumerate(node):
            yield from leaves(item, (*path, i))
        yield path
    else:
        yield path


def other(value: Any) -> Any:
    """A different value of the same kind: a list of objects loses its last item; an unset
    optional field (the lesson's voice, mask, a token's own query) gets one; an empty list (a
    lesson without heads) gets an item."""
    if value is None:
        return "Ω"
    if value == ():
        return ("Ω",)
    if isinstance(value, str):
        return value + " Ω"
    if isinstance(value, float):
        return value + 1.0
    if value and dataclasses.is_dataclass(value[0]):
        return value[:-1]
    return (other(value[0]), *value[1:])


def changed(node: Any, path: Path) -> Any:
    """``node`` with the field at ``path`` changed to :func:`other` of its value."""
    if not path:
        return other(node)
    head, rest = path[0], path[1:]
    if isinstance(node, Words):
        return Words({**node, str(head): changed(node[str(head)], rest)})
    if isinstance(node, tuple):
        i = int(head)
        return (*node[:i], changed(node[i], rest), *node[i + 1 :])
    return replace(node, **{str(head): changed(getattr(node, str(head)), rest)})


def covered(leaf: Path, reads: set[Path]) -> bool:
    return any(
        leaf == read or leaf[: len(read) - 1] == read[:-1] and read[-1] == ALL for read in reads
    ) or (leaf in LESSON_WIDE)


@cache
def key(scene: type[LessonScene], lesson: Lesson, reads: tuple[Path, ...]) -> str:
    return clip_key(
        sources=SOURCES,
        toolchain="t",
        lesson=lesson,
        reads=reads,
        scene=scene.__name__,
        quality="low",
        fmt="mp4",
        transparent=False,
        voice=None,
    )


SOURCES = source_digest(SOURCE_PACKAGES)


@pytest.mark.parametrize(
    "lesson", [LESSON, pytest.param(GREEK, marks=pytest.mark.lessons)], ids=["default", "greek"]
)
def test_a_key_changes_exactly_when_a_field_its_scene_read_changes(lesson: Lesson) -> None:
    reads = {scene: dry(scene, lesson).reads for scene in SCENES}
    every = list(leaves(lesson))
    assert len([leaf for leaf in every if leaf[0] == "words"]) == len(lesson.words)
    for leaf in every:
        new = changed(lesson, leaf)
        for scene in SCENES:
            moved = key(scene, new, reads[scene]) != key(scene, lesson, reads[scene])
            assert moved == covered(leaf, set(reads[scene])), (scene.__name__, leaf)


def scenes_keyed_on(leaf: Path) -> set[str]:
    """The scenes whose key changes when ``leaf`` of the default lesson changes."""
    new = changed(LESSON, leaf)
    return {
        scene.__name__
        for scene in SCENES
        if key(scene, new, dry(scene, LESSON).reads) != key(scene, LESSON, dry(scene, LESSON).reads)
    }


def test_changing_the_quiz_re_renders_only_the_scenes_that_show_it() -> None:
    assert scenes_keyed_on(("quiz", "filler_score")) == {"Step6Rival", "Step7Answer"}
    assert scenes_keyed_on(("quiz", "bonus_filler_score")) == {"Step7Answer"}


def test_changing_a_token_re_renders_the_scenes_that_show_it() -> None:
    shown = scenes_keyed_on(("tokens", 1, "text"))
    assert {"Step3Score", "Step4Softmax", "Step5Mix"} <= shown
    assert not {"Step1Title", "Step7Answer"} & shown
    assert scenes_keyed_on(("tokens", 1, "key")) == {scene.__name__ for scene in SCENES}


def test_the_language_is_in_every_key() -> None:
    assert scenes_keyed_on(("words", "common.word.language")) == {s.__name__ for s in SCENES}


def screen(probe: Probe) -> tuple[Any, ...]:
    """Everything a dry run shows and says, where and for how long."""
    shown = tuple(tuple((s.text, s.box) for s in moment) for moment in probe.moments)
    return shown, tuple(beat.caption for beat in probe.beats), probe.seconds


def unrecorded_reads(scene: type[LessonScene], lesson: Lesson) -> list[str]:
    """What changes on screen when every field the scene did not read changes at once."""
    before = dry(scene, lesson)
    read = set(before.reads)
    unread = [leaf for leaf in leaves(lesson) if not covered(leaf, read)]
    new = lesson
    for leaf in sorted(unread, key=len, reverse=True):  # a list's items before its length
        new = changed(new, leaf)
    after = dry(scene, new)
    problems = []
    if after.reads != before.reads:
        problems.append(f"it read {sorted(set(after.reads) ^ read)} in one run only")
    if screen(after) != screen(before):
        problems.append(f"it shows something else when {len(unread)} unread fields change")
    return problems


class LeakyScore(Step3Score):
    """Step 3, showing the lesson's takeaway read around the record."""

    def construct(self) -> None:
        self.add(text(object.__getattribute__(self.lesson, "takeaway")))
        super().construct()


@pytest.mark.parametrize("scene", SCENES, ids=[s.__name__ for s in SCENES])
def test_no_read_escapes_the_record(scene: type[LessonScene]) -> None:
    assert unrecorded_reads(scene, LESSON) == []


def test_a_read_around_the_record_is_caught() -> None:
    assert unrecorded_reads(LeakyScore, LESSON) != []


class QuizFiller(LessonScene):
    """Only the quiz's filler score, as the worked lesson formats it."""

    step, slug = 6, "rival"

    def construct(self) -> None:
        self.add(text(self.worked.quiz.filler))


def test_a_number_read_through_the_worked_lesson_is_in_the_key() -> None:
    # The default lesson's worked numbers are kept for the process; a scene must still record
    # what its numbers derive from, or a changed filler score would leave its clip stale.
    assert worked(LESSON).quiz.filler
    for run in (dry(QuizFiller, LESSON), dry(QuizFiller, replace(LESSON, title="another"))):
        assert {("quiz", "filler_score"), ("rival", "key"), ("query",)} <= set(run.reads)
        assert not {("quiz", "bonus_filler_score"), ("tokens", 0, "key")} & set(run.reads)
    new = changed(LESSON, ("quiz", "filler_score"))
    reads = dry(QuizFiller, LESSON).reads
    assert key(QuizFiller, new, reads) != key(QuizFiller, LESSON, reads)
    assert unrecorded_reads(QuizFiller, LESSON) == []
