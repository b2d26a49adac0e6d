"""Day 004 and the shipped lessons show what they showed before lessons became lists of steps.

``data/screens_before_series.json`` was recorded from 1cba27e, the last commit before steps
became data: per lesson and scene, its beat ids, its captions and every distinct moment's texts
on screen (consecutive repeats folded), as ``scenes.probe`` reads them. The beats and every
moment must be the same; the captions are not compared: since then they show the notation the
screen uses (``dₖ`` where they spelled "d k"), a change of their own (test_narration.py). One
change to the screen is meant and applied to the record: a reference's title and its address are
two texts since #38, so that a description names it and leaves the address to the transcript.
A scene with close-ups (#37) shows the moments of before at the whole frame, in order, and in
its close-ups nothing that was not on screen before.
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


Moments = list[list[str]]


def screens(lesson: Lesson) -> dict[str, dict[str, object]]:
    """Each scene's beats, the distinct moments it shows with the camera at the whole frame,
    and the moments of its close-ups (``scenes.toolkit.focus``: part of the picture, on
    purpose, given back exactly after, as tests/test_camera.py proves)."""
    shown = {}
    for scene in scenes_for(lesson):
        probe = run_dry(scene, lesson)
        whole: Moments = []
        close: Moments = []
        for moment, frame in zip(probe.moments, probe.frames, strict=True):
            texts = [" ".join(s.text.split()) for s in moment]
            if frame.closer:
                close.append(texts)
            elif not whole or whole[-1] != texts:
                whole.append(texts)
        beats = [beat.id for beat in probe.beats]
        shown[scene.slug] = {"beats": beats, "moments": whole, "close": close}
    return shown


def in_order(moments: Moments, before: Moments) -> bool:
    """Whether ``moments`` are moments of ``before``, in its order (a close-up may stand where
    some of them were)."""
    rest = iter(before)
    return all(any(moment == earlier for earlier in rest) for moment in moments)


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
    """Each scene has its beats of before; at the whole frame it shows moments of before, in
    order, first and last alike; a close-up shows nothing that was not on screen before."""
    now = screens(lesson_named(name))
    assert now.keys() == BEFORE[name].keys()
    for slug, shown in BEFORE[name].items():
        before = [references_split(m) for m in shown["moments"]]
        scene = now[slug]
        assert scene["beats"] == shown["beats"], slug
        whole, close = scene["moments"], scene["close"]
        assert isinstance(whole, list)
        assert isinstance(close, list)
        assert whole[0] == before[0], slug
        assert whole[-1] == before[-1], slug
        assert in_order(whole, before), slug
        if not close:
            assert whole == before, slug
        for moment in close:
            assert any(set(moment) <= set(earlier) for earlier in before), (slug, moment)
