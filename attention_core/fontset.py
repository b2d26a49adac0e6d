"""The fonts every word of the lesson is set in, and no others: the project's own fontconfig file.

Pango (the scenes) and Chromium (the handout) find fonts through fontconfig, whose system file
reads every font on the machine, the user's own (``~/.local/share/fonts``) and whatever rules
an admin linked into ``/etc/fonts/conf.d``: a font installed on one machine could change its
clips. ``fontset.conf`` (:data:`CONFIG`), set as ``FONTCONFIG_FILE`` for every process that
lays out text (:func:`use`, :func:`environment`), reads instead

- the font files of exactly :data:`PACKAGES`, named one by one: a folder also holds other
  packages' files (``fonts-dejavu-extra`` installs beside ``fonts-dejavu-core``,
  ``fonts-noto-extra`` beside ``fonts-noto-core``), so the folders are read but every file
  not named is rejected; the fonts stay where Debian put them, so fontconfig's cache of a
  folder is renewed when an upgrade changes a file in it;
- Debian 12's default rules (:data:`RULES`: how a family is matched, which fonts fall back
  for a script, hinting), each from the copy its package keeps, never through
  ``/etc/fonts/conf.d``; with them the clips and the handout are the same bytes as under the
  system's file on a machine without extra fonts.

It is written by ``python -m attention_core.fontset`` from ``dpkg -L`` and committed, so the
font set is part of the commit; a test fails while it differs from what the packages install.
Here, not in ``scenes``, because the lesson's checks read it without manim (a character no
font of the set has is refused by ``render.py --check-lesson``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from .generated import write_or_check

__all__ = [
    "CONFIG",
    "PACKAGES",
    "RULES",
    "config_text",
    "environment",
    "fonts_named",
    "main",
    "problem",
    "rules_named",
    "use",
]

CONFIG = Path(__file__).with_name("fontset.conf")
"""The fontconfig file every render reads, beside this module."""

PACKAGES = ("fonts-inter", "fonts-dejavu-core", "fonts-noto-core", "fonts-noto-cjk")
"""The Debian packages whose fonts the video and its kit may use, all installed by
``scripts/setup.sh``: Inter (the house face), DejaVu Sans Mono (code), Noto Sans (every other
script) and Noto Sans CJK."""

RULES = (
    "/usr/share/fontconfig/conf.avail/10-hinting-slight.conf",
    "/usr/share/fontconfig/conf.avail/10-scale-bitmap-fonts.conf",
    "/usr/share/fontconfig/conf.avail/10-yes-antialias.conf",
    "/usr/share/fontconfig/conf.avail/11-lcdfilter-default.conf",
    "/etc/fonts/conf.avail/20-unhint-small-dejavu-lgc-sans-mono.conf",
    "/etc/fonts/conf.avail/20-unhint-small-dejavu-lgc-sans.conf",
    "/etc/fonts/conf.avail/20-unhint-small-dejavu-lgc-serif.conf",
    "/etc/fonts/conf.avail/20-unhint-small-dejavu-sans-mono.conf",
    "/etc/fonts/conf.avail/20-unhint-small-dejavu-sans.conf",
    "/etc/fonts/conf.avail/20-unhint-small-dejavu-serif.conf",
    "/usr/share/fontconfig/conf.avail/20-unhint-small-vera.conf",
    "/usr/share/fontconfig/conf.avail/30-metric-aliases.conf",
    "/usr/share/fontconfig/conf.avail/40-nonlatin.conf",
    "/usr/share/fontconfig/conf.avail/45-generic.conf",
    "/usr/share/fontconfig/conf.avail/45-latin.conf",
    "/usr/share/fontconfig/conf.avail/48-spacing.conf",
    "/usr/share/fontconfig/conf.avail/49-sansserif.conf",
    "/etc/fonts/conf.avail/57-dejavu-sans-mono.conf",
    "/etc/fonts/conf.avail/57-dejavu-sans.conf",
    "/etc/fonts/conf.avail/57-dejavu-serif.conf",
    "/etc/fonts/conf.avail/58-dejavu-lgc-sans-mono.conf",
    "/etc/fonts/conf.avail/58-dejavu-lgc-sans.conf",
    "/etc/fonts/conf.avail/58-dejavu-lgc-serif.conf",
    "/usr/share/fontconfig/conf.avail/60-generic.conf",
    "/usr/share/fontconfig/conf.avail/60-latin.conf",
    "/usr/share/fontconfig/conf.avail/65-fonts-persian.conf",
    "/usr/share/fontconfig/conf.avail/65-nonlatin.conf",
    "/usr/share/fontconfig/conf.avail/69-unifont.conf",
    "/usr/share/fontconfig/conf.avail/70-fonts-noto-cjk.conf",
    "/usr/share/fontconfig/conf.avail/70-no-bitmaps.conf",
    "/usr/share/fontconfig/conf.avail/80-delicious.conf",
    "/usr/share/fontconfig/conf.avail/90-synthetic.conf",
)
"""The rules a fresh Debian 12 links into ``/etc/fonts/conf.d`` (fontconfig-config's with its
default answers: slight hinting, grey antialiasing, no bitmap fonts; and those of
``fonts-dejavu-core`` and ``fonts-noto-cjk``), in the order conf.d applies them, less
``50-user.conf`` and ``51-local.conf``, which read the user's and the admin's own."""

FIX = "run `bash scripts/setup.sh`"
"""What installs the fonts and rules the file names."""

_FONT_SUFFIXES = (".otf", ".ttf", ".ttc")


def use() -> None:
    """Make this process, and those it starts, set type with the font set (and only it).

    Call before any text is laid out: fontconfig reads ``FONTCONFIG_FILE`` once, when a
    process first asks it for a font. Exit 2 with one line when the set is not installed, so
    that no clip is drawn with whatever fonts fontconfig falls back to.
    """
    trouble = problem()
    if trouble:
        print(trouble, file=sys.stderr)
        raise SystemExit(2)
    os.environ["FONTCONFIG_FILE"] = str(CONFIG)


def environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (this process's environment) with fontconfig reading the font set only: for
    ``fc-list`` and Chromium."""
    return {**(os.environ if base is None else base), "FONTCONFIG_FILE": str(CONFIG)}


