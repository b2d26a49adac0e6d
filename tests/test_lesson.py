"""Loading and validating lessons: every rule, each with the message that names the field."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from attention_core import LessonError, default_lesson, load_lesson, parse_lesson
from attention_core.lesson import DEFAULT_SERIES

from .lessons import DELETE, default_data, to_toml

ROOT = Path(__file__).parent.parent


def test_default_lesson_holds_the_seed() -> None:
    lesson = default_lesson()
    assert lesson.title == "Attention, by hand"
    assert lesson.query == (2, 0, 1, 1)
    assert lesson.answers == ("4821", "7390", "1937")
    assert [t.text for t in lesson.tokens] == [
        "river's code is 4821",
        "lamp's code is 7390",
        "the weather was mild",
    ]
    assert lesson.rival.key == (2, 0, 1, 1)
    assert (lesson.quiz.filler_score, lesson.quiz.bonus_filler_score) == (0, -3)
    assert "58%" in lesson.citation.finding
    assert lesson.d_k == 4


def test_a_lesson_names_its_series_or_is_in_the_default_one() -> None:
    assert default_lesson().series == DEFAULT_SERIES == "Day 004 · Transformers"
    assert parse_lesson(edit("series", "Day 005 · Attention")).series == "Day 005 · Attention"


def test_lesson_is_frozen() -> None:
    with pytest.raises(AttributeError):
        default_lesson().title = "changed"  # type: ignore[misc]


def edit(path: str, value: Any) -> dict[str, Any]:
    """The default lesson with one field set (or deleted, for value=DELETE)."""
    data = default_data()
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value is DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


TOKEN = {"text": "filler", "short": "f", "key": [0, 0, 0, 0], "value": [0, 0, 0]}

BAD_LESSONS = [
    ("title", DELETE, "title: missing"),
    ("colour", "red", "colour: unknown key"),
    ("rival.colour", "red", "rival.colour: unknown key"),
    ("title", 7, "title: expected text, got a number"),
    ("title", "", "title: empty text"),
    ("title", "   ", "title: empty text"),
    ("title", "x" * 41, "title: 41 characters, more than the 40 that fit on screen"),
    ("title", "tab\there", "title: contains a control character"),
    ("question", "q" * 81, "question: 81 characters, more than the 80"),
    ("query", "2 0 1 1", "query: expected a list of numbers, got text"),
    ("query", [], "query: expected 1 to 9 numbers, got 0"),
    ("query", [1] * 10, "query: expected 1 to 9 numbers, got 10"),
    ("query.1", "0", "query[1]: expected a number, got text"),
    ("query.1", True, "query[1]: expected a number, got true/false"),
    ("query.1", float("nan"), "query[1]: expected a finite number, got nan"),
    ("query.1", float("inf"), "query[1]: expected a finite number, got inf"),
    ("query.1", 1000, "query[1]: 1000 is too large to show (limit ±99)"),
    ("query.1", 0.125, "query[1]: 0.125 has more than 2 decimal places"),
    ("tokens.2.key", [0, 1, 0], "tokens[2].key: expected 4 numbers (the query's length), got 3"),
    (
        "tokens.0.value",
        [1, 0],
        "tokens[0].value: expected 3 numbers (the number of answers), got 2",
    ),
    ("tokens.1.text", "t" * 33, "tokens[1].text: 33 characters, more than the 32"),
    ("tokens.1.short", DELETE, "tokens[1].short: missing"),
    ("tokens.1", "lamp", "tokens[1]: expected a table, got text"),
    ("tokens", [TOKEN], "tokens: expected 2 to 6 entries, got 1"),
    ("tokens", [TOKEN] * 7, "tokens: expected 2 to 6 entries, got 7"),
    ("answers", [], "answers: expected 1 to 6 entries, got 0"),
    ("answers.0", 4.5, "answers[0]: expected a whole number or a short text, got a number"),
    ("answers.0", "123456789", "answers[0]: 9 characters, more than the 8"),
    ("rival.key", [2, 0, 1], "rival.key: expected 4 numbers (the query's length), got 3"),
    ("rival", DELETE, "rival: missing"),
    ("quiz.filler_score", "zero", "quiz.filler_score: expected a number, got text"),
    ("quiz.bonus_filler_score", DELETE, "quiz.bonus_filler_score: missing"),
    ("citation.finding", "f" * 161, "citation.finding: 161 characters, more than the 160"),
    ("references", [{"text": "x"}] * 5, "references: expected 0 to 4 entries, got 5"),
    ("references.0.where", DELETE, "references[0].where: missing"),
    ("tokens.0.key", [99, 0, 1, 1], "tokens[0].key: scores 100.00 against the query; scores must"),
    ("quiz.filler_score", 3, "quiz.filler_score: 3 must be below the rival's score (3.00)"),
    ("quiz.bonus_filler_score", -13, "quiz.bonus_filler_score: -13 must be below"),
    ("quiz.filler_score", 2, "quiz.filler_score: options A and B would both read '1'"),
    ("quiz.filler_score", 2.99, "quiz.filler_score: options A and C would both read '1'"),
    # Text that cannot be one line of glyphs, or would reach a terminal as an escape.
    ("tokens.0.text", "two\nlines", "tokens[0].text: contains a control character (U+000A)"),
    ("question", "clear\x9b2J", "question: contains a control character (U+009B)"),
    ("promise", "a\u2028b", "promise: contains a control character (U+2028)"),
    ("title", "bell\x07", "title: contains a control character (U+0007)"),
    ("series", "x" * 41, "series: 41 characters, more than the 40 that fit on screen"),
    ("series", 4, "series: expected text, got a number"),
    ("tokens.0.short", "s" * 11, "tokens[0].short: 11 characters, more than the 10"),
    ("answers.0", True, "answers[0]: expected a whole number or a short text, got true/false"),
    ("answers.0", 10**9, "answers[0]: 10 characters, more than the 8"),
    ("answers", list(range(7)), "answers: expected 1 to 6 entries, got 7"),
    ("title", {}, "title: expected text, got a table"),
    ("title", date(2024, 1, 1), "title: expected text, got date"),
    ("citation", "Liu", "citation: expected a table, got text"),
    ("references.0.note", "x", "references[0].note: unknown key"),
    # Numbers too big, too small or not numbers at all.
    ("query.0", -1000, "query[0]: -1000 is too large to show (limit ±99)"),
    ("query.0", 10**30, "query[0]: 1000000000000000000000000000000 is too large to show"),
    ("query.0", 1e300, "query[0]: 1e+300 is too large to show (limit ±99)"),
    ("query.0", 1e-300, "query[0]: 1e-300 has more than 2 decimal places"),
    ("query.0", [2], "query[0]: expected a number, got a list"),
    ("query.0", float("-inf"), "query[0]: expected a finite number, got -inf"),
    ("tokens.0.value.0", float("nan"), "tokens[0].value[0]: expected a finite number, got nan"),
    ("rival.value", [0, 1], "rival.value: expected 3 numbers (the number of answers), got 2"),
    ("quiz.filler_score", float("nan"), "quiz.filler_score: expected a finite number, got nan"),
    ("rival.key", [-99, 0, 1, 1], "rival.key: scores -98.00 against the query; scores must"),
    # [words]: a translation of the template in attention_core/words.toml
    ("words", "French", "words: expected a table, got text"),
    ("words", {"nonsense": "x"}, "words.nonsense: unknown entry; known entries are listed in"),
    (
        "words",
        {"softmax": {"caption": {"foo": "x"}}},
        "words.softmax.caption.foo: unknown entry; known entries are listed in "
        "attention_core/words.toml",
    ),
    ("words", {"mix": {"word": {"weight": 3}}}, "words.mix.word.weight: expected text, got a"),
    ("words", {"mix": {"word": {"weight": {"x": "y"}}}}, "words.mix.word.weight: expected text"),
    ("words", {"mix": {"word": {"weight": " "}}}, "words.mix.word.weight: empty text"),
    ("words", {"mix": {"word": {"weight": "W" * 25}}}, "words.mix.word.weight: 25 characters, "),
    ("words", {"mix": {"heading": {"title": "T" * 41}}}, "words.mix.heading.title: 41 characters"),
    ("words", {"mix": {"line": {"slots": "s" * 161}}}, "words.mix.line.slots: 161 characters"),
    ("words", {"mix": {"caption": {"add_up": "{output}" * 36}}}, "words.mix.caption.add_up: 288 "),
    (
        "words",
        {"mix": {"word": {"weight": "GE\x1bWICHT"}}},
        "words.mix.word.weight: contains a control",
    ),
    (
        "words",
        {"softmax": {"caption": {"pull_first": "Für {token}: e hoch {score}."}}},
        "words.softmax.caption.pull_first: missing placeholder {pull}; "
        "this entry takes {token}, {score}, {pull}",
    ),
    (
        "words",
        {"common": {"word": {"about": "etwa {count} {x}"}}},
        "words.common.word.about: unknown placeholder {x}; this entry takes {count}",
    ),
    (
        "words",
        {"rival": {"word": {"before": "VORHER {}"}}},
        "words.rival.word.before: unknown placeholder {}; this entry takes none",
    ),
    (
        "words",
        {"common": {"word": {"about": "etwa {count.__class__}"}}},
        "words.common.word.about: unknown placeholder {count.__class__}",
    ),
    (
        "words",
        {"common": {"word": {"about": "etwa {count:>99999}"}}},
        "words.common.word.about: placeholder {count} must be plain",
    ),
    (
        "words",
        {"common": {"word": {"about": "etwa {count!r}"}}},
        "words.common.word.about: placeholder {count} must be plain",
    ),
    ("words", {"common": {"word": {"about": "etwa {count"}}}, "words.common.word.about: a lone {"),
]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    BAD_LESSONS,
    ids=[f"{row[0]}={str(row[1])[:12]}" for row in BAD_LESSONS],
)
def test_bad_lesson_names_the_field(field: str, value: Any, message: str) -> None:
    with pytest.raises(LessonError) as error:
        parse_lesson(edit(field, value))
    assert str(error.value).startswith(message)


def test_a_translation_overrides_only_its_own_entries() -> None:
    data = default_data()
    data["words"] = {"common": {"word": {"about": "{{etwa}} {count}", "list": "{last} & {items}"}}}
    words = parse_lesson(data).words
    assert words.say("common.word.about", count="20") == "{etwa} 20"
    assert words.join(["a", "b", "c"]) == "c & a, b"
    assert words["mix.word.weight"] == default_lesson().words["mix.word.weight"] == "WEIGHT"


def test_load_lesson_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "lesson.toml"
    path.write_text('title = "Mine"\n' + _default_toml_without_title(), "utf-8")
    assert load_lesson(path).title == "Mine"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"title = ", "not valid TOML"),
        (b"\xff\xfe", "not UTF-8 text"),
        (b"x = " + b"[" * 10_000 + b"]" * 10_000, "nested too deeply"),
        (b"#" * (64 * 1024 + 1), "more than the 65536 bytes a lesson may be"),
    ],
)
def test_unreadable_files_are_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    with pytest.raises(LessonError, match=message):
        load_lesson(path)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match="no such file"):
        load_lesson(tmp_path / "absent.toml")


def _default_toml_without_title() -> str:
    from importlib import resources

    text = resources.files("attention_core").joinpath("lesson.toml").read_text("utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("title"))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    BAD_LESSONS,
    ids=[f"{row[0]}={str(row[1])[:12]}" for row in BAD_LESSONS],
)
def test_render_refuses_a_bad_lesson_file_before_writing_anything(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    field,
    value,
    message,
) -> None:
    import render

    bad = tmp_path / "bad.toml"
    bad.write_text(to_toml(edit(field, value)), "utf-8")
    out = tmp_path / "out"
    monkeypatch.chdir(tmp_path)
    assert render.main(["--lesson", str(bad), "--out", str(out)]) == 2
    assert f"lesson: {message}" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_a_bad_lesson_is_refused_before_manim_is_imported(tmp_path: Path) -> None:
    """Refusal is cheap and safe: the lesson is checked before any scene code is loaded."""
    bad = tmp_path / "deep.toml"
    bad.write_text("x = " + "[" * 10_000 + "]" * 10_000, "utf-8")
    script = (
        "import sys, render\n"
        f"code = render.main(['--lesson', {str(bad)!r}, '--out', {str(tmp_path / 'out')!r}])\n"
        "sys.exit(code + 10 * ('manim' in sys.modules))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 2, run.stderr
    assert "deep.toml: nested too deeply" in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.toml"]
