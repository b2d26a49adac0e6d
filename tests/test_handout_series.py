"""The handout of the series' lessons: its sections follow the lesson's steps, and every number
in their tables is the worked maths' own string (read back out of the HTML, cell by cell)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from playwright.sync_api import Browser
from selenium import webdriver

from attention_core import Lesson, ShareQuiz, english, parse_lesson
from attention_core import formatting as fmt
from attention_core.heads import attend_heads
from attention_core.worked import Grid, Worked, worked
from publish.kit.handout import PRINTED, handout_html, print_pdf, write_handout
from scenes import scenes_for

from .lessons import asking_lesson_data, default_data, heads_lesson_data
from .scene_checks import allowed_numbers, lesson_texts
from .test_accessibility import _violations, driver  # noqa: F401 (driver: a fixture)
from .test_lecture_kit import _Prose, browser, visible_numbers  # noqa: F401 (browser: a fixture)
from .test_scenes import LESSONS, _words, probe

SERIES_LESSONS = ["day005_masked", "day005_masked_greek", "day006_heads"]
NUMBERED = ("score", "softmax", "mix", "all_queries", "mask", "projections", "heads")
"""The step kinds whose handout section is a numbered worked step."""
RANDOM = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the handout, read back ---------------------------------------------------------------------


@dataclass
class Table:
    kind: str | None
    caption: str = ""
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    hidden: list[list[bool]] = field(default_factory=list)
    """Per body cell: whether it is shown muted (a cell the mask hides)."""


@dataclass
class Section:
    headings: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


class Reader(HTMLParser):
    """The handout's sections: their headings, tables (cell texts), paragraphs and list items."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[Section] = []
        self.text: list[str] | None = None
        self.table: Table | None = None
        self.in_head = False
        self.row: list[str] | None = None
        self.row_hidden: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class")
        if tag == "section":
            self.sections.append(Section())
        elif tag == "table":
            self.table = Table(classes)
        elif tag == "thead":
            self.in_head = True
        elif tag == "tr":
            self.row, self.row_hidden = [], []
        elif tag in ("h2", "h3", "p", "li", "td", "th", "caption"):
            self.text = []
            if tag in ("td", "th"):
                self.row_hidden.append(False)
        elif tag == "span" and classes == "hidden" and self.row_hidden:
            self.row_hidden[-1] = True

    def handle_endtag(self, tag: str) -> None:
        text = " ".join("".join(self.text or []).split())
        section = self.sections[-1] if self.sections else None
        if tag in ("td", "th") and self.row is not None:
            self.row.append(text)
        elif tag == "caption" and self.table is not None:
            self.table.caption = text
        elif tag == "tr" and self.table is not None and self.row is not None:
            if self.in_head:
                self.table.header = self.row
            else:
                self.table.rows.append(self.row)
                self.table.hidden.append(self.row_hidden)
            self.row = None
        elif tag == "thead":
            self.in_head = False
        elif tag == "table" and self.table is not None and section is not None:
            section.tables.append(self.table)
            self.table = None
        elif section is not None and tag in ("h2", "h3"):
            section.headings.append(text)
        elif section is not None and tag == "p":
            section.paragraphs.append(text)
        elif section is not None and tag == "li":
            section.items.append(text)
        if tag in ("h2", "h3", "p", "li", "td", "th", "caption"):
            self.text = None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def read(lesson: Lesson) -> list[Section]:
    reader = Reader()
    reader.feed(handout_html(lesson))
    return reader.sections


def sections_of(lesson: Lesson) -> dict[str, list[Section]]:
    """The handout's sections by the step kind each belongs to, found by the headings the
    lesson's steps give them, in order; the answer's are its quick check and its answer."""
    found: dict[str, list[Section]] = {}
    sections = iter(read(lesson))
    for kind, headings in expected_headings(lesson):
        found[kind] = [next(sections) for _ in headings]
        assert [s.headings[0] for s in found[kind]] == headings, kind
    return found


