"""A lesson path is read safely: regular files only, never past the limit, a BOM accepted."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attention_core import LessonError, load_lesson
from publish.course import CourseError, read_course

from .conftest import ROOT

DEFAULT = (ROOT / "attention_core" / "lesson.toml").read_bytes()


def _check(path: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "--check-lesson", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, time.monotonic() - started


def test_dev_zero_is_refused_at_once_naming_it() -> None:
    done, took = _check(Path("/dev/zero"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        "render.py: lesson: /dev/zero: not a regular file (a character device); give a .toml file"
    )
    assert took < 10


def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "lesson.toml"
    os.mkfifo(fifo)
    done, took = _check(fifo)
    assert done.returncode == 2, done.stderr
    assert f"{fifo}: not a regular file (a named pipe)" in done.stderr
    assert "Traceback" not in done.stderr
    assert took < 10


def test_a_socket_and_a_folder_are_refused(tmp_path: Path) -> None:
    where = tmp_path / "s.toml"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(where))
    try:
        with pytest.raises(LessonError, match="not a regular file"):
            load_lesson(where)
    finally:
        server.close()
    with pytest.raises(LessonError, match=r"not a regular file \(a folder\)"):
        load_lesson(tmp_path)
    with pytest.raises(CourseError, match=r"not a regular file \(a folder\)"):
        read_course(tmp_path)


def test_a_file_growing_past_the_limit_is_read_no_further(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (10 * 1024 * 1024))
    with pytest.raises(LessonError, match="more than the 65536 bytes a lesson may be"):
        load_lesson(big)


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "windows.toml"
    path.write_bytes(b"\xef\xbb\xbf" + DEFAULT)
    assert load_lesson(path) == load_lesson(ROOT / "attention_core" / "lesson.toml")
    done, _ = _check(path)
    assert done.returncode == 0, done.stderr
