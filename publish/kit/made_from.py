"""What a derived file was made from, kept beside it, so a file not made from today's inputs is
made again: the kit's PDF is printed whenever its record does not match, not only when its
HTML changed (a failed or cut-short print once left a stale or truncated PDF for good)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from publish.media.files import sha256, write_text

__all__ = ["current", "forget", "inputs_digest", "record"]

KEYS = ".keys"
"""The folder of records beside the outputs, shared with the clip cache's (``NAME.json``)."""


def inputs_digest(*inputs: Path | str) -> str:
    """SHA-256 over the inputs: each file's bytes, or a string (a version of the recipe)."""
    digest = hashlib.sha256()
    for item in inputs:
        data = item.read_bytes() if isinstance(item, Path) else item.encode("utf-8")
        digest.update(f"{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _record_of(target: Path) -> Path:
    return target.parent / KEYS / f"{target.name}.json"


def current(target: Path, inputs: str) -> bool:
    """Whether ``target`` is the file made from ``inputs`` (:func:`inputs_digest`) and
    unchanged since, byte for byte."""
    try:
        data = json.loads(_record_of(target).read_text("utf-8"))
        return bool(data["inputs"] == inputs and data["sha256"] == sha256(target))
    except (OSError, ValueError, KeyError, TypeError):
        return False


def record(target: Path, inputs: str) -> None:
    """Note that ``target``, as it is now, was made from ``inputs``."""
    _record_of(target).parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"inputs": inputs, "sha256": sha256(target)}, indent=2)
    write_text(_record_of(target), text + "\n")


def forget(target: Path) -> None:
    """Remove ``target`` and its record: a file not made from today's inputs is not kept."""
    target.unlink(missing_ok=True)
    _record_of(target).unlink(missing_ok=True)
