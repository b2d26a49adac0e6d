"""The edit loop, timed: saves of a lesson copy while ``render.py --watch`` runs, side by side
with plain ``manim render -ql`` and its cache, and the one-number change at 1080p.

Each save is timed until the preview's state (``/state.json``, never a sleep) has the changed
beat playable (the clip's first beats may be in before the rest), until that clip is complete,
and until the whole lesson is current. Prints a table; ``--json`` writes it.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

LESSON = (ROOT / "attention_core" / "lesson.toml").read_text("utf-8")
CAPTION = '[words.score.caption]\nkeys = "Every token holds out a key, to be matched on."\n'
"""A changed caption in step 3: its third beat's words."""
LAST_ROW = ("key = [0, 1, 0, 0]", "key = [0, 1, 0, 1]")
"""A number in step 3's last row: the weather token's key."""
WHY = '[words.score.line]\nwhy = "Dot products grow with the vectors; softmax then saturates."\n'
"""A line shown first in step 3's last beat (the note on √dₖ)."""


def change_one_number(text: str) -> str:
    """The lesson with its quiz's bonus filler score moved by one (``bench.py``'s change)."""
    found = re.search(r"(?m)^(bonus_filler_score\s*=\s*)(-?\d+)", text)
    assert found, "the lesson has no bonus_filler_score to change"
    return f"{text[: found.start(2)]}{int(found[2]) + 1}{text[found.end(2) :]}"


def last_row(text: str) -> str:
    assert text.count(LAST_ROW[0]) == 1, "the weather token's key changed: update LAST_ROW"
    return text.replace(*LAST_ROW)


EDITS: dict[str, Callable[[str], str]] = {
    "caption, step 3 beat 3": lambda text: f"{text}\n{CAPTION}",
    "line first shown in step 3's last beat": lambda text: f"{text}\n{WHY}",
    "number in step 3's last row (weather key)": last_row,
}


class Watch:
    """A running ``render.py --watch`` of a lesson copy, and its state."""

    def __init__(self, folder: Path, quality: str) -> None:
        self.lesson = folder / "lesson.toml"
        self.lesson.write_text(LESSON, "utf-8")
        command = [sys.executable, str(ROOT / "render.py"), "--watch", "--voice", "none"]
        command += ["--quality", quality]
        self.process = subprocess.Popen(
            [*command, "--lesson", str(self.lesson), "--out", str(folder / "media")]
            + ["--port", "0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        found = re.match(r"preview: (\S+) ", self.process.stdout.readline())
        assert found, "the preview did not start"
        self.url = found[1]

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}state.json", timeout=10) as response:
            data: dict[str, Any] = json.load(response)
            return data

    def until(self, test: Callable[[dict[str, Any]], bool], limit: float = 900) -> float:
        started = time.monotonic()
        while not test(self.state()):
            if time.monotonic() - started > limit:
                raise TimeoutError(self.state())
            time.sleep(0.02)
        return time.monotonic()

    def save(self, text: str) -> dict[str, float | str]:
        generation = int(self.state()["generation"]) + 1
        started = time.monotonic()
        self.lesson.write_text(text, "utf-8")

        def beat_in(state: dict[str, Any]) -> bool:
            changed = state["changed"]
            if state["good"] != generation or not changed or changed["generation"] != generation:
                return bool(state["good"] == generation and state["done"])  # nothing shown
            return any(
                c["name"] == changed["clip"] and c["generation"] == generation
                for c in state["clips"]
            )

        beat = self.until(beat_in) - started
        name = (self.state()["changed"] or {}).get("clip")

        def clip_in(state: dict[str, Any]) -> bool:  # complete, not only its first beats
            made = [c for c in state["clips"] if c["name"] == name and c["complete"]]
            return bool(state["done"] or (made and made[0]["generation"] == generation))

        clip = self.until(clip_in) - started
        whole = self.until(lambda s: s["good"] == generation and s["done"]) - started
        state = self.state()
        changed = state["changed"] or {}
        return {
            "beat": beat,
            "clip": clip,
            "whole": whole,
            "first": changed.get("beat", "-"),
            "fresh": len(changed.get("fresh", [])),
            "last": state["last"],
        }

    def stop(self) -> None:
        self.process.send_signal(2)
        self.process.wait(60)


def plain_manim(folder: Path, edits: dict[str, Callable[[str], str]]) -> dict[str, float]:
    """``manim render -ql`` of step 3 in a copy of the project: cold, then after each edit
    of the built-in lesson there, with manim's own per-play cache."""
    project = folder / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns("media", ".git", ".venv", "*.pyc"))
    manim = Path(sys.executable).parent / "manim"
    lesson = project / "attention_core" / "lesson.toml"
    env = {"PYTHONPATH": str(project), "PATH": "/usr/bin:/bin"}
    times = {}

    def render() -> float:
        started = time.monotonic()
        subprocess.run(
            [str(manim), "render", "-ql", "scenes/steps/score.py", "Step3Score"],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
        )
        return time.monotonic() - started

    times["cold"] = render()
    for name, edit in edits.items():
        lesson.write_text(edit(LESSON), "utf-8")
        times[name] = render()
        lesson.write_text(LESSON, "utf-8")
        render()  # back to the original, cached again
    return times


