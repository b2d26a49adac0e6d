"""The projections and heads steps, dry-run: every q/k/v entry, share and output they show is the
maths (worked out again here, with plain loops), and their texts stay inside the frame and apart."""

from __future__ import annotations

import math
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from attention_core import Lesson, LessonError, load_lesson, parse_lesson
from attention_core import formatting as fmt
from scenes.probe import NUMBER, Probe, run_dry
from scenes.steps.heads import Heads
from scenes.steps.projections import Projections

from .lessons import default_data
from .scene_checks import layout_problems, sums_that_do_not_add_up

ROOT = Path(__file__).parent.parent
DAY006 = ROOT / "lessons" / "day006_heads.toml"
EXAMPLES = int(os.environ.get("RANDOM_LESSONS", "4"))
KINDS = (Projections, Heads)


# The maths, again: plain loops over plain lists ----------------------------------------------


def times(x: list[float], w: list[list[float]]) -> list[float]:
    return [sum(x[i] * w[i][j] for i in range(len(x))) for j in range(len(w[0]))]


def attend(
    q: list[list[float]], k: list[list[float]], v: list[list[float]], causal: bool
) -> tuple[list[list[float]], list[list[float]]]:
    """(weights, outputs): each row's softmax of q·k/√dₖ over the keys it sees, and its blend."""
    weights, outputs = [], []
    for i in range(len(q)):
        seen = [j for j in range(len(k)) if not (causal and j > i)]
        scores = {
            j: sum(a * b for a, b in zip(q[i], k[j], strict=True)) / math.sqrt(len(q[i]))
            for j in seen
        }
        top = max(scores.values())
        pulls = {j: math.exp(s - top) for j, s in scores.items()}
        total = sum(pulls.values())
        row = [pulls.get(j, 0.0) / total for j in range(len(k))]
        weights.append(row)
        outputs.append([sum(row[j] * v[j][c] for j in range(len(k))) for c in range(len(v[0]))])
    return weights, outputs


def reference(lesson: Lesson) -> dict[str, Any]:
    """Every quantity the two steps show, from the lesson's own numbers."""
    x = [list(t.embedding) for t in lesson.tokens]
    heads = []
    for head in lesson.heads:
        q, k, v = (
            [times(row, [list(r) for r in w]) for row in x] for w in (head.w_q, head.w_k, head.w_v)
        )
        q, k, v = ([[round(e, 2) for e in row] for row in m] for m in (q, k, v))
        weights, outputs = attend(q, k, v, lesson.mask == "causal")
        heads.append({"q": q, "k": k, "v": v, "weights": weights, "outputs": outputs})
    joined = [[e for h in heads for e in h["outputs"][t]] for t in range(len(x))]
    mixed = (
        joined
        if lesson.w_o is None
        else [times(row, [list(r) for r in lesson.w_o]) for row in joined]
    )
    return {"x": x, "heads": heads, "joined": joined, "mixed": mixed}


def allowed(lesson: Lesson) -> set[str]:
    """Every number string the two steps may show: the lesson's entries, the projections,
    shares, outputs, and counts (head numbers, d_model, dₖ), each as any formatter writes it."""
    ref = reference(lesson)
    values: list[float] = [len(lesson.heads), *range(1, len(lesson.heads) + 1), 100]
    values += [len(ref["x"][0]), len(ref["joined"][0]), len(lesson.heads[0].w_q[0])]
    values += [e for row in ref["x"] for e in row]
    for head in lesson.heads:
        values += [e for w in (head.w_q, head.w_k, head.w_v) for row in w for e in row]
    if lesson.w_o is not None:
        values += [e for row in lesson.w_o for e in row]
    for h in ref["heads"]:
        values += [e for name in ("q", "k", "v", "weights", "outputs") for r in h[name] for e in r]
    values += [e for name in ("joined", "mixed") for row in ref[name] for e in row]
    formatters = (fmt.number, fmt.factor, fmt.share, fmt.output_entry, fmt.weight, fmt.budget)
    strings = [f(v) for v in values for f in formatters]
    strings += [t.text for t in lesson.tokens] + [t.short for t in lesson.tokens]
    return {n for s in strings for n in NUMBER.findall(s)}


