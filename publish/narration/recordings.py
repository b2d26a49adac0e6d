"""The lecturer's own recordings: one audio file per beat, named by its id, checked up front."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from .voices import RECORDING_SUFFIXES, Voice

__all__ = ["recordings_problem"]


def recordings_problem(
    voice: Voice, beats: Sequence[str], elsewhere: Sequence[str] = ()
) -> str | None:
    """What is wrong with the recordings in ``voice.source`` for these beat ids, naming the
    beat or the file; None when there is one readable, non-empty recording per beat. Files of
    the steps named in ``elsewhere`` (``02_big_picture``: steps of the lesson not rendered this
    time) are passed over, to be checked when those steps render."""
    folder = Path(voice.source)
    wanted = set(beats)
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    files = [p for p in files if not _of_a_step(p.stem, elsewhere)]
    for path in files:
        if path.stem not in wanted or path.suffix.lower() not in RECORDING_SUFFIXES:
            return (
                f"{path}: not a recording of a beat (expected files such as {beats[0]}.wav, "
                f"named by the ids render.py --script lists; {', '.join(RECORDING_SUFFIXES)})"
            )
    for beat in beats:
        found = [path for path in files if path.stem == beat]
        if not found:
            return f"beat {beat}: no recording in {folder} (expected {beat}.wav, .flac, …)"
        if len(found) > 1:
            names = ", ".join(path.name for path in found)
            return f"beat {beat}: {len(found)} recordings ({names}); keep one"
        if found[0].stat().st_size == 0 or _seconds(found[0]) <= 0:
            return f"beat {beat}: {found[0]} is empty or not audio ffmpeg can read"
    return None


def _of_a_step(stem: str, steps: Sequence[str]) -> bool:
    """Whether ``stem`` names a beat of one of ``steps`` (``02_big_picture-03``)."""
    step, dash, number = stem.rpartition("-")
    return bool(dash) and step in steps and number.isdigit()


def _seconds(path: Path) -> float:
    """How long the file's first audio stream lasts, 0 when ffprobe cannot read one."""
    command = ["ffprobe", "-v", "error", "-select_streams", "a:0"]
    command += ["-show_entries", "format=duration", "-of", "csv=p=0", str(path)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        return float(result.stdout.strip()) if result.returncode == 0 else 0.0
    except ValueError:
        return 0.0
