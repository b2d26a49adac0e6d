"""What a clip is drawn and encoded with beyond our code: manim, Pango, cairo, PyAV, fonts, TeX.

Each is identified by what shapes the bytes, never by when or where it was installed: versions;
the file names PyAV's wheel gives its bundled libraries (auditwheel puts a hash of each library's
bytes in its name: ``libx264-d6533a8d.so.165``); every font of the font set
(:mod:`attention_core.fontset`, the only fonts the scenes and the handout see) and every rule
file it includes, by file name, size and SHA-256; TeX and dvisvgm by their versions and each
file they read to typeset a formula (:mod:`publish.render.tex_reads`), by its name in TeX's
trees, size and SHA-256. So a font installed anywhere else, the order of TeX's file databases,
or a TeX package the formulas do not load changes nothing. Digests are remembered by path, size
and modification time (:mod:`publish.render.file_digests`), which never enter the identity.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from importlib import metadata
from typing import Any

from attention_core import fontset
from publish.render.file_digests import facts
from publish.render.tex_reads import tex_reads

__all__ = ["describe", "digest"]


def describe() -> dict[str, Any]:
    """Everything outside this project that shapes a clip's pixels or bytes, as JSON-ready data."""
    import cairo
    import manimpango

    tex = tex_reads()
    described = {
        "manim": metadata.version("manim"),
        "pyav": metadata.version("av"),
        "pyav_libraries": _bundled_libraries("av"),
        "manimpango": metadata.version("manimpango"),
        "pango": manimpango.pango_version(),
        "cairo": cairo.cairo_version_string(),
        "fontconfig": _fontconfig_version(),
        "fonts": _by_name({os.path.basename(path): path for path in _font_files()}),
        "font_rules": _by_name({os.path.basename(path): path for path in fontset.rules_named()}),
        "tex": tex.version,
        "dvisvgm": tex.dvisvgm,
        "tex_format": tex.format,
        "tex_files": _by_name(tex.files),
    }
    if tex.problem:
        described["tex_problem"] = tex.problem
    return described


def digest() -> str:
    """SHA-256 of :func:`describe`."""
    text = json.dumps(describe(), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _bundled_libraries(distribution: str) -> list[str]:
    files = metadata.files(distribution) or []
    return sorted(file.name for file in files if ".libs/" in file.as_posix())


def _font_files() -> list[str]:
    """The font files fontconfig reads through the font set's file."""
    listing = _run(["fc-list", "--format", "%{file}\n"], fontset.environment())
    return sorted(set(listing.stdout.splitlines()))


def _by_name(paths: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Each file under its name, by size and SHA-256 (``missing`` when it cannot be read)."""
    found = facts(paths.values())
    described: dict[str, dict[str, Any]] = {}
    for name, path in sorted(paths.items()):
        known = found[path]
        described[name] = (
            {"missing": True} if known is None else {"size": known.size, "sha256": known.sha256}
        )
    return described


def _fontconfig_version() -> str:
    done = _run(["fc-list", "--version"])
    return (done.stdout + done.stderr).strip()  # it prints its version on stderr


def _run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            command, capture_output=True, text=True, timeout=60, env=env, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return subprocess.CompletedProcess(command, 1, "", str(error))
