"""MkDocs hook: a file kept outside docs/ (BENCHMARKS.md) written into the page that names it."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["MARK", "ROOT", "included", "on_page_markdown"]

ROOT = Path(__file__).resolve().parent.parent
"""The repository: an included file is named from here."""

MARK = re.compile(r"^<!-- include (\S+) -->$", re.MULTILINE)
"""A line that asks for a file: `<!-- include BENCHMARKS.md -->`."""


def included(name: str) -> str:
    """The file's text, its headings one level down, to sit under the page's own title."""
    lines, fenced = [], False
    for line in (ROOT / name).read_text("utf-8").splitlines():
        fenced ^= line.startswith("```")
        lines.append("#" + line if not fenced and line.startswith("#") else line)
    return "\n".join(lines)


def on_page_markdown(markdown: str, **_: object) -> str:
    """MkDocs' event: each include line replaced by the file it names."""
    return MARK.sub(lambda mark: included(mark.group(1)), markdown)
