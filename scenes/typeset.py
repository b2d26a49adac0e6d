"""Typeset once: a text or formula made from the same arguments is a copy of the first one,
kept in this process and, in a render's worker, on disk for the next process.

Typesetting (Pango's or LaTeX's SVG, parsed into paths) is most of a scene's construction, and a
count, a table cell or a heading is typeset again and again. A render after an edit constructs
every scene it redraws from its start in a new process; at 1080p a Text takes about 60 ms to
parse and 6 ms to load back. A copy, or a loaded one, draws exactly as a new one does: the same
points, colours and attributes (``tests/test_typeset.py``).
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from manim import Mobject, config

__all__ = ["KEPT", "SPARE", "Shelf", "forget", "made", "shelf_files", "shelve"]

M = TypeVar("M", bound=Mobject)

KEPT = 4096
"""How many typeset mobjects a process keeps to copy."""
SUFFIX = "pickle"
"""What a shelved mobject's file name ends in."""
SPARE = 128 << 20
"""How many bytes of typeset mobjects a shelf keeps when pruned, the most recently used."""
_MADE: dict[tuple[Any, ...], Mobject] = {}


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
        except Exception:  # noqa: BLE001 - cut short by a kill, or of another pickle: make anew
            file.unlink(missing_ok=True)
            return None
        os.utime(file)  # used: the last to go when the folder is pruned
        return found if isinstance(found, Mobject) else None

    def keep(self, key: tuple[Any, ...], made: Mobject) -> None:
        file = self.file(key)
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            staged = file.with_name(f".{file.name}.{os.getpid()}")
            staged.write_bytes(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
            staged.replace(file)  # whole or not at all, whoever else keeps it at once
        except OSError:  # a full disk: the next process typesets it again
            pass


def shelf_files(folder: Path) -> Iterator[Path]:
    """The files of a shelf's folder, to prune the least recently used of."""
    return folder.glob(f"*.{SUFFIX}")


_shelf: Shelf | None = None


def shelve(shelf: Shelf | None) -> None:
    """Keep what this process typesets on ``shelf`` too (None: in memory only)."""
    global _shelf
    _shelf = shelf


def forget() -> None:
    """Forget what this process typeset (what is on the shelf stays)."""
    _MADE.clear()


def made(kind: type[M], *args: Any, **kwargs: Any) -> M:
    """``kind(*args, **kwargs)``, as a copy of the one made with the same arguments and frame."""
    frame = (config.pixel_width, config.pixel_height, config.tex_template.body)
    key = (kind, args, tuple(sorted(kwargs.items())), frame)
    template = _MADE.get(key)
    if template is None:
        if len(_MADE) >= KEPT:  # a long --watch session: start afresh
            _MADE.clear()
        template = _shelf.load(key) if _shelf is not None else None
        if template is None:
            template = _typeset(kind, args, kwargs)
            if _shelf is not None:
                _shelf.keep(key, template)
        _MADE[key] = template
    return cast(M, template.copy())


def _typeset(kind: type[M], args: tuple[Any, ...], kwargs: dict[str, Any]) -> M:
    return kind(*args, **kwargs)
