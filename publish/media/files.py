"""Atomic outputs: a file appears under its final name only once it is complete."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "PARTIAL",
    "clean_partials",
    "keep_newest",
    "partial_name",
    "replacing",
    "sha256",
    "write_text",
]

PARTIAL = ".partial"
"""Marks a temporary name: ``.03_score.1234.partial.mp4`` (the real suffix stays last)."""


def partial_name(final: Path) -> Path:
    """The temporary sibling of ``final``, unique to this process."""
    return final.with_name(f".{final.stem}.{os.getpid()}{PARTIAL}{final.suffix}")


@contextmanager
def replacing(final: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``final``; move it into place only if the block succeeds.

    Whatever happens (an error, Ctrl-C, SIGTERM turned into an exception) the temporary is gone
    afterwards, and ``final`` is either the old complete file or the new complete one.
    """
    temporary = partial_name(final)
    temporary.unlink(missing_ok=True)
    try:
        yield temporary
        if not temporary.is_file():
            raise FileNotFoundError(f"{temporary} was never written")
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)


def write_text(final: Path, text: str) -> None:
    """Write a UTF-8 text file atomically."""
    with replacing(final) as temporary:
        temporary.write_text(text, encoding="utf-8")


def clean_partials(folder: Path) -> list[Path]:
    """Delete temporaries a killed run left behind (a SIGKILL gives no chance to clean up)."""
    removed = []
    if folder.is_dir():
        for path in folder.glob(f".*{PARTIAL}*"):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def keep_newest(files: Iterable[Path], room: int) -> int:
    """Delete the least recently used of ``files`` (by modification time) beyond ``room``
    bytes of the newest; the bytes freed. A file gone meanwhile is passed over."""
    found = []
    for file in files:
        try:
            stat = file.stat()
        except OSError:
            continue
        found.append((stat.st_mtime, stat.st_size, file))
    freed = 0
    for _, size, file in sorted(found, reverse=True):  # newest first: kept first
        if room >= size:
            room -= size
            continue
        with contextlib.suppress(OSError):
            file.unlink()
            freed += size
        room = 0
    return freed


def sha256(path: Path) -> str:
    """The file's SHA-256 as hex."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
