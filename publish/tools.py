"""The system tools a render needs, checked before anything starts, with the package for each."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["RENDER_TOOLS", "SCENE_TOOLS", "Tool", "install_line", "missing_tools"]


@dataclass(frozen=True)
class Tool:
    """A program (or a LaTeX file found through kpsewhich) and the Debian package that ships it."""

    name: str
    package: str
    why: str
    tex_file: bool = False
    """True when ``name`` is a LaTeX class or style looked up with ``kpsewhich``."""


LATEX = Tool("latex", "texlive-latex-base", "typesets every formula")
DVISVGM = Tool("dvisvgm", "dvisvgm", "turns typeset formulas into shapes")
STANDALONE = Tool("standalone.cls", "texlive-latex-extra", "manim's LaTeX template", tex_file=True)
FFMPEG = Tool("ffmpeg", "ffmpeg", "remuxes and joins the clips, grabs poster frames")
FFPROBE = Tool("ffprobe", "ffmpeg", "measures each clip")

SCENE_TOOLS = (LATEX, DVISVGM, STANDALONE)
"""Enough to construct the scenes (``--list``, ``--dry-run``)."""
RENDER_TOOLS = (*SCENE_TOOLS, FFMPEG, FFPROBE)
"""Everything a full render uses."""

Which = Callable[[str], str | None]


def missing_tools(tools: Iterable[Tool], which: Which | None = None) -> list[Tool]:
    """The tools that cannot be found on PATH, in the order given."""
    which = which or shutil.which
    missing = []
    for tool in tools:
        if tool.tex_file:
            kpsewhich = which("kpsewhich")
            found = kpsewhich is not None and _kpsewhich(kpsewhich, tool.name)
        else:
            found = which(tool.name) is not None
        if not found:
            missing.append(tool)
    return missing


def install_line(tools: Iterable[Tool]) -> str:
    """The one command that installs every package the missing tools come from."""
    packages = dict.fromkeys(tool.package for tool in tools)
    return "sudo apt-get install " + " ".join(packages)


def _kpsewhich(kpsewhich: str, name: str) -> bool:
    try:
        result = subprocess.run(
            [kpsewhich, name], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and bool(result.stdout.strip())
