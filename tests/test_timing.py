"""Scene lengths measured by dry runs, and the whole video's length in minutes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from attention_core import default_lesson
from scenes import SCENES, style, timing
from scenes.beat import Timed, reading_time
from scenes.probe import run_dry
from scenes.steps.score import Step3Score
from scenes.steps.title import Step1Title
from scenes.timing import lesson_minutes, scene_seconds

LESSON = default_lesson()
SCENES_FOLDER = Path(__file__).resolve().parent.parent / "scenes"


def test_a_scene_lasts_exactly_as_long_as_its_beats() -> None:
    beats = run_dry(Step3Score, LESSON).beats
    assert beats
    assert beats[0].start == 0
    for before, after in zip(beats, beats[1:], strict=False):
        assert after.start == pytest.approx(before.end)  # back to back, nothing between
    assert scene_seconds(Step3Score, LESSON) == pytest.approx(beats[-1].end)
    for beat in beats:
        assert beat.speech is None  # silent: paced for reading
        # its reading time at least, in the whole frames it holds (a dry run films at 15 fps)
        assert beat.end - beat.start > reading_time(beat.caption.text) - 1 / 15
        assert beat.cue_end == beat.end


def test_a_narrated_beat_lasts_its_speech_and_a_breath_and_its_cue_ends_with_the_words() -> None:
    silent = run_dry(Step3Score, LESSON).beats
    long_speech = 30.0
    narration = Timed(((silent[1].id, long_speech), (silent[2].id, 0.1)))
    narrated = run_dry(Step3Score, LESSON, narration=narration).beats
    assert [b.id for b in narrated] == [b.id for b in silent]
    held = narrated[1].end - narrated[1].start  # in the whole frames it holds
    assert 0 <= long_speech + style.BREATH - held < 1 / 15
    assert narrated[1].cue_end == pytest.approx(narrated[1].start + long_speech)
    # speech shorter than the animation: the beat lasts its animation, not a reading time
    assert narrated[2].end - narrated[2].start < silent[2].end - silent[2].start
    assert narrated[2].cue_end == pytest.approx(narrated[2].start + 0.1)


def test_scene_seconds_is_measured_once_per_lesson() -> None:
    first = scene_seconds(Step3Score, LESSON)
    assert scene_seconds(Step3Score, default_lesson()) == first  # an equal lesson hits the cache


def test_the_title_lasts_the_same_whatever_length_it_shows() -> None:
    assert scene_seconds(Step1Title, LESSON, minutes=0) == scene_seconds(
        Step1Title, LESSON, minutes=12
    )


def test_lesson_minutes_rounds_the_sum_of_every_scene() -> None:
    total = sum(
        scene_seconds(scene, LESSON, **({"minutes": 0} if scene is Step1Title else {}))
        for scene in SCENES
    )
    assert lesson_minutes(LESSON) == max(1, int(total / 60 + 0.5))  # halves round up


def test_the_default_lesson_runs_three_to_five_minutes() -> None:
    assert 3 <= lesson_minutes(LESSON) <= 5


def test_no_scene_module_imports_the_registry() -> None:
    """``scenes/__init__`` imports every step (the title among them, through the kinds it
    names): a module of ``scenes/`` taking a name from it would close a circle."""
    for path in sorted(SCENES_FOLDER.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "scenes":
                for alias in node.names:  # a submodule (``from scenes import style``) is not it
                    where = f"{path.relative_to(SCENES_FOLDER.parent)}:{node.lineno}"
                    assert (SCENES_FOLDER / f"{alias.name}.py").exists(), where
            elif isinstance(node, ast.Import):
                assert "scenes" not in {alias.name for alias in node.names}, path


@pytest.mark.parametrize(
    ("seconds", "minutes"), [(0.0, 1), (89.9, 1), (90.0, 2), (149.9, 2), (150.0, 3), (271.0, 5)]
)
def test_the_minutes_are_the_sum_rounded_halves_up_and_at_least_one(
    seconds: float, minutes: int
) -> None:
    lengths = dict.fromkeys(SCENES, 0.0) | {Step3Score: seconds}
    assert timing.minutes_from(SCENES, lengths) == minutes


def test_the_minutes_wait_for_every_scenes_length() -> None:
    known = dict.fromkeys(SCENES[1:], 30.0)
    assert timing.minutes_from(SCENES, known) is None
    assert timing.unknown(SCENES, known) == [SCENES[0]]


def test_only_the_title_takes_the_minutes_and_shows_them_back() -> None:
    assert timing.titles(SCENES) == [Step1Title]
    assert timing.title_arguments(Step1Title, 4) == (("minutes", 4),)
    assert timing.title_arguments(Step3Score, 4) == ()
    assert timing.minutes_shown(timing.title_arguments(Step1Title, 4)) == 4
    assert timing.minutes_shown(()) is None
