"""The lesson file's JSON Schema, generated from the validation rules, for editors that check TOML.

``python -m attention_core.schema`` writes ``attention_core/lesson.schema.json``; a lesson file
that starts with ``#:schema ../attention_core/lesson.schema.json`` (the path relative to it) is
completed and checked as it is typed by Taplo and the "Even Better TOML" editor extension.

The schema states every rule about one field (types, counts, lengths, magnitudes, names, the
words catalogue) and those that tie fields together by presence (what each listed step needs,
a heads lesson's embeddings instead of keys). Rules that relate numbers to each other or to
the maths (a key as long as the query, every score within ±12, decimal places, the quiz's
options reading apart) are :func:`attention_core.lesson.parse_lesson`'s alone: ``render.py
--check-lesson`` reports them.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from .generated import write_or_check
from .lesson import LIMITS, VOICES
from .matrix import MASKS
from .steps import DEFAULT_STEPS, KINDS
from .words import KINDS as WORD_KINDS
from .words import english

__all__ = ["FILE", "lesson_schema", "main", "text"]

FILE = "lesson.schema.json"
"""The schema's file name inside the package, beside ``lesson.toml``."""

Schema = dict[str, Any]

_SHOWN = "^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]*$"
"""One line of glyphs: no control characters (C0, DEL, C1) or line and paragraph separators."""


def _text(most: int, what: str) -> Schema:
    return {
        "type": "string",
        "description": f"{what} One line, at most {most} characters.",
        "minLength": 1,
        "maxLength": most,
        "allOf": [{"pattern": "\\S"}, {"pattern": _SHOWN}],
    }


def _number(what: str, most: float = LIMITS.max_abs_number) -> Schema:
    return {
        "type": "number",
        "description": f"{what} Within ±{most:g}, at most {LIMITS.max_decimals} decimal places.",
        "minimum": -most,
        "maximum": most,
    }


def _numbers(what: str, most_items: int, least_items: int = 1) -> Schema:
    return {
        "type": "array",
        "description": what,
        "minItems": least_items,
        "maxItems": most_items,
        "items": _number("A number."),
    }


def _entry() -> Schema:
    return {
        "type": "number",
        "description": (
            f"Within ±{LIMITS.max_abs_entry:g}, at most {LIMITS.entry_decimals} decimal place "
            "(so that x·W stays exact at two)."
        ),
        "minimum": -LIMITS.max_abs_entry,
        "maximum": LIMITS.max_abs_entry,
    }


def _matrix(what: str, rows: int, columns: int) -> Schema:
    return {
        "type": "array",
        "description": f"{what} A list of rows, each a list of numbers as long as the first.",
        "minItems": 1,
        "maxItems": rows,
        "items": {"type": "array", "minItems": 1, "maxItems": columns, "items": _entry()},
    }


def _table(description: str, properties: Schema, required: list[str]) -> Schema:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _token() -> Schema:
    return _table(
        "A token: a statement squeezed into one token.",
        {
            "text": _text(LIMITS.max_token_text, "What the token says."),
            "short": _text(LIMITS.max_short_length, "Its label in tables."),
            "key": _numbers(
                "Its key: as many numbers as the query (dₖ). Not written in a lesson with "
                "[[heads]] (derived: x·W_K of the first head).",
                LIMITS.max_query_length,
            ),
            "value": _numbers(
                "Its value: one number per answer. Not written in a lesson with [[heads]] "
                "(derived: x·W_V of the first head).",
                LIMITS.max_value_length,
            ),
            "query": _numbers(
                "Its own query, when every token asks (all tokens or none); dₖ at most "
                f"{LIMITS.max_asking_d_k}. Not written in a lesson with [[heads]] "
                "(derived: x·W_Q).",
                LIMITS.max_asking_d_k,
            ),
            "embedding": {
                "type": "array",
                "description": (
                    "The token as d_model numbers, in a lesson with [[heads]] (as many as the "
                    "rows of each W)."
                ),
                "minItems": 1,
                "maxItems": LIMITS.max_d_model,
                "items": _entry(),
            },
        },
        ["text", "short"],
    )


def _quiz() -> Schema:
    limit = LIMITS.max_abs_score
    filler = _table(
        "Day 004's quiz: how many filler tokens pull as hard as the rival?",
        {
            "filler_score": _number(
                f"What a filler token scores: at least -{limit:g}, below the rival's score.", limit
            ),
            "bonus_filler_score": _number(
                f"The bonus question's filler score: at least -{limit:g}, below the rival's.", limit
            ),
        },
        ["filler_score", "bonus_filler_score"],
    )
    place = {"type": "integer", "minimum": 0, "maximum": LIMITS.max_tokens - 1}
    share = _table(
        "The quiz of a lesson where every token asks: how much of the asker's attention goes to "
        "another token? Four options are derived (the right share and three slips).",
        {
            "asker": {**place, "description": "The asking token's place in tokens (0: the first)."},
            "to": {
                **place,
                "description": "The token it attends to, by place; one the mask does not hide.",
            },
            "head": {
                "type": "integer",
                "description": "In a lesson with [[heads]]: which head, by place (0: the first).",
                "minimum": 0,
                "maximum": LIMITS.max_heads - 1,
            },
        },
        ["asker", "to"],
    )
    return {
        "description": "The answer step's quick check, of either kind.",
        "oneOf": [filler, share],
    }


