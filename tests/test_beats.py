"""Beats as the unit of rendering, really rendered: an edit re-renders only the beats it changed,
and the clip made of reused and fresh segments has the bytes of one rendered from nothing."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from attention_core import Lesson, load_lesson
from publish.beats import Part
from publish.render import worker
from publish.render.shelf import Shelf
from publish.render.split import parts
from scenes import scenes_for, typeset

from .conftest import DRAFT, ROOT

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


def render(
    lesson: Lesson,
    store: Path,
    work: Path,
    step: int = SCORE,
    scene: str = "",
    shelf: Shelf | None = None,
) -> worker.ClipResult:
    job = replace(job_for(lesson, store, work, step, scene), typeset=shelf)
    return worker.render_clip(job)


def job_for(
    lesson: Lesson, store: Path, work: Path, step: int = SCORE, scene: str = ""
) -> worker.ClipJob:
    placed = scenes_for(lesson)[step]
    return worker.ClipJob(
        scene=scene or worker.scene_path(placed),
        lesson=lesson,
        quality=DRAFT,  # 480p at 8 fps: a beat is a beat at any rate, in fewer frames
        fmt="mp4",
        transparent=False,
        work=work,
        label=placed.slug,
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


ANSWER = 6
"""Step 7 (answer): nine beats; the bonus filler score sizes the crowd from beat 3, beat 4
shows it, beat 5 turns the page (the crowd fades out), and the card's four beats after it
show nothing made from it."""


def with_bonus(tmp_path: Path, score: int) -> Lesson:
    text = re.sub(r"(?m)^bonus_filler_score = .*$", f"bonus_filler_score = {score}", LESSON)
    assert f"bonus_filler_score = {score}" in text
    file = tmp_path / f"bonus{score}.toml"
    file.write_text(text, "utf-8")
    return load_lesson(file)


@pytest.mark.render
def test_a_number_whose_picture_has_left_re_renders_only_the_beats_that_showed_it(
    tmp_path: Path,
) -> None:
    """The bench's one-number change: beats 3 to 5 drawn, the card reused, the same bytes;
    its texts and formulas loaded from the shelf the first render kept them on, as a new
    process's are, against a render that typesets every one anew."""
    store, work = tmp_path / "beats", tmp_path / "work"
    shelf = Shelf(tmp_path / "typeset", "test")
    score = load_lesson(ROOT / "attention_core" / "lesson.toml").quiz.bonus_filler_score
    typeset.forget()
    first = render(with_bonus(tmp_path, score), store, work, ANSWER, shelf=shelf)
    assert first.beats == 9
    edited = with_bonus(tmp_path, score + 1)
    typeset.forget()
    again = render(edited, store, work, ANSWER, shelf=shelf)
    assert again.drawn == (3, 4, 5)
    typeset.forget()
    fresh = render(edited, tmp_path / "fresh", tmp_path / "fresh_work", ANSWER)
    assert fresh.drawn == tuple(range(1, 10))
    assert again.video.read_bytes() == fresh.video.read_bytes()
    assert again.records == fresh.records  # the states told the same in another folder


HELD = "tests.held_scene:Held@1"
PEEKING = "tests.peeking_scene:Peeking@1"


@pytest.mark.render
@pytest.mark.parametrize(
    ("edit", "drawn"),
    [
        # kept in an attribute until beat 5 is over: every beat it could reach is drawn
        ('[[tokens]]\ntext = "bird"', (1, 2, 3, 4, 5)),
        # kept in a local of construct: the same
        ('question = "Where is it?"', (1, 2, 3, 4, 5)),
        # read, not kept, and read again in beat 5: the two beats that read it
        ("query = [3, 0, 1, 1]", (1, 5)),
    ],
    ids=["attribute", "local", "worked part read again"],
)
def test_what_a_scene_holds_is_in_the_key_of_every_beat_it_reaches(
    tmp_path: Path, edit: str, drawn: tuple[int, ...]
) -> None:
    store, work = tmp_path / "beats", tmp_path / "work"
    render(lesson_with(tmp_path, ""), store, work, scene=HELD)
    edited = held_edit(tmp_path, edit)
    again = render(edited, store, work, scene=HELD)
    assert again.drawn == drawn
    fresh = render(edited, tmp_path / "fresh", tmp_path / "fresh_work", scene=HELD)
    assert again.video.read_bytes() == fresh.video.read_bytes()


def held_edit(tmp_path: Path, edit: str) -> Lesson:
    """The default lesson with one edit: the first token's text, the question or the query."""
    text = LESSON
    if edit.startswith("[[tokens]]"):
        first = re.search(r'(?m)^\[\[tokens\]\]\ntext = "([^"]*)"', text)
        assert first is not None
        text = text.replace(first.group(0), edit, 1)
    else:
        name = edit.partition(" = ")[0]
        text, found = re.subn(rf"(?m)^{name} = .*$", edit, text, count=1)
        assert found == 1
    file = tmp_path / "edited.toml"
    file.write_text(text, "utf-8")
    return load_lesson(file)