def expected_headings(lesson: Lesson) -> list[tuple[str, list[str]]]:
    """Each step kind with a section, and its sections' first headings, in the lesson's order."""
    words, number, out = lesson.words, 0, []
    for kind in lesson.steps:
        if kind in NUMBERED:
            number += 1
            title = words[f"{kind}.heading.title"]
            out.append((kind, [words.say("handout.heading.step", number=str(number), title=title)]))
        elif kind == "answer":
            out.append((kind, [words["handout.heading.quiz"], words["handout.heading.answer"]]))
    return out


# --- what the tables must hold --------------------------------------------------------------


def names(lesson: Lesson) -> list[str]:
    return [t.short for t in lesson.tokens]


def grid_rows(lesson: Lesson, grid: Grid, stage: str, beside: list[str] | None = None) -> Any:
    """A grid table's body: each row's name, its cells' ``stage`` strings, what stands beside."""
    return [
        [name, *(getattr(c, stage) for c in line), *([beside[i]] if beside else [])]
        for i, (name, line) in enumerate(zip(names(lesson), grid.cells, strict=True))
    ]


def assert_grid(table: Table, lesson: Lesson, grid: Grid, stage: str, beside: Any = None) -> None:
    assert table.kind == "grid"
    assert table.header[1 : 1 + len(lesson.tokens)] == names(lesson)
    assert table.rows == grid_rows(lesson, grid, stage, beside)
    hidden = grid.attention.hidden.tolist()
    assert [row[1 : 1 + len(lesson.tokens)] for row in table.hidden] == hidden


def assert_stages(tables: list[Table], lesson: Lesson, w: Worked, grid: Grid) -> None:
    """Scores, pulls with each row's total, shares with each row's budget, the outputs."""
    scores, pulls, shares, outputs = tables
    assert_grid(scores, lesson, grid, "score")
    assert_grid(pulls, lesson, grid, "pull", [row.total for row in grid.rows])
    assert_grid(shares, lesson, grid, "share", [w.budget] * len(grid.rows))
    assert outputs.header[1:] == [str(a) for a in lesson.answers]
    assert outputs.rows == [
        [n, *(fmt.output_entry(x) for x in out)]
        for n, out in zip(names(lesson), grid.attention.outputs, strict=True)
    ]
    # The shares the page shows are the weights', and each row's weights use the whole budget.
    np.testing.assert_allclose(grid.attention.weights.sum(axis=1), 1.0)
    assert [r[1:-1] for r in shares.rows] == [
        [fmt.share(x) for x in row] for row in grid.attention.weights
    ]


def check_all_queries(lesson: Lesson, section: Section) -> None:
    w = worked(lesson)
    grid = w.open_grid if "mask" in lesson.steps else w.grid  # as the video's step shows it
    a = grid.attention
    vectors, dots, *stages = section.tables
    assert vectors.rows == [
        [n, fmt.vector(q), fmt.vector(k), fmt.vector(v)]
        for n, q, k, v in zip(names(lesson), a.queries, a.keys, a.values, strict=True)
    ]
    assert_grid(dots, lesson, grid, "dot")
    assert [r[1:] for r in dots.rows] == [[fmt.number(x) for x in row] for row in a.dots]
    assert_stages(stages, lesson, w, grid)
    first = grid.cells[0][0]
    assert any(f"{first.products} = {first.dot}" in p for p in section.paragraphs)


def check_mask(lesson: Lesson, section: Section) -> None:
    w = worked(lesson)
    assert_stages(section.tables, lesson, w, w.grid)
    scores, pulls, shares, _ = section.tables
    for i, j in np.argwhere(w.grid.attention.hidden):  # above the diagonal: −∞, pull 0, 0.0%
        assert (scores.rows[i][j + 1], pulls.rows[i][j + 1]) == (fmt.MINUS_INFINITY, "0")
        assert shares.rows[i][j + 1] == fmt.share(0)
    assert w.grid.attention.hidden.any() == (lesson.mask is not None)


