"""What the narrator says: a caption's spoken form with its symbols in words, and the narration
script a lecturer records from (``render.py --script FILE``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from attention_core import Lesson

if TYPE_CHECKING:
    from scenes import LessonScene
    from scenes.beat import BeatTiming

__all__ = ["lines", "script", "spoken"]


def spoken(said: str, words: Mapping[str, str]) -> str:
    """``said`` as a voice should read it: ``e^score`` as "e to the score", ``√``, ``÷``, ``×``
    and ``§`` in the lesson's words, ``.84`` as ``0.84``, a code name's underscores and a
    keyword argument's ``=`` as spaces (``scaled_dot_product_attention(is_causal=True)``), and
    brackets, parentheses and ticks (which a voice reads out or stumbles on) dropped."""
    power = r"e\^([-−]?\d+(?:\.\d+)?|\w+)"  # e^-1.5 as well as e^score, never e^3's full stop
    text = re.sub(power, lambda m: f"e {words['common.said.power']} {m[1]}", said)
    text = text.replace("√", f" {words['common.said.root']} ")
    text = text.replace("÷", f" {words['common.said.divided']} ")
    text = text.replace("×", f" {words['common.said.times']} ")
    text = re.sub(r"§\s*", f" {words['common.said.section']} ", text)
    text = re.sub(r"(?<=[^\W_])_(?=[^\W_])", " ", text)
    text = re.sub(r"(?<=\w)=(?=\w)", " ", text)  # a keyword argument: is_causal=True
    text = re.sub(r"(?<![\w.])\.(\d)", r"0.\1", text)
    text = re.sub(r"[\[\]()✓]", " ", text)
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def lines(beats: Sequence[BeatTiming], words: Mapping[str, str]) -> list[tuple[str, str]]:
    """(beat id, what the narrator says) for each beat."""
    return [(beat.id, spoken(beat.caption.said, words)) for beat in beats]


def script(lesson: Lesson, scenes: Sequence[tuple[type[LessonScene], dict[str, Any]]]) -> str:
    """The narration script: per step, each beat's id, its words and how long its animation
    runs (a recording shorter than that is followed by the animation's end; a longer one
    holds the beat until it ends).

    ``scenes``: each scene with the arguments it renders with (the title's minutes).
    """
    from scenes.beat import Timed
    from scenes.probe import run_dry

    out = [
        f"# {lesson.title}: the narration script",
        "# Record one file per beat, named by its id (03_score-02.wav; .flac, .mp3 or .m4a work",
        "# too), all in one folder, then: python render.py --voice FOLDER",
        "",
    ]
    for scene, kwargs in scenes:
        beats = run_dry(scene, lesson, **kwargs).beats
        unspoken = Timed(tuple((beat.id, 0.0) for beat in beats))
        animated = run_dry(scene, lesson, narration=unspoken, **kwargs).beats
        out.append(f"## Step {scene.step}: {scene.headline(lesson)}")
        for (beat, words), timing in zip(lines(beats, lesson.words), animated, strict=True):
            needs = timing.end - timing.start
            out += ["", f"{beat}  (animation {needs:.1f} s)", words]
        out.append("")
    return "\n".join(out) + "\n"