@pytest.mark.render
def test_a_clip_of_reused_beats_is_the_clip_rendered_from_nothing(tmp_path: Path) -> None:
    store = tmp_path / "beats"
    render(lesson_with(tmp_path, ""), store, tmp_path / "work")
    caption = '[words.score.caption]\nkeys = "Each token holds out a key, to be matched on."'
    edited = lesson_with(tmp_path, caption)
    lead = parts(job_for(edited, store, tmp_path / "work"), 2, lead=True)
    assert lead == [Part(1, 3), Part(4)]  # a preview's: beat 3 at once, the rest replayed
    reused = render(edited, store, tmp_path / "work")
    assert reused.drawn == (3,)
    reused_bytes = reused.video.read_bytes()
    fresh = render(edited, tmp_path / "fresh", tmp_path / "fresh_work")
    assert fresh.drawn == tuple(range(1, 8))
    assert fresh.video.read_bytes() == reused_bytes
    assert fresh.captions is not None
    assert reused.captions is not None
    assert fresh.captions.read_text("utf-8") == reused.captions.read_text("utf-8")


def packets(video: Path) -> list[bytes]:
    """The video's packets, as stored: a clip's beginning is another's first packets."""
    import av

    with av.open(str(video)) as container:
        return [bytes(p) for p in container.demux(video=0) if p.size]


def every_beat_fresh(tmp_path: Path) -> tuple[Path, Lesson]:
    """A beat store holding step 3's clip as last rendered, and the lesson asked another
    question: read in the first beat and shown throughout, so every beat is fresh."""
    store = tmp_path / "beats"
    render(lesson_with(tmp_path, ""), store, tmp_path / "work")
    return store, lesson_with(tmp_path, "", question="Which words matter here?")


@pytest.mark.render
def test_a_clip_shared_out_between_two_processes_is_the_clip_rendered_whole(
    tmp_path: Path,
) -> None:
    """Its fresh beats drawn by two workers, each replaying the scene: the same bytes. As a
    preview shares out the clip it shows, its first beat is a part of its own, and the clip
    of that part alone, shown while the rest renders, is the whole clip's beginning."""
    from publish.render.pool import worker_pool
    from publish.render.split import Joined, start_clip

    store, asked = every_beat_fresh(tmp_path)
    job = job_for(asked, store, tmp_path / "work")
    halves = parts(job, 2)
    assert len(halves) == 2
    assert halves[0].first == 1
    assert halves[1].last is None
    shares = parts(job, 2, lead=True)
    assert shares[0] == Part(1, 1)
    assert shares[-1].last is None
    early: list[worker.ClipResult | None] = []
    notes: list[str] = []
    with worker_pool(None, 2) as executor:
        future = start_clip(executor, job, notes.append, 2, lead=True)
        assert isinstance(future, Joined)
        # as the first part (one beat) is in: the rest of the clip is not
        future.renders[0].add_done_callback(lambda _: early.append(future.early()))
        shared = future.result()
    assert future.early() is None  # the clip is in: nothing early to show
    assert notes == []  # its parts agreed: joined, not drawn again
    assert shared.drawn == tuple(range(1, 8))
    (first,) = early
    assert first is not None
    assert first.drawn == (1,)
    assert [timing[0] for timing in first.timings] == [shared.timings[0][0]]
    beginning = packets(first.video)
    assert beginning == packets(shared.video)[: len(beginning)]
    fresh = render(asked, tmp_path / "fresh", tmp_path / "fresh_work")
    assert shared.video.read_bytes() == fresh.video.read_bytes()
    assert shared.captions is not None
    assert fresh.captions is not None
    assert shared.captions.read_text("utf-8") == fresh.captions.read_text("utf-8")
    # read from the screen by the last part alone, as the whole render reads them
    assert shared.numbers == fresh.numbers
    assert shared.numbers
    assert shared.shown == fresh.shown
    assert parts(job, 2) == [Part(1)]  # now every beat is in the store: nothing to share


@pytest.mark.render
def test_parts_that_disagree_are_said_and_the_clip_drawn_whole(tmp_path: Path) -> None:
    """A scene reads the lesson only on frames drawn: the part that draws its first beat
    records a read the part that skips it does not. The run says so, in one line, and draws
    the clip again in one process."""
    from publish.render.pool import worker_pool
    from publish.render.split import DISAGREED, Joined, start_clip

    store, work = tmp_path / "beats", tmp_path / "work"
    render(lesson_with(tmp_path, ""), store, work, scene=PEEKING)
    asked = lesson_with(tmp_path, "", question="Which words matter here?")
    job = job_for(asked, store, work, scene=PEEKING)
    assert parts(job, 2) == [Part(1, 1), Part(2)]
    notes: list[str] = []
    with worker_pool(None, 2) as executor:
        future = start_clip(executor, job, notes.append, 2)
        assert isinstance(future, Joined)
        shared = future.result()
    assert notes == [DISAGREED.format(clip=job.label)]
    assert len(future.renders) == 1  # the parts' renders, given up for one of the whole clip
    assert shared.drawn == (1, 2)
    fresh = render(asked, tmp_path / "fresh", tmp_path / "fresh_work", scene=PEEKING)
    assert shared.video.read_bytes() == fresh.video.read_bytes()