def check_projections(lesson: Lesson, section: Section) -> None:
    w = worked(lesson)
    tables = iter(section.tables)
    for h, head in enumerate(w.heads):
        for role in "qkv":
            matrix = next(tables)
            assert matrix.kind == "matrix"
            assert matrix.caption == f"W{role.upper()}"
            assert [row[1:] for row in matrix.rows] == [
                [fmt.number(x) for x in row] for row in getattr(head.attention, f"w_{role}")
            ]
        x, a = head.attention.embeddings, head.grid.attention
        assert next(tables).rows == [
            [n, fmt.vector(e), fmt.vector(q), fmt.vector(k), fmt.vector(v)]
            for n, e, q, k, v in zip(names(lesson), x, a.queries, a.keys, a.values, strict=True)
        ]
        if h == 0:  # the newest token through head 1, entry by entry
            newest = head.projections[-1]
            assert next(tables).rows == [
                [f"{role}{c + 1}", terms, entry]
                for role in "qkv"
                for c, (terms, entry) in enumerate(
                    zip(getattr(newest, role).terms, getattr(newest, role).entries, strict=True)
                )
            ]
            for role in "qkv":  # the sums written out are x·W's, as numpy works it
                w_role = getattr(head.attention, f"w_{role}")
                assert getattr(newest, role).vector == fmt.vector(x[-1] @ w_role)
    assert next(tables, None) is None


def check_heads(lesson: Lesson, section: Section) -> None:
    w = worked(lesson)
    tables = iter(section.tables)
    for head in w.heads:
        grid = head.grid
        outputs = [fmt.output(x) for x in grid.attention.outputs]
        assert_grid(next(tables), lesson, grid, "share", outputs)
    multi = attend_heads(lesson)  # the maths' own joined and × W_O, through the formatter
    assert multi.joined.tolist() == [
        np.concatenate([head.grid.attention.outputs[t] for head in w.heads]).tolist()
        for t in range(len(lesson.tokens))
    ]
    if lesson.w_o is not None:
        matrix = next(tables)
        assert matrix.caption == "WO"
        assert [row[1:] for row in matrix.rows] == [
            [fmt.number(x) for x in row] for row in lesson.w_o
        ]
    last = next(tables)
    assert [row[1] for row in last.rows] == [fmt.output(x) for x in multi.joined]
    if lesson.w_o is not None:
        assert [row[2] for row in last.rows] == [fmt.output(x) for x in multi.mixed]
        np.testing.assert_allclose(multi.mixed, multi.joined @ np.array(lesson.w_o), atol=1e-12)
    else:
        assert len(last.rows[0]) == 2
    assert next(tables, None) is None


def check_answer(lesson: Lesson, sections: list[Section]) -> None:
    w, quiz = worked(lesson), lesson.quiz
    assert isinstance(quiz, ShareQuiz)
    q = w.share_quiz
    question, answer = sections
    options = [fmt.share(x) for x in q.numbers.options]
    assert question.items == [f"{chr(65 + i)} {o}" for i, o in enumerate(options)]
    right = q.numbers.correct
    assert answer.paragraphs[0].startswith(
        lesson.words.say(
            "handout.line.pick", letter=chr(65 + right), option=fmt.share(q.numbers.share)
        )
    )
    row = q.grid.cells[quiz.asker]
    working = answer.tables[0]
    assert working.rows[:-1] == [
        [n, c.score, c.pull, c.share] for n, c in zip(names(lesson), row, strict=True)
    ]
    assert working.rows[-1][2:] == [q.grid.rows[quiz.asker].total, w.budget]
    slips = [
        lesson.words.say(
            "handout.line.slip",
            letter=chr(65 + i),
            option=option,
            slip=lesson.words[f"answer.line.slip_{slip}"],
        )
        for i, (option, slip) in enumerate(zip(options, q.numbers.slips, strict=True))
        if slip != "right"
    ]
    assert slips == answer.items
    assert len(answer.items) == 3


