"""A machine's tools are identified by their contents: two machines set up alike match.

The font set is the only type a render sees: a font in the user's folder changes no clip. A font
set not installed stops every command with one line.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from attention_core import fontset
from publish.render import toolchain

from .conftest import ROOT, cli
from .lessons import default_data, to_toml

ARABIC = "الانتباه باليد"
"""Arabic, which Inter lacks: Pango sets it in a fallback font, whichever fontconfig ranks first."""
INTRUDER = "Inter:bold:lang=ar"
"""How the scenes ask for a bold heading in Arabic, as fontconfig's matcher is asked."""


def _system_fontconfig() -> dict[str, str]:
    """This environment as fontconfig's own file (``/etc/fonts/fonts.conf``) would read it."""
    return {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}


def _renamed_font(source: Path, family: str, target: Path) -> Path:
    """A real font with its family renamed (in place, padded with spaces, which fontconfig
    ignores when it compares family names), so that it answers for ``family``."""
    data = bytearray(source.read_bytes())
    (tables,) = struct.unpack(">H", data[4:6])
    for number in range(tables):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * number : 28 + 16 * number])
        if tag == b"name":
            names = bytes(data[offset : offset + length])
            old = names.decode("latin-1")
            for encoding in ("latin-1", "utf-16-be"):
                was = "Noto Sans Arabic".encode(encoding)
                names = names.replace(was, family.ljust(len("Noto Sans Arabic")).encode(encoding))
            assert names.decode("latin-1") != old, "the family name was not found"
            data[offset : offset + length] = names
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(bytes(data))
    return target


@pytest.fixture
def users_font(tmp_path: Path) -> dict[str, str]:
    """An environment whose user has, in ``~/.local/share/fonts``, a font fontconfig would pick
    for Arabic asked of Inter (Noto Sans Arabic, its family renamed Inter): on a machine
    without the font set, it would draw every Arabic heading."""
    home = tmp_path / "home"
    _renamed_font(
        Path("/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"),
        "Inter",
        home / ".local" / "share" / "fonts" / "NotInter-Arabic.ttf",
    )
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    data = home / ".local" / "share"
    return {"HOME": str(home), "XDG_DATA_HOME": str(data), "XDG_CACHE_HOME": cache}


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


def test_the_font_set_is_the_files_of_its_packages() -> None:
    # The committed file names what the packages install here (dpkg -L), and setup.sh installs
    # them; its rules are fontconfig's own or those packages'.
    assert fontset.main(["--check"]) == 0, "run: python -m attention_core.fontset"
    assert fontset.problem() is None
    setup = (ROOT / "scripts" / "setup.sh").read_text("utf-8")
    assert all(f" {package}" in setup for package in fontset.PACKAGES)
    owners = subprocess.run(
        ["dpkg", "-S", *fontset.rules_named()], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert {line.split(":")[0] for line in owners} <= {"fontconfig-config", *fontset.PACKAGES}
    names = [os.path.basename(path) for path in fontset.fonts_named()]
    assert len(names) == len(set(names)), "two fonts of the set share a name"


def _only_the_systems_file_sees(users_font: dict[str, str]) -> None:
    """fontconfig's own file lists the user's font and prefers it for Arabic asked of Inter;
    the font set's does not list it."""
    intruder = str(Path(users_font["XDG_DATA_HOME"]) / "fonts" / "NotInter-Arabic.ttf")
    system = {**_system_fontconfig(), **users_font}
    assert intruder in _fc(["fc-list", "--format", "%{file}\n"], system)
    assert _fc(["fc-match", "-s", "--format", "%{file}\n", INTRUDER], system)[0] == intruder
    ours = fontset.environment({**os.environ, **users_font})
    assert intruder not in _fc(["fc-list", "--format", "%{file}\n"], ours)
    assert intruder not in _fc(["fc-match", "-s", "--format", "%{file}\n", INTRUDER], ours)


def _fc(command: list[str], env: dict[str, str]) -> list[str]:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return done.stdout.split("\n")


@pytest.mark.render
def test_a_clip_is_the_same_with_a_font_in_the_users_folder(
    users_font: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The font fontconfig's own file would set the Arabic heading in, installed for the user:
    # the clip is the clip rendered without it, byte for byte.
    _only_the_systems_file_sees(users_font)
    data = default_data()
    data["words"] = {"big_picture": {"heading": {"title": ARABIC}}}
    lesson = tmp_path / "arabic_heading.toml"
    lesson.write_text(to_toml(data), "utf-8")
    plain = cli(tmp_path / "plain", "--lesson", str(lesson), "--scene", "2")
    assert plain.returncode == 0, plain.stderr
    for name, value in users_font.items():
        monkeypatch.setenv(name, value)
    intruded = cli(tmp_path / "intruded", "--lesson", str(lesson), "--scene", "2")
    assert intruded.returncode == 0, intruded.stderr
    clip = Path("low") / "02_big_picture.mp4"
    assert (tmp_path / "plain" / clip).read_bytes() == (tmp_path / "intruded" / clip).read_bytes()


def test_a_font_set_not_installed_stops_with_one_line_naming_the_fix(tmp_path: Path) -> None:
    # A checkout whose font set names a font this machine lacks: render.py (even the lesson's
    # check) and manim's own command stop before drawing a thing, as fontconfig would otherwise
    # set the type in whatever the system's file finds.
    checkout = tmp_path / "checkout"
    for package in ("attention_core", "scenes", "publish"):
        shutil.copytree(ROOT / package, checkout / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "render.py", checkout / "render.py")
    conf = checkout / "attention_core" / "fontset.conf"
    conf.write_text(conf.read_text("utf-8").replace("Inter-Regular", "Inter-Gone"), "utf-8")
    line = (
        "the font set is not installed (/usr/share/fonts/opentype/inter/Inter-Gone.otf is "
        "missing); run `bash scripts/setup.sh`"
    )
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    check = [sys.executable, "render.py", "--check-lesson", "attention_core/lesson.toml"]
    manim = [str(Path(sys.executable).with_name("manim")), "render", "-ql"]
    manim += ["--media_dir", str(tmp_path / "media"), "scenes/step3_score.py", "Step3Score"]
    for command, said in ((check, f"render.py: {line}"), (manim, line)):
        done = subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.splitlines() == [said]
    assert not (tmp_path / "media" / "videos").exists()
