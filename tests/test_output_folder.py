"""The output folder: one run at a time, and trouble writing it is one clear line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import render
from publish.media.files import PARTIAL, sha256
from publish.presets import QUALITIES
from publish.render.claim import LOCK, claimed
from publish.render.pipeline import RunOptions

from .conftest import ROOT, cli

LOW = QUALITIES["low"]

HOLD = """
import sys, time
from pathlib import Path
from publish.render.claim import claimed
with claimed(Path(sys.argv[1]), Path(sys.argv[2])):
    print("held", flush=True)
    time.sleep(600)
"""
HOLD_EARLY = """
import sys, time
from pathlib import Path
from publish.render.claim import claim_early
claim_early(Path(sys.argv[1]), Path(sys.argv[2]))
print("held", flush=True)
time.sleep(600)
"""
"""A run still starting up (imports, the lesson's checks): the claim taken, nothing claimed()."""


@pytest.mark.parametrize("holder", [HOLD, HOLD_EARLY], ids=["claimed", "claimed early"])
def test_a_second_run_into_a_busy_folder_stops_at_once_naming_the_first(
    tmp_path: Path, holder: str
) -> None:
    out = tmp_path / "media"
    options = RunOptions(quality=LOW, fmt="mp4", transparent=False, out=out, jobs=1).lesson()
    # An earlier run's stamp, left behind: the holder's own must replace it.
    options.work.mkdir(parents=True)
    (options.work / LOCK).write_text('{"pid": 1, "started": "long ago"}', "utf-8")
    command = [sys.executable, "-c", holder, str(options.folder), str(options.work)]
    first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "held"
        second = cli(out, "--list", "--scene", "3", timeout=120)
        assert second.returncode == 2
        [line] = second.stderr.splitlines()
        assert line.startswith(f"render.py: {options.folder} is being written by another render.py")
        assert f"(pid {first.pid}, started " in line
    finally:
        first.kill()  # SIGKILL: no chance to clean up; the kernel drops the lock
        first.wait()
    with claimed(options.folder, options.work):
        pass


def test_runs_into_different_folders_share_no_work_folder(tmp_path: Path) -> None:
    folders = [
        RunOptions(QUALITIES[q], fmt="mp4", transparent=False, out=tmp_path / o, jobs=1).claim
        for q in ("low", "high")
        for o in ("a", "b")
    ]
    assert len(set(folders)) == len(folders)


def test_tests_keep_manims_files_in_their_own_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from manim import config

    assert Path(config.media_dir).is_relative_to(tmp_path_factory.getbasetemp())


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    printed = capsys.readouterr()
    assert "Traceback" not in printed.out + printed.err
    [line] = printed.err.splitlines()
    return line


def test_an_output_folder_through_a_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("not a folder")
    out = tmp_path / "file" / "media"
    assert render.main(["--quality", "low", "--scene", "3", "--out", str(out)]) == 2
    line = _one_line(capsys)
    assert line.startswith(f"render.py: cannot write {tmp_path / 'file'}")
    assert "Not a directory" in line


def _mount(folder: Path, options: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)])
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small disk here (mount needs root)")


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A folder this process may not write into: a read-only disk for root, else chmod 555."""
    folder = tmp_path / "read_only"
    if os.geteuid() != 0:
        folder.mkdir()
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    _mount(folder, "ro,size=1m")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=True)


def test_an_output_folder_that_cannot_be_written_is_one_line(
    read_only: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = read_only / "media"
    assert render.main(["--quality", "low", "--scene", "3", "--out", str(out)]) == 2
    line = _one_line(capsys)
    assert line.startswith(f"render.py: cannot write {out}")
    assert "Read-only file system" in line or "Permission denied" in line


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "disk"
    _mount(folder, "size=8m")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=True)


TINY = """
import sys
import scenes
from tests.render_scenes import TinyCircle, TinySquare
scenes.scenes_for = lambda lesson: (TinyCircle, TinySquare)
import render
sys.exit(render.main(sys.argv[1:]))
"""


def tiny_render(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """render.py with two tiny scenes as the lesson's, in a process of its own."""
    command = [sys.executable, "-c", TINY, "--quality", "low", "--out", str(out), *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def fill(file: Path) -> None:
    """Write ``file`` until its disk is full."""
    with file.open("wb") as stream:
        try:
            while True:
                stream.write(bytes(64 * 1024))
                stream.flush()
        except OSError:
            pass


@pytest.mark.render
def test_a_disk_that_fills_up_is_one_line_and_the_next_run_finishes(small_disk: Path) -> None:
    folder = small_disk / LOW.name
    first = tiny_render(small_disk, "--scene", "1")
    assert first.returncode == 0, first.stdout + first.stderr
    kept = sha256(folder / "01_tiny.mp4")

    filler = small_disk / "filler"
    fill(filler)
    full = tiny_render(small_disk, "--scene", "2")
    assert full.returncode in (1, 2), full.stdout + full.stderr
    printed = full.stdout + full.stderr
    assert "Traceback" not in printed
    assert len(full.stderr.splitlines()) <= 1
    said = [line for line in printed.splitlines() if str(small_disk) in line]
    assert any("space" in line.lower() for line in said), printed
    assert sha256(folder / "01_tiny.mp4") == kept
    assert not [p for p in folder.rglob("*") if PARTIAL in p.name]
    assert not (folder / "02_square.mp4").exists()

    filler.unlink()
    again = tiny_render(small_disk)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "cached   01_tiny" in again.stdout
    assert (folder / "02_square.mp4").is_file()


def test_a_busy_folder_is_refused_within_two_seconds(tmp_path: Path) -> None:
    out = tmp_path / "media"
    options = RunOptions(quality=LOW, fmt="mp4", transparent=False, out=out, jobs=1).lesson()
    command = [sys.executable, "-c", HOLD, str(options.folder), str(options.work)]
    first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "held"
        for flags in (["--list"], ["--dry-run", "--scene", "3"], ["--quality", "low"]):
            started = time.monotonic()
            second = cli(out, *flags, timeout=120)
            took = time.monotonic() - started
            assert second.returncode == 2, second.stderr
            assert "is being written by another render.py" in second.stderr
            assert took < 2.0, f"{flags}: refused after {took:.1f} s"
    finally:
        first.kill()
        first.wait()
