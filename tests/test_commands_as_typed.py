"""The commands a newcomer types: render.py with the system's Python, manim's own CLI on a step."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attention_core import default_lesson
from publish.media.captions import parse_srt
from publish.media.ffmpeg import probe
from scenes.probe import run_dry
from scenes.steps.big_picture import Step2BigPicture

ROOT = Path(__file__).parent.parent
SYSTEM_PYTHON = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}"
"""The interpreter .venv/ was made from: what ``python`` is before anything is activated."""


def _outside_the_venv() -> dict[str, str]:
    """The environment of a shell where no virtual environment is active."""
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    venv_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def test_the_cards_command_runs_in_the_venv_whatever_python_typed_it() -> None:
    # The system's Python lacks numpy and manim: the lesson's numbers can only come from .venv/.
    typed = [str(SYSTEM_PYTHON), "render.py", "--check-lesson", "lessons/four_tokens.toml"]
    result = subprocess.run(
        typed, cwd=ROOT, env=_outside_the_venv(), capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "quiz" in result.stdout.lower()


def test_before_set_up_the_card_says_what_to_run(tmp_path: Path) -> None:
    shutil.copy(ROOT / "render.py", tmp_path / "render.py")  # a checkout without .venv/
    result = subprocess.run(
        [str(SYSTEM_PYTHON), "render.py", "--quality", "high"],
        cwd=tmp_path,
        env=_outside_the_venv(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "render.py: not set up yet; run `bash scripts/setup.sh` first"
    ]
    assert result.stdout == ""


@pytest.mark.render
def test_manims_own_cli_renders_the_default_lessons_step(tmp_path: Path) -> None:
    manim = Path(sys.executable).with_name("manim")
    typed = [str(manim), "render", "-ql", "--progress_bar", "none", "--media_dir", str(tmp_path)]
    # the shortest step that is not the title (which would dry-run every other to show the
    # lesson's minutes): the CLI's path is the same for every step, and its seconds are few
    result = subprocess.run(
        [*typed, "scenes/steps/big_picture.py", "Step2BigPicture"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    folder = tmp_path / "videos" / "big_picture" / "480p15"
    video = probe(folder / "Step2BigPicture.mp4")
    assert (video.width, video.height, video.fps) == (854, 480, 15)
    # the step as the default lesson runs it: its captions, and its length, to the frame (a
    # dry run's clock moves as a drawn play's does; ffprobe gives the length to the ms)
    dry = run_dry(Step2BigPicture, default_lesson())
    cues = parse_srt((folder / "Step2BigPicture.srt").read_text("utf-8"), escaped=False)
    assert tuple(cue.text for cue in cues) == dry.captions
    assert video.duration == pytest.approx(dry.seconds, abs=0.001)
