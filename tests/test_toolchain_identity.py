"""A machine's tools are identified by their contents: two machines set up alike match."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from publish.render import toolchain

from .conftest import ROOT


def _system_files() -> list[Path]:
    """TeX's file databases and the house font: the files a worker's identity hashes."""
    found = subprocess.run(
        ["kpsewhich", "-all", "ls-R"], capture_output=True, text=True, check=True
    ).stdout.split()
    font = subprocess.run(
        ["fc-match", "--format", "%{file}", "Inter"], capture_output=True, text=True, check=True
    ).stdout
    return [Path(p) for p in [*found, font] if Path(p).is_file()]


def test_a_file_copied_with_a_new_mtime_is_the_same_tool(tmp_path: Path) -> None:
    # What a second machine's install does: the same bytes, written at another time.
    originals = _system_files()
    assert originals, "no ls-R or Inter found"
    for number, original in enumerate(originals):
        copy = tmp_path / f"{number}-{original.name}"
        shutil.copyfile(original, copy)  # a new mtime, as an install on another day gives
        first = toolchain._file(copy)
        os.utime(copy, ns=(1_000_000_000, 1_000_000_000))
        assert toolchain._file(copy) == first
        assert first["sha256"] == toolchain._file(original)["sha256"]
        with copy.open("ab") as extra:  # and a changed file is a different tool
            extra.write(b"%")
        assert toolchain._file(copy)["sha256"] != first["sha256"]


def test_the_identity_holds_no_modification_time() -> None:
    text = json.dumps(toolchain.describe())
    assert "mtime" not in text
    assert '"sha256"' in text


def test_the_identity_names_the_fallback_fonts_installed() -> None:
    # A worker without Noto CJK would draw a Chinese lesson as boxes: it must not match.
    packages = toolchain.describe()["font_packages"]
    assert any(p.startswith("fonts-noto-cjk ") for p in packages)
    assert any(p.startswith("fonts-inter ") for p in packages)


def test_a_worker_in_another_root_has_the_same_identity(tmp_path: Path) -> None:
    # Another machine set up by the same steps: the same TeX databases and fonts, written at
    # another time to other places (here copies, found through TEXMFDBS and FONTCONFIG_FILE).
    databases = []
    for number, original in enumerate(_lines(["kpsewhich", "-all", "ls-R"])):
        folder = tmp_path / "texmf" / str(number)
        folder.mkdir(parents=True)
        shutil.copyfile(original, folder / "ls-R")
        databases.append(str(folder))
    fonts = tmp_path / "fonts"
    for pattern in toolchain.FONT_PATTERNS:
        source = Path(_lines(["fc-match", "--format", "%{file}", pattern])[0])
        shutil.copytree(source.parent, fonts / source.parent.name, dirs_exist_ok=True)
    config = tmp_path / "fonts.conf"
    config.write_text(
        f'<?xml version="1.0"?>\n<fontconfig><dir>{fonts}</dir>'
        f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n"
    )
    probe = (
        "import json, subprocess; from publish.render import toolchain; print(json.dumps(["
        "toolchain.describe(), subprocess.run(['fc-match', '--format', '%{file}', 'Inter'], "
        "capture_output=True, text=True).stdout, subprocess.run(['kpsewhich', '-all', 'ls-R'], "
        "capture_output=True, text=True).stdout.split()]))"
    )
    there = subprocess.run(
        [sys.executable, "-c", probe],
        env=dict(os.environ) | {"TEXMFDBS": ":".join(databases), "FONTCONFIG_FILE": str(config)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    theirs, inter, found = json.loads(there.stdout)
    assert Path(inter).is_relative_to(fonts)  # it looked where the test meant it to
    assert found == [f"{folder}/ls-R" for folder in databases]
    assert theirs == toolchain.describe()


def _lines(command: list[str]) -> list[str]:
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.split()
