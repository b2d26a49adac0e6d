"""The rival twist and the quick check: what the rival does, the quiz gaps, their strings."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given

from attention_core import (
    Lesson,
    attend,
    default_lesson,
    load_lesson,
    parse_lesson,
    quiz_answer,
    rival_outcome,
    softmax,
    with_rival,
)
from attention_core import formatting as fmt

from .lessons import default_data, lesson_data

LESSONS = Path(__file__).parent.parent / "lessons"


def _lesson(**changes: object) -> Lesson:
    data = default_data()
    for path, value in changes.items():
        table, _, key = path.partition("__")
        if key:
            data[table][key] = value
        else:
            data[table] = value
    return parse_lesson(data)


@pytest.mark.parametrize(
    ("lesson", "kind", "leader", "challenger", "rival_vs_top"),
    [
        # the seed: the rival copies the river fact's key, so 4821 and 1937 tie
        (default_lesson(), "tie", 0, 2, 0),
        # the rival scores 1.75 against Oslo's 2.5: Oslo still leads
        (load_lesson(LESSONS / "four_tokens.toml"), "dents", 0, 1, -1),
        # the rival outscores "the bridge opened at dawn" and tips the output to "no"
        (load_lesson(LESSONS / "root_nine.toml"), "overturns", 0, 1, 1),
        # a rival that carries the leader's own answer only adds to it
        (_lesson(rival__value=[1, 0, 0]), "backs", 0, 1, 0),
        # a rival that scores low and carries nothing only dilutes the leader
        (_lesson(rival__key=[0, 0, 0, 1], rival__value=[0, 0, 0]), "dents", 0, 1, -1),
    ],
    ids=["default", "four_tokens", "root_nine", "backs", "dilutes"],
)
def test_rival_outcome(lesson, kind, leader, challenger, rival_vs_top) -> None:
    outcome = rival_outcome(lesson)
    assert (outcome.kind, outcome.leader, outcome.challenger) == (kind, leader, challenger)
    assert outcome.rival_vs_top == rival_vs_top
    assert outcome.top_token == int(np.argmax(attend(lesson).weights))


def test_with_one_answer_there_is_no_challenger() -> None:
    data = default_data()
    data["answers"] = [4821]
    for token, value in zip(data["tokens"], ([1], [0], [0]), strict=True):
        token["value"] = value
    data["rival"]["value"] = [0]
    assert rival_outcome(parse_lesson(data)).kind == "dents"
    assert rival_outcome(parse_lesson(data)).challenger is None
    data["rival"]["value"] = [1]
    assert rival_outcome(parse_lesson(data)).kind == "backs"


@given(lesson_data())
def test_the_outcome_never_contradicts_the_output_shown(data: dict) -> None:
    lesson = parse_lesson(data)
    outcome = rival_outcome(lesson)
    before, after = attend(lesson).output, attend(with_rival(lesson)).output
    shown = [float(fmt.output_entry(x)) for x in after]
    if outcome.challenger is None:
        assert outcome.kind in {"dents", "backs"}
        return
    lead, best = shown[outcome.leader], shown[outcome.challenger]
    assert best == max(x for j, x in enumerate(shown) if j != outcome.leader)
    expected = {
        "tie": lead == best,
        "overturns": best > lead,
        "dents": lead > best and after[outcome.leader] < before[outcome.leader],
        "backs": lead > best and after[outcome.leader] >= before[outcome.leader] - 1e-12,
    }
    assert expected[outcome.kind]


@given(lesson_data())
def test_quiz_gaps_give_the_filler_counts(data: dict) -> None:
    quiz = quiz_answer(parse_lesson(data))
    assert quiz.gap > 0
    assert math.isclose(math.exp(quiz.gap), quiz.fillers_needed)
    assert math.isclose(math.exp(quiz.bonus_gap), quiz.bonus_fillers_needed)


def test_seed_bonus_gap_is_six() -> None:
    assert fmt.number(quiz_answer(default_lesson()).bonus_gap) == "6"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1"),
        (3.0, "3"),
        (20.0855, "about 20"),
        (403.43, "about 400"),
        (2.75, "about 2.8"),
        (0.5, "0.5"),
    ],
)
def test_option(value, text) -> None:
    assert fmt.option(value, default_lesson().words["common.word.about"]) == text


@pytest.mark.parametrize(("value", "text"), [(0.45818, "0.46"), (-1e-9, "0.00"), (1.0, "1.00")])
def test_output_entry(value, text) -> None:
    assert fmt.output_entry(value) == text


def test_torch_check_prints_what_torch_would() -> None:
    a = attend(default_lesson())
    assert fmt.torch_check(a.scores, a.dots, a.d_k) == (
        "import torch",
        "scores = torch.tensor([3., 1., 0.])",
        "torch.softmax(scores, dim=0)",
        "# tensor([0.8438, 0.1142, 0.0420])",
    )


def test_torch_check_types_dot_products_when_scores_do_not_fit_two_places() -> None:
    a = attend(load_lesson(LESSONS / "root_nine.toml"))  # scores 4/3 and 2/3
    lines = fmt.torch_check(a.scores, a.dots, a.d_k)
    assert lines[1] == "scores = torch.tensor([4., 2.]) / 3"
    assert lines[-1] == f"# {fmt.tensor(a.weights)}"


def test_torch_check_uses_a_square_root_when_it_is_not_whole() -> None:
    lines = fmt.torch_check([0.0625 / 2**0.5, 1 / 2**0.5], [0.0625, 1.0], 2)
    assert lines[1] == "scores = torch.tensor([0.0625, 1.]) / torch.tensor(2.).sqrt()"
    assert lines[-1] == f"# {fmt.tensor(softmax([0.0625 / 2**0.5, 1 / 2**0.5]))}"


@given(lesson_data())
def test_torch_check_prints_the_weights_shown(data: dict) -> None:
    a = attend(parse_lesson(data))
    assert fmt.torch_check(a.scores, a.dots, a.d_k)[-1] == f"# {fmt.tensor(a.weights)}"