# The checks --------------------------------------------------------------------------------


@cache
def day006() -> Lesson:
    return load_lesson(DAY006)


@cache
def probe(scene: type, name: str) -> Probe:
    return run_dry(scene, day006())


def check(scene: type, lesson: Lesson, found: Probe) -> None:
    stray = found.numbers - allowed(lesson)
    assert not stray, f"{scene.__name__} shows numbers the maths never made: {stray}"
    problems = layout_problems(found)
    assert not problems, "\n".join(problems[:10])
    wrong = sums_that_do_not_add_up(found.moments) if scene is Projections else []
    assert not wrong, f"{scene.__name__} shows x · W terms that do not add up: {wrong}"
    ref, shown = reference(lesson), found.strings
    newest = len(lesson.tokens) - 1
    if scene is Projections:  # every token's q, k and v, in every head, entry by entry
        for h in ref["heads"]:
            for name in ("q", "k", "v"):
                for row in h[name]:
                    assert {fmt.number(e) for e in row} <= shown, (name, row)
    else:  # every share a head's grid shows, each head's output and what they join into
        for h in ref["heads"]:
            shares = {
                fmt.share(w)
                for i, row in enumerate(h["weights"])
                for j, w in enumerate(row)
                if not (lesson.mask == "causal" and j > i)
            }
            assert shares <= shown
            assert {fmt.output_entry(e) for e in h["outputs"][newest]} <= shown
        assert {fmt.output_entry(e) for e in ref["joined"][newest]} <= shown
        assert {fmt.output_entry(e) for e in ref["mixed"][newest]} <= shown


@pytest.mark.parametrize("scene", KINDS, ids=[k.__name__ for k in KINDS])
def test_day006_shows_the_maths_in_a_clean_layout(scene: type) -> None:
    check(scene, day006(), probe(scene, "day006"))


@pytest.mark.parametrize("scene", KINDS, ids=[k.__name__ for k in KINDS])
def test_day006_beats_have_captions(scene: type) -> None:
    assert len(probe(scene, "day006").captions) >= 5


# Random heads lessons ----------------------------------------------------------------------

ENTRIES = st.sampled_from([-1, -0.5, 0, 0.5, 1, 2])
WIDE = st.sampled_from([-9, -2.5, 0, 0.1, 1, 9])


@st.composite
def heads_lesson(draw: st.DrawFn) -> dict[str, Any]:
    """A valid heads lesson: 2 to 6 tokens, 2 or 3 heads, sizes up to the limits."""
    n = draw(st.integers(2, 6))
    d_model, d_k, d_v = draw(st.integers(1, 6)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    entries = WIDE if draw(st.booleans()) else ENTRIES

    def matrix(rows: int, columns: int) -> list[list[float]]:
        return [[draw(entries) for _ in range(columns)] for _ in range(rows)]

    data = default_data()
    for field in ("query", "rival", "quiz"):
        del data[field]
    data["steps"] = ["projections", "heads"]
    data["answers"] = [f"a{i}" for i in range(d_v)]
    data["tokens"] = [
        {
            "text": f"token {i}",
            "short": f"t{i}",
            "embedding": [draw(entries) for _ in range(d_model)],
        }
        for i in range(n)
    ]
    count = draw(st.integers(2, 3))
    data["heads"] = [
        {"w_q": matrix(d_model, d_k), "w_k": matrix(d_model, d_k), "w_v": matrix(d_model, d_v)}
        for _ in range(count)
    ]
    if draw(st.booleans()):
        data["w_o"] = matrix(count * d_v, draw(st.integers(1, 6)))
    if draw(st.booleans()):
        data["mask"] = "causal"
    return data


@pytest.mark.lessons
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a failing lesson is shown as drawn: shrinking
    # one dry run at a time took minutes
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=heads_lesson(), scene=st.sampled_from(KINDS))
def test_random_heads_lessons_show_the_maths_in_a_clean_layout(
    data: dict[str, Any], scene: type
) -> None:
    try:
        lesson = parse_lesson(data)
    except LessonError:
        assume(False)  # a projection or a score beyond the limits: not a lesson
        raise
    check(scene, lesson, run_dry(scene, lesson))
