"""Measure how lessons' scenes are composed at every rest, from dry runs: no video needed.

python bench/composition.py                                   # the built-in lesson (Day 004)
python bench/composition.py lessons/day005_masked.toml lessons/day006_heads.toml
python bench/composition.py --problems my_lesson.toml         # every finding, one a line

Each scene of each lesson is dry-run (``scenes.probe.run_dry``) and read at its rests, in the
camera's frame, by ``scenes.composition``: the sibling of ``bench/frame_usage.py``, which reads
a rendered video's pixels. Per scene, then for the lesson, the table gives:

- ``rests``: the rests (a beat's hold, any other wait);
- ``text out``: distinct texts outside the title-safe area (90 %), and ``@``, at how many rests;
- ``shape out``: shapes outside the action-safe area (93 %) at how many rests;
- ``overlaps``: distinct pairs of texts that overlap;
- ``numbers``: numbers seen over all rests; ``<40px``: how many of them are under 40 px at
  1080p, counting the zoom; ``p5 px`` and ``min px``: their 5th percentile and least height;
- ``empty ⅓``: rests with nothing in the lower third of the frame;
- ``close``: rests with the camera closer than the whole frame (a close-up);
- ``focus``: moments with a text dimmed while another is at full strength (a focus).

Under the table, how many of the scenes focus and how many come closer.

A lesson's title shows its length in minutes, measured as ``render.py`` measures it. Exit 0,
or 2 with one line for a lesson that cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core import Lesson, LessonError, default_lesson, load_lesson  # noqa: E402
from scenes import scenes_for  # noqa: E402
from scenes.composition import Composition, composition  # noqa: E402
from scenes.probe import run_dry  # noqa: E402
from scenes.timing import length_arguments, lesson_minutes  # noqa: E402

__all__ = ["Figures", "figures", "lesson_composition", "main", "problems", "table"]

HEADER = (
    f"{'scene':<22}{'rests':>6}{'text out':>10}{'@':>4}{'shape out':>10}{'overlaps':>9}"
    f"{'numbers':>8}{'<40px':>6}{'p5 px':>7}{'min px':>7}{'empty ⅓':>8}{'close':>6}{'focus':>6}"
)


@dataclass(frozen=True)
class Figures:
    """One line of the table: a scene's figures, or a lesson's (its scenes' added up)."""

    rests: int
    texts_out: int
    """Distinct texts outside title-safe."""
    texts_out_at: int
    """Rests with a text outside title-safe."""
    shapes_out_at: int
    """Rests with a shape outside action-safe."""
    overlaps: int
    """Distinct pairs of overlapping texts."""
    numbers: int
    small_numbers: int
    empty_lower_thirds: int
    close_ups: int
    """Rests in a close-up."""
    focused: int
    """Moments in focus."""

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            *(a + b for a, b in zip(vars(self).values(), vars(other).values(), strict=True))
        )


def figures(c: Composition) -> Figures:
    """The counts of one scene's composition, each finding held over several rests counted
    once where the column counts distinct things."""
    return Figures(
        rests=c.rests,
        texts_out=len({m.what for m in c.texts_outside}),
        texts_out_at=len({m.moment for m in c.texts_outside}),
        shapes_out_at=len({m.moment for m in c.shapes_outside}),
        overlaps=len({(o.first, o.second) for o in c.overlaps}),
        numbers=len(c.numbers),
        small_numbers=len(c.small_numbers),
        empty_lower_thirds=len(c.empty_lower_thirds),
        close_ups=len(c.close_ups),
        focused=len(c.focused),
    )


def problems(c: Composition) -> list[str]:
    """One line per finding that misses a target, by kind, each in the order found."""
    return [
        *(f"{m.time:.2f} s: {m.what!r} outside title-safe: {_at(m.box)}" for m in c.texts_outside),
        *(f"{m.time:.2f} s: a shape outside action-safe: {_at(m.box)}" for m in c.shapes_outside),
        *(f"{o.time:.2f} s: {o.first!r} overlaps {o.second!r}" for o in c.overlaps),
        *(f"{n.time:.2f} s: number {n.text!r} is {n.px:.0f} px" for n in c.small_numbers),
        *(f"{t:.2f} s: nothing in the lower third" for t in c.empty_lower_thirds),
    ]


def _at(box: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{v:.2f}" for v in box) + ")"


def lesson_composition(lesson: Lesson) -> list[tuple[str, Composition]]:
    """Each of the lesson's scenes, by clip name (``03_score``), with its composition."""
    minutes = lesson_minutes(lesson)
    return [
        (
            f"{scene.step:02d}_{scene.slug}",
            composition(run_dry(scene, lesson, **length_arguments(scene, minutes))),
        )
        for scene in scenes_for(lesson)
    ]


def table(scenes: Sequence[tuple[str, Composition]], listed: bool = False) -> str:
    """The report for one lesson: a line per scene, then the lesson's; ``listed``, with
    every finding under its scene."""
    lines = [HEADER]
    total = Figures(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    for name, c in scenes:
        total += figures(c)
        lines.append(_line(name, figures(c), c))
        if listed:
            lines += [f"    {problem}" for problem in problems(c)]
    whole = Composition.merged(c for _, c in scenes)
    lines.append(_line("lesson", total, whole))
    focusing = sum(1 for _, c in scenes if c.focused)
    closer = sum(1 for _, c in scenes if c.close_ups)
    lines.append(f"focus in {focusing} of {len(scenes)} scenes, closer in {closer}")
    return "\n".join(lines)


def _line(name: str, f: Figures, c: Composition) -> str:
    px = [n.px for n in c.numbers]
    p5 = "-" if c.number_p5 is None else f"{c.number_p5:.0f}"
    least = f"{min(px):.0f}" if px else "-"
    return (
        f"{name:<22}{f.rests:>6}{f.texts_out:>10}{f.texts_out_at:>4}{f.shapes_out_at:>10}"
        f"{f.overlaps:>9}{f.numbers:>8}{f.small_numbers:>6}{p5:>7}{least:>7}"
        f"{f.empty_lower_thirds:>8}{f.close_ups:>6}{f.focused:>6}"
    )


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="composition.py",
        description="How each scene of a lesson is composed at its rests, from dry runs: texts "
        "outside title-safe, shapes outside action-safe, overlapping texts, number heights at "
        "1080p, rests with an empty lower third.",
    )
    p.add_argument("lessons", nargs="*", type=Path, help="lesson files (none: the built-in one)")
    p.add_argument("--problems", action="store_true", help="list every finding under its scene")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        lessons = [load_lesson(path) for path in args.lessons] or [default_lesson()]
    except LessonError as problem:
        print(f"composition: {problem}", file=sys.stderr)
        return 2
    for number, lesson in enumerate(lessons):
        if number:
            print()
        print(lesson.title)
        print(table(lesson_composition(lesson), listed=args.problems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
