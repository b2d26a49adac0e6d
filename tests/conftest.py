"""Shared fixtures: the full lesson rendered once, at low quality, with the lecture kit."""

from __future__ import annotations

import json
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


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    out = tmp_path_factory.mktemp("media")
    started = time.monotonic()
    result = cli(out, "--slides")
    assert result.returncode == 0, result.stdout + result.stderr
    return Rendered(out, result.stdout, time.monotonic() - started)
