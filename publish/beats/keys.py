"""A beat's key: what its frames depend on, hashed, and the reads it is made from.

The key of a beat (:func:`state_key`) covers, and nothing else does:

- ``base``: the clip's key but for the lesson (the code, the toolchain, the quality, the voice,
  the scene and its arguments: :mod:`publish.render.cache`);
- ``number``: its place in the scene's code;
- ``state``: the scene as the beat begins (:func:`publish.beats.state.digest`: what is on
  screen, what the scene and its code hold);
- ``lesson``: the values of the lesson fields and words the beat reads itself;
- ``timing``: its own length in frames and its speech.

Where the state cannot be told, the key covers instead every field read up to and including the
beat (:func:`whole_key`: the state carries over), but the earlier beats' captions, which are
spoken and subtitled, never drawn. A new input of the beat's frames goes into :func:`_hashed`'s
payload if it is the clip's, or into the state digest if the scene holds it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from attention_core import Lesson
from attention_core.reads import Path as ReadPath
from attention_core.reads import Reads, values_of

__all__ = ["SCHEMA", "Timing", "WindowReads", "is_caption", "state_key", "whole_key"]

SCHEMA = "attention-beat-v2"
"""Bump when the meaning of a beat's key changes."""

Timing = tuple[int, float | None]
"""A beat's own timing: its length in frames and its speech in seconds (None: silent)."""


def is_caption(path: ReadPath) -> bool:
    """Whether ``path`` is a caption's words (shown as a subtitle, spoken, never drawn)."""
    return (
        len(path) == 2
        and path[0] == "words"
        and (".caption." in str(path[1]) or ".said." in str(path[1]))
    )


def whole_key(
    base: str, number: int, lesson: Lesson, paths: Sequence[ReadPath], timing: Timing
) -> str:
    """The key of beat ``number`` (from 1) of a clip, which read ``paths`` (valued on
    ``lesson``) up to its end and lasted ``timing``. Its number is its place in the scene's
    code: two beats with the same reads and length (one caption entry, filled in for two rows)
    show different things."""
    return _hashed(base, number, lesson, paths, timing, None)


def state_key(
    base: str,
    number: int,
    state: str | None,
    lesson: Lesson,
    own: Sequence[ReadPath],
    timing: Timing,
    paths: Sequence[ReadPath],
) -> str:
    """The key of beat ``number``, begun in ``state`` (:func:`publish.beats.state.digest`),
    which read ``own`` itself (valued on ``lesson``) and lasted ``timing``; where the state
    cannot be told (None), its :func:`whole_key` over ``paths``, everything read up to its end."""
    if state is None:
        return whole_key(base, number, lesson, paths, timing)
    return _hashed(base, number, lesson, own, timing, state)


def _hashed(
    base: str,
    number: int,
    lesson: Lesson,
    paths: Sequence[ReadPath],
    timing: Timing,
    state: str | None,
) -> str:
    payload = {
        "schema": SCHEMA,
        "base": base,
        "number": number,
        "lesson": values_of(lesson, paths),
        "timing": timing,
        "state": state,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class WindowReads(Reads):
    """The reads of a scene, and those since the last :meth:`take` (a caption read again in a
    later beat, its entry reused with other values, is that beat's caption too)."""

    def __init__(self) -> None:
        super().__init__()
        self.window: set[ReadPath] = set()

    def add(self, path: ReadPath) -> None:
        super().add(path)
        self.window.add(path)

    def take(self) -> set[ReadPath]:
        window, self.window = self.window, set()
        return window