CHECKS = {
    "all_queries": check_all_queries,
    "mask": check_mask,
    "projections": check_projections,
    "heads": check_heads,
}


def check(lesson: Lesson) -> None:
    found = sections_of(lesson)
    for kind, sections in found.items():
        if kind in CHECKS:
            (section,) = sections
            CHECKS[kind](lesson, section)
        elif kind == "answer" and isinstance(lesson.quiz, ShareQuiz):
            check_answer(lesson, sections)


# --- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SERIES_LESSONS)
def test_the_series_handout_holds_the_worked_numbers_in_the_steps_order(name: str) -> None:
    lesson = LESSONS[name]
    check(lesson)
    found = sections_of(lesson)
    assert [kind for kind in found] == [
        k for k in lesson.steps if k not in ("title", "big_picture")
    ]
    # Nothing else: no Day 004 one-query section, whose maths these videos never work.
    takeaway = lesson.words["handout.heading.takeaway"]
    steps = [heading for _, headings in expected_headings(lesson) for heading in headings]
    assert [s.headings[0] for s in read(lesson)] == [*steps, takeaway]
    one_query = [lesson.words[f"handout.word.{c}"] for c in ("products", "scaled", "before")]
    assert not any(word in handout_html(lesson) for word in one_query)


@pytest.mark.parametrize("name", SERIES_LESSONS)
def test_the_series_handout_shows_only_numbers_of_the_maths(name: str) -> None:
    lesson = LESSONS[name]
    stray = visible_numbers(handout_html(lesson)) - allowed_numbers(lesson)
    assert not stray, f"the handout shows numbers attention_core never made: {stray}"


@RANDOM
@given(asking_lesson_data())
def test_a_random_asking_lesson_gets_its_grids_on_paper(data: dict[str, Any]) -> None:
    check(parse_lesson(data))


@RANDOM
@given(heads_lesson_data())
def test_a_random_heads_lesson_gets_its_projections_and_heads_on_paper(
    data: dict[str, Any],
) -> None:
    check(parse_lesson(data))


SERIES_CASES = [
    (scene, name)
    for name in ("day005_masked", "day006_heads")
    for scene in scenes_for(LESSONS[name])
    if scene.slug in (*CHECKS, "answer")
]


@pytest.mark.lessons
@pytest.mark.parametrize(
    ("scene", "name"),
    [pytest.param(s, n, id=f"{s.slug}-{n}") for s, n in SERIES_CASES],
)
def test_the_series_handout_shows_the_numbers_the_scenes_show(scene: Any, name: str) -> None:
    """What the video works out, the handout has: every number a series step shows."""
    on_paper = visible_numbers(handout_html(LESSONS[name]))
    missing = probe(scene, name).numbers - on_paper
    assert not missing, f"{scene.__name__} shows {missing}, the handout does not"


@pytest.mark.parametrize("name", ["default", "greek", "four_tokens"])
def test_day_004_keeps_its_sections_and_its_style(name: str) -> None:
    """Its handout is the one it had before the registry (compared byte for byte by hand with
    a39ff40's, for every Day-004 lesson in lessons/ and 80 random ones): Day 004's sections in
    Day 004's order, and none of the series' tables or style."""
    lesson = LESSONS[name]
    words, page = lesson.words, handout_html(lesson)
    w = worked(lesson)
    step = [
        words.say("handout.heading.step", number=str(n), title=words[f"{kind}.heading.title"])
        for n, kind in enumerate(("score", "softmax", "mix"), 1)
    ]
    rival = words.say("rival.heading.title", share=w.left)
    quiz, answer = words["handout.heading.quiz"], words["handout.heading.answer"]
    takeaway = words["handout.heading.takeaway"]
    assert [s.headings[0] for s in read(lesson)] == [*step, rival, quiz, answer, takeaway]
    assert "class=grid" not in page
    assert "table.matrix" not in page


# --- on paper: printed, nothing wider than A4, accessible -------------------------------------