def problem() -> str | None:
    """One line naming what the font set lacks on this machine, and how to install it; None
    when every font file and rule the file names is there. (A rule fontconfig cannot read
    makes it drop the whole file for the system's, with every installed font.)"""
    try:
        named = [*fonts_named(), *rules_named()]
    except (OSError, ElementTree.ParseError) as error:
        return f"cannot read the font set {CONFIG} ({error}); restore it from git"
    missing = [path for path in named if not os.path.isfile(path)]
    if not missing:
        return None
    more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
    return f"the font set is not installed ({missing[0]} is missing{more}); {FIX}"


def fonts_named(config: Path = CONFIG) -> list[str]:
    """The font files ``config`` lets fontconfig read."""
    root = ElementTree.parse(config).getroot()
    return [glob.text or "" for glob in root.iterfind("selectfont/acceptfont/glob")]


def rules_named(config: Path = CONFIG) -> list[str]:
    """The rule files ``config`` includes."""
    root = ElementTree.parse(config).getroot()
    return [include.text or "" for include in root.iterfind("include")]


def package_fonts(packages: Iterable[str] = PACKAGES) -> list[str]:
    """The font files ``packages`` install, as ``dpkg -L`` lists them; raise OSError when a
    package is not installed."""
    listing = subprocess.run(
        ["dpkg", "-L", *packages], capture_output=True, text=True, timeout=60, check=False
    )
    if listing.returncode != 0:
        raise OSError(f"dpkg -L: {listing.stderr.strip()}; {FIX}")
    return sorted(line for line in listing.stdout.splitlines() if line.endswith(_FONT_SUFFIXES))


def config_text(fonts: Iterable[str], rules: Iterable[str] = RULES) -> str:
    """The fontconfig file that reads ``fonts`` alone, with ``rules``."""
    fonts = sorted(fonts)
    folders = sorted({str(Path(font).parent) for font in fonts})
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
        "<!-- Written by `python -m attention_core.fontset`; see attention_core/fontset.py. -->",
        "<fontconfig>",
        f"  <description>The font files of {', '.join(PACKAGES)}, and no others</description>",
        "  <!-- Only these folders: never ~/.fonts, ~/.local/share/fonts, /usr/local/share. -->",
        *(f"  <dir>{escape(folder)}</dir>" for folder in folders),
        '  <cachedir prefix="xdg">attention-by-hand/fontconfig</cachedir>',
        "  <!-- And of their files only these: a folder holds other packages' fonts too. -->",
        "  <selectfont>",
        "    <rejectfont><glob>*</glob></rejectfont>",
        "    <acceptfont>",
        *(f"      <glob>{escape(font)}</glob>" for font in fonts),
        "    </acceptfont>",
        "  </selectfont>",
        "  <!-- Debian 12's default rules, from the copies their packages keep. -->",
        *(f'  <include ignore_missing="no">{escape(rule)}</include>' for rule in rules),
        "</fontconfig>",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write :data:`CONFIG` from the installed packages (``--check``: exit 1 when it differs;
    2 for bad arguments or a package that is not installed)."""
    args = sys.argv[1:] if argv is None else argv
    return write_or_check("fontset", CONFIG, lambda: config_text(package_fonts()), args)


if __name__ == "__main__":
    sys.exit(main())
