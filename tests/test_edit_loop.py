"""The edit loop, really rendered: after an edit only the clips that show it render again."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench import change_one_number
from publish.media.captions import parse_srt
from publish.presets import FULL_NAME, QUALITIES, clip_name
from scenes import SCENES

from .conftest import ROOT, Rendered, cli

LOW = QUALITIES["low"]
LESSON = (ROOT / "attention_core" / "lesson.toml").read_text("utf-8")
OTHERS = [clip_name(scene.step, scene.slug) for scene in SCENES if not scene.shows_length]


def states(stdout: str) -> dict[str, str]:
    """What the run did with each clip: ``{"03_score": "running", ...}``, last word wins."""
    found = {}
    for line in stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in {"cached", "running"}:
            found[words[1]] = words[0]
    return found


def run_edited(out: Path, lesson: str) -> dict[str, str]:
    edited = out.parent / "edited.toml"
    edited.write_text(lesson, "utf-8")
    result = cli(out, "--lesson", str(edited))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{FULL_NAME}.mp4" in result.stdout
    return states(result.stdout)


@pytest.mark.render
def test_one_changed_number_renders_only_the_scenes_that_read_it(
    rendered: Rendered, copy_of: Path
) -> None:
    done = run_edited(copy_of, change_one_number(LESSON))  # the quiz's bonus filler score
    running = sorted(clip for clip, state in done.items() if state == "running")
    assert running == ["07_answer"]
    assert done["01_title"] == "cached"  # the lesson's minutes did not change


@pytest.mark.render
def test_a_changed_caption_renders_the_clip_that_says_it(copy_of: Path) -> None:
    new = "Every token holds out a key to be matched on."
    done = run_edited(copy_of, f'{LESSON}\n[words.score.caption]\nkeys = "{new}"\n')
    assert sorted(clip for clip, state in done.items() if state == "running") == ["03_score"]
    cues = parse_srt((copy_of / LOW.name / "03_score.srt").read_text("utf-8"))
    assert new in " ".join(" ".join(cue.text for cue in cues).split())  # its cues, read on


@pytest.mark.render
def test_a_title_missing_alone_renders_from_the_other_clips_lengths(copy_of: Path) -> None:
    """Every other clip is cached: the title renders on its own (measured by a dry run of
    itself alone), and the lesson is joined again."""
    (copy_of / LOW.name / "01_title.mp4").unlink()
    result = cli(copy_of)
    assert result.returncode == 0, result.stdout + result.stderr
    assert states(result.stdout) == {
        "01_title": "running",
        **{name: "cached" for name in OTHERS},
    }
    assert "measuring 1 scene(s)" in result.stdout  # the title, not the cached others
    assert (copy_of / LOW.name / "01_title.mp4").is_file()
    assert f"{FULL_NAME}.mp4" in result.stdout
