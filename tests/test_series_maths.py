"""The series' maths (every token asks, the causal mask, heads, the share quiz) against
references written here in plain Python loops, on random lessons inside the limits."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from attention_core import LessonError, parse_lesson
from attention_core import formatting as fmt
from attention_core.heads import attend_heads
from attention_core.lesson import Lesson
from attention_core.matrix import attend_grid, hidden_by
from attention_core.reads import Reads, traced
from attention_core.share_quiz import SLIPS, share_answer
from attention_core.worked import Grid, Worked

from .lessons import asking_lesson_data, heads_lesson_data

SERIES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Rows = list[list[float]]


# References: written out as a student would, with no numpy and nothing of attention_core.


def ref_times(x: Rows, w: Rows) -> Rows:
    """x·W, entry by entry: row of x times column of W."""
    return [[sum(row[r] * w[r][c] for r in range(len(w))) for c in range(len(w[0]))] for row in x]


def ref_attention(q: Rows, k: Rows, v: Rows, masked: bool) -> dict[str, Any]:
    """softmax(QKᵀ/√dₖ + M)V, loop by loop; M is −∞ above the diagonal when masked."""
    n, d_k = len(q), len(q[0])
    hidden = [[masked and j > i for j in range(n)] for i in range(n)]
    dots = [[sum(q[i][t] * k[j][t] for t in range(d_k)) for j in range(n)] for i in range(n)]
    scores = [
        [-math.inf if hidden[i][j] else dots[i][j] / math.sqrt(d_k) for j in range(n)]
        for i in range(n)
    ]
    pulls = [[0.0 if hidden[i][j] else math.exp(scores[i][j]) for j in range(n)] for i in range(n)]
    totals = [sum(row) for row in pulls]
    weights = [[pulls[i][j] / totals[i] for j in range(n)] for i in range(n)]
    outputs = [
        [sum(weights[i][j] * v[j][c] for j in range(n)) for c in range(len(v[0]))] for i in range(n)
    ]
    return {
        "hidden": hidden,
        "dots": dots,
        "scores": scores,
        "pulls": pulls,
        "totals": totals,
        "weights": weights,
        "outputs": outputs,
    }


def vectors(lesson: Lesson, name: str) -> Rows:
    return [list(getattr(token, name)) for token in lesson.tokens]


def assert_attention_is(grid: Any, ref: dict[str, Any]) -> None:
    assert grid.hidden.tolist() == ref["hidden"]
    np.testing.assert_allclose(grid.dots, ref["dots"], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(np.isneginf(grid.scores), ref["hidden"])
    visible = ~grid.hidden
    np.testing.assert_allclose(
        grid.scores[visible], np.array(ref["scores"])[visible], rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(grid.pulls, ref["pulls"], rtol=1e-9)
    np.testing.assert_allclose(grid.totals, ref["totals"], rtol=1e-9)
    np.testing.assert_allclose(grid.weights, ref["weights"], rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(grid.outputs, ref["outputs"], rtol=1e-9, atol=1e-12)
    assert (grid.weights[grid.hidden] == 0).all()  # e^−∞ is exactly nothing
    np.testing.assert_allclose(grid.weights.sum(axis=1), 1.0, rtol=1e-12)  # the whole budget


@SERIES
@given(asking_lesson_data())
def test_every_token_asks_as_the_reference_does(data: dict[str, Any]) -> None:
    lesson = parse_lesson(data)
    masked = lesson.mask == "causal"
    q, k, v = (vectors(lesson, name) for name in ("query", "key", "value"))
    assert_attention_is(attend_grid(lesson), ref_attention(q, k, v, masked))
    assert_attention_is(attend_grid(lesson, masked=False), ref_attention(q, k, v, False))


@SERIES
@given(asking_lesson_data(mask=True))
def test_the_causal_mask_hides_exactly_the_future(data: dict[str, Any]) -> None:
    lesson = parse_lesson(data)
    grid, n = attend_grid(lesson), len(lesson.tokens)
    for i in range(n):
        assert [bool(h) for h in grid.hidden[i]] == [j > i for j in range(n)]
        assert (grid.weights[i, : i + 1] > 0).all()  # every row keeps at least its own token
    # The first token sees only itself; the newest sees everything, as if unmasked.
    assert grid.weights[0, 0] == 1.0
    open_grid = attend_grid(lesson, masked=False)
    np.testing.assert_allclose(grid.weights[-1], open_grid.weights[-1], rtol=1e-12)


@SERIES
@given(heads_lesson_data())
def test_heads_project_attend_join_and_mix_as_the_reference_does(data: dict[str, Any]) -> None:
    lesson = parse_lesson(data)
    multi = attend_heads(lesson)
    x = [list(token["embedding"]) for token in data["tokens"]]
    masked = "mask" in data
    joined: Rows = [[] for _ in x]
    for h, head in enumerate(data["heads"]):
        q, k, v = (ref_times(x, head[name]) for name in ("w_q", "w_k", "w_v"))
        grid = multi.heads[h].grid
        for mine, ref in ((grid.queries, q), (grid.keys, k), (grid.values, v)):
            np.testing.assert_allclose(mine, ref, rtol=0, atol=1e-9)
            # One decimal place times one decimal place: exact at two, as shown.
            assert all(float(fmt.number(e)) == e for e in mine.flat)
        assert_attention_is(grid, ref_attention(q, k, v, masked))
        for t, row in enumerate(ref_attention(q, k, v, masked)["outputs"]):
            joined[t] += row
    np.testing.assert_allclose(multi.joined, joined, rtol=1e-9, atol=1e-12)
    mixed = ref_times(joined, data["w_o"]) if "w_o" in data else joined
    np.testing.assert_allclose(multi.mixed, mixed, rtol=1e-9, atol=1e-9)
    # The tokens carry head 1's projections: what Day 004's one-query steps work on.
    first = data["heads"][0]
    for name, w in (("query", first["w_q"]), ("key", first["w_k"]), ("value", first["w_v"])):
        np.testing.assert_allclose(vectors(lesson, name), ref_times(x, w), rtol=0, atol=1e-9)
    assert lesson.query == lesson.tokens[-1].query


@SERIES
@given(heads_lesson_data())
def test_worked_heads_show_the_maths(data: dict[str, Any]) -> None:
    lesson = parse_lesson(data)
    w, multi = Worked(lesson), attend_heads(lesson)
    for h, (shown, head) in enumerate(zip(w.heads, multi.heads, strict=True)):
        assert shown.number == str(h + 1)
        assert shown.w_q == tuple(
            tuple(fmt.number(e) for e in row) for row in data["heads"][h]["w_q"]
        )
        for t, projection in enumerate(shown.projections):
            x = data["tokens"][t]["embedding"]
            w_k = data["heads"][h]["w_k"]
            assert projection.embedding == tuple(fmt.number(e) for e in x)
            assert projection.k.entries == tuple(fmt.number(e) for e in head.grid.keys[t])
            for c, terms in enumerate(projection.k.terms):
                column = [f"{fmt.factor(x[r])}×{fmt.factor(w_k[r][c])}" for r in range(len(x))]
                assert terms == " + ".join(column)
        assert_grid_shows(shown.grid, head.grid)
    assert w.joined == tuple(tuple(fmt.output_entry(e) for e in row) for row in multi.joined)
    assert w.mixed == tuple(tuple(fmt.output_entry(e) for e in row) for row in multi.mixed)
    assert len(w.joined[0]) == len(lesson.heads) * len(lesson.answers)
    assert_grid_shows(w.grid, multi.heads[0].grid)  # head 1's is the lesson's grid


def assert_grid_shows(grid: Grid, a: Any) -> None:
    """Every string of the worked grid is the formatter's of the maths, masked cells as such."""
    n = a.weights.shape[0]
    for i in range(n):
        for j in range(n):
            cell = grid.cells[i][j]
            assert cell.hidden == bool(a.hidden[i, j])
            assert cell.dot == fmt.number(a.dots[i, j])
            assert cell.score == ("−∞" if cell.hidden else fmt.number(a.scores[i, j]))
            assert cell.pull == ("0" if cell.hidden else fmt.pull(a.pulls[i, j]))
            assert (cell.share, cell.short_weight) == (
                fmt.share(a.weights[i, j]),
                fmt.short_weight(a.weights[i, j]),
            )
            pairs = [
                f"{fmt.factor(q)}×{fmt.factor(k)}"
                for q, k in zip(a.queries[i], a.keys[j], strict=True)
            ]
            assert cell.products == " + ".join(pairs)
        row = grid.rows[i]
        assert row.query_entries == tuple(fmt.number(e) for e in a.queries[i])
        assert row.total == fmt.pull(sum(a.pulls[i]))
        assert row.output_entries == tuple(fmt.output_entry(e) for e in a.outputs[i])
        assert row.output == "[" + ", ".join(row.output_entries) + "]"
    assert grid.visible == tuple(str(n - int(a.hidden[i].sum())) for i in range(n))


