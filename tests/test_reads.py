"""Recording what is read of a lesson: every way to reach a field leaves its path (no manim)."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from attention_core import Lesson, attend, default_lesson, quiz_answer, with_rival
from attention_core.reads import ALL, Reads, traced, untraced, value_at, values_of

LESSON = default_lesson()


def reading(use: object) -> set[tuple[str | int, ...]]:
    """The paths ``use(traced lesson)`` reads."""
    reads = Reads()
    use(traced(LESSON, reads))  # type: ignore[operator]
    return reads.paths


def test_a_traced_lesson_is_the_lesson() -> None:
    lesson = traced(LESSON, Reads())
    assert isinstance(lesson, Lesson)
    assert lesson == LESSON
    assert lesson.tokens[1].text == LESSON.tokens[1].text
    assert dict(lesson.words) == dict(LESSON.words)


@pytest.mark.parametrize(
    ("use", "paths"),
    [
        (lambda lesson: lesson.title, {("title",)}),
        (lambda lesson: lesson.tokens[2].text, {("tokens",), ("tokens", 2, "text")}),
        (lambda lesson: lesson.rival.short, {("rival", "short")}),
        (lambda lesson: lesson.quiz.filler_score, {("quiz", "filler_score")}),
        (lambda lesson: lesson.d_k, {("query",)}),
        (lambda lesson: len(lesson.references), {("references",)}),
        (lambda lesson: lesson.words["common.word.about"], {("words", "common.word.about")}),
        (lambda lesson: lesson.words.say("mix.heading.label"), {("words", "mix.heading.label")}),
        (
            lambda lesson: lesson.words.said("score.caption.keys"),
            {("words", "score.said.keys"), ("words", "score.caption.keys")},
        ),
        (lambda lesson: np.array(lesson.tokens[0].key), {("tokens",), ("tokens", 0, "key")}),
    ],
)  # fmt: skip
def test_each_way_to_a_field_records_its_path(use: object, paths: set[object]) -> None:
    assert reading(use) == paths


def test_derived_quantities_read_the_fields_they_derive_from() -> None:
    count = len(LESSON.tokens)
    each = {("tokens", i, part) for i in range(count) for part in ("key", "value")}
    assert reading(attend) == {("query",), ("tokens",)} | each
    assert ("quiz", "filler_score") in reading(quiz_answer)
    assert {("rival", "key"), ("rival", "value")} <= reading(lambda x: attend(with_rival(x)))


@pytest.mark.parametrize(
    "use",
    [
        vars,
        copy.copy,
        copy.deepcopy,
        lambda lesson: lesson.__dict__["title"],
        lambda lesson: list(lesson.words.items()),
    ],
    ids=["vars", "copy", "deepcopy", "__dict__", "every word"],
)
def test_copying_a_whole_object_reads_all_of_it(use: object) -> None:
    assert any(path[-1] == ALL for path in reading(use))


def test_a_copy_made_by_replace_was_read_whole_first() -> None:
    # dataclasses.replace reads every field it keeps; its copy records nothing itself.
    paths = reading(lambda lesson: dataclasses.replace(lesson, title="x").promise)
    assert {("question",), ("promise",), ("takeaway",)} <= paths


def test_tracing_a_traced_lesson_reads_all_of_it() -> None:
    inner = Reads()
    paths = reading(lambda lesson: traced(lesson, inner).title)
    assert inner.paths == {("title",)}
    assert {("promise",), ("tokens", 0, "text"), ("words", ALL)} <= paths


def test_the_plain_lesson_behind_a_traced_one_counts_as_read_whole() -> None:
    reads = Reads()
    assert untraced(traced(LESSON, reads)) is LESSON
    assert reads.paths == {(ALL,)}
    assert untraced(LESSON) is LESSON


def test_using_the_lesson_as_a_cache_key_reads_nothing() -> None:
    assert reading(hash) == set()


def test_values_are_read_back_from_a_plain_lesson() -> None:
    assert value_at(LESSON, ("tokens",)) == {"count": len(LESSON.tokens)}
    assert value_at(LESSON, ("tokens", 1, "key")) == list(LESSON.tokens[1].key)
    assert value_at(LESSON, ("tokens", 99, "key")) == {"absent": True}
    assert value_at(LESSON, ("words", "common.word.about")) == LESSON.words["common.word.about"]
    assert value_at(LESSON, ("words", "score.said.nothing")) == {"absent": True}
    assert value_at(LESSON, ("quiz", ALL)) == dataclasses.asdict(LESSON.quiz)
    changed = dataclasses.replace(LESSON, title="Another")
    paths = [("title",), ("promise",)]
    assert values_of(changed, paths) != values_of(LESSON, paths)
    assert values_of(changed, paths[1:]) == values_of(LESSON, paths[1:])
