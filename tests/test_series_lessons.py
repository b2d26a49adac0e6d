"""The series' lesson fields: every new field's validation, each message naming the field (and,
in a lesson that lists its steps, the first step that needs it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from attention_core import LessonError, ShareQuiz, parse_lesson
from attention_core.steps import KINDS

from .lessons import DELETE, default_data, to_toml


def MASKED() -> dict[str, Any]:  # noqa: N802 (a constant, made fresh for each edit)
    """A masked lesson where every token asks: no top-level query, no rival, the share quiz."""
    data = default_data()
    for name in ("query", "rival"):
        del data[name]
    data["steps"] = ["title", "all_queries", "mask", "answer"]
    data["mask"] = "causal"
    for token, query in zip(
        data["tokens"], ([1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]), strict=True
    ):
        token["query"] = query
    data["quiz"] = {"asker": 2, "to": 0}
    return data


def HEADS() -> dict[str, Any]:  # noqa: N802
    """Two heads over three embeddings (d_model 3, dₖ 2, d_v 3), with W_O."""
    data = default_data()
    for name in ("query", "rival"):
        del data[name]
    data["steps"] = ["title", "projections", "heads", "answer"]
    for i, token in enumerate(data["tokens"]):
        del token["key"], token["value"]
        token["embedding"] = [1, 0.5 * i, -1]
    w_v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    data["heads"] = [
        {"w_q": [[1, 0], [0, 1], [0.5, -0.5]], "w_k": [[1, 0], [0, 1], [0.5, -0.5]], "w_v": w_v},
        {"w_q": [[1, 0], [0, 1], [0.5, -0.5]], "w_k": [[0, 1], [1, 0], [0, 0]], "w_v": w_v},
    ]
    data["w_o"] = [[1, 0], [0, 1], [0.5, 0.5], [1, -1], [0, 0], [0.1, 0.2]]
    data["quiz"] = {"asker": 2, "to": 0, "head": 1}
    return data


def edited(data: dict[str, Any], *edits: tuple[str, Any]) -> dict[str, Any]:
    """``data`` with each dotted path set (or deleted, for DELETE)."""
    for path, value in edits:
        *parents, last = path.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if value is DELETE:
            del node[int(last) if isinstance(node, list) else last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return data


def test_the_examples_parse() -> None:
    masked, heads = parse_lesson(MASKED()), parse_lesson(HEADS())
    assert (masked.mask, masked.asks, masked.rival) == ("causal", True, None)
    assert masked.query == masked.tokens[-1].query == (1, 1, 0, 0)
    assert masked.quiz == ShareQuiz(asker=2, to=0, head=0)
    assert (len(heads.heads), heads.w_o is not None, heads.asks) == (2, True, True)
    # Derived through heads[0]: x = [1, 0.5, -1]; q = x·W_Q = [1 - 0.5, 0.5 + 0.5].
    assert heads.tokens[1].query == heads.tokens[1].key == (0.5, 1.0)
    assert heads.tokens[1].value == (1, 0.5, -1)


STEP = '"all_queries"'
G_BAD: list[tuple[tuple[tuple[str, Any], ...], str]] = [
    # Every token's own query: all or none, dₖ long (at most 4), numbers like any other.
    (
        (("tokens.1.query", [1, 2, 3]),),
        f"steps[1] {STEP}: tokens[1].query: expected 4 numbers (tokens[0].query's length), got 3",
    ),
    (
        (("tokens.0.query", DELETE),),
        f"steps[1] {STEP}: tokens[0].query: missing (every token asks, or none)",
    ),
    (
        (("tokens.2.query", DELETE),),
        f"steps[1] {STEP}: tokens[2].query: missing (every token asks, or none)",
    ),
    (
        (("tokens.0.query", [1, 0, 1, 0, 1]),),
        f"steps[1] {STEP}: tokens[0].query: expected 1 to 4 numbers, got 5",
    ),
    (
        (("tokens.0.query.0", "1"),),
        f"steps[1] {STEP}: tokens[0].query[0]: expected a number, got text",
    ),
    (
        (("tokens.0.query.0", 0.125),),
        f"steps[1] {STEP}: tokens[0].query[0]: 0.125 has more than 2 decimal places",
    ),
    (
        (("tokens.1.query", "0 1 0 1"),),
        f"steps[1] {STEP}: tokens[1].query: expected a list of numbers, got text",
    ),
    (
        (("tokens.1.key", [0, 1, 1]),),
        f"steps[1] {STEP}: tokens[1].key: expected 4 numbers (tokens[0].query's length), got 3",
    ),
    (
        (("tokens.0.query", [9, 9, 9, 9]), ("tokens.0.key", [9, 0, 0, 0])),
        f"steps[1] {STEP}: tokens[0].query: scores 40.50 against tokens[0].key; scores must "
        "stay within ±12",
    ),
    (
        (("query", [1, 0, 1]),),
        f"steps[1] {STEP}: tokens[0].query: expected 3 numbers (the query's length), got 4",
    ),
    (
        (("steps", ["title", "score"]), ("tokens.1.query", [1, 2, 3])),
        "tokens[1].query: expected 4 numbers (tokens[0].query's length)",  # no step needs it
    ),
    (
        (
            ("steps", ["title", "all_queries"]),
            ("tokens.0.query", DELETE),
            ("tokens.1.query", DELETE),
            ("tokens.2.query", DELETE),
            ("query", [1, 0, 1, 0]),
        ),
        f"steps[1] {STEP}: tokens[0].query: missing",
    ),
    # The mask.
    ((("mask", DELETE),), 'steps[2] "mask": mask: missing'),
    ((("mask", "future"),), 'steps[2] "mask": mask: expected one of "causal", got \'future\''),
    ((("mask", True),), 'steps[2] "mask": mask: expected one of "causal", got True'),
    ((("steps", ["title", "mask"]), ("mask", "none")), 'steps[1] "mask": mask: expected one of'),
    (
        (
            ("tokens.0.query", DELETE),
            ("tokens.1.query", DELETE),
            ("tokens.2.query", DELETE),
            ("query", [1, 0, 1, 0]),
            ("steps", ["title", "score"]),
        ),
        "mask: 'causal' needs every token's own query",
    ),
    # Fields that belong to a heads lesson.
    (
        (("tokens.0.embedding", [1, 2]),),
        "tokens[0].embedding: needs [[heads]] to project it (or write the token's query, key",
    ),
    ((("w_o", [[1]]),), "w_o: needs [[heads]]: it multiplies their joined outputs"),
    ((("steps", ["title", "heads"]),), 'steps[1] "heads": tokens[0].embedding: missing'),
    (
        (("steps", ["title", "projections"]),),
        'steps[1] "projections": tokens[0].embedding: missing',
    ),
    # The rival and the quiz are needed by their steps only.
    ((("steps", ["title", "rival"]),), 'steps[1] "rival": rival: missing'),
    ((("quiz", DELETE),), 'steps[3] "answer": quiz: missing'),
    (
        (("rival", {"text": "r", "short": "r", "key": [1, 0], "value": [0, 0, 1]}),),
        "rival.key: expected 4 numbers (tokens[0].query's length), got 2",
    ),
    (
        (("quiz", {"filler_score": 0, "bonus_filler_score": -3}),),
        "rival: missing (the quiz's filler scores are measured against it)",
    ),
    # The share quiz.
    (
        (("quiz.asker", 7),),
        'steps[3] "answer": quiz.asker: 7 is not a token\'s place (0 to 2: tokens[0] is the first)',
    ),
    ((("quiz.to", -1),), 'steps[3] "answer": quiz.to: -1 is not a token\'s place (0 to 2'),
    ((("quiz.asker", "two"),), 'steps[3] "answer": quiz.asker: expected a whole number, got text'),
    ((("quiz.asker", True),), 'steps[3] "answer": quiz.asker: expected a whole number, got true'),
    ((("quiz.to", 1.5),), 'steps[3] "answer": quiz.to: expected a whole number, got a number'),
    ((("quiz.to", DELETE),), 'steps[3] "answer": quiz.to: missing'),
    (
        (("quiz.head", 1),),
        'steps[3] "answer": quiz.head: this lesson has no [[heads]]; leave it out',
    ),
    ((("quiz.colour", "red"),), 'steps[3] "answer": quiz.colour: unknown key'),
    ((("quiz.filler_score", 0),), 'steps[3] "answer": quiz.filler_score: unknown key'),
    (
        (("quiz.asker", 1), ("quiz.to", 2)),
        'steps[3] "answer": quiz.to: the causal mask hides tokens[2] from tokens[1], so its share '
        "is 0 whatever the numbers",
    ),
    (
        (("quiz.asker", 0), ("quiz.to", 0)),  # the first token sees itself only: all is 100%
        'steps[3] "answer": quiz.to: the options would not read as four different answers '
        "(right 100.0%; no_mask ",
    ),
    (
        (
            ("tokens.0.query", DELETE),
            ("tokens.1.query", DELETE),
            ("tokens.2.query", DELETE),
            ("query", [1, 0, 1, 0]),
            ("steps", ["title", "answer"]),
            ("mask", DELETE),
        ),
        'steps[1] "answer": quiz.asker: this quiz asks how one token attends to another: every '
        "token needs its own query",
    ),
]

H_BAD: list[tuple[tuple[tuple[str, Any], ...], str]] = [
    # [[heads]] and their matrices.
    ((("heads", [{}] * 4),), 'steps[1] "projections": heads: expected 1 to 3 entries, got 4'),
    ((("heads.0.w_q", DELETE),), 'steps[1] "projections": heads[0].w_q: missing'),
    (
        (("heads.0.w_q", "1 0"),),
        'steps[1] "projections": heads[0].w_q: expected a list of rows (lists of numbers), got '
        "text",
    ),
    (
        (("heads.0.w_q", [1, 0]),),
        'steps[1] "projections": heads[0].w_q: expected a list of rows (lists of numbers), got a',
    ),
    ((("heads.0.w_q", []),), 'steps[1] "projections": heads[0].w_q: expected 1 to 6 rows, got 0'),
    (
        (("heads.0.w_q", [[1, 0]] * 7),),
        'steps[1] "projections": heads[0].w_q: expected 1 to 6 rows, got 7',
    ),
    (
        (("heads.0.w_q", [[1, 0, 0, 0, 0]] * 3),),
        'steps[1] "projections": heads[0].w_q[0]: expected 1 to 4 numbers, got 5',
    ),
    (
        (("heads.0.w_q", [[1, 0], [1], [0, 0]]),),
        'steps[1] "projections": heads[0].w_q[1]: expected 2 numbers (as heads[0].w_q[0]), got 1',
    ),
    (
        (("heads.0.w_k", [[1, 0]] * 2),),
        'steps[1] "projections": heads[0].w_k: expected 3 rows (d_model: the rows of '
        "heads[0].w_q), got 2",
    ),
    (
        (("heads.1.w_q", [[1], [0], [0]]),),
        'steps[1] "projections": heads[1].w_q[0]: expected 2 numbers (dₖ: the columns of '
        "heads[0].w_q), got 1",
    ),
    (
        (("heads.0.w_v", [[1, 0]] * 3),),
        'steps[1] "projections": heads[0].w_v[0]: expected 3 numbers (the number of answers), '
        "got 2",
    ),
    (
        (("heads.0.w_q.0.0", 10),),
        'steps[1] "projections": heads[0].w_q[0][0]: 10 is too large for a hand-worked '
        "projection (limit ±9)",
    ),
    (
        (("heads.0.w_q.0.0", 0.25),),
        'steps[1] "projections": heads[0].w_q[0][0]: 0.25 has more than 1 decimal place',
    ),
    (
        (("heads.1.w_k.2.1", "1"),),
        'steps[1] "projections": heads[1].w_k[2][1]: expected a number, got text',
    ),
    (
        (("heads.1.w_k.2.1", float("nan")),),
        'steps[1] "projections": heads[1].w_k[2][1]: expected a finite number, got nan',
    ),
    ((("heads.0.colour", "red"),), 'steps[1] "projections": heads[0].colour: unknown key'),
    ((("heads.0", "head"),), 'steps[1] "projections": heads[0]: expected a table, got text'),
    (
        (("heads", DELETE),),
        'steps[1] "projections": tokens[0].embedding: needs [[heads]] to project it',
    ),
    (
        (("heads.1", DELETE), ("w_o", DELETE)),
        'steps[2] "heads": heads[1]: missing (this step compares two heads or more)',
    ),
    (
        (("answers", [1, 2, 3, 4, 5]),),
        "answers: expected 1 to 4 entries in a lesson with [[heads]] (each head's d_v",
    ),
    # The embeddings, and what a heads lesson derives rather than reads.
    ((("tokens.0.embedding", DELETE),), 'steps[1] "projections": tokens[0].embedding: missing'),
    (
        (("tokens.2.embedding", [1, 2]),),
        'steps[1] "projections": tokens[2].embedding: expected 3 numbers (the heads\' d_model: '
        "rows of heads[0].w_q), got 2",
    ),
    (
        (("tokens.0.embedding.1", 9.5),),
        'steps[1] "projections": tokens[0].embedding[1]: 9.5 is too large for a hand-worked',
    ),
    (
        (("tokens.0.embedding.1", 0.05),),
        'steps[1] "projections": tokens[0].embedding[1]: 0.05 has more than 1 decimal place',
    ),
    (
        (("tokens.0.key", [1, 0]),),
        "tokens[0].key: not written in a lesson with [[heads]]: it is derived from the embedding "
        "(x·W_K of heads[0])",
    ),
    ((("tokens.1.query", [1, 0]),), "tokens[1].query: not written in a lesson with [[heads]]"),
    ((("tokens.1.value", [1, 0, 0]),), "tokens[1].value: not written in a lesson with [[heads]]"),
    (
        (("query", [1, 0, 1]),),
        "query: expected 2 numbers (the heads' dₖ: columns of heads[0].w_q), got 3",
    ),
    (
        (("tokens.0.embedding", [9, 9, 9]), ("heads.0.w_q", [[9, 9]] * 3)),
        'steps[1] "projections": tokens[0].embedding: its query in heads[0] has 243, too large to '
        "show (limit ±99)",
    ),
    (
        (("tokens.0.embedding", [1, 1, 0]), ("heads.1.w_k", [[5, 5]] * 3)),
        'steps[1] "projections": heads[1]: tokens[0]\'s query scores 14.14'
        " against tokens[0]'s key; scores must stay "
        "within ±12",
    ),
    # W_O: (heads × d_v) rows.
    (
        (("w_o", [[1, 0]] * 5),),
        "w_o: expected 6 rows (the heads' joined outputs: heads × d_v), got 5",
    ),
    ((("w_o", [[1] * 7] * 6),), "w_o[0]: expected 1 to 6 numbers, got 7"),
    ((("w_o.0.0", 0.55),), "w_o[0][0]: 0.55 has more than 1 decimal place"),
    ((("w_o", 2),), "w_o: expected a list of rows (lists of numbers), got a number"),
    # The share quiz in a heads lesson: which head.
    ((("quiz.head", 2),), 'steps[3] "answer": quiz.head: 2 is not a head\'s place (0 to 1)'),
    ((("quiz.head", -1),), 'steps[3] "answer": quiz.head: -1 is not a head\'s place (0 to 1)'),
]

BAD = [("masked", MASKED, edits, message) for edits, message in G_BAD] + [
    ("heads", HEADS, edits, message) for edits, message in H_BAD
]
IDS = [f"{name}:{'+'.join(path for path, _ in edits)}" for name, _, edits, _ in BAD]


@pytest.mark.parametrize(("name", "base", "edits", "message"), BAD, ids=IDS)
def test_a_bad_series_field_is_named(name: str, base: Any, edits: Any, message: str) -> None:
    with pytest.raises(LessonError) as error:
        parse_lesson(edited(base(), *edits))
    assert str(error.value).startswith(message), str(error.value)


def test_every_kind_declares_the_fields_it_needs() -> None:
    needs = {name: kind.needs for name, kind in KINDS.items()}
    assert (needs["rival"], needs["answer"]) == (("rival",), ("quiz",))
    assert {"mask", "tokens.query"} <= set(needs["mask"])
    assert "tokens.query" in needs["all_queries"]
    assert {"tokens.embedding", "heads"} <= set(needs["projections"])
    assert "heads[1]" in needs["heads"]


@pytest.mark.parametrize(
    ("base", "edits", "message"),
    [
        (MASKED, (("tokens.1.query", [1, 2, 3]),), 'steps[1] "all_queries": tokens[1].query:'),
        (HEADS, (("heads.0.w_q.0.0", 0.25),), 'steps[1] "projections": heads[0].w_q[0][0]:'),
    ],
)
def test_render_refuses_a_bad_series_lesson_with_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    base: Any,
    edits: Any,
    message: str,
) -> None:
    import render

    bad = tmp_path / "bad.toml"
    bad.write_text(to_toml(edited(base(), *edits)), "utf-8")
    monkeypatch.chdir(tmp_path)
    assert render.main(["--check-lesson", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"lesson: {message}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("base", [MASKED, HEADS], ids=["masked", "heads"])
def test_check_lesson_prints_the_series_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base: Any
) -> None:
    import render
    from attention_core.worked import worked

    path = tmp_path / "lesson.toml"
    path.write_text(to_toml(base()), "utf-8")
    assert render.main(["--check-lesson", str(path)]) == 0
    printed = capsys.readouterr().out
    w = worked(parse_lesson(base()))
    grids = [head.grid for head in w.heads] or [w.grid]
    for grid in grids:
        for row, cells in zip(grid.rows, grid.cells, strict=True):
            assert row.output in printed
            assert all(cell.share in printed for cell in cells if not cell.hidden)
    for shown in (*w.share_quiz.options, w.share_quiz.answer, *(x for r in w.mixed for x in r)):
        assert shown in printed


@pytest.mark.parametrize("base", [MASKED, HEADS], ids=["masked", "heads"])
def test_the_handout_of_a_series_lesson_shows_its_one_query_numbers(base: Any) -> None:
    from attention_core.worked import worked
    from publish.kit.handout import handout_html

    lesson = parse_lesson(base())
    page = handout_html(lesson)
    assert all(row.share in page for row in worked(lesson).before.rows)