@SERIES
@given(asking_lesson_data())
def test_worked_grid_shows_the_maths(data: dict[str, Any]) -> None:
    lesson = parse_lesson(data)
    w = Worked(lesson)
    assert_grid_shows(w.grid, attend_grid(lesson))
    assert_grid_shows(w.open_grid, attend_grid(lesson, masked=False))
    # Day 004's steps, shown in this lesson, work on the newest token's query: its row of the
    # grid is their table (the mask never hides anything from the newest token).
    assert lesson.query == lesson.tokens[-1].query
    newest = [cell.share for cell in w.grid.cells[-1]]
    assert newest == [row.share for row in w.before.rows]
    assert w.grid.rows[-1].output == w.before.output


def test_a_masked_cell_reads_minus_infinity_and_pulls_nothing() -> None:
    assert fmt.score(-math.inf) == fmt.MINUS_INFINITY == "−∞"
    assert fmt.score(1.5) == "1.5"
    assert (fmt.grid_pull(0.0), fmt.grid_pull(math.exp(-12))) == ("0", "0.00")
    assert hidden_by("causal", 3).tolist() == [[False, True, True], [False, False, True]] + [
        [False, False, False]
    ]
    with pytest.raises(ValueError, match="unknown mask"):
        hidden_by("future", 3)