REFERENCE = "1cba27e"
"""The commit the issue's figures were measured on (31.5 s for the weather key's edit): its
whole-clip cache re-renders every clip, and half of what it takes here is the target."""


def reference(folder: Path, repeat: int, commit: str = REFERENCE) -> dict[str, Any]:
    """``render.py --quality low`` at ``commit``, silent: the lesson from nothing, then with the
    weather key edited ``repeat`` times (the lesson rendered back in between), on this machine
    in this run; the median edit, and every one."""
    project = folder / "reference"
    project.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(project)], input=archive, check=True)
    lesson = (project / "attention_core" / "lesson.toml").read_text("utf-8")
    edited = folder / "reference_key.toml"
    edited.write_text(last_row(lesson), "utf-8")
    command = [sys.executable, "render.py", "--quality", "low", "--voice", "none"]
    command += ["--out", str(folder / "reference_media")]

    def render(*more: str) -> float:
        started = time.monotonic()
        subprocess.run([*command, *more], cwd=project, check=True, capture_output=True)
        return time.monotonic() - started

    times: dict[str, Any] = {"from nothing": render(), "weather key runs": []}
    for _ in range(repeat):
        times["weather key runs"].append(render("--lesson", str(edited)))
        render()  # back to the lesson as it was
    times["weather key"] = statistics.median(times["weather key runs"])
    return times


def high_one_number(folder: Path, repeat: int) -> dict[str, Any]:
    """At 1080p: the whole lesson from nothing, then ``repeat`` times the bonus filler score
    moved by one more (each run one number changed from the run before); wall-clock seconds
    and CPU seconds (user + system of the run and every process it waited for), the ratios of
    the median change to the full render."""
    command = [sys.executable, str(ROOT / "render.py"), "--quality", "high", "--voice", "none"]
    command += ["--out", str(folder / "high")]

    def render(*more: str) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        subprocess.run([*command, *more], cwd=ROOT, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return time.monotonic() - started, cpu

    full, full_cpu = render()
    text, runs = LESSON, []
    for n in range(repeat):
        text = change_one_number(text)
        edited = folder / f"one_number_{n}.toml"
        edited.write_text(text, "utf-8")
        runs.append(render("--lesson", str(edited)))
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    return {
        "full": full,
        "full cpu": full_cpu,
        "one number": wall,
        "one number cpu": cpu,
        "ratio": wall / full,
        "cpu ratio": cpu / full_cpu,
        "runs": runs,
    }


def watched(folder: Path, repeat: int, quality: str) -> dict[str, Any]:
    """Each edit saved ``repeat`` times while ``--watch --quality quality`` runs (the page
    showing step 3), each time undone before the next; the medians, and every run."""
    results: dict[str, Any] = {"quality": quality}
    watch = Watch(folder, quality)
    try:
        started = time.monotonic()
        watch.until(lambda s: bool(s["done"] and s["clips"]))
        results["watch start (whole lesson from nothing)"] = time.monotonic() - started
        urllib.request.urlopen(f"{watch.url}state.json?watching=03_score", timeout=10).close()
        for name, edit in EDITS.items():
            runs = []
            for _ in range(repeat):
                runs.append(watch.save(edit(LESSON)))
                watch.save(LESSON)  # back, every beat cached again
            results[name] = {
                "beat": statistics.median(float(run["beat"]) for run in runs),
                "clip": statistics.median(float(run["clip"]) for run in runs),
                "whole": statistics.median(float(run["whole"]) for run in runs),
                "runs": runs,
            }
    finally:
        watch.stop()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-plain", action="store_true")
    parser.add_argument("--skip-watch", action="store_true")
    parser.add_argument("--high", action="store_true", help="also the 1080p one-number change")
    parser.add_argument(
        "--reference", action="store_true", help=f"also render.py at {REFERENCE}, the key edit"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each edit (the median)")
    parser.add_argument(
        "--watch-quality",
        default="draft",
        help="the preview's quality: draft (its default, 480p8) or low (480p15, like for like "
        "with plain manim -ql and the reference)",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        if not args.skip_watch:
            results.update(watched(folder, args.repeat, args.watch_quality))
        if not args.skip_plain:
            results["plain manim -ql, step 3"] = plain_manim(folder, EDITS)
        if args.reference:
            results[f"render.py -ql at {REFERENCE}"] = reference(folder, args.repeat)
        if args.high:
            results["1080p, bonus filler score"] = high_one_number(folder, args.repeat)
    text = json.dumps(results, indent=2, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
