"""Any output path the filesystem allows renders: quotes, backslashes, spaces, other scripts."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from publish.render.tex_folder import tex_safe

from .conftest import DRAFT, cli

ODD = 'it\'s a "quoted" \\ back-slashed ü 空 folder'


def test_tex_reaches_an_odd_folder_by_a_plain_name(tmp_path: Path) -> None:
    folder = tmp_path / ODD / "Tex"
    plain = tex_safe(folder)
    assert plain.isascii()
    assert not set(plain) & set(" '\"\\%#~")
    assert Path(plain).resolve() == folder.resolve()
    assert tex_safe(folder) == plain  # the same link, run after run
    assert tex_safe(tmp_path / "plain") == str(tmp_path / "plain")


@pytest.mark.render
def test_a_step_renders_into_a_folder_with_quotes_and_other_scripts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / ODD
    # A user cache of its own, so that every formula is typeset by TeX in the odd folder.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    done = cli(out, "--scene", "3", timeout=300, quality=DRAFT)
    assert done.returncode == 0, done.stderr
    clip = out / DRAFT.name / "03_score.mp4"
    probed = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json", str(clip)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert float(json.loads(probed.stdout)["format"]["duration"]) > 10
    manifest = json.loads((out / DRAFT.name / "manifest.json").read_text("utf-8"))
    assert "03_score.mp4" in json.dumps(manifest)


def test_a_folder_where_the_script_belongs_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "script.txt").mkdir()
    done = cli(tmp_path / "media", "--script", str(tmp_path / "script.txt"), timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"render.py: --script {tmp_path / 'script.txt'}: a folder stands there; name a file "
        "to write"
    ]


@pytest.mark.render
def test_a_folder_where_an_output_file_belongs_is_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "media"
    (out / DRAFT.name / "handout.html").mkdir(parents=True)
    done = cli(out, "--scene", "3", timeout=300, quality=DRAFT)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"render.py: cannot write {out / DRAFT.name / 'handout.html'}: Is a directory; a folder "
        "stands where a file should be; remove it or choose another --out"
    ]