# The share quiz: every option is a slip's share, worked out here from the reference.


def ref_slips(
    lesson: Lesson, data: dict[str, Any], i: int, j: int, h: int
) -> tuple[float, list[tuple[str, float]]]:
    """The right share and every slip's, in SLIPS order, from the reference."""
    masked = "mask" in data
    if "heads" in data:
        x = [token["embedding"] for token in data["tokens"]]
        qkv = [
            tuple(ref_times(x, head[w]) for w in ("w_q", "w_k", "w_v")) for head in data["heads"]
        ]
    else:
        qkv = [tuple(vectors(lesson, name) for name in ("query", "key", "value"))]
    grids = [ref_attention(q, k, v, masked)["weights"] for q, k, v in qkv]
    q, k, v = qkv[h]
    weights = grids[h]
    slips: list[tuple[str, float]] = []
    if masked:
        slips.append(("no_mask", ref_attention(q, k, v, False)["weights"][i][j]))
    slips += [("other_head", g[i][j]) for g_h, g in enumerate(grids) if g_h != h]
    slips.append(("transposed", weights[j][i]))
    d_k = len(q[0])
    if d_k > 1:
        seen = range(i + 1) if masked else range(len(q))
        raw = [sum(a * b for a, b in zip(q[i], k[c], strict=True)) for c in seen]
        top = max(raw)
        slips.append(("unscaled", math.exp(raw[j] - top) / sum(math.exp(r - top) for r in raw)))
    slips.append(("even", 1 / ((i + 1) if masked else len(q))))
    return weights[i][j], slips


