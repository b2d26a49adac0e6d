"""Scenes, dry-run: every number on screen comes from attention_core, and the layout is clean."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from attention_core import (
    ShareQuiz,
    attend,
    attend_grid,
    default_lesson,
    english,
    load_lesson,
    with_rival,
)
from attention_core import formatting as fmt
from attention_core.heads import attend_heads
from attention_core.steps import KINDS
from attention_core.worked import worked
from scenes import SCENES, LessonScene, scenes_for
from scenes.composition import MIN_NUMBER_PX, Composition, composition

from .lessons import lesson_files
from .probe import NUMBER, Probe, run_dry
from .scene_checks import (
    allowed_numbers,
    formula_moments,
    layout_problems,
    lesson_texts,
    shown_sums,
    stray_numbers,
    sums_that_do_not_add_up,
)

ROOT = Path(__file__).parent.parent
LESSONS = {
    "default": default_lesson(),
    **{path.stem: load_lesson(path) for path in lesson_files()},
}


@cache
def probe(scene: type[LessonScene], lesson_name: str) -> Probe:
    return run_dry(scene, LESSONS[lesson_name])


CASES = [(scene, name) for name, lesson in LESSONS.items() for scene in scenes_for(lesson)]
"""Every lesson's own steps (Day 004's seven, or the kinds it lists)."""


def params(cases: list[tuple[type[LessonScene], str]]) -> list[Any]:
    """The cases as test parameters; those of the lessons beyond the default are ``lessons``."""
    return [
        pytest.param(scene, name, id=f"{scene.__name__}-{name}", marks=_beyond_default(name))
        for scene, name in cases
    ]


def _beyond_default(name: str) -> Any:
    return () if name == "default" else pytest.mark.lessons


@pytest.mark.parametrize(("scene", "lesson_name"), params(CASES))
def test_every_number_on_screen_comes_from_the_maths(scene, lesson_name) -> None:
    stray = stray_numbers(probe(scene, lesson_name), LESSONS[lesson_name])
    assert not stray, f"{scene.__name__} shows numbers attention_core never made: {stray}"


SUM_STEPS = tuple(kind for kind, entry in KINDS.items() if entry.sums)
"""The kinds that write sums out (their entries' ``sums``): q·k term by term (score, rival,
all_queries), the total of the pulls (softmax), a row's pulls added up (answer, where every
token asks), and the masked formula's QKᵀ/√dₖ + M (big_picture, mask), which must hold no
numbers that do not add up; and x · W entry by entry (projections: exact, as the embeddings
and matrices have one place)."""
SUM_CASES = [(scene, name) for scene, name in CASES if scene.slug in SUM_STEPS]


@pytest.mark.parametrize(("scene", "lesson_name"), params(SUM_CASES))
def test_shown_parts_add_up_to_the_shown_total(scene, lesson_name) -> None:
    """A viewer adding up the parts of a sum on screen gets the total shown beside it; and the
    parts of formulas, which fly in one by one, are numbers attention_core made too."""
    lesson = LESSONS[lesson_name]
    moments = formula_moments(scene, lesson)
    wrong = sums_that_do_not_add_up(moments)
    assert not wrong, f"{scene.__name__} shows sums that do not add up: {wrong}"
    stray = {n for m in moments for s in m for n in NUMBER.findall(s.text)} - allowed_numbers(
        lesson
    )
    assert not stray, f"{scene.__name__} shows numbers attention_core never made: {stray}"
    # Guards the reading of the screen: the sums these steps write must be found.
    sums = shown_sums(moments)
    if scene.slug in ("all_queries", "answer"):
        _grid_sums_found(scene.slug, lesson, sums)
        return
    if scene.slug == "projections":  # the newest token's q in head 1, entry by entry
        q = worked(lesson).heads[0].projections[-1].q
        if len(lesson.tokens[-1].embedding or ()) > 1:
            assert set(q.entries) <= {equals for _, equals in sums}
        return
    a = attend(lesson) if scene.slug != "rival" else attend(with_rival(lesson))
    if a.d_k > 1 and scene.slug in ("score", "rival"):
        rows = range(len(a.dots)) if scene.slug == "score" else [len(a.dots) - 1]
        assert {fmt.number(a.dots[i]) for i in rows} <= {equals for _, equals in sums}
    if scene.slug == "softmax":
        assert (tuple(fmt.pull(p) for p in a.pulls), fmt.pull(a.total)) in sums


def _grid_sums_found(slug: str, lesson: Any, sums: set[tuple[tuple[str, ...], str]]) -> None:
    """The first row's dot products, worked out under the grid; the asked row's pulls added."""
    if not lesson.asks:
        return
    if slug == "all_queries":
        grid = attend_grid(lesson, masked="mask" not in lesson.steps)
        if grid.d_k > 1:
            assert {fmt.number(d) for d in grid.dots[0]} <= {equals for _, equals in sums}
    elif isinstance(lesson.quiz, ShareQuiz):
        # the grid asked about: in a heads lesson, the quiz's own head's
        grid = (
            attend_heads(lesson).heads[lesson.quiz.head].grid
            if lesson.heads
            else attend_grid(lesson)
        )
        pulls = tuple("0" if p == 0 else fmt.pull(p) for p in grid.pulls[lesson.quiz.asker])
        assert (pulls, fmt.pull(grid.totals[lesson.quiz.asker])) in sums


def test_only_the_steps_checked_write_sums() -> None:
    """Sums are read from the steps in SUM_STEPS only (a dry run each): a step that starts
    writing ``+`` between numbers, the q·k working (a DotProduct) or a SumLine must join them."""
    files = {kind: KINDS[kind].scene.partition(":")[0].rpartition(".")[2] + ".py" for kind in KINDS}
    checked = {files[kind] for kind in SUM_STEPS} | {"share_answer.py"}  # the answer's other beats
    writers = {name for name, _, value in _scene_strings() if value.strip() == "+"}
    writers |= {
        path.name
        for path in (ROOT / "scenes").glob("*.py")
        if "DotProduct(" in path.read_text("utf-8") or "SumLine(" in path.read_text("utf-8")
    }
    steps = set(files.values()) | {"share_answer.py"}
    assert writers & steps <= checked


@pytest.mark.parametrize(("scene", "lesson_name"), params(CASES))
def test_texts_stay_inside_the_frame_and_apart(scene, lesson_name) -> None:
    problems = layout_problems(probe(scene, lesson_name))
    assert not problems, "\n".join(problems)
    # at every rest, in the camera's frame (scenes.composition): #37's targets
    composed = composition(probe(scene, lesson_name))
    assert composed.texts_outside == ()
    assert composed.shapes_outside == ()
    assert composed.overlaps == ()


@pytest.mark.parametrize(
    "lesson_name", [pytest.param(n, marks=_beyond_default(n)) for n in LESSONS]
)
def test_numbers_are_40_px_tall_at_1080p_but_for_a_twentieth_at_most(lesson_name: str) -> None:
    """#37: the 5th percentile of every number seen at every rest, counting the zoom."""
    scenes = scenes_for(LESSONS[lesson_name])
    whole = Composition.merged(composition(probe(s, lesson_name)) for s in scenes)
    assert whole.number_p5 is not None
    assert whole.number_p5 >= MIN_NUMBER_PX, sorted(
        {(n.text, round(n.px)) for n in whole.small_numbers}
    )


