"""Beats as the unit of rendering and caching, in one package (after manim's own split).

- :mod:`~publish.beats.keys`: what a beat's frames depend on, hashed (manim's ``utils/hashing``);
- :mod:`~publish.beats.state`: the scene's state as a beat begins, one digest of it;
- :mod:`~publish.beats.cutter`: the seam between beats, where each is drawn or skipped;
- :mod:`~publish.beats.store`: each beat's segment by key, each clip's record of its beats;
- :mod:`~publish.beats.writer`: segments joined without re-encoding (``scene_file_writer``);
- :mod:`~publish.beats.clip`: :func:`render_beats`, a clip rendered a beat at a time.

manim's private parts the renderer needs stay behind ``scenes/manim_internals.py``.
"""

from publish.beats.clip import Rendered, render_beats
from publish.beats.cutter import Cut, Cutter, Part, PartDone, Stopped
from publish.beats.keys import WindowReads, is_caption, state_key, whole_key
from publish.beats.store import BeatRecord, BeatStore, tail_of
from publish.beats.writer import duration, join

__all__ = [
    "BeatRecord",
    "BeatStore",
    "Cut",
    "Cutter",
    "Part",
    "PartDone",
    "Rendered",
    "Stopped",
    "WindowReads",
    "duration",
    "is_caption",
    "join",
    "render_beats",
    "state_key",
    "tail_of",
    "whole_key",
]
