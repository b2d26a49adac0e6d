"""Beats as the unit of rendering, really rendered: an edit re-renders only the beats it changed,
and the clip made of reused and fresh segments has the bytes of one rendered from nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attention_core import Lesson, load_lesson
from publish.presets import QUALITIES
from publish.render import worker
from publish.render.beats import Part
from scenes import scenes_for

from .conftest import ROOT

LESSON = (ROOT / "attention_core" / "lesson.toml").read_text("utf-8")
SCORE = 2
"""Step 3 (score): seven beats; its last, the note on √dₖ, is the first to show
``score.line.why``."""


def lesson_with(tmp_path: Path, extra: str, question: str | None = None) -> Lesson:
    """The default lesson with ``extra`` TOML after it, and another ``question``."""
    text = LESSON
    if question is not None:
        text = re.sub(r'(?m)^question = ".*"$', f'question = "{question}"', text, count=1)
        assert question in text
    file = tmp_path / f"lesson{len(list(tmp_path.glob('lesson*.toml')))}.toml"
    file.write_text(f"{text}\n{extra}\n", "utf-8")
    return load_lesson(file)


def render(lesson: Lesson, store: Path, work: Path) -> worker.ClipResult:
    return worker.render_clip(job_for(lesson, store, work))


def job_for(lesson: Lesson, store: Path, work: Path) -> worker.ClipJob:
    scene = scenes_for(lesson)[SCORE]
    return worker.ClipJob(
        scene=worker.scene_path(scene),
        lesson=lesson,
        quality=QUALITIES["low"],
        fmt="mp4",
        transparent=False,
        work=work,
        label=scene.slug,
        beats=store,
        base="test",
    )


@pytest.mark.render
def test_an_edit_re_renders_only_the_beats_it_changed(tmp_path: Path) -> None:
    store, work = tmp_path / "beats", tmp_path / "work"
    first = render(lesson_with(tmp_path, ""), store, work)
    assert first.drawn == tuple(range(1, first.beats + 1))
    assert first.beats == 7

    again = render(lesson_with(tmp_path, ""), store, work)
    assert again.drawn == ()  # nothing changed: every segment reused

    why = '[words.score.line]\nwhy = "Dot products grow with the vectors; softmax then saturates."'
    last = render(lesson_with(tmp_path, why), store, work)
    assert last.drawn == (7,)  # first read in the last beat: that beat alone

    caption = '[words.score.caption]\nkeys = "Each token holds out a key, to be matched on."'
    said = render(lesson_with(tmp_path, f"{why}\n{caption}"), store, work)
    assert said.drawn == (3,)  # its speech only: the later beats reused, shifted in time
    assert said.seconds != pytest.approx(last.seconds)  # the caption is read for longer

    asked = render(lesson_with(tmp_path, why, question="Which words matter here?"), store, work)
    assert asked.drawn == tuple(range(1, 8))  # read in the first beat: the whole clip


@pytest.mark.render
def test_a_clip_of_reused_beats_is_the_clip_rendered_from_nothing(tmp_path: Path) -> None:
    store = tmp_path / "beats"
    render(lesson_with(tmp_path, ""), store, tmp_path / "work")
    caption = '[words.score.caption]\nkeys = "Each token holds out a key, to be matched on."'
    edited = lesson_with(tmp_path, caption)
    reused = render(edited, store, tmp_path / "work")
    assert reused.drawn == (3,)
    reused_bytes = reused.video.read_bytes()
    fresh = render(edited, tmp_path / "fresh", tmp_path / "fresh_work")
    assert fresh.drawn == tuple(range(1, 8))
    assert fresh.video.read_bytes() == reused_bytes
    assert fresh.captions is not None
    assert reused.captions is not None
    assert fresh.captions.read_text("utf-8") == reused.captions.read_text("utf-8")


@pytest.mark.render
def test_a_clip_shared_out_between_two_processes_is_the_clip_rendered_whole(
    tmp_path: Path,
) -> None:
    """Its fresh beats drawn by two workers, each replaying the scene: the same bytes."""
    from publish.render.pool import worker_pool
    from publish.render.split import parts, start_clip

    store = tmp_path / "beats"
    render(lesson_with(tmp_path, ""), store, tmp_path / "work")
    asked = lesson_with(tmp_path, "", question="Which words matter here?")
    job = job_for(asked, store, tmp_path / "work")
    shares = parts(job, 2)
    assert [share.first for share in shares][0] == 1
    assert len(shares) == 2
    assert shares[1].last is None
    with worker_pool(None, 2) as executor:
        shared = start_clip(executor, job, 2).result()
    assert shared.drawn == tuple(range(1, 8))
    fresh = render(asked, tmp_path / "fresh", tmp_path / "fresh_work")
    assert shared.video.read_bytes() == fresh.video.read_bytes()
    assert shared.captions is not None
    assert fresh.captions is not None
    assert shared.captions.read_text("utf-8") == fresh.captions.read_text("utf-8")
    assert parts(job, 2) == [Part(1)]  # now every beat is in the store: nothing to share
