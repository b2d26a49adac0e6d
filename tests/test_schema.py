"""The lesson file's JSON Schema: generated from the rules, shipped current, and agreeing with
validation: every valid lesson passes it, every bad field it can state fails it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_core import parse_lesson, schema

from .lessons import asking_lesson_data, heads_lesson_data, lesson_data, lesson_files
from .test_docs import lesson_schema_hook
from .test_lesson import BAD_LESSONS, edit
from .test_series_lessons import BAD, edited

ROOT = Path(__file__).parent.parent
SHIPPED = ROOT / "attention_core" / schema.FILE
LESSONS = lesson_files() + [ROOT / "attention_core" / "lesson.toml"]
VALIDATOR = jsonschema.Draft7Validator(schema.lesson_schema())


def test_the_shipped_schema_is_the_generated_one() -> None:
    assert SHIPPED.read_text("utf-8") == schema.text(), "run: python -m attention_core.schema"
    assert schema.main(["--check"]) == 0
    jsonschema.Draft7Validator.check_schema(json.loads(SHIPPED.read_text("utf-8")))


@pytest.mark.parametrize("path", LESSONS, ids=lambda path: path.stem)
def test_every_shipped_lesson_passes_the_schema(path: Path) -> None:
    text = path.read_text("utf-8")
    assert list(VALIDATOR.iter_errors(tomllib.loads(text))) == []
    assert text.splitlines()[0] == f"#:schema {_relative(path)}"  # editors find it


def _relative(lesson: Path) -> str:
    up = "./" if lesson.parent == SHIPPED.parent else "../attention_core/"
    return f"{up}{schema.FILE}"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(lesson_data(), asking_lesson_data(), heads_lesson_data()))
def test_the_schema_is_never_stricter_than_validation(data: dict[str, Any]) -> None:
    parse_lesson(data)
    assert [error.message for error in VALIDATOR.iter_errors(data)] == []


# What JSON Schema cannot state: numbers related to each other or to the maths, and text
# whose rule is a template's. These bad fields pass the schema; parse_lesson refuses them.
BEYOND_SCHEMA = (
    "got nan",  # TOML's nan is a number to a schema, and compares with no bound
    "decimal place",
    "(the query's length)",
    "(tokens[0].query's length)",
    "(the number of answers)",
    "(the heads' d_model",
    "(the heads' dₖ",
    "(d_model: the rows of heads[0].w_q)",
    "(dₖ: the columns of heads[0].w_q)",
    "(as heads[0].w_q[0])",
    "(the heads' joined outputs",
    "; scores must",
    "must be below the rival's score",
    "would both read",
    "the options would not read",
    "quiz.head: 2 is not a head's place",  # within the limit of 3 heads, not this lesson's 2
    "mask hides",
    "this lesson has no [[heads]]",
    "its query in heads[0] has",
    "placeholder",
    "a lone {",
)


CASES = [(f"day004:{field}", edit(field, value), message) for field, value, message in BAD_LESSONS]
CASES += [
    (f"{name}:{edits}", edited(base(), *edits), message) for name, base, edits, message in BAD
]


@pytest.mark.parametrize(("name", "data", "message"), CASES, ids=[case[0][:60] for case in CASES])
def test_the_schema_refuses_every_bad_field_it_can_state(
    name: str, data: dict[str, Any], message: str
) -> None:
    refused = any(True for _ in VALIDATOR.iter_errors(data))
    beyond = any(fragment in message for fragment in BEYOND_SCHEMA)
    assert refused != beyond, f"{message!r}: schema {'refuses' if refused else 'accepts'} it"


WRITING = ROOT / "docs" / "writing-a-lesson.md"
FIELDS = ROOT / "docs" / "lesson-fields.md"


def _section() -> str:
    """The docs on writing a lesson, its fields page as the docs build writes it."""
    built = lesson_schema_hook().on_page_markdown(FIELDS.read_text("utf-8"))
    return WRITING.read_text("utf-8") + "\n" + built


def test_writing_a_lesson_documents_every_field_of_the_schema() -> None:
    section, properties = _section(), schema.lesson_schema()["properties"]
    for name in properties:
        assert any(f"`{shown}`" in section for shown in (name, f"[{name}]", f"[[{name}]]")), name
    for table, path in (("tokens", "tokens[i]"), ("heads", "heads[h]")):
        for name in properties[table]["items"]["properties"]:
            assert f"`{path}.{name}`" in section or f"`.{name}`" in section, f"{table}.{name}"
    for variant in properties["quiz"]["oneOf"]:
        for name in variant["properties"]:
            assert f"`{name}`" in section, f"quiz.{name}"


def test_the_heads_example_of_writing_a_lesson_is_a_lesson() -> None:
    """The docs' example, with the fields it leaves out and a third token, loads."""
    section = _section()
    example = section[section.index("```toml\n#:schema", section.index("## Steps")) :]
    data = tomllib.loads(example[len("```toml\n") : example.index("```", 8)])
    full = {**edit("title", "Many heads, by hand"), **data}
    for name in ("query", "rival"):
        del full[name]
    more = ([0, 1, 0.5], [1, 1, 0])
    full["tokens"] = [
        *data["tokens"],
        *({"text": "more", "short": f"t{i}", "embedding": x} for i, x in enumerate(more)),
    ]
    lesson = parse_lesson(full)
    assert (len(lesson.heads), lesson.tokens[0].query) == (2, (0.5, 1.0))
    assert list(VALIDATOR.iter_errors(full)) == []