A4_TEXT_WIDTH = 210 - 2 * 16
"""The A4 page's width inside the handout's print margins (``@page { margin: 16mm }``), in mm."""


def widest_data() -> dict[str, Any]:
    """A lesson as wide as the limits allow on paper: six tokens with ten-letter names, three
    heads over six embedding numbers, four-entry q, k and v with two places, a 12 × 6 W_O."""
    data = default_data()
    for name in ("query", "rival", "quiz"):
        del data[name]
    data["answers"] = ["answer_1", "answer_2", "answer_3", "answer_4"]
    data["tokens"] = [
        {
            "text": f"token number {i}",
            "short": f"tokenname{i}",
            "embedding": [round((-1) ** (i + j) * (8.5 - i - j / 2), 1) for j in range(6)],
        }
        for i in range(6)
    ]
    small = [[0.1, -0.1, 0.1, -0.1] if r == 0 else [0.0] * 4 for r in range(6)]  # scores ≤ ±12
    wide = [[round(-1.5 + 0.1 * ((r * 4 + c) % 7), 1) for c in range(4)] for r in range(6)]
    data["heads"] = [{"w_q": small, "w_k": small, "w_v": wide} for _ in range(3)]
    data["w_o"] = [[round(-0.5 + 0.1 * ((r + c) % 9), 1) for c in range(6)] for r in range(12)]
    data["mask"] = "causal"
    data["steps"] = ["title", "all_queries", "mask", "projections", "heads"]
    return data


def overflowing(chromium: Browser, page: Path) -> list[str]:
    """What reaches past the A4 text width when the handout is laid out for print."""
    view = chromium.new_page(viewport={"width": round(A4_TEXT_WIDTH / 25.4 * 96), "height": 1000})
    try:
        view.emulate_media(media="print")
        view.goto(page.resolve().as_uri())
        found: list[str] = view.evaluate(
            """() => {
              const edge = document.documentElement.clientWidth + 0.5;
              return [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > edge)
                .map(e => e.tagName + ': ' + (e.textContent || '').slice(0, 60));
            }"""
        )
        found += (
            []
            if view.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            )
            else ["the page scrolls sideways"]
        )
        return found
    finally:
        view.close()


@pytest.mark.browser
@pytest.mark.parametrize("name", ["day005_masked", "day006_heads", "widest"])
def test_the_series_handout_fits_the_width_of_a4(
    name: str,
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    lesson = parse_lesson(widest_data()) if name == "widest" else LESSONS[name]
    write_handout(tmp_path, lesson)
    assert overflowing(browser, tmp_path / "handout.html") == []


@pytest.mark.browser
def test_day_006s_handout_prints_whole(tmp_path: Path) -> None:
    """Printed by the real path (headless Chromium): a whole PDF, the answer on a page of its
    own, and a print that says the fixed date."""
    write_handout(tmp_path, LESSONS["day006_heads"])
    assert print_pdf(tmp_path) == []
    data = (tmp_path / "handout.pdf").read_bytes()
    assert data.startswith(b"%PDF-")
    assert b"%%EOF" in data[-1024:]
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
    assert 3 <= pages <= 5, pages  # the worked steps and the quick check, the answer on its own
    assert PRINTED in data


@pytest.mark.browser
@pytest.mark.parametrize("name", ["day005_masked", "day006_heads"])
def test_the_series_handout_passes_axe(
    name: str,
    driver: webdriver.Chrome,  # noqa: F811
    tmp_path: Path,
) -> None:
    write_handout(tmp_path, LESSONS[name])
    assert _violations(driver, tmp_path / "handout.html") == []


def test_greek_day_005s_handout_has_no_english() -> None:
    """Every word of the series' sections comes from the translation too."""
    lesson = LESSONS["day005_masked_greek"]
    english_only = _words(*english().values()) - _words(
        *lesson.words.values(), *lesson_texts(lesson)
    )
    reader = _Prose()
    reader.feed(handout_html(lesson))
    assert not _words(*reader.parts) & english_only