@SERIES
@given(st.one_of(asking_lesson_data(), heads_lesson_data()), st.data())
def test_the_share_quiz_offers_the_right_share_and_three_slips(
    data: dict[str, Any], draw: st.DataObject
) -> None:
    asker = draw.draw(st.integers(0, len(data["tokens"]) - 1))
    to = draw.draw(st.integers(0, asker if "mask" in data else len(data["tokens"]) - 1))
    head = draw.draw(st.integers(0, len(data.get("heads", [None])) - 1))
    right, slips = ref_slips(parse_lesson(data), data, asker, to, head)
    # The wrong options are the earliest slips whose shares read apart from those before.
    expected, seen = [], {fmt.share(right)}
    for slip, value in slips:
        if len(expected) < 3 and fmt.share(value) not in seen:
            expected.append(slip)
            seen.add(fmt.share(value))
    data["quiz"] = {"asker": asker, "to": to} | ({"head": head} if "heads" in data else {})
    data["steps"] = [*data["steps"], "answer"]
    event("refused" if len(expected) < 3 else "asked")
    if len(expected) < 3:  # refused, naming the quiz
        with pytest.raises(LessonError, match=r"quiz\.to: the options would not read as four"):
            parse_lesson(data)
        return
    lesson = parse_lesson(data)
    answer = share_answer(lesson)
    assert math.isclose(answer.share, right, rel_tol=1e-9)
    assert math.isclose(answer.options[answer.correct], right, rel_tol=1e-9)
    assert answer.slips[answer.correct] == "right"
    assert list(answer.options) == sorted(answer.options)
    shown = [fmt.share(x) for x in answer.options]
    assert len(set(shown)) == 4  # four different answers, as read
    assert sorted(s for s in answer.slips if s != "right") == sorted(expected)
    for slip, value in zip(answer.slips, answer.options, strict=True):
        if slip != "right":
            same = [v for s, v in slips if s == slip]  # other_head: one per other head
            assert any(math.isclose(value, v, rel_tol=1e-9) for v in same), slip
    assert set(answer.slips) <= {"right", *SLIPS}
    w = Worked(lesson).share_quiz
    assert w.options == tuple(shown)
    assert w.answer == fmt.share(answer.share) == w.options["ABCD".index(w.letter)]
    assert w.head == (str(head + 1) if "heads" in data else None)
    assert (w.asker, w.to) == (lesson.tokens[asker], lesson.tokens[to])


# Traced reads: each part records exactly the fields behind it.


def test_each_series_part_records_only_what_it_derives_from() -> None:
    from .test_series_lessons import HEADS, MASKED

    lesson = parse_lesson(MASKED())
    reads = Reads()
    w = Worked(traced(lesson, reads))
    assert w.open_grid.cells[0][1].score
    assert ("mask",) not in reads.paths  # the open grid does not depend on the mask
    assert {("tokens", 1, "query"), ("tokens", 0, "key"), ("tokens", 2, "value")} <= reads.paths
    assert w.grid.cells[0][1].score == "−∞"
    assert ("mask",) in reads.paths
    assert not any(path[0] in ("quiz", "rival", "title") for path in reads.paths)
    assert w.share_quiz.answer
    assert {("quiz", "asker"), ("quiz", "to")} <= reads.paths

    lesson = parse_lesson(HEADS())
    reads = Reads()
    w = Worked(traced(lesson, reads))
    assert w.heads[1].projections[0].q.terms
    assert w.joined[0]
    assert ("w_o",) not in reads.paths  # the heads and their joined outputs need no W_O
    assert {("tokens", 0, "embedding"), ("heads", 1, "w_q")} <= reads.paths
    assert not any(path[-1] in ("query", "key", "value", "text") for path in reads.paths)
    assert w.mixed[0]
    assert ("w_o",) in reads.paths
