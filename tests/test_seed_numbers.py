"""Every number on the seed's slides, reproduced from the default lesson and the formatter."""

from __future__ import annotations

import pytest

from attention_core import BUDGET, attend, default_lesson, quiz_answer, softmax, with_rival
from attention_core import formatting as fmt

LESSON = default_lesson()
PLAIN = attend(LESSON)
RIVAL = attend(with_rival(LESSON))
QUIZ = quiz_answer(LESSON)

SLIDES = [
    # slide 3: score
    ("query", fmt.vector(LESSON.query), "[2, 0, 1, 1]"),
    ("river key", fmt.vector(LESSON.tokens[0].key), "[2, 0, 1, 1]"),
    ("lamp key", fmt.vector(LESSON.tokens[1].key), "[0, 2, 1, 1]"),
    ("weather key", fmt.vector(LESSON.tokens[2].key), "[0, 1, 0, 0]"),
    (
        "river products",
        " + ".join(
            f"{fmt.factor(q)}×{fmt.factor(k)}"
            for q, k in zip(PLAIN.query, PLAIN.keys[0], strict=True)
        ),
        "2×2 + 0×0 + 1×1 + 1×1",
    ),
    ("dots", [fmt.number(x) for x in PLAIN.dots], ["6", "2", "0"]),
    ("d_k", fmt.number(PLAIN.d_k), "4"),
    ("root d_k", fmt.number(PLAIN.root_d_k), "2"),
    ("scores", [fmt.number(x) for x in PLAIN.scores], ["3", "1", "0"]),
    # slide 4: softmax
    ("pulls", [fmt.pull(x) for x in PLAIN.pulls], ["20.09", "2.72", "1.00"]),
    # The exact total, rounded, as the slide has it (its rounded parts add up to 23.81).
    ("total", fmt.pull(PLAIN.total), "23.80"),
    ("shares", [fmt.share(w) for w in PLAIN.weights], ["84.4%", "11.4%", "4.2%"]),
    ("whole budget", fmt.budget(BUDGET), "100%"),
    ("rule of thumb", fmt.pull(PLAIN.pulls[1] / PLAIN.pulls[2]), "2.72"),
    # slide 2: the overview's mini example
    ("mini example", fmt.short_weights(PLAIN.weights), "[.84, .11, .04]"),
    # slide 5: mix
    ("weights", [fmt.weight(w) for w in PLAIN.weights], ["0.844", "0.114", "0.042"]),
    ("values", [fmt.vector(v) for v in PLAIN.values], ["[1, 0, 0]", "[0, 1, 0]", "[0, 0, 0]"]),
    ("output", fmt.output(PLAIN.output), "[0.84, 0.11, 0.00]"),
    ("winner", LESSON.answers[PLAIN.winner], "4821"),
    # slide 6: the rival
    ("rival score", fmt.number(RIVAL.scores[-1]), "3"),
    ("rival shares", [fmt.share(RIVAL.weights[i]) for i in (0, 3)], ["45.8%", "45.8%"]),
    ("rival output", fmt.output(RIVAL.output), "[0.46, 0.06, 0.46]"),
    ("quiz options", [fmt.about(x) for x in QUIZ.options], ["1", "3", "20", "400"]),
    # slide 7: the answer
    ("answer", "ABCD"[QUIZ.correct], "C"),
    ("fillers needed", fmt.ratio(QUIZ.fillers_needed), "20.1"),
    ("fillers, roughly", fmt.about(QUIZ.fillers_needed), "20"),
    ("bonus", fmt.rounded(QUIZ.bonus_fillers_needed), "403"),
    ("torch scores", fmt.torch_floats(PLAIN.scores), "[3., 1., 0.]"),
    ("torch softmax", fmt.tensor(softmax(PLAIN.scores)), "tensor([0.8438, 0.1142, 0.0420])"),
]


@pytest.mark.parametrize(("what", "shown", "slide"), SLIDES, ids=[row[0] for row in SLIDES])
def test_slide_number(what: str, shown: object, slide: object) -> None:
    assert shown == slide
