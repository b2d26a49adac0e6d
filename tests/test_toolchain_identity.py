"""A machine's tools are identified by what shapes the bytes: two machines set up alike match.

The font set is the only type a render sees (a font in the user's folder, or another package's
font in a shared folder, changes neither the identity nor a clip), TeX is named by the files it
reads (not by its databases, whose order is readdir's), and a changed font is a different tool.
A font set not installed stops every command with one line.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from attention_core import fontset
from publish.render import toolchain
from publish.render.cluster import differences
from publish.render.file_digests import facts

from .conftest import DRAFT, ROOT, cli
from .lessons import default_data, to_toml

PROBE = "import json; from publish.render import toolchain; print(json.dumps(toolchain.describe()))"
"""What a worker answers when asked what it runs (its tools), printed as JSON."""
ARABIC = "الانتباه باليد"
"""Arabic, which Inter lacks: Pango sets it in a fallback font, whichever fontconfig ranks first."""
INTRUDER = "Inter:bold:lang=ar"
"""How the scenes ask for a bold heading in Arabic, as fontconfig's matcher is asked."""


def _describe_there(env: dict[str, str], cwd: Path = ROOT) -> dict[str, Any]:
    """The tools' identity as another process (a worker) with ``env`` gives it."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=cwd, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    described: dict[str, Any] = json.loads(done.stdout)
    return described


def _kpse(*arguments: str) -> list[str]:
    found = subprocess.run(["kpsewhich", *arguments], capture_output=True, text=True, check=True)
    return found.stdout.split()


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


def test_a_file_copied_with_a_new_mtime_is_the_same_file(tmp_path: Path) -> None:
    # What a second machine's install does: the same bytes, written at another time.
    originals = [Path(fontset.fonts_named()[0]), Path(_kpse("article.cls")[0])]
    for original in originals:
        copy = tmp_path / original.name
        shutil.copyfile(original, copy)  # a new mtime, as an install on another day gives
        first = facts([str(copy)])[str(copy)]
        os.utime(copy, ns=(1_000_000_000, 1_000_000_000))
        assert facts([str(copy)])[str(copy)] == first
        assert first == facts([str(original)])[str(original)]
        with copy.open("ab") as extra:  # and a changed file is a different one
            extra.write(b"%")
        changed = facts([str(copy)])[str(copy)]
        assert changed is not None
        assert first is not None
        assert changed.sha256 != first.sha256


def test_the_identity_holds_no_path_or_modification_time() -> None:
    text = json.dumps(toolchain.describe())
    assert "mtime" not in text
    for root in ('"/usr/', '"/var/', '"/etc/'):
        assert root not in text
    assert '"sha256"' in text


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


def test_the_identity_names_the_font_sets_fonts_and_no_other() -> None:
    fonts = toolchain.describe()["fonts"]
    named = fontset.fonts_named()
    assert sorted(fonts) == sorted(os.path.basename(path) for path in named)
    # Another package's fonts in the same folders (fonts-dejavu-extra beside fonts-dejavu-core
    # on this machine, if installed) are not among them.
    neighbours = {
        entry.name
        for folder in {Path(path).parent for path in named}
        for entry in folder.iterdir()
        if str(entry) not in named
    }
    assert not neighbours & set(fonts)


def test_a_font_in_the_users_folder_changes_nothing(users_font: dict[str, str]) -> None:
    there = {**os.environ, **users_font}
    _only_the_systems_file_sees(users_font)
    assert _describe_there(there) == toolchain.describe()


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


def test_tex_elsewhere_with_its_databases_reordered_is_the_same_tool(tmp_path: Path) -> None:
    # Another machine's TeX: the same files under another root, its file database (ls-R) listing
    # them in another order (readdir's at install time), found through TEXMFDBS.
    dist = Path(_kpse("--expand-var=$TEXMFDIST")[0])
    there = tmp_path / "texmf-dist"
    there.mkdir()
    for entry in dist.iterdir():
        if entry.name != "ls-R":
            (there / entry.name).symlink_to(entry)
    original = (dist / "ls-R").read_text("utf-8")
    reordered = _reordered(original)
    assert reordered != original
    assert sorted(reordered.splitlines()) == sorted(original.splitlines())
    (there / "ls-R").write_text(reordered, "utf-8")
    databases = [str(Path(p).parent) for p in _kpse("-all", "ls-R") if Path(p).parent != dist]
    cnf = _kpse("--show-path=cnf")[0].split(":")  # its texmf.cnf too, from its own tree
    env = {
        **os.environ,
        "TEXMFDIST": str(there),
        "TEXMFCNF": ":".join(str(there / "web2c") if Path(f) == dist / "web2c" else f for f in cnf),
        "TEXMFDBS": ":".join([*databases, str(there)]),
    }
    found = subprocess.run(
        ["kpsewhich", "-all", "ls-R", "amsmath.sty"], env=env, capture_output=True, text=True
    ).stdout.split()
    assert f"{there}/ls-R" in found
    assert f"{there}/tex/latex/amsmath/amsmath.sty" in found
    assert str(dist / "ls-R") not in found  # it looked where the test meant it to
    theirs = _describe_there(env)
    ours = toolchain.describe()
    assert theirs["tex_files"] == ours["tex_files"]
    assert theirs == ours


def test_tex_whose_languages_were_listed_otherwise_is_the_same_tool(tmp_path: Path) -> None:
    # Debian writes language.dat as the hyphen-* packages are configured: two machines set up
    # alike have had two files (a fresh root's worker was refused for it). Patterns only break
    # a paragraph's lines, and the scenes' TeX sets no paragraph: the file is no part of a tool.
    var = Path(_kpse("--expand-var=$TEXMFSYSVAR")[0])
    listed = Path(_kpse("language.dat")[0])
    assert listed.is_relative_to(var), listed
    there = tmp_path / "texmf-var"
    shutil.copytree(var, there, symlinks=True)
    copy = there / listed.relative_to(var)
    lines = listed.read_text("utf-8").splitlines()
    kept = [line for line in lines if not line.startswith(("ukenglish", "=british", "=UKenglish"))]
    assert kept != lines, "language.dat lists no British English: pick another language"
    copy.write_text("\n".join(kept) + "\n", "utf-8")
    databases = [str(Path(p).parent) for p in _kpse("-all", "ls-R") if Path(p).parent != var]
    env = {
        **os.environ,
        "TEXMFSYSVAR": str(there),
        "TEXMFDBS": ":".join([*databases, str(there)]),
    }
    found = subprocess.run(
        ["kpsewhich", "language.dat"], env=env, capture_output=True, text=True
    ).stdout.split()
    assert found == [str(copy)]  # it read the other list
    assert copy.read_bytes() != listed.read_bytes()
    theirs = _describe_there(env)
    assert theirs["tex_files"] == toolchain.describe()["tex_files"]


def _reordered(database: str) -> str:
    """An ``ls-R`` listing the same entries in another order: its folders last to first, and
    each folder's entries backwards (its first line, kpathsea's mark, kept first)."""
    mark, _, rest = database.partition("\n")
    blocks = [block.splitlines() for block in rest.strip("\n").split("\n\n")]
    shuffled = [[block[0], *reversed(block[1:])] for block in reversed(blocks)]
    return mark + "\n" + "\n\n".join("\n".join(block) for block in shuffled) + "\n"


def test_a_changed_font_of_the_set_is_a_different_tool(tmp_path: Path) -> None:
    # A worker whose Inter-Regular.otf differs by one byte: its checkout's font set reads Inter
    # from a copy of the folder, the file changed.
    checkout = tmp_path / "checkout"
    for package in ("attention_core", "publish"):
        shutil.copytree(ROOT / package, checkout / package, ignore=shutil.ignore_patterns("*.pyc"))
    inter = Path("/usr/share/fonts/opentype/inter")
    copy = shutil.copytree(inter, tmp_path / "inter")
    changed = copy / "Inter-Regular.otf"
    data = bytearray(changed.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte, inside a glyph's outline data
    changed.write_bytes(bytes(data))
    conf = checkout / "attention_core" / "fontset.conf"
    conf.write_text(conf.read_text("utf-8").replace(str(inter), str(copy)), "utf-8")
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    assert (
        str(copy)
        in _fc(["fc-match", "--format", "%{file}", "Inter"], {**env, "FONTCONFIG_FILE": str(conf)})[
            0
        ]
    )
    theirs, ours = _describe_there(env, cwd=checkout), toolchain.describe()
    assert theirs != ours
    assert {k: v for k, v in theirs.items() if k != "fonts"} == {
        k: v for k, v in ours.items() if k != "fonts"
    }
    changed_fonts = [name for name, font in ours["fonts"].items() if theirs["fonts"][name] != font]
    assert changed_fonts == ["Inter-Regular.otf"]
    said = differences({"tools": ours}, {"tools": theirs})
    assert said == [
        f"font Inter-Regular.otf sha256 {ours['fonts']['Inter-Regular.otf']['sha256'][:8]}… "
        f"here, {theirs['fonts']['Inter-Regular.otf']['sha256'][:8]}… there"
    ]


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
    plain = cli(tmp_path / "plain", "--lesson", str(lesson), "--scene", "2", quality=DRAFT)
    assert plain.returncode == 0, plain.stderr
    for name, value in users_font.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # typesets it all anew
    intruded = cli(tmp_path / "intruded", "--lesson", str(lesson), "--scene", "2", quality=DRAFT)
    assert intruded.returncode == 0, intruded.stderr
    clip = Path(DRAFT.name) / "02_big_picture.mp4"
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
    manim += ["--media_dir", str(tmp_path / "media"), "scenes/steps/score.py", "Step3Score"]
    for command, said in ((check, f"render.py: {line}"), (manim, line)):
        done = subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.splitlines() == [said]
    assert not (tmp_path / "media" / "videos").exists()