@pytest.mark.parametrize(
    "lesson_name", [pytest.param(n, marks=_beyond_default(n)) for n in LESSONS]
)
def test_the_camera_comes_closer_in_half_the_scenes_at_least(lesson_name: str) -> None:
    scenes = scenes_for(LESSONS[lesson_name])
    closer = [s.slug for s in scenes if composition(probe(s, lesson_name)).close_ups]
    assert 2 * len(closer) >= len(scenes), f"closer only in {closer}"


@pytest.mark.parametrize(
    "lesson_name", [pytest.param(n, marks=_beyond_default(n)) for n in LESSONS]
)
def test_every_scene_but_the_title_focuses(lesson_name: str) -> None:
    """Something dimmed while the thing worked out is at full strength, or the camera closer
    in (#37: every computing scene, 6 of 7 on a seven-step lesson, 4 of 5 on a five-step one)."""
    scenes = scenes_for(LESSONS[lesson_name])
    unfocused = [s.slug for s in scenes if not composition(probe(s, lesson_name)).focused]
    assert unfocused == ["title"]


# The seed's key figures, in the scene where the slides put them (default lesson).
SEED_FIGURES = {
    "Step3Score": ["[2, 0, 1, 1]", "6", "2", "3"],
    "Step4Softmax": ["20.09", "2.72", "1.00", "23.80", "84.4%", "11.4%", "4.2%", "100%"],
    "Step5Mix": ["0.844", "0.114", "0.042", "[0.84, 0.11, 0.00]", "4821"],
    "Step6Rival": ["45.8%", "[0.46, 0.06, 0.46]", "20"],
    "Step7Answer": ["20.1", "403", "tensor([0.8438, 0.1142, 0.0420])"],
}


