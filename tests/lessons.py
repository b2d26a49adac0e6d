"""Lessons for tests: the default one as data, and a hypothesis strategy for valid ones."""

from __future__ import annotations

import copy
import datetime
import json
import math
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from attention_core import LIMITS
from attention_core.maths import scores


class _Delete:
    """An edit's value that removes the field instead of setting it."""

    def __repr__(self) -> str:
        # Its name, not ``<object object at 0x…>``: the bad-field tests' ids are made from
        # reprs, and pytest-xdist's workers must collect the same ids in every process.
        return "DELETE"


DELETE = _Delete()


def lesson_files() -> list[Path]:
    """Every lesson in lessons/, in order: its TOML files but the courses (a course lists
    ``[[lessons]]``, as lessons/series.toml does)."""
    folder = Path(__file__).parent.parent / "lessons"
    return [
        path
        for path in sorted(folder.glob("*.toml"))
        if "lessons" not in tomllib.loads(path.read_text("utf-8"))
    ]


def default_data() -> dict[str, Any]:
    """A fresh, mutable copy of the default lesson's TOML document."""
    text = resources.files("attention_core").joinpath("lesson.toml").read_text("utf-8")
    return copy.deepcopy(tomllib.loads(text))


def to_toml(data: dict[str, Any]) -> str:
    """A document as TOML text, tables inline, so that any test's lesson can be a file."""
    return "".join(f"{json.dumps(key)} = {_toml_value(value)}\n" for key, value in data.items())


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # nan, inf, -inf: TOML spells them as Python does
    if isinstance(value, int | float | str):
        return json.dumps(value, ensure_ascii=False)  # JSON strings and numbers are TOML too
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    pairs = (f"{json.dumps(key)} = {_toml_value(item)}" for key, item in value.items())
    return "{" + ", ".join(pairs) + "}"


# Quarters are exact at 2 decimals; within ±2, no score can pass ±12 even at dₖ = 8.
NUMBERS = st.integers(-8, 8).map(lambda n: n / 4)
WORDS = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=LIMITS.max_token_text
).filter(str.strip)


@st.composite
def lesson_data(draw: st.DrawFn, max_tokens: int = LIMITS.max_tokens) -> dict[str, Any]:
    """A valid lesson document within the format's limits."""
    d_k = draw(st.integers(1, LIMITS.max_query_length))
    slots = draw(st.integers(1, LIMITS.max_value_length))
    vectors = st.lists(NUMBERS, min_size=d_k, max_size=d_k)
    values = st.lists(NUMBERS, min_size=slots, max_size=slots)

    def token(i: int) -> dict[str, Any]:
        return {"text": draw(WORDS), "short": f"t{i}", "key": draw(vectors), "value": draw(values)}

    data = default_data()
    data["query"] = draw(vectors)
    data["answers"] = list(range(1, slots + 1))
    data["tokens"] = [token(i) for i in range(draw(st.integers(LIMITS.min_tokens, max_tokens)))]
    data["rival"] = token(99)
    rival_score = float(scores(data["query"], [data["rival"]["key"]])[0])
    # A gap of 2 to 3 points keeps the quiz's four options apart (a gap of 1 reads like option A).
    filler = math.floor(rival_score) - 2
    assume(filler >= -LIMITS.max_abs_score)
    data["quiz"] = {
        "filler_score": filler,
        "bonus_filler_score": max(-LIMITS.max_abs_score, filler - 3),
    }
    return data


# The series (#20): lessons where every token asks, optionally masked, and lessons with heads.
# Hundredths within ±2 include negatives and fractions of every kind; with dₖ ≤ 4 no score
# can pass ±12 (|q·k| ≤ 16, ÷ √dₖ).
HUNDREDTHS = st.integers(-200, 200).map(lambda n: n / 100)
# Embeddings and learned matrices have one decimal place (so x·W is exact at two).
TENTHS = st.integers(-15, 15).map(lambda n: n / 10)


def _series_base(draw: st.DrawFn, tokens: int, slots: int) -> dict[str, Any]:
    data = default_data()
    for name in ("query", "rival", "quiz"):
        del data[name]
    data["answers"] = [f"a{j}" for j in range(slots)]
    data["tokens"] = [{"text": draw(WORDS), "short": f"t{i}"} for i in range(tokens)]
    return data


@st.composite
def asking_lesson_data(draw: st.DrawFn, mask: bool | None = None) -> dict[str, Any]:
    """A valid lesson where every token has its own query, key and value; masked (causal) or
    not (``mask=None``: either)."""
    n = draw(st.integers(LIMITS.min_tokens, LIMITS.max_tokens))
    d_k = draw(st.integers(1, LIMITS.max_asking_d_k))
    slots = draw(st.integers(1, LIMITS.max_value_length))
    data = _series_base(draw, n, slots)
    for token in data["tokens"]:
        token["query"] = draw(st.lists(HUNDREDTHS, min_size=d_k, max_size=d_k))
        token["key"] = draw(st.lists(HUNDREDTHS, min_size=d_k, max_size=d_k))
        token["value"] = draw(st.lists(HUNDREDTHS, min_size=slots, max_size=slots))
    masked = draw(st.booleans()) if mask is None else mask
    data["steps"] = ["title", "all_queries", *(["mask"] if masked else []), "mix"]
    if masked:
        data["mask"] = "causal"
    return data


@st.composite
def heads_lesson_data(draw: st.DrawFn) -> dict[str, Any]:
    """A valid lesson with 1 to 3 heads over the tokens' embeddings, sometimes masked, sometimes
    with W_O; every score within ±12 (others are drawn again)."""
    n = draw(st.integers(LIMITS.min_tokens, LIMITS.max_tokens))
    d_model = draw(st.integers(1, LIMITS.max_d_model))
    d_k = draw(st.integers(1, LIMITS.max_head_width))
    d_v = draw(st.integers(1, LIMITS.max_head_width))
    count = draw(st.integers(1, LIMITS.max_heads))
    data = _series_base(draw, n, d_v)

    def matrix(rows: int, columns: int) -> list[list[float]]:
        row = st.lists(TENTHS, min_size=columns, max_size=columns)
        return draw(st.lists(row, min_size=rows, max_size=rows))

    for token in data["tokens"]:
        token["embedding"] = draw(st.lists(TENTHS, min_size=d_model, max_size=d_model))
    data["heads"] = [
        {"w_q": matrix(d_model, d_k), "w_k": matrix(d_model, d_k), "w_v": matrix(d_model, d_v)}
        for _ in range(count)
    ]
    if draw(st.booleans()):
        data["w_o"] = matrix(count * d_v, draw(st.integers(1, LIMITS.max_out_width)))
    if draw(st.booleans()):
        data["mask"] = "causal"
    data["steps"] = ["title", "projections", *(["heads"] if count > 1 else []), "mix"]
    assume(_scores_fit(data))
    return data


def _scores_fit(data: dict[str, Any]) -> bool:
    """Whether every head's every score stays within the limit (plain Python)."""
    x = [token["embedding"] for token in data["tokens"]]
    for head in data["heads"]:
        q, k = _times(x, head["w_q"]), _times(x, head["w_k"])
        root = math.sqrt(len(head["w_q"][0]))
        for qi in q:
            for kj in k:
                score = sum(a * b for a, b in zip(qi, kj, strict=True)) / root
                if abs(score) > LIMITS.max_abs_score - 0.01:
                    return False
    return True


def _times(x: list[list[float]], w: list[list[float]]) -> list[list[float]]:
    columns = range(len(w[0]))
    return [[sum(row[r] * w[r][c] for r in range(len(w))) for c in columns] for row in x]
