"""The grid steps, dry-run: each row of the heat map reads the shares and output of the maths."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from attention_core import LessonError, load_lesson, parse_lesson
from attention_core import formatting as fmt
from scenes import kind_scene, scenes_for
from scenes.probe import Probe, run_dry

from .lessons import NUMBERS, WORDS, default_data
from .scene_checks import _lines, layout_problems, stray_numbers

ROOT = Path(__file__).parent.parent
DAY005 = ROOT / "lessons" / "day005_masked.toml"
EXAMPLES = int(os.environ.get("RANDOM_LESSONS", "3"))
"""Each example is a lesson shown by the all-queries, mask and answer steps (three dry runs)."""


def reference(data: dict[str, Any], *, masked: bool) -> list[tuple[list[str], str]]:
    """Each row's shares and output, in plain Python from the lesson's own numbers: the
    scene must show these, not merely numbers the maths could make."""
    tokens = data["tokens"]
    d_k = len(tokens[0]["query"])
    rows = []
    for i, asking in enumerate(tokens):
        scores = []
        for j, answering in enumerate(tokens):
            dot = sum(q * k for q, k in zip(asking["query"], answering["key"], strict=True))
            scores.append(-math.inf if masked and j > i else dot / math.sqrt(d_k))
        pulls = [math.exp(s) for s in scores]
        weights = [p / sum(pulls) for p in pulls]
        slots = len(asking["value"])
        output = [
            sum(w * t["value"][s] for w, t in zip(weights, tokens, strict=True))
            for s in range(slots)
        ]
        rows.append(([fmt.share(w) for w in weights], fmt.output(output)))
    return rows


def heat_map_rows(probe: Probe, names: list[str]) -> list[str]:
    """The lines of the last moment that start with a token's name: its row of the grid."""
    lines = _lines(probe.moments[-1])
    return [line for line in lines if line.split()[0] in names and "%" in line]


def check_rows(probe: Probe, data: dict[str, Any], *, masked: bool) -> None:
    names = [t["short"] for t in data["tokens"]]
    expected = [
        " ".join([name, *shares, output])
        for name, (shares, output) in zip(names, reference(data, masked=masked), strict=True)
    ]
    assert heat_map_rows(probe, names) == expected


def day005_data() -> dict[str, Any]:
    import tomllib

    return tomllib.loads(DAY005.read_text("utf-8"))


@pytest.mark.parametrize(("kind", "masked"), [("all_queries", False), ("mask", True)])
def test_day005_heat_map_shows_each_rows_shares_and_output(kind: str, masked: bool) -> None:
    lesson = load_lesson(DAY005)
    probe = run_dry(kind_scene(kind), lesson)
    check_rows(probe, day005_data(), masked=masked)


def test_day005_mask_reads_minus_infinity_then_zero_above_the_diagonal() -> None:
    probe = run_dry(kind_scene("mask"), load_lesson(DAY005))
    shown = [{s.text for s in moment} for moment in probe.moments]
    assert any(fmt.MINUS_INFINITY in texts for texts in shown)
    minus = next(i for i, texts in enumerate(shown) if fmt.MINUS_INFINITY in texts)
    assert any("0" in texts and fmt.MINUS_INFINITY not in texts for texts in shown[minus:])


@st.composite
def asking_lesson(draw: st.DrawFn) -> dict[str, Any]:
    """A lesson where every token asks, masked or not, shown by the grid steps and the answer."""
    n = draw(st.integers(2, 6))
    d_k = draw(st.integers(1, 4))
    slots = draw(st.integers(1, 4))
    vectors = st.lists(NUMBERS, min_size=d_k, max_size=d_k)
    values = st.lists(NUMBERS, min_size=slots, max_size=slots)
    data = default_data()
    for field in ("query", "rival"):
        del data[field]
    data["answers"] = [f"a{i}" for i in range(1, slots + 1)]
    data["tokens"] = [
        {
            "text": draw(WORDS),
            "short": f"t{i}",
            "query": draw(vectors),
            "key": draw(vectors),
            "value": draw(values),
        }
        for i in range(n)
    ]
    masked = draw(st.booleans())
    if masked:
        data["mask"] = "causal"
    data["steps"] = ["all_queries", *(["mask"] if masked else []), "answer"]
    data["quiz"] = {"asker": n - 1, "to": draw(st.integers(0, n - 1))}
    return data


@pytest.mark.lessons
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=asking_lesson())
def test_random_grid_lessons_show_the_maths_in_a_clean_layout(data: dict[str, Any]) -> None:
    try:
        lesson = parse_lesson(data)
    except LessonError:
        assume(False)  # a quiz whose four options would not read apart is refused
    for scene in scenes_for(lesson):
        probe = run_dry(scene, lesson)
        assert not stray_numbers(probe, lesson), f"{scene.__name__}: {stray_numbers(probe, lesson)}"
        assert not layout_problems(probe), "\n".join(layout_problems(probe)[:5])
        if scene.slug in ("all_queries", "mask"):
            check_rows(probe, data, masked=scene.slug == "mask")
