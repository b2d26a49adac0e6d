"""The twin: in Chromium, every number it shows equals attention_core's, character for character.

Twenty random lessons (and the built-in share-quiz lessons), their inputs changed through the
page's fields as a viewer would, every ``[data-quantity]`` read back and compared with
:func:`attention_core.worked` of the same lesson edited in Python; ``twin.js``'s formatting and
exact sums against Python's own over many doubles; and the real embed page of the session
render, whose twin follows the playing step and works by keyboard alone.
"""

from __future__ import annotations

import copy
import math
import random
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page

from attention_core import LessonError, default_lesson, load_lesson, parse_lesson
from attention_core import formatting as fmt
from attention_core.exponential import exp
from attention_core.model import Lesson
from attention_core.steps import DEFAULT_STEPS, KINDS
from attention_core.twin_spec import SOURCES, numbers_of
from attention_core.worked import worked
from publish.kit import twin, twin_numbers
from publish.kit.twin_numbers import numbers

from .conftest import ROOT, Rendered
from .lessons import (
    HUNDREDTHS,
    NUMBERS,
    TENTHS,
    asking_lesson_data,
    default_data,
    heads_lesson_data,
    lesson_data,
)
from .test_lecture_kit import Visit, browser  # noqa: F401 (browser: a fixture)

READ = """
() => [...document.querySelectorAll("[data-kind]")].flatMap((section) =>
  [...section.querySelectorAll("[data-quantity]")].map((e) => [section.dataset.kind,
    e.dataset.quantity, e.dataset.token ?? "", e.dataset.head ?? "", e.dataset.row ?? "",
    e.dataset.col ?? "", e.textContent]))
"""
"""Every number the page shows, by its step kind and key, with its text."""

COMPARED: list[int] = []
"""How many numbers each comparison checked, for the count reported at the end."""
SEEN: set[str] = set()
"""The step kinds of every lesson compared."""
DONE: set[str] = set()
"""The lessons compared (each case of the plan, each built-in one)."""


def expected(lesson: Lesson) -> dict[tuple[str, ...], str]:
    """What attention_core shows for ``lesson``, by step kind and key."""
    w = worked(lesson)
    return {(kind, *k): text for kind in lesson.steps for k, text in numbers(w, kind).items()}


def shown(page: Page) -> dict[tuple[str, ...], str]:
    found = page.evaluate(READ)
    return {tuple(item[:6]): item[6] for item in found}


PICKED = """
() => [...document.querySelectorAll("[data-twin-picker] option")].map((option) =>
  [option.textContent, document.querySelector(`[data-step="${option.value}"] h3`).textContent])
"""
"""Each label of twin.html's step picker, with the heading of the step it picks."""


def check(page: Page, lesson: Lesson) -> None:
    """Every number on the page is attention_core's, and every one of those is on the page; the
    step picker's labels are the steps' headings as they now read (the rival's share in it)."""
    want, have = expected(lesson), shown(page)
    wrong = {k: (have.get(k), v) for k, v in want.items() if have.get(k) != v}
    assert not wrong, f"page ≠ attention_core (page, python): {dict(list(wrong.items())[:8])}"
    assert set(have) == set(want)
    labels = page.evaluate(PICKED)
    assert [label for label, _ in labels] == [heading for _, heading in labels]
    COMPARED.append(len(want))


# --- the inputs a lesson has, each with where it sits in the lesson file ------------------------


Field = tuple[str, dict[str, int | str], tuple[Any, ...]]
"""``data-input``, the other data attributes, and the path of its number in the document."""


def fields(data: dict[str, Any]) -> list[Field]:
    """Every field the twin offers for this lesson document."""
    found: list[Field] = []
    tokens = data["tokens"]
    if "heads" in data:
        for t, token in enumerate(tokens):
            for i in range(len(token["embedding"])):
                found.append(("embedding", {"token": t, "index": i}, ("tokens", t, "embedding", i)))
        for h, head in enumerate(data["heads"]):
            for role in ("w_q", "w_k", "w_v"):
                for r, row in enumerate(head[role]):
                    for c in range(len(row)):
                        found.append(
                            (role, {"head": h, "row": r, "col": c}, ("heads", h, role, r, c))
                        )
        for r, row in enumerate(data.get("w_o") or []):
            for c in range(len(row)):
                found.append(("w_o", {"row": r, "col": c}, ("w_o", r, c)))
        return found
    if "query" in data:
        found += [("query", {"index": i}, ("query", i)) for i in range(len(data["query"]))]
    for t, token in enumerate(tokens):
        for role in ("query", "key", "value"):
            for i in range(len(token.get(role, []))):
                found.append((role, {"token": t, "index": i}, ("tokens", t, role, i)))
    if "rival" in data:
        for role in ("key", "value"):
            for i in range(len(data["rival"][role])):
                found.append((role, {"token": "rival", "index": i}, ("rival", role, i)))
    if "filler_score" in data.get("quiz", {}):
        for name in ("filler_score", "bonus_filler_score"):
            found.append((name, {"index": 0}, ("quiz", name)))
    return found


