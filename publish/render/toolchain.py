"""What a clip is drawn and encoded with beyond our code: manim, Pango, cairo, PyAV, fonts, TeX.

Each is identified cheaply, without reading big files: versions, the file names PyAV's wheel
gives its bundled libraries (auditwheel puts a hash of each library's bytes in its name:
``libx264-d6533a8d.so.165``), and the path, size and modification time of each font file
fontconfig picks and of TeX's file databases (``ls-R``, rewritten whenever a TeX package is
installed or removed). About 70 ms, once per run (measured with manim already imported).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Sequence
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


def _font(pattern: str) -> dict[str, Any]:
    found = _lines(["fc-match", "--format", "%{file}", pattern])
    return _file(Path(found[0])) if found else {"missing": pattern}


def _file(path: Path) -> dict[str, Any]:
    try:
        stat = path.stat()
    except OSError:
        return {"path": str(path), "missing": True}
    return {"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _lines(command: list[str]) -> list[str]:
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return result.stdout.splitlines()


def _first_line(command: list[str]) -> str | None:
    lines = _lines(command)
    return lines[0] if lines else None
