"""Voices and recordings are checked before anything renders: each problem one line, exit 2."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from attention_core import default_lesson
from publish.media.captions import parse_srt
from publish.render.voice_checks import speech_seconds
from scenes.beat import BeatTiming, Caption
from scenes.probe import run_dry
from scenes.steps.score import Step3Score

from .conftest import NARRATED, Recorded, cli
from .lessons import default_data, to_toml

LESSON = default_lesson()


def _recordings(recorded: Recorded, tmp_path: Path) -> Path:
    """A copy of the recordings, to change."""
    folder = tmp_path / "recordings"
    shutil.copytree(recorded.recordings, folder)
    return folder


def _silence(path: Path, seconds: float) -> None:
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono"]
        + ["-t", str(seconds), str(path)],
        check=True,
    )


def test_a_beat_without_speech_keeps_its_cue() -> None:
    silent = BeatTiming("03_score-01", Caption.plain("Words."), 1.0, 4.0, 0.0)
    assert silent.cue_end == 4.0  # manim drops a cue that ends where it starts
    spoken = BeatTiming("03_score-01", Caption.plain("Words."), 1.0, 4.0, 2.5)
    assert spoken.cue_end == 3.5


def test_speech_is_sound_above_the_silence_threshold(tmp_path: Path) -> None:
    _silence(tmp_path / "quiet.wav", 5)
    assert speech_seconds(tmp_path / "quiet.wav") == 0.0
    subprocess.run(
        ["espeak-ng", "-w", str(tmp_path / "said.wav"), "the river's code is four eight two one"],
        check=True,
    )
    assert 1.0 < speech_seconds(tmp_path / "said.wav") < 4.0
    (tmp_path / "text.wav").write_text("not audio\n")
    assert speech_seconds(tmp_path / "text.wav") == 0.0


def test_an_espeak_language_espeak_lacks_is_named(tmp_path: Path) -> None:
    data = default_data()
    data["words"] = {"common": {"word": {"language": "tlh"}}}  # Klingon: espeak has none
    lesson = tmp_path / "klingon.toml"
    lesson.write_text(to_toml(data), "utf-8")
    done = cli(tmp_path / "media", "--lesson", str(lesson), "--voice", "espeak", "--scene", "3")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "render.py: --voice espeak: espeak-ng has no voice for the lesson's language 'tlh' "
        "(common.word.language); `espeak-ng --voices` lists the languages it speaks"
    ]
    assert not (tmp_path / "media" / "low").exists()


def test_a_piper_voice_that_cannot_load_is_named(tmp_path: Path) -> None:
    model = tmp_path / "voices" / "mine.onnx"
    model.parent.mkdir()
    model.write_bytes(b"not an onnx model")
    config = Path(f"{model}.json")
    config.write_text("{", "utf-8")
    done = cli(tmp_path / "media", "--voice", str(model), "--scene", "3")
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"render.py: --voice {model}: cannot load its config {config} (")
    assert line.endswith(f"; the Piper voices there: ls {model.parent}/*.onnx")

    config.write_text('{"audio": {"sample_rate": 22050}, "phoneme_id_map": {}}', "utf-8")
    done = cli(tmp_path / "media", "--voice", str(model), "--scene", "3")
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"render.py: --voice {model}: cannot load the model {model} (")


def test_a_file_that_is_not_audio_is_refused_before_the_scenes_run(tmp_path: Path) -> None:
    folder = tmp_path / "recordings"
    folder.mkdir()
    (folder / "01_title-01.wav").write_text("a text file, renamed\n")
    started = time.monotonic()
    done = cli(tmp_path / "media", "--voice", str(folder), "--scene", "3")
    took = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"render.py: --voice {folder}: {folder / '01_title-01.wav'}: not audio ffmpeg can "
        "read; record it again or convert it to WAV"
    ]
    assert took < 10, f"refused after {took:.1f} s"
    assert not (tmp_path / "media").exists()  # nothing written


@pytest.mark.render  # recorded from the narration script: a dry run of every step
def test_a_silent_recording_is_refused_naming_its_beat(tmp_path: Path, recorded: Recorded) -> None:
    folder, beats = _recordings(recorded, tmp_path), recorded.beats
    beat = "03_score-02"
    assert beat in beats
    (folder / f"{beat}.wav").unlink()
    _silence(folder / f"{beat}.wav", 60)  # a minute of nothing
    done = cli(tmp_path / "media", "--voice", str(folder), "--scene", "3")
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"render.py: --voice {folder}: beat {beat}: {beat}.wav holds no speech")
    assert not (tmp_path / "media" / "low").exists()


@pytest.mark.render
def test_every_beat_of_a_recorded_step_has_its_cue(recorded: Recorded) -> None:
    out, beats = recorded.out, recorded.beats
    # A beat's words may take several cues (publish/media/cues.py), never none: every
    # caption is said, whole and in order, by the cues read one after another.
    cues = parse_srt((out / NARRATED.name / "03_score.srt").read_text("utf-8"))
    said = " ".join(" ".join(cue.text for cue in cues).split())
    captions = [" ".join(beat.caption.text.split()) for beat in run_dry(Step3Score, LESSON).beats]
    assert len(captions) == sum(1 for beat in beats if beat.startswith("03_score-"))
    assert len(cues) >= len(captions)
    at = 0
    for caption in captions:
        found = said.find(caption, at)
        assert found >= 0, f"no cue says {caption!r}"
        at = found + len(caption)
    assert shutil.which("ffprobe")
