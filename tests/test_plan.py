"""One plan for every command: a lesson's scenes, files, keys and lengths, as render, the
preview, ``--list`` and ``--dry-run`` all read them (``publish/render/plan.py``)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import render
from attention_core import load_lesson
from publish.code_digest import source_digest
from publish.narration.voices import choose_voice
from publish.render import toolchain
from publish.render.cache import SOURCE_PACKAGES, clip_key
from publish.render.pipeline import Plan, RunOptions, plan
from publish.render.selection import SelectionError
from scenes import scenes_for, timing
from scenes.timing import minutes_of

from .conftest import LOW, ROOT, CourseRun, cli

MASKED = ROOT / "lessons" / "day005_masked.toml"
"""Day 005: five steps of four kinds, the answer moved to step 5."""


def _plan(tmp_path: Path, *wanted: str, voice: str = "none") -> Plan:
    lesson = load_lesson(MASKED)
    run = RunOptions(LOW, "mp4", transparent=False, out=tmp_path, jobs=2)
    options = run.lesson(choose_voice(voice, lesson), "day005_masked", "day005_masked")
    return plan(lesson, options, wanted)


def test_the_plan_is_the_lessons_scenes_in_order_with_their_files(tmp_path: Path) -> None:
    lesson = load_lesson(MASKED)
    planned = _plan(tmp_path)
    assert planned.scenes == scenes_for(lesson) == planned.chosen
    assert planned.whole
    files = [planned.file(s).relative_to(tmp_path).as_posix() for s in planned.scenes]
    assert files == [
        "low/day005_masked/01_title.mp4",
        "low/day005_masked/02_big_picture.mp4",
        "low/day005_masked/03_all_queries.mp4",
        "low/day005_masked/04_mask.mp4",
        "low/day005_masked/05_answer.mp4",
    ]
    assert [s.step for s in planned.titles] == [1]
    assert planned.label(planned.scenes[4]) == "day005_masked/05_answer"
    some = _plan(tmp_path, "answer", "3")
    assert [s.step for s in some.chosen] == [3, 5]
    assert not some.whole
    with pytest.raises(SelectionError, match="--scene 'rival': no such scene"):
        _plan(tmp_path, "rival")


def test_the_plans_keys_are_the_clip_keys_of_before(tmp_path: Path) -> None:
    planned = _plan(tmp_path, voice="espeak")
    assert planned.options.voice is not None
    answer = planned.scenes[4]
    reads = [("words", "answer.heading.title")]
    kwargs = timing.title_arguments(planned.scenes[0], 5)
    assert planned.key(answer, reads, ()) == clip_key(
        sources=source_digest(SOURCE_PACKAGES),
        toolchain=toolchain.digest(),
        lesson=planned.lesson,
        reads=reads,
        scene="Step7Answer@5",
        kwargs=(),
        quality="low",
        fmt="mp4",
        transparent=False,
        voice=planned.options.voice.digest,
    )
    title = planned.scenes[0]
    job = planned.clip_job(title, kwargs)
    assert job.base == planned.key(title, (), kwargs)
    assert job.kwargs == (("minutes", 5),)
    assert job.label == "day005_masked/01_title"
    assert job.work == (tmp_path / ".work" / "low" / "course" / "day005_masked" / "title").resolve()
    assert planned.dry_job(title).kwargs == (("minutes", timing.MEASURED_WITH),)


def _clock(text: str) -> float:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + float(seconds)


@pytest.mark.render
def test_list_dry_run_and_render_agree_on_a_lessons_scenes_and_lengths(
    series: CourseRun, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Day 005 alone, into a copy of the series' folder: its clips, rendered by the course,
    # are found in its cache and copied (a clip is its key, not its folder)
    out = tmp_path / "media"
    shutil.copytree(series.folder.parent, out, symlinks=True)
    result = cli(out, "--lesson", str(MASKED), timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "running" not in result.stdout, result.stdout
    manifest = json.loads((out / LOW.name / "manifest.json").read_text("utf-8"))
    made = [(c["step"], c["scene"], Path(c["file"]).stem, c["duration"]) for c in manifest["clips"]]

    flags = ["--lesson", str(MASKED), "--quality", "low", "--out", str(out), "--voice", "none"]
    assert render.main(["--list", *flags]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = [line.split() for line in lines[1:-1]]
    assert render.main(["--dry-run", *flags]) == 0
    blocks = [b for b in capsys.readouterr().out.split("\n\n") if b.strip()]
    dry = [re.match(r"(\S+)  (\S+)  .*  ([\d.]+) s$", b.splitlines()[0]) for b in blocks]

    # the same scenes, in the same order, with the same files
    assert [(int(r[0]), r[1], r[2]) for r in listed] == [(s, n, f) for s, n, f, _ in made]
    assert [(m[2], m[1]) for m in dry if m] == [(n, f) for _, n, f, _ in made]
    # the same lengths: the two dry runs exactly, the render to its whole frames
    for row, match, (*_, seconds) in zip(listed, dry, made, strict=True):
        assert match is not None
        assert abs(_clock(row[3]) - float(match[3])) <= 0.051
        assert abs(_clock(row[3]) - seconds) <= 0.5
    # and the same lesson length: the minutes the title shows, rendered or dry-run
    minutes = minutes_of(sum(seconds for *_, seconds in made))
    assert lines[-1].endswith(f"(the lesson: about {minutes} min)")
    title = next(line for line in blocks[0].splitlines() if "numbers:" in line)
    assert title.split()[-1] == str(minutes)
    # what the render recorded is what the plan reads back as each clip's last length
    planned = plan(load_lesson(MASKED), RunOptions(LOW, "mp4", False, out, 1).lesson())
    assert [planned.last()[s] for s in planned.scenes] == [d for *_, d in made]
