"""What a clip is drawn and encoded with beyond our code: manim, Pango, cairo, PyAV, fonts, TeX.

Each is identified by what shapes the bytes, never by when it was installed: versions, the
file names PyAV's wheel gives its bundled libraries (auditwheel puts a hash of each library's
bytes in its name: ``libx264-d6533a8d.so.165``), and the name, size and SHA-256 of each font
file fontconfig picks and of TeX's file databases (``ls-R``, rewritten whenever a TeX package is
installed or removed). Modification times differ between two machines set up alike (``ls-R``
is rewritten at install time), so they only key a per-process memo of each file's digest.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["FONT_PATTERNS", "describe", "digest"]

FONT_PATTERNS = ("Inter", "Inter:bold", "DejaVu Sans Mono")
"""How the scenes ask fontconfig for their type: ``scenes.style.FONT`` (regular and bold) and
``scenes.style.MONO``."""


def describe(fonts: Sequence[str] = FONT_PATTERNS) -> dict[str, Any]:
    """Everything outside this project that shapes a clip's pixels or bytes, as JSON-ready data."""
    import cairo
    import manimpango

    return {
        "manim": metadata.version("manim"),
        "pyav": metadata.version("av"),
        "pyav_libraries": _bundled_libraries("av"),
        "manimpango": metadata.version("manimpango"),
        "pango": manimpango.pango_version(),
        "cairo": cairo.cairo_version_string(),
        "fonts": {pattern: _font(pattern) for pattern in fonts},
        # Pango falls back to any installed font for a glyph the house fonts lack (Noto for CJK,
        # Arabic, Devanagari...): which fonts are installed, by Debian package and version.
        "font_packages": _font_packages(),
        "tex": _first_line(["latex", "--version"]),
        "tex_files": [_file(Path(line)) for line in _lines(["kpsewhich", "-all", "ls-R"])],
    }


def digest(fonts: Sequence[str] = FONT_PATTERNS) -> str:
    """SHA-256 of :func:`describe`."""
    text = json.dumps(describe(fonts), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _bundled_libraries(distribution: str) -> list[str]:
    files = metadata.files(distribution) or []
    return sorted(file.name for file in files if ".libs/" in file.as_posix())


def _font_packages() -> list[str]:
    """Every installed Debian font package with its version (none off Debian)."""
    listing = _lines(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}|${Package}|${Version}\n"])
    listing = [line for line in listing if line.startswith("ii")] if listing else []
    return sorted(
        f"{package} {version}"
        for _, package, version in (line.split("|") for line in listing)
        if package.startswith("fonts-")
    )


def _font(pattern: str) -> dict[str, Any]:
    found = _lines(["fc-match", "--format", "%{file}", pattern])
    return _file(Path(found[0])) if found else {"missing": pattern}


def _file(path: Path) -> dict[str, Any]:
    try:
        stat = path.stat()
    except OSError:
        return {"name": path.name, "missing": True}
    # By name and contents, not path: the same bytes elsewhere draw the same glyphs.
    return {
        "name": path.name,
        "size": stat.st_size,
        "sha256": _content_digest(str(path), stat.st_size, stat.st_mtime_ns),
    }


@lru_cache(maxsize=256)
def _content_digest(path: str, size: int, mtime_ns: int) -> str:
    """SHA-256 of the file's bytes; ``size`` and ``mtime_ns`` only key the memo (a file changed
    in place is hashed again), they are never part of the identity."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _lines(command: list[str]) -> list[str]:
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return result.stdout.splitlines()


def _first_line(command: list[str]) -> str | None:
    lines = _lines(command)
    return lines[0] if lines else None