@pytest.mark.parametrize("scene", SCENES, ids=[s.__name__ for s in SCENES])
def test_seed_figures_appear_where_the_slides_put_them(scene) -> None:
    on_screen = _squash(" ".join(probe(scene, "default").strings))
    for figure in SEED_FIGURES.get(scene.__name__, []):
        assert _squash(figure) in on_screen, f"{scene.__name__} never shows {figure}"


def _squash(s: str) -> str:
    return re.sub(r"\s|\\left|\\right|\{|\}", "", s)


@pytest.mark.parametrize("scene", SCENES, ids=[s.__name__ for s in SCENES])
def test_every_beat_has_a_caption(scene) -> None:
    assert probe(scene, "default").captions


def _scene_strings() -> list[tuple[str, int, str]]:
    """(file, line, value) of every string constant in scene code, docstrings left out."""
    found = []
    for path in sorted((ROOT / "scenes").rglob("*.py")):
        if path.name == "manim_internals.py":  # names manim's version, shows nothing
            continue
        tree = ast.parse(path.read_text("utf-8"))
        # A bare string statement is documentation (module, class, function or attribute).
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        # A format spec (the ``02d`` of ``f"{step:02d}"``) says how to write a number, not which.
        specs = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.FormattedValue) and node.format_spec is not None
            for part in ast.walk(node.format_spec)
        }
        # An exception's message is for the developer whose code raised it: never on screen.
        raised = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.Raise) and node.exc is not None
            for part in ast.walk(node.exc)
        }
        found += [
            (path.name, node.lineno, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings | specs | raised
        ]
    return found


def test_no_number_is_typed_into_a_scene() -> None:
    """A displayed number must come from attention_core, so scene code holds no digit strings."""
    offenders = [
        f"{name}:{line}: {value!r}"
        for name, line, value in _scene_strings()
        if re.search(r"\d", value)
        and not re.fullmatch(r"#[0-9a-f]{6}", value)
        and not value.isidentifier()
    ]
    assert not offenders, "digits typed into scene strings:\n" + "\n".join(offenders)


# Strings in scene code that hold letters without being words a viewer reads: each one is a
# name the code looks something up by, or notation every language writes the same way.
NOT_PROSE = {
    "DejaVu Sans Mono",  # style.MONO, a font name
    "one-dark",  # the code listing's colour scheme
    "softmax",  # inside the formula: the function's name, as in code (torch.softmax)
    # Multi-head attention's formula as the paper writes it (§3.2.2): names of its functions.
    "MultiHead",
    "Concat",
    "head",
    '<span font_features="tnum">',  # Pango markup: a figure's digits all as wide (tabular)
    "</span>",
}
# A words.toml entry's name, or the part of one that an f-string completes ("rival.line.").
ENTRY_NAME = re.compile(r"\.?[a-z_]+(\.[a-z_]+)*\.?")
COLOUR = re.compile(r"#[0-9a-f]{6}")


def test_no_words_are_typed_into_a_scene() -> None:
    """Every word on screen comes from the lesson or the words catalogue, so it can be translated.

    A scene string may hold letters only as an identifier (a dict key, a weight such as BOLD),
    an entry name ("softmax.caption.heading", or "rival.line." completed in an f-string), or
    LaTeX whose commands are the only runs of letters: ``\\text{total}`` is refused.
    """
    offenders = []
    for name, line, value in _scene_strings():
        if value.isidentifier() or value in NOT_PROSE or ENTRY_NAME.fullmatch(value):
            continue
        if COLOUR.fullmatch(value):
            continue
        bare = re.sub(r"\\[a-zA-Z]+", " ", value)  # LaTeX command names are not words
        runs = [run for run in re.findall(r"[^\W\d_]{3,}", bare) if run not in NOT_PROSE]
        if runs:
            offenders.append(f"{name}:{line}: {value!r}")
    assert not offenders, "words typed into scene strings:\n" + "\n".join(offenders)


TRANSLATED = "greek"
"""The shipped lesson that translates every entry of attention_core/words.toml."""


def _words(*texts: str) -> set[str]:
    """The words (runs of three or more letters) in texts, without placeholders or TeX commands."""
    bare = re.sub(r"\{\w*\}|\\[a-zA-Z]+", " ", " ".join(texts))
    return {word.casefold() for word in re.findall(r"[^\W\d_]{3,}", bare)}


def test_the_translated_lesson_translates_every_entry() -> None:
    lesson, template = LESSONS[TRANSLATED], english()
    untranslated = [
        name
        for name, words in template.items()
        if lesson.words[name] == words and _words(words) - {"softmax"}
    ]
    # Its one exception: the paper's title, which its references quote in English.
    assert untranslated == ["big_picture.line.paper"]


TRANSLATIONS = (TRANSLATED, "day005_masked_greek")
"""The shipped lessons in another language: Day 004 and Day 005 in Greek."""
TRANSLATED_CASES = [(scene, name) for scene, name in CASES if name in TRANSLATIONS]


@pytest.mark.lessons
@pytest.mark.parametrize(("scene", "lesson_name"), params(TRANSLATED_CASES))
def test_a_translated_lesson_shows_and_says_no_english(scene, lesson_name) -> None:
    """English words of the template never reach the screen or the captions of a translation,
    except those the translation itself uses and the lesson's own texts (names, a quoted title);
    the code listing is Python, and is left out."""
    lesson = LESSONS[lesson_name]
    a = attend(lesson)
    listing = set(fmt.torch_check(a.scores, a.dots, a.d_k))
    english_only = _words(*english().values()) - _words(
        *lesson.words.values(), *lesson_texts(lesson)
    )
    assert len(english_only) > 100  # the check below has plenty to catch
    found = probe(scene, lesson_name)
    for shown in [*found.strings, *found.captions]:
        if set(shown.splitlines()) <= listing:
            continue
        leaked = _words(shown) & english_only
        assert not leaked, f"{scene.__name__} shows English {sorted(leaked)} in {shown!r}"


def test_an_untuned_lessons_wide_working_keeps_its_numbers_40_px_tall() -> None:
    """#37 on a lesson no one tuned for (data/untuned_shelf.toml: four tokens, five numbers
    each): step 1's working, too wide for the band on one line, takes two rather than shrink
    its numbers under 40 px (they were 30 px). Only that scene is dry-run."""
    from scenes.steps.score import Step3Score

    lesson = load_lesson(Path(__file__).parent / "data" / "untuned_shelf.toml")
    composed = Composition.merged([composition(run_dry(Step3Score, lesson))])
    assert composed.number_p5 is not None
    assert composed.number_p5 >= MIN_NUMBER_PX, sorted(
        {(n.text, round(n.px)) for n in composed.small_numbers}
    )
    assert composed.overlaps == ()
    assert composed.texts_outside == ()
