"""Files by size and SHA-256, the digests remembered on disk by path, size and modification time.

The tools' identity names about 600 files by their contents (the font set's 150 MB of fonts,
what TeX reads); hashing them takes over a second, and the identity is asked for at every run's
start. Each digest is kept in ``$XDG_CACHE_HOME/attention-by-hand/digests.json`` (by default
under ``~/.cache``) under the file's path, size and modification time, so a file changed in
place, or replaced, is hashed again. Path and time only find the memo's entry: they are never
part of what a file is said to be, so the same bytes elsewhere, written on another day, match.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from publish.media.files import write_text

__all__ = ["Facts", "cache_folder", "facts", "load_memo", "save_memo"]

_MEMO_NAME = "digests.json"
_MEMO_VERSION = 2
"""2: the digests under ``entries``, as every memo of :func:`save_memo` keeps them."""


class Facts(NamedTuple):
    """What a file is, wherever it lies: its size and the SHA-256 of its bytes."""

    size: int
    sha256: str


def cache_folder() -> Path:
    """This user's cache folder for the project: ``$XDG_CACHE_HOME/attention-by-hand``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "attention-by-hand"


def facts(paths: Iterable[str]) -> dict[str, Facts | None]:
    """Each path's :class:`Facts` (None for one that cannot be read), hashing only the files
    the memo has not seen at their present size and modification time."""
    memo = _load()
    found: dict[str, Facts | None] = {}
    changed = False
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            found[path] = None
            continue
        seen = memo.get(path)
        if seen and seen[0] == stat.st_size and seen[1] == stat.st_mtime_ns:
            found[path] = Facts(stat.st_size, str(seen[2]))
            continue
        digest = _sha256(path)
        found[path] = None if digest is None else Facts(stat.st_size, digest)
        if digest is not None:
            memo[path] = [stat.st_size, stat.st_mtime_ns, digest]
            changed = True
    if changed:
        _save(memo)
    return found


def _sha256(path: str) -> str | None:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def load_memo(name: str, version: int) -> dict[str, Any]:
    """The entries of the memo ``name`` in :func:`cache_folder`; empty when it is missing,
    unreadable or of another ``version``."""
    try:
        data = json.loads((cache_folder() / name).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != version:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def save_memo(name: str, version: int, entries: dict[str, Any]) -> None:
    """Write the memo ``name`` whole, atomically; a concurrent run's entries may be lost, and
    are made again when next asked for. A memo that cannot be written costs time only."""
    with contextlib.suppress(OSError):
        cache_folder().mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": version, "entries": entries})
        write_text(cache_folder() / name, text)


def _load() -> dict[str, list[object]]:
    return load_memo(_MEMO_NAME, _MEMO_VERSION)


def _save(memo: dict[str, list[object]]) -> None:
    """Without the entries of files gone since (a test's copies)."""
    kept = {path: entry for path, entry in memo.items() if os.path.exists(path)}
    save_memo(_MEMO_NAME, _MEMO_VERSION, kept)
