"""A lesson's steps as data: the library of kinds, ``scenes_for`` and the ``steps`` field."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib import resources

import pytest

from attention_core import LessonError, default_lesson, parse_lesson
from attention_core import formatting as fmt
from attention_core.steps import DEFAULT_STEPS, KINDS
from attention_core.twin_spec import Number, numbers_of
from publish.kit import handout
from publish.presets import clip_name
from publish.render import worker
from scenes import SCENES, kind_scene, scenes_for
from scenes.probe import run_dry

LESSON = default_lesson()


def lesson_data() -> dict[str, object]:
    text = resources.files("attention_core").joinpath("lesson.toml").read_text("utf-8")
    return tomllib.loads(text)


def test_a_lesson_without_steps_is_day_004() -> None:
    assert LESSON.steps == DEFAULT_STEPS
    assert scenes_for(LESSON) == SCENES
    assert [scene.step for scene in SCENES] == list(range(1, 8))
    assert [scene.slug for scene in SCENES] == list(DEFAULT_STEPS)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_names_a_scene_of_its_own_name(kind: str) -> None:
    assert kind_scene(kind).slug == kind


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_names_what_its_consumers_know(kind: str) -> None:
    """Its handout section is one of the handout's own, the generic one or none; its twin's
    numbers are set by rules attention_core has."""
    entry = KINDS[kind]
    assert entry.paper is None or entry.paper == "" or entry.paper in handout._SECTIONS
    rules = {n.rule for n in numbers_of(entry.twin)} | (
        {entry.headline.rule} if entry.headline else set()
    )
    assert rules <= set(fmt.RULES)


def test_a_twin_number_says_its_source_and_index_space() -> None:
    with pytest.raises(ValueError, match="no source 'one.nothing'"):
        Number("x", "one.nothing", "number")
    with pytest.raises(ValueError, match=r"one.weights runs over \('token',\), not \('col',\)"):
        Number("share", "one.weights", "share", ("col",))


def test_steps_are_numbered_by_their_place_in_the_lesson() -> None:
    lesson = replace(LESSON, steps=("title", "score", "answer"))
    title, score, answer = scenes_for(lesson)
    assert [title.step, score.step, answer.step] == [1, 2, 3]
    assert issubclass(answer, kind_scene("answer"))
    assert clip_name(answer.step, answer.slug) == "03_answer"
    assert scenes_for(lesson)[2] is answer  # placed once: a dict key across the run
    assert [beat.id for beat in run_dry(score, lesson).beats][0] == "02_score-01"


def test_a_worker_finds_a_placed_scene_by_its_path() -> None:
    lesson = replace(LESSON, steps=("score", "answer"))
    for scene in scenes_for(lesson):
        assert worker._scene_class(worker.scene_path(scene)) is scene


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (["title", "maks"], 'steps[1]: unknown step "maks" (known: title, big_picture,'),
        (["title", "score", "title"], 'steps[2]: "title" is already step 1'),
        ([], "steps: expected 1 to 12 entries, got 0"),
        ("title", "steps: expected a list, got text"),
        (["title", 3], "steps[1]: expected a step's name, got a number"),
    ],
)
def test_bad_steps_are_named(steps: object, message: str) -> None:
    with pytest.raises(LessonError) as error:
        parse_lesson({**lesson_data(), "steps": steps})
    assert str(error.value).startswith(message)


def test_a_lesson_may_list_fewer_steps() -> None:
    lesson = parse_lesson({**lesson_data(), "steps": ["title", "mix", "answer"]})
    assert [scene.slug for scene in scenes_for(lesson)] == ["title", "mix", "answer"]