def selector(field: Field) -> str:
    role, at, _ = field
    return f'[data-input="{role}"]' + "".join(f'[data-{k}="{v}"]' for k, v in at.items())


def edited(data: dict[str, Any], edits: list[tuple[Field, float]]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    for (_, _, path), value in edits:
        target = changed
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return changed


def draw_edits(
    draw: st.DrawFn, data: dict[str, Any], numbers_of: st.SearchStrategy[float]
) -> tuple[list[tuple[Field, float]], Lesson]:
    """A few inputs changed to new numbers the lesson format allows (drawn again until the
    edited lesson validates: the twin is compared where the video could be made)."""
    offered = fields(data)
    for _ in range(50):
        chosen = draw(
            st.lists(st.sampled_from(offered), min_size=2, max_size=8, unique_by=selector)
        )
        edits = []
        for field in chosen:
            score = field[0] in ("filler_score", "bonus_filler_score")
            edits.append((field, float(draw(st.integers(-12, 12) if score else numbers_of))))
        try:
            return edits, parse_lesson(edited(data, edits))
        except LessonError:
            continue
    return [], parse_lesson(data)


# --- the proof -----------------------------------------------------------------------------------


def one_query(count: int) -> list[tuple[str, st.SearchStrategy[dict[str, Any]], Any]]:
    return [("one query", lesson_data(), NUMBERS)] * count


PLAN = [
    *one_query(7),  # title, big_picture, score, softmax, mix, rival, answer (the filler quiz)
    *[("masked", asking_lesson_data(mask=True), HUNDREDTHS)] * 4,  # all_queries, mask
    *[("open", asking_lesson_data(mask=False), HUNDREDTHS)] * 2,
    *[("heads", heads_lesson_data().filter(lambda d: len(d["heads"]) > 1), TENTHS)] * 4,
    *[("any heads", heads_lesson_data(), TENTHS)] * 3,  # projections, heads
]
"""The 20 random lessons, by kind; every step kind is among them."""


def with_new_kinds(document: dict[str, Any]) -> dict[str, Any]:
    """The lesson with every kind of no query of its own that the plan's lessons do not list
    (one added by the README's recipe) as its last steps, where the lesson may have it: so the
    proof covers it too."""
    steps = list(document.get("steps", DEFAULT_STEPS))
    for kind, entry in KINDS.items():
        if kind in steps or kind in DEFAULT_STEPS or entry.query:
            continue
        try:
            parse_lesson({**document, "steps": [*steps, kind]})
        except LessonError:
            continue
        steps.append(kind)
    return (
        document
        if steps == list(document.get("steps", DEFAULT_STEPS))
        else {**document, "steps": steps}
    )


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:  # noqa: F811
    opened = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert not errors, errors


def open_twin(page: Page, lesson: Lesson, folder: Path) -> None:
    file = folder / twin.NAME
    file.write_text(twin.twin_html(lesson), "utf-8")
    page.goto(file.as_uri())


def test_the_plan_covers_every_step_kind() -> None:
    """Every kind the project ships shows numbers in the twin, each from a source Python reads
    and by a rule attention_core has (the page's own sources: the browser test below)."""
    assert all(KINDS[kind].twin for kind in KINDS)
    assert set(twin_numbers.SOURCES) == set(SOURCES)
    for kind in KINDS:
        assert {n.rule for n in numbers_of(KINDS[kind].twin)} <= set(fmt.RULES), kind
    assert len(PLAN) == 20


BUILT_IN = ["day005_masked", "day006_heads"]


@pytest.mark.parametrize("name", ["default", *BUILT_IN])
def test_every_number_and_picker_label_starts_empty(name: str) -> None:
    """Python writes no number of the twin (nor a label of its picker): ``twin.js`` writes each,
    so a number it does not compute is missing on the page, and the proof sees it."""
    lesson = (
        default_lesson() if name == "default" else load_lesson(ROOT / "lessons" / f"{name}.toml")
    )
    written = twin.twin_html(lesson)
    numbers = re.findall(r"<(span|text)\b[^>]*\bdata-quantity=[^>]*>([^<]*)<", written)
    options = re.findall(r"<option value=\"\d+\">([^<]*)</option>", written)
    assert len(numbers) == sum(len(twin_numbers.numbers(worked(lesson), k)) for k in lesson.steps)
    assert {text for _, text in numbers} == {""}
    assert options == [""] * len(lesson.steps)


@pytest.mark.browser
def test_the_page_computes_every_source(page: Page) -> None:
    with_script(page)
    names = page.evaluate(
        "(lesson) => Object.keys(Twin.sources(lesson))", twin.data(default_lesson())["lesson"]
    )
    assert sorted(names) == sorted(SOURCES)


@pytest.mark.browser
@pytest.mark.parametrize("case", range(len(PLAN)), ids=lambda i: f"{i:02d}-{PLAN[i][0]}")
def test_every_number_is_attention_cores_after_an_edit(
    case: int, page: Page, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _, lessons, entries = PLAN[case]
    folder = tmp_path_factory.mktemp(f"twin{case}")

    @settings(  # Hypothesis draws the simplest lesson first (all zeros): then one at random
        max_examples=2,
        phases=[Phase.generate],
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def run(data: st.DataObject) -> None:
        document = with_new_kinds(data.draw(lessons))
        lesson = parse_lesson(document)
        edits, changed = draw_edits(data.draw, document, entries)
        open_twin(page, lesson, folder)
        check(page, lesson)  # the lesson's own numbers, recomputed in the page
        for field, value in edits:
            page.fill(selector(field), fmt.number(value))
        check(page, changed)
        page.click("[data-twin-back]")
        check(page, lesson)
        SEEN.update(lesson.steps)

    run()
    DONE.add(f"case {case}")


@pytest.mark.browser
@pytest.mark.parametrize("name", BUILT_IN)
def test_the_share_quiz_lessons_too(name: str, page: Page, tmp_path: Path) -> None:
    """The built-in series lessons: their share quiz (the answer step of a lesson where every
    token asks), with a random edit."""
    lesson = load_lesson(ROOT / "lessons" / f"{name}.toml")
    open_twin(page, lesson, tmp_path)
    check(page, lesson)
    document = tomllib.loads((ROOT / "lessons" / f"{name}.toml").read_text("utf-8"))
    pick = random.Random(name)
    values = (
        [v / 10 for v in range(-15, 16)] if "heads" in document else [v / 4 for v in range(-8, 9)]
    )
    for _ in range(50):
        field = pick.choice(fields(document))
        value = pick.choice(values)
        try:
            changed = parse_lesson(edited(document, [(field, value)]))
        except LessonError:
            continue
        page.fill(selector(field), fmt.number(value))
        check(page, changed)
        break
    SEEN.update(lesson.steps)
    DONE.add(name)


@pytest.mark.browser
def test_the_step_picker_shows_a_title_as_written(page: Page, tmp_path: Path) -> None:
    """A heading with ``&`` and ``<`` reads as written in the picker, as twin.js writes it
    (escaped once, not twice)."""
    written = "Q & K <scored>"
    document = default_data()
    document["words"] = {"score": {"heading": {"title": written}}}
    lesson = parse_lesson(document)
    open_twin(page, lesson, tmp_path)
    labels = page.evaluate(PICKED)
    assert labels[lesson.steps.index("score")][0].endswith(f"· {written}"), labels


@pytest.mark.browser
def test_a_field_without_a_number_says_so_and_changes_nothing(page: Page, tmp_path: Path) -> None:
    lesson = default_lesson()
    open_twin(page, lesson, tmp_path)
    page.fill('[data-input="query"][data-index="0"]', "3")
    page.fill('[data-input="key"][data-token="0"][data-index="0"]', "")
    field = '[data-input="key"][data-token="0"][data-index="0"]'
    assert page.get_attribute(field, "aria-invalid") == "true"
    assert page.text_content("[data-twin-status]") == lesson.words["page.line.invalid"]
    document = default_data()
    document["query"][0] = 3
    check(page, parse_lesson(document))  # the numbers of the last inputs that were all numbers
    page.click("[data-twin-back]")
    assert page.get_attribute(field, "aria-invalid") == "false"
    assert page.text_content("[data-twin-status]") == ""
    check(page, lesson)


@pytest.mark.browser
def test_every_step_kind_was_compared() -> None:
    """Runs after the proof (a module's tests run in order, on one worker); a browser test as
    they are, so the fast tier leaves it out instead of skipping it."""
    if len(DONE) < len(PLAN) + 2:
        pytest.skip("not every lesson of the proof was compared in this run")
    assert set(KINDS) == SEEN
    total = sum(COMPARED)
    print(f"\ntwin: {total} numbers compared over {len(COMPARED)} page states")
    assert total > 2000


# --- the formatting and the exact sums, over many doubles -----------------------------------------


def with_script(page: Page) -> None:
    """A fresh blank document with twin.js in it."""
    page.goto("about:blank")
    page.set_content(f"<script>{twin.SCRIPT}</script>")


def doubles(count: int, seed: int) -> list[float]:
    pick = random.Random(seed)
    found = [0.0, -0.0, 1.005, 0.125, -0.125, 2.675, 0.5, 1.5, 2.5, -2.5, 99.995, 1e-9, 1000.0]
    found += [10.0**k for k in range(-4, 8)] + [-(10.0**k) for k in range(-4, 8)]
    for _ in range(count):
        kind = pick.random()
        if kind < 0.4:  # exact ties at every place count
            found.append(pick.randint(-(10**6), 10**6) / 2 ** pick.randint(0, 6))
        elif kind < 0.7:
            found.append(pick.randint(-(10**6), 10**6) / 10 ** pick.randint(0, 5))
        else:
            found.append(pick.uniform(-1, 1) * 10.0 ** pick.randint(-7, 8))
    return found


@pytest.mark.browser
def test_the_page_formats_as_python_does(page: Page) -> None:
    """Every rule of attention_core.formatting.RULES, in the browser, equals Python on 20 000
    doubles: ties at the exact binary value, -0, powers of ten, 1.005 and 0.125 among them."""
    with_script(page)
    values = doubles(20_000, 30)
    rules = fmt.RULES
    got = page.evaluate(
        "([rules, values]) => Object.fromEntries(Object.entries(rules).map(([name, rule]) =>"
        " [name, values.map((x) => Twin.format(rule, x))]))",
        [{name: vars(rule) for name, rule in rules.items()}, values],
    )
    for name, rule in rules.items():
        want = [fmt.apply(rule, x) for x in values]
        wrong = [(x, h, w) for x, h, w in zip(values, got[name], want, strict=True) if h != w]
        assert not wrong, f"{name}: (x, page, python) {wrong[:5]}"
    assert (
        page.evaluate(
            "() => Twin.format({places: 2, scale: 1, significant: 0, trim: false, "
            "bare: false, brackets: false, suffix: '', masked: null, zero: null}, 0.125)"
        )
        == "0.12"
    )


BOUNDARIES = {
    "pull": [(m + 0.5) / 10**fmt.PULL_PLACES for m in range(101, 271)],
    "grid_pull": [(m + 0.5) / 10**fmt.PULL_PLACES for m in range(101, 271, 7)],
    "about": [(m + 0.5) / 10 for m in range(10, 27)],
}
"""By rule, the half-way points of its last shown digit between 1 and e: where each step of
x is less than an ulp of e^x, so the exponents next to log(b) reach every double next to b."""


def next_to(boundary: float, ulps: int = 20) -> list[float]:
    """The exponents from ``ulps`` doubles below log(boundary) to as many above."""
    x = math.log(boundary)
    for _ in range(ulps):
        x = math.nextafter(x, -math.inf)
    found = []
    for _ in range(2 * ulps + 1):
        found.append(x)
        x = math.nextafter(x, math.inf)
    return found


@pytest.mark.browser
def test_the_page_works_e_to_the_x_bit_for_bit(page: Page) -> None:
    """twin.js's exp is attention_core.exponential's, to the last bit, on 32 000 exponents (the
    lesson's ±24 and far beyond, and those next to a shown digit's boundary), never the
    browser's Math.exp, whose last bit is the engine's (compared, printed)."""
    with_script(page)
    pick = random.Random(5)
    xs = [pick.uniform(-24, 24) for _ in range(20_000)] + [
        pick.uniform(-745, 709) for _ in range(5000)
    ]
    xs += [x for b in BOUNDARIES["pull"] for x in next_to(b)] + [0.0, -0.0, 1.0, 1e-300, -740.0]
    got = page.evaluate("(xs) => xs.map((x) => [Twin.exp(x), Math.exp(x)])", xs)
    # playwright hands a large whole double back as an int: float() is the same double
    wrong = [(x, g) for x, (g, _) in zip(xs, got, strict=True) if float(g) != exp(x)]
    assert not wrong, f"(x, page) ≠ attention_core: {wrong[:5]}"
    engine = sum(float(m) != math.exp(x) for x, (_, m) in zip(xs, got, strict=True))
    ours = sum(float(m) != exp(x) for x, (_, m) in zip(xs, got, strict=True))
    print(f"\nof {len(xs)}: Math.exp ≠ the C library's {engine}, ≠ attention_core's {ours}")
    assert page.evaluate("() => [Twin.exp(-Infinity), Twin.exp(800)]") == [0, math.inf]


@pytest.mark.browser
def test_a_digit_next_to_a_rounding_boundary_is_shown_alike(page: Page) -> None:
    """e^x formatted where its shown digit sits next to a boundary (a pull, a total, a rough
    count), and a rough count of a number next to a power of ten: the page writes what
    attention_core writes. Each boundary is one a last-bit difference crosses: for each, some
    e^x here shows another digit one ulp away."""
    with_script(page)
    tens = [math.nextafter(10.0**k, d) for k in range(-4, 9) for d in (0.0, math.inf)]
    for name, boundaries in BOUNDARIES.items():
        rule = fmt.RULES[name]
        xs = [x for b in boundaries for x in next_to(b)]
        ours, engines, powers = page.evaluate(
            "([rule, xs, tens]) => [xs.map((x) => Twin.format(rule, Twin.exp(x))),"
            " xs.map((x) => Twin.format(rule, Math.exp(x))),"
            " tens.map((x) => Twin.format(rule, x))]",
            [vars(rule), xs, tens],
        )
        want = [fmt.apply(rule, exp(x)) for x in xs]
        wrong = [(x, h, w) for x, h, w in zip(xs, ours, want, strict=True) if h != w]
        assert not wrong, f"{name}: (x, page, python) {wrong[:5]}"
        assert powers == [fmt.apply(rule, x) for x in tens], name
        for b in boundaries:
            crossed = [
                x
                for x in next_to(b)
                for way in (-math.inf, math.inf)
                if fmt.apply(rule, exp(x)) != fmt.apply(rule, math.nextafter(exp(x), way))
            ]
            assert crossed, f"{name}: no e^x next to {b} sits on its boundary"
        apart = sum(e != w for e, w in zip(engines, want, strict=True))
        print(f"\n{name}: on Math.exp the page would show another digit at {apart} of {len(xs)}")


@pytest.mark.browser
def test_the_page_adds_exactly_as_fsum(page: Page) -> None:
    with_script(page)
    pick = random.Random(7)
    lists = []
    for _ in range(3000):
        n = pick.randint(1, 9)
        scale = 10.0 ** pick.randint(-6, 6)
        lists.append([pick.uniform(-1, 1) * scale * (1 + 1e-12 * pick.random()) for _ in range(n)])
    lists += [[0.1, 0.2, -0.3], [1e16, 1.0, -1e16], [0.025, 0.0, 1e-17], [2.0**-60, 1.0, -1.0]]
    got = page.evaluate("(lists) => lists.map(Twin.exactSum)", lists)
    wrong = [(xs, g) for xs, g in zip(lists, got, strict=True) if g != math.fsum(xs)]
    assert not wrong, wrong[:3]


# --- the real embed page ------------------------------------------------------------------------


@pytest.mark.render
@pytest.mark.browser
def test_the_embed_page_twin_follows_the_video_and_works_by_keyboard(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    visit = Visit(browser, rendered.folder / "index.html")
    page = visit.page
    lesson = default_lesson()
    check(page, lesson)
    starts = [chapter["start"] for chapter in rendered.manifest["full"]["chapters"]]
    assert page.evaluate("document.querySelector('[data-step=\"0\"]').hidden") is False
    for place in (2, 5, 1):  # the score step, the rival, the big picture
        page.evaluate(f"document.getElementById('whole').currentTime = {starts[place] + 0.5}")
        page.wait_for_function(
            f"!document.querySelector('[data-twin] [data-step=\"{place}\"]').hidden", timeout=10_000
        )
        visible = page.evaluate(
            "[...document.querySelectorAll('[data-twin] [data-step]')]"
            ".filter((s) => !s.hidden).map((s) => s.dataset.kind)"
        )
        assert visible == [lesson.steps[place]]

    # By keyboard alone: Tab to the query's first entry, type, then Tab to "back" and press Enter.
    def tab_to(css: str) -> None:
        for _ in range(600):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches('{css}')"):
                return
        pytest.fail(f"Tab never reached {css}")

    tab_to('[data-input="query"][data-index="0"]')
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    document = default_data()
    document["query"][0] = 3
    check(page, parse_lesson(document))
    tab_to("[data-twin-back]")
    page.keyboard.press("Enter")
    check(page, lesson)
    visit.check_offline()
