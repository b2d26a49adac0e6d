"""Shared fixtures: the full lesson rendered once, at low quality, with the lecture kit."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from publish.presets import FULL_NAME, QUALITIES

ROOT = Path(__file__).parent.parent
LOW = QUALITIES["low"]


@dataclass(frozen=True)
class Rendered:
    """The full set rendered once, and how the run went."""

    out: Path
    stdout: str
    seconds: float

    @property
    def folder(self) -> Path:
        return self.out / LOW.name

    @property
    def manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.folder / "manifest.json").read_text("utf-8"))
        return data

    @property
    def full(self) -> Path:
        return self.folder / f"{FULL_NAME}.mp4"


def cli(out: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run render.py at low quality, as a user would (output piped: plain progress lines);
    silent (``--voice none``) unless ``args`` name a voice: tests/test_narration.py narrates."""
    voice = [] if "--voice" in args or "--script" in args else ["--voice", "none"]
    command = [sys.executable, str(ROOT / "render.py"), "--quality", "low", "--out", str(out)]
    return subprocess.run(
        [*command, *voice, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="session", autouse=True)
def own_media_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """manim's default media folder (``./media``, where in-process dry runs keep their TeX) is
    this test run's own: two runs, in one checkout or two, never write the same files."""
    from manim import config

    config.media_dir = str(tmp_path_factory.mktemp("manim_media"))


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    out = tmp_path_factory.mktemp("media")
    started = time.monotonic()
    result = cli(out, "--slides")
    assert result.returncode == 0, result.stdout + result.stderr
    return Rendered(out, result.stdout, time.monotonic() - started)


@pytest.fixture
def copy_of(rendered: Rendered, tmp_path: Path) -> Path:
    """A private copy of the rendered output folder (with its caches) to run again into."""
    out = tmp_path / "media"
    shutil.copytree(rendered.out, out, symlinks=True)
    return out


LESSONS = ("default", "four_tokens")
TITLE = "Transformers, by hand"


@dataclass(frozen=True)
class CourseRun:
    folder: Path
    stdout: str

    def manifest(self, name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.folder / name / "manifest.json").read_text())
        return data


@pytest.fixture(scope="session")
def course(rendered: Rendered, tmp_path_factory: pytest.TempPathFactory) -> CourseRun:
    """The default lesson and lessons/four_tokens.toml rendered once as a course, into a copy
    of the session render's output folder (so the default lesson's clips come from its cache)."""
    out = tmp_path_factory.mktemp("course") / "media"
    shutil.copytree(rendered.out, out, symlinks=True)
    course_file = out.parent / "course.toml"
    four_tokens = ROOT / "lessons" / "four_tokens.toml"
    course_file.write_text(
        f'title = "{TITLE}"\n[[lessons]]\nfile = "default"\n[[lessons]]\nfile = "{four_tokens}"\n'
    )
    result = cli(out, "--course", str(course_file))
    assert result.returncode == 0, result.stdout + result.stderr
    return CourseRun(out / LOW.name, result.stdout)