def _words() -> Schema:
    """The catalogue's entries as nested tables: ``[words.score.caption] dot = "…"``."""
    scenes: dict[str, dict[str, dict[str, Schema]]] = {}
    for name, template in english().items():
        scene, kind, entry = name.split(".", 2)
        shown = {"description": f"English: {template}", "$ref": f"#/definitions/{kind}"}
        scenes.setdefault(scene, {}).setdefault(kind, {})[entry] = shown
        if kind == "caption":  # a said form may be added to any caption (a symbol read aloud)
            said = {**shown, "$ref": "#/definitions/said"}
            scenes[scene].setdefault("said", {}).setdefault(entry, said)
    return {
        "type": "object",
        "description": (
            "Translations of any entries of attention_core/words.toml, by the same names; each "
            "uses exactly the English entry's {placeholders}."
        ),
        "additionalProperties": False,
        "properties": {
            scene: {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    kind: {"type": "object", "additionalProperties": False, "properties": entries}
                    for kind, entries in sorted(kinds.items())
                },
            }
            for scene, kinds in sorted(scenes.items())
        },
    }


def _tokens_have(name: str) -> Schema:
    return {"properties": {"tokens": {"items": {"required": [name]}}}}


def _need(need: str) -> Schema:
    """What a step's need (:attr:`attention_core.steps.StepKind.needs`) asks of the file."""
    if need.startswith("tokens."):
        name = need.removeprefix("tokens.")
        if name == "embedding":
            return _tokens_have(name)
        return {"anyOf": [{"required": ["heads"]}, _tokens_have(name)]}  # heads derive it
    if "[" in need:  # heads[1]: a second head
        name, count = need.rstrip("]").split("[")
        return {"required": [name], "properties": {name: {"minItems": int(count) + 1}}}
    return {"required": [need]}


def _needs() -> list[Schema]:
    rules: list[Schema] = []
    for kind, step in KINDS.items():
        for need in step.needs:
            listed = {"required": ["steps"], "properties": {"steps": {"contains": {"const": kind}}}}
            rules.append({"if": listed, "then": _need(need)})
    for kind in DEFAULT_STEPS:  # a lesson without steps is Day 004's
        for need in KINDS[kind].needs:
            rules.append({"if": {"not": {"required": ["steps"]}}, "then": _need(need)})
    return rules