@pytest.mark.render
def test_a_part_ends_after_its_last_beat_with_the_records_a_whole_render_makes(
    tmp_path: Path,
) -> None:
    """The beats after a part's are the next part's: it does not replay them."""
    store, asked = every_beat_fresh(tmp_path)
    job = replace(job_for(asked, store, tmp_path / "work" / "part1"), part=Part(1, 3))
    part = worker.render_clip(job)
    assert part.drawn == (1, 2, 3)
    assert part.beats == 3
    assert part.tail is None
    whole = render(asked, tmp_path / "fresh", tmp_path / "fresh_work")
    assert part.records == whole.records[:3]


def test_pruning_keeps_what_clips_use_and_the_newest_of_the_rest(tmp_path: Path) -> None:
    """The store's segments no record names go, oldest first, beyond the room it spares."""
    import json
    import os

    from publish.beats import BeatRecord, BeatStore, tail_of

    store = BeatStore(tmp_path)
    used = BeatRecord(1, "a" * 64, (), (10, None), (), "s", "w")
    store.save_record("clip", [used])
    for age, key in enumerate(["a" * 64, "b" * 64, "c" * 64, "d" * 64]):
        segment = store.segment(key)
        segment.write_bytes(b"x" * 1000)
        os.utime(segment, (1_000_000 - age * 10, 1_000_000 - age * 10))
    store.segment(tail_of([used])).write_bytes(b"t" * 10)
    freed = store.prune(spare=2500)
    assert freed == 1000  # a is named; b and c (the newest two) fit in the room; d goes
    left = sorted(path.stem[:1] for path in tmp_path.glob("*.mp4"))
    assert left == sorted(["a", "b", "c", tail_of([used])[:1]])
    store.used("c" * 64)  # reused now: the newest
    assert store.prune(spare=1500) == 1000  # b goes, c stays
    assert json.loads(next((tmp_path / "records").glob("*.json")).read_text())["beats"]


@pytest.mark.render
def test_a_render_whose_stop_file_appears_stops_as_its_next_beat_begins(tmp_path: Path) -> None:
    """How a newer save stops a clip already rendering (``ClipJob.stop``)."""
    from dataclasses import replace

    store, work, stop = tmp_path / "beats", tmp_path / "work", tmp_path / "stop"
    job = replace(job_for(lesson_with(tmp_path, ""), store, work, scene=HELD), stop=stop)
    stop.touch()
    with pytest.raises(worker.ClipStopped, match="outdated"):
        worker.render_clip(job)
    assert not list(store.glob("*.mp4"))  # nothing of it stored
    assert not (work / "video").exists() or not list((work / "video").iterdir())
    stop.unlink()
    assert worker.render_clip(job).drawn == (1, 2, 3, 4, 5, 6)  # the next carries on


@pytest.mark.render
@pytest.mark.parametrize(
    ("lesson_file", "step"),
    [("", 3), ("lessons/day006_heads.toml", 3)],
    ids=["softmax", "heads"],
)
def test_a_beats_state_is_told_alike_after_beats_drawn_or_skipped(
    tmp_path: Path, lesson_file: str, step: int
) -> None:
    """Two parts of one clip, each drawing the beats the other skips, tell every beat's state
    alike (else parts shared out would disagree and the clip be drawn again whole): what an
    animation drawn frame by frame leaves (the last unit of a point, the opacity it was made
    with, the order of its method's locals) is not a different state."""
    from dataclasses import replace

    lesson = load_lesson(ROOT / lesson_file) if lesson_file else lesson_with(tmp_path, "")
    job = job_for(lesson, tmp_path / "beats", tmp_path / "work", step)
    half = 4
    early = worker.render_clip(replace(job, part=Part(1, half), work=tmp_path / "early"))
    late = worker.render_clip(replace(job, part=Part(half + 1), work=tmp_path / "late"))
    # beyond the last beat: draws none of them, and replays every one (a part ends after its
    # own beats, so the early one does not reach the late ones)
    none = worker.render_clip(replace(job, part=Part(late.beats + 1), work=tmp_path / "none"))
    assert early.drawn == tuple(range(1, half + 1))
    assert late.drawn == tuple(range(half + 1, late.beats + 1))
    assert none.drawn == ()
    assert all(record.state is not None for record in late.records)
    assert early.records == late.records[:half]  # drawn, then skipped
    assert none.records[half:] == late.records[half:]  # skipped, then drawn
