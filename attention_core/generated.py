"""A file the package ships that code generates: written by its module's command, or checked.

The lesson file's JSON Schema (:mod:`attention_core.schema`) and the font set's fontconfig file
(:mod:`attention_core.fontset`) are both made by ``python -m attention_core.NAME`` and
committed; ``--check`` tells whether the shipped file is still what the code would write.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["write_or_check"]


def write_or_check(module: str, path: Path, text: Callable[[], str], argv: list[str]) -> int:
    """Write ``text()`` to ``path`` (``argv`` empty) or check that it holds it (``--check``).

    Returns
    -------
    int
        0 when written (or current), 1 when ``--check`` finds it stale, 2 for bad arguments or
        when the text cannot be made (``text`` raised OSError: a tool or package is missing).
    """
    if argv not in ([], ["--check"]):
        print(f"usage: python -m attention_core.{module} [--check]", file=sys.stderr)
        return 2
    try:
        made = text()
    except OSError as error:
        print(f"{module}: {error}", file=sys.stderr)
        return 2
    if argv:
        current = path.read_text("utf-8") if path.exists() else ""
        if current != made:
            print(f"{path}: stale; run python -m attention_core.{module}", file=sys.stderr)
            return 1
        return 0
    path.write_text(made, "utf-8")
    print(path)
    return 0