def lesson_schema() -> Schema:
    """The JSON Schema (draft-07) of a lesson file, from the limits and names of the rules.

    Returns
    -------
    dict
        The schema, ready for :func:`json.dumps`.
    """
    written = {"type": "object", "required": ["key", "value"]}
    derived = {"not": {"anyOf": [{"required": [name]} for name in ("key", "value", "query")]}}
    heads = {
        "type": "array",
        "description": "The attention heads, each with its own learned projections.",
        "minItems": 1,
        "maxItems": LIMITS.max_heads,
        "items": _table(
            "One head: W_Q, W_K and W_V, each with a row per embedding entry (d_model).",
            {
                "w_q": _matrix(
                    f"W_Q: d_model rows (at most {LIMITS.max_d_model}) × dₖ columns (at most "
                    f"{LIMITS.max_head_width}).",
                    LIMITS.max_d_model,
                    LIMITS.max_head_width,
                ),
                "w_k": _matrix("W_K: as W_Q.", LIMITS.max_d_model, LIMITS.max_head_width),
                "w_v": _matrix(
                    "W_V: d_model rows × one column per answer (d_v).",
                    LIMITS.max_d_model,
                    LIMITS.max_head_width,
                ),
            },
            ["w_q", "w_k", "w_v"],
        ),
    }
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "A lesson of Attention, by hand",
        "description": (
            "One TOML file, data only. Generated by python -m attention_core.schema from the "
            "validation rules; render.py --check-lesson checks the rest (lengths that must "
            "match, scores, decimal places, the quiz's options)."
        ),
        "type": "object",
        "additionalProperties": False,
        "required": [
            "title",
            "promise",
            "question",
            "answers",
            "tokens",
            "takeaway",
            "citation",
            "references",
        ],
        "properties": {
            "title": _text(LIMITS.max_title, "The lesson's title."),
            "series": _text(
                LIMITS.max_title,
                "The series the title card names (default: Day 004 · Transformers).",
            ),
            "promise": _text(LIMITS.max_paragraph, "What the viewer will be able to do."),
            "question": _text(LIMITS.max_line, "The question the lesson answers."),
            "query": _numbers(
                "The one query Day 004's steps work on (dₖ numbers). Optional when every token "
                "has its own query or the lesson has [[heads]]: then the newest token's.",
                LIMITS.max_query_length,
            ),
            "answers": {
                "type": "array",
                "description": (
                    f"What each value slot stands for: 1 to {LIMITS.max_value_length} (at most "
                    f"{LIMITS.max_head_width} with [[heads]]), whole numbers or short labels."
                ),
                "minItems": 1,
                "maxItems": LIMITS.max_value_length,
                "items": {
                    "anyOf": [
                        {"type": "integer", "minimum": -9_999_999, "maximum": 99_999_999},
                        _text(LIMITS.max_answer, "A label."),
                    ]
                },
            },
            "tokens": {
                "type": "array",
                "description": f"{LIMITS.min_tokens} to {LIMITS.max_tokens} tokens, in order.",
                "minItems": LIMITS.min_tokens,
                "maxItems": LIMITS.max_tokens,
                "items": _token(),
            },
            "rival": {
                **_table(
                    "The lookalike token of the rival step (and of Day 004's quiz).",
                    {
                        name: _token()["properties"][name]
                        for name in ("text", "short", "key", "value")
                    },
                    ["text", "short", "key", "value"],
                )
            },
            "quiz": _quiz(),
            "takeaway": _text(LIMITS.max_paragraph, "The one sentence to remember."),
            "citation": _table(
                "A published result the lesson cites.",
                {
                    "source": _text(LIMITS.max_title, "Who found it."),
                    "finding": _text(LIMITS.max_paragraph, "What they found."),
                },
                ["source", "finding"],
            ),
            "references": {
                "type": "array",
                "description": f"At most {LIMITS.max_references} pointers to read further.",
                "minItems": 0,
                "maxItems": LIMITS.max_references,
                "items": _table(
                    "A pointer to read further.",
                    {
                        "text": _text(LIMITS.max_line, "What to read."),
                        "where": _text(LIMITS.max_line, "Where to find it."),
                    },
                    ["text", "where"],
                ),
            },
            "words": _words(),
            "voice": {"description": "Who narrates it.", "enum": list(VOICES)},
            "steps": {
                "type": "array",
                "description": (
                    "The steps in order, each a kind, none twice (default: Day 004's "
                    f"{', '.join(DEFAULT_STEPS)})."
                ),
                "minItems": 1,
                "maxItems": LIMITS.max_steps,
                "uniqueItems": True,
                "items": {"enum": list(KINDS)},
            },
            "mask": {
                "description": "causal: token i sees tokens 0…i only (the decoder's mask).",
                "enum": list(MASKS),
            },
            "heads": heads,
            "w_o": _matrix(
                f"W_O: (heads × d_v) rows × d_out columns (at most {LIMITS.max_out_width}): "
                "what the joined heads' outputs are multiplied by.",
                LIMITS.max_heads * LIMITS.max_head_width,
                LIMITS.max_out_width,
            ),
        },
        "dependencies": {"w_o": ["heads"]},
        "definitions": {
            kind: _text(most, f"A words entry of kind {kind}.") for kind, most in WORD_KINDS.items()
        },
        "allOf": [
            {  # with heads, tokens carry embeddings and nothing derived; without, key and value
                "if": {"required": ["heads"]},
                "then": {
                    "properties": {
                        "tokens": {"items": {"required": ["embedding"], **derived}},
                        "answers": {"maxItems": LIMITS.max_head_width},
                    }
                },
                "else": {
                    "properties": {
                        "tokens": {"items": {**written, "not": {"required": ["embedding"]}}}
                    }
                },
            },
            {  # the one query: written, or the newest token's own, or the heads'
                "anyOf": [
                    {"required": ["query"]},
                    {"required": ["heads"]},
                    _tokens_have("query"),
                ]
            },
            {  # Day 004's quiz measures fillers against the rival
                "if": {
                    "required": ["quiz"],
                    "properties": {"quiz": {"required": ["filler_score"]}},
                },
                "then": {"required": ["rival"]},
            },
            {"if": {"required": ["mask"]}, "then": _need("tokens.query")},  # a mask hides keys
            {  # the share quiz reads the grid: every token asks
                "if": {"required": ["quiz"], "properties": {"quiz": {"required": ["asker"]}}},
                "then": _need("tokens.query"),
            },
            *_needs(),
        ],
    }


def text() -> str:
    """The schema as the shipped file holds it."""
    return json.dumps(lesson_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the schema beside the default lesson (``--check``: exit 1 when it is stale; 2 for
    bad arguments)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(str(resources.files("attention_core").joinpath(FILE)))
    return write_or_check("schema", path, text, args)


if __name__ == "__main__":
    sys.exit(main())
