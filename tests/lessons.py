"""Lessons for tests: the default one as data, and a hypothesis strategy for valid ones."""

from __future__ import annotations

import copy
import datetime
import json
import math
import tomllib
from importlib import resources
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from attention_core import LIMITS
from attention_core.maths import scores


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
