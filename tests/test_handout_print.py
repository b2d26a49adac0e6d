"""The handout's PDF is today's print or absent: never stale, never truncated, failures said."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from attention_core import default_lesson
from publish.kit import handout, lecture, made_from
from publish.media.files import PARTIAL, sha256

from .conftest import DRAFT, ROOT
from .lessons import default_data, to_toml

FAILING = "#!/bin/sh\n# a Chromium that cannot print\nexit 1\n"


def _render(out: Path, lesson: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ) | ({"PATH": path} if path else {})
    command = [sys.executable, str(ROOT / "render.py"), "--quality", DRAFT.name]
    command += ["--out", str(out)]
    return subprocess.run(
        [*command, "--voice", "none", "--lesson", str(lesson), "--scene", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


def _kit_files(folder: Path) -> dict[str, str]:
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    return {ref["file"]: ref["sha256"] for ref in manifest["kit"]}


def _whole_pdf(path: Path) -> bool:
    data = path.read_bytes()
    return data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]


def test_a_pdf_changed_after_its_print_is_not_current(tmp_path: Path) -> None:
    pdf = tmp_path / "handout.pdf"
    pdf.write_bytes(b"%PDF-1.4 whole %%EOF")
    made_from.record(pdf, "inputs")
    assert made_from.current(pdf, "inputs")
    assert not made_from.current(pdf, "other inputs")
    pdf.write_bytes(b"%PDF-1.4 cut")  # truncated in place, as a full disk left it
    assert not made_from.current(pdf, "inputs")
    made_from.forget(pdf)
    assert not pdf.exists()


@pytest.mark.render
@pytest.mark.browser
def test_a_failed_print_is_said_exits_1_and_the_next_run_prints(tmp_path: Path) -> None:
    out, folder = tmp_path / "media", tmp_path / "media" / DRAFT.name
    data = default_data()
    lesson = tmp_path / "lesson.toml"
    lesson.write_text(to_toml(data), "utf-8")
    assert _render(out, lesson).returncode == 0
    first = (folder / "handout.pdf").read_bytes()

    data["question"] = "What is the secret code of the lamp?"  # the handout says it too
    lesson.write_text(to_toml(data), "utf-8")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "chromium").write_text(FAILING)
    (fake / "chromium").chmod(0o755)
    failed = _render(out, lesson, f"{fake}{os.pathsep}{os.environ['PATH']}")
    assert failed.returncode == 1, failed.stderr
    assert "handout.pdf not printed: chromium exited with status 1" in failed.stdout + failed.stderr
    assert "Traceback" not in failed.stderr
    assert not (folder / "handout.pdf").exists()  # the old print is not today's handout
    assert "handout.pdf" not in _kit_files(folder)
    assert "secret code of the lamp" in (folder / "handout.html").read_text("utf-8")

    again = _render(out, lesson)
    assert again.returncode == 0, again.stderr
    pdf = folder / "handout.pdf"
    assert _whole_pdf(pdf)
    assert pdf.read_bytes() != first
    assert _kit_files(folder)["handout.pdf"] == sha256(pdf)
    assert _render(out, lesson).returncode == 0  # current: not printed again, still listed
    assert _kit_files(folder)["handout.pdf"] == sha256(pdf)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (root only: skipped otherwise), unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.browser
def test_a_print_cut_short_by_a_full_disk_leaves_no_pdf(small_disk: Path) -> None:
    handout.write_handout(small_disk, default_lesson())
    filler = small_disk / "filler"
    free = os.statvfs(small_disk)
    filler.write_bytes(b"\0" * (free.f_bavail * free.f_frsize - 40 * 1024))  # 40 KiB left
    notes, failures = lecture._handout_pdf(small_disk)
    assert len(failures) == 1
    assert failures[0].startswith("handout.pdf not printed: ")
    assert not (small_disk / "handout.pdf").exists()
    assert not list(small_disk.glob(f".*{PARTIAL}*"))

    filler.unlink()  # the cause fixed: the next run prints it whole
    notes, failures = lecture._handout_pdf(small_disk)
    assert (notes, failures) == ([], ())
    assert _whole_pdf(small_disk / "handout.pdf")
    inputs = made_from.inputs_digest(small_disk / "handout.html", lecture.PRINTING)
    assert made_from.current(small_disk / "handout.pdf", inputs)
