"""The shelf: what a render's processes typeset, kept on disk for the processes after them.

:mod:`scenes.typeset` makes each text or formula once per process and asks the shelf it is
given first; a render's workers are given this user's, ``~/.cache/attention-by-hand/typeset/``
(:attr:`publish.render.options.RunOptions.typeset`), whatever the output folder. A
mobject is kept under its arguments and the shelf's ``salt`` (the digest of the code and the
toolchain), written whole or not at all (:func:`publish.media.files.replacing`), and pruned
to the most recently used :data:`SPARE` bytes after every run and every preview save.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from manim import Mobject

from publish.media.files import keep_newest, replacing

__all__ = ["SPARE", "Shelf", "prune", "shelf_files"]

SUFFIX = "pickle"
"""What a shelved mobject's file name ends in."""
SPARE = 128 << 20
"""How many bytes of typeset mobjects a shelf keeps when pruned, the most recently used."""


@dataclass(frozen=True)
class Shelf:
    """A folder of typeset mobjects, each under its arguments and ``salt``: the digest of what
    else shapes it (the code and the toolchain), so that a change to either typesets anew."""

    folder: Path
    salt: str

    def file(self, key: tuple[Any, ...]) -> Path:
        name = hashlib.sha256(f"{self.salt}\0{key!r}".encode()).hexdigest()
        return self.folder / f"{name[:32]}.{SUFFIX}"

    def load(self, key: tuple[Any, ...]) -> Mobject | None:
        file = self.file(key)
        try:
            found = pickle.loads(file.read_bytes())
        except FileNotFoundError:
            return None
        except Exception:  # noqa: BLE001 - of another pickle, or unreadable: make anew
            file.unlink(missing_ok=True)
            return None
        os.utime(file)  # used: the last to go when the folder is pruned
        return found if isinstance(found, Mobject) else None

    def keep(self, key: tuple[Any, ...], made: Mobject) -> None:
        file = self.file(key)
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            with replacing(file) as staged:  # whole or not at all, whoever else keeps it at once
                staged.write_bytes(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:  # a full disk: the next process typesets it again
            pass


def shelf_files(folder: Path) -> Iterator[Path]:
    """The files of a shelf's folder."""
    return folder.glob(f"*.{SUFFIX}")


def prune(folder: Path, room: int = SPARE) -> int:
    """Delete the least recently used of a shelf's files beyond ``room`` bytes; the bytes
    freed."""
    return keep_newest(shelf_files(folder), room)
