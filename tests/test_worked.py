"""The worked lesson: derived once, and the handout and ``--check-lesson`` show its strings."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from attention_core import Quiz, attend, load_lesson, quiz_answer, rival_outcome, with_rival
from attention_core import formatting as fmt
from attention_core import worked as worked_module
from attention_core.lesson import Lesson
from attention_core.maths import Attention
from attention_core.reads import Reads, traced
from attention_core.worked import Worked, worked
from publish.kit.check import summary
from publish.kit.handout import handout_html
from scenes.steps.rival import Step6Rival

from .lessons import lesson_files

ROOT = Path(__file__).parent.parent


def _with_a_rival(path: Path) -> bool:
    lesson = load_lesson(path)
    return lesson.rival is not None and isinstance(lesson.quiz, Quiz)


LESSONS = [
    path
    for path in lesson_files() + [ROOT / "attention_core" / "lesson.toml"]
    if _with_a_rival(path)
]
"""Every lesson with Day 004's rival and filler quiz; the series' lessons have neither (their
own parts are checked in test_series_maths, their grids in test_check_lesson)."""


@pytest.fixture(params=LESSONS, ids=lambda path: path.stem)
def lesson(request: pytest.FixtureRequest) -> Lesson:
    """Each lesson with Day 004's rival and quiz."""
    return load_lesson(request.param)


def test_each_lesson_is_attended_once(lesson: Lesson, monkeypatch: pytest.MonkeyPatch) -> None:
    attended: list[Lesson] = []

    def counting(shown: Lesson) -> Attention:
        attended.append(shown)
        return attend(shown)

    monkeypatch.setattr(worked_module, "attend", counting)
    w = Worked(lesson)  # past the per-process cache
    for _ in range(2):  # each part is worked out once, when first read
        _shared_by(w)
        assert all((w.left, w.rule, w.code, w.before.leaning, w.after.scores))
    assert attended == [lesson, with_rival(lesson)]


def test_the_strings_are_the_formatters_of_the_maths(lesson: Lesson) -> None:
    w, a, b = worked(lesson), attend(lesson), attend(with_rival(lesson))
    assert [r.score for r in w.before.rows] == [fmt.number(x) for x in a.scores]
    assert [r.share for r in w.after.rows] == [fmt.share(x) for x in b.weights]
    assert (w.before.total, w.after.output) == (fmt.pull(a.total), fmt.output(b.output))
    assert w.outcome == rival_outcome(lesson)
    assert w.quiz.answer == fmt.option(
        quiz_answer(lesson).fillers_needed, lesson.words["common.word.about"]
    )


def _shared(lesson: Lesson) -> list[str]:
    """Every string of the worked lesson that both the handout and the check show."""
    return _shared_by(worked(lesson))


def _shared_by(w: Worked) -> list[str]:
    q = w.quiz
    return [
        w.query,
        w.root_d_k,
        *(x for r in w.before.rows for x in (r.dot, r.score, r.pull, r.share)),
        w.rival.dot,
        w.rival.score,
        *(r.share for r in w.after.rows),
        w.before.total,
        w.before.output,
        w.after.output,
        w.verdict,
        *q.options,
        q.filler,
        q.rival,
        q.answer,
        q.ratio,
        q.bonus_filler,
        q.bonus_count,
    ]


def test_the_handout_and_the_check_show_the_worked_strings(lesson: Lesson) -> None:
    page, printed = handout_html(lesson), "\n".join(summary(lesson))
    for shown in _shared(lesson):
        assert html.escape(shown, quote=False) in page, shown
        assert shown in printed, shown
    for row in [*worked(lesson).before.rows, worked(lesson).rival]:
        assert row.products in page
    assert "\n".join(worked(lesson).code) in html.unescape(page)


DEFAULT = load_lesson(ROOT / "attention_core" / "lesson.toml")


def test_a_traced_lesson_records_what_each_number_derives_from_every_time() -> None:
    kept = worked(DEFAULT)
    assert all((kept.quiz.filler, kept.before.rows[1].score))  # worked out, kept, untraced
    for _ in range(2):  # a second scene's run records again: nothing is served past its reads
        reads = Reads()
        w = worked(traced(DEFAULT, reads))
        assert w is not kept
        assert reads.paths == set()  # nothing is worked out before it is read
        assert w.before.rows[1].score == kept.before.rows[1].score
        assert {("query",), ("tokens", 1, "key"), ("tokens", 2, "value")} <= reads.paths
        assert not any(path[0] in ("quiz", "rival") or path[-1] == "text" for path in reads.paths)
        assert w.quiz.filler == kept.quiz.filler
        assert {("quiz", "filler_score"), ("rival", "key")} <= reads.paths
        assert ("quiz", "bonus_filler_score") not in reads.paths
        assert w.before.rows[1].token == DEFAULT.tokens[1].text
        assert ("tokens", 1, "text") in reads.paths


def test_the_rival_headline_and_the_handout_show_one_share(lesson: Lesson) -> None:
    left = fmt.percent(attend(with_rival(lesson)).weights[rival_outcome(lesson).top_token])
    assert worked(lesson).left == left
    headline = Step6Rival.headline(lesson)
    assert left in headline
    assert html.escape(headline, quote=False) in handout_html(lesson)
