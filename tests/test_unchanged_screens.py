"""Day 004 and the shipped lessons show what they showed before lessons became lists of steps.

``data/screens_before_series.json`` was recorded from 1cba27e, the last commit before steps
became data: per lesson and scene, its beat ids, its captions and every distinct moment's texts
on screen (consecutive repeats folded), as ``scenes.probe`` reads them. The beats and every
moment must be the same; the captions are not compared: since then they show the notation the
screen uses (``dₖ`` where they spelled "d k"), a change of their own (test_narration.py). One
change to the screen is meant and applied to the record: a reference's title and its address are
two texts since #38, so that a description names it and leaves the address to the transcript.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attention_core import Lesson, default_lesson, load_lesson
from publish.described.descriptions import ADDRESS
from scenes import scenes_for
from scenes.probe import run_dry

ROOT = Path(__file__).parent.parent
BEFORE = json.loads((Path(__file__).parent / "data" / "screens_before_series.json").read_text())


def lesson_named(name: str) -> Lesson:
    return default_lesson() if name == "default" else load_lesson(ROOT / "lessons" / f"{name}.toml")


def screens(lesson: Lesson) -> dict[str, object]:
    shown = {}
    for scene in scenes_for(lesson):
        probe = run_dry(scene, lesson)
        moments: list[list[str]] = []
        for moment in probe.moments:
            texts = [" ".join(s.text.split()) for s in moment]
            if not moments or moments[-1] != texts:
                moments.append(texts)
        beats = [beat.id for beat in probe.beats]
        shown[scene.slug] = {"beats": beats, "moments": moments}
    return shown


def references_split(texts: list[str]) -> list[str]:
    """``texts`` with each reference, ``title · address``, as the two texts it is since #38."""
    out = []
    for shown in texts:
        parts = shown.split(" · ")
        at = next((i for i, part in enumerate(parts) if i and ADDRESS.fullmatch(part)), None)
        if at is None:
            out.append(shown)
        else:
            out += [" · ".join(parts[:at]), *(f"· {part}" for part in parts[at:])]
    return out


CASES = [
    pytest.param(name, marks=() if name == "default" else pytest.mark.lessons) for name in BEFORE
]


@pytest.mark.parametrize("name", CASES)
def test_every_moment_shows_what_it_showed_before(name: str) -> None:
    before = {
        slug: {"beats": shown["beats"], "moments": [references_split(m) for m in shown["moments"]]}
        for slug, shown in BEFORE[name].items()
    }
    assert screens(lesson_named(name)) == before
