"""Benchmark the lesson's render: render.py against plain ``manim render``, on this machine.

python bench/bench.py --quality high              # render.py 3 runs each (median), baselines once
python bench/bench.py --baseline-repeat 3         # the baselines 3 times too (about 35 min more)
python bench/bench.py --repeat 1 --skip-plain     # quicker: render.py only, once

Also: the same-run references issue 39 reads against (plain manim's step 3 from nothing, at
``-ql`` and ``-qh``, the median of three each, with the ratios to them) and, once, the encoder's
CPU time a held and a drawn frame (``bench/encoder_cost.py``, on step 3's clip).

The baselines (plain manim, about 11 minutes a run at 1080p on two cores, and the encode floor)
run ``--baseline-repeat`` times, once by default. With plain manim, the lesson render.py made is
compared with manim's default encode of the same scenes, frame by frame (ffmpeg's SSIM).

Every measured command runs as a child process reaped with ``os.wait4``: its CPU time is the
user + system time of the child and every process it waited for (manim workers, ffmpeg), its
peak memory the largest resident set of any one of them (the kernel's ``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core import lesson as lesson_module  # noqa: E402
from publish.presets import FULL_NAME, QUALITIES, Quality, clip_name  # noqa: E402
from publish.render.worker import ENCODER_OPTIONS  # noqa: E402

if TYPE_CHECKING:
    from scenes import LessonScene

LESSON_VIDEO = "lesson.mp4"
"""The first render's whole video, kept in the scratch folder for the encode floor."""
CLIPS = "clips"
"""The first render's clips, kept in the scratch folder to compare with plain manim's."""
LESSON = Path(lesson_module.__file__).with_name("lesson.toml")
CHANGED_NUMBER = re.compile(r"^(bonus_filler_score\s*=\s*)(-?\d+)", re.MULTILINE)
"""The one number the 'changed' run alters: a quiz value, valid whatever it becomes by one.
Only the scene that reads it (the answer's) renders again."""
CHANGED = "render.py, one number changed"
COLD = "render.py, nothing cached"
TARGET = 1 / 3
"""The most of a full render's wall time a one-number change may take."""

__all__ = [
    "Sample",
    "Summary",
    "change_one_number",
    "edit_ratio",
    "main",
    "summarise",
    "table",
]


@dataclass(frozen=True)
class Sample:
    """One run of one command."""

    wall: float
    cpu: float
    """User + system seconds of the process and every descendant it waited for."""
    max_rss_mib: float
    """Largest resident set of any single process in the tree."""


@dataclass(frozen=True)
class Summary:
    """The median of several runs of one measurement, against the video it made."""

    name: str
    runs: int
    wall: float
    cpu: float
    max_rss_mib: float
    video_seconds: float | None

    @property
    def wall_per_video_second(self) -> float | None:
        return self.wall / self.video_seconds if self.video_seconds else None


def summarise(name: str, samples: Sequence[Sample], video_seconds: float | None) -> Summary:
    """Medians of wall and CPU time; the highest peak memory seen in any run."""
    return Summary(
        name=name,
        runs=len(samples),
        wall=statistics.median(s.wall for s in samples),
        cpu=statistics.median(s.cpu for s in samples),
        max_rss_mib=max(s.max_rss_mib for s in samples),
        video_seconds=video_seconds,
    )


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def table(rows: Sequence[Summary], baseline: Summary | None) -> str:
    """The results as a fixed-width text table; ``÷ plain`` compares wall times with plain manim."""
    head = (
        f"{'measurement':<40}{'runs':>5}{'wall s':>9}{'CPU s':>9}{'peak MiB':>10}"
        f"{'video s':>9}{'wall/video':>11}{'÷ plain':>9}"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        versus = row.wall / baseline.wall if baseline and row.video_seconds else None
        video = "-" if row.video_seconds is None else f"{row.video_seconds:.1f}"
        lines.append(
            f"{row.name:<40}{row.runs:>5}{row.wall:>9.1f}{row.cpu:>9.1f}{row.max_rss_mib:>10.0f}"
            f"{video:>9}{_ratio(row.wall_per_video_second):>11}{_ratio(versus):>9}"
        )
    return "\n".join(lines)


def edit_ratio(rows: Sequence[Summary]) -> float:
    """The one-number change's wall time as a share of the full render's."""
    wall = {row.name: row.wall for row in rows}
    return wall[CHANGED] / wall[COLD]


SILENT_ROW, NARRATED_ROW = "render.py --voice none, nothing cached", COLD
DRY_ROW = "render.py --dry-run"


def narration_cost(rows: Sequence[Summary]) -> float | None:
    """How much narrating (synthesis included) adds to a render from nothing: 0.08 is 8%."""
    walls = {row.name: row.wall for row in rows}
    if SILENT_ROW not in walls or NARRATED_ROW not in walls:
        return None
    return walls[NARRATED_ROW] / walls[SILENT_ROW] - 1


def report(rows: Sequence[Summary], quality: Quality, machine: dict[str, Any]) -> dict[str, Any]:
    """Everything the table shows, and the machine it ran on, as JSON-ready data."""
    return {
        "quality": quality.name,
        "resolution": str(quality),
        "encoder_options": dict(ENCODER_OPTIONS),
        "machine": machine,
        "results": [
            {**asdict(row), "wall_per_video_second": row.wall_per_video_second} for row in rows
        ],
        "one_number_change_of_full_render": edit_ratio(rows),
    }


def change_one_number(text: str) -> str:
    """The lesson with its quiz's bonus filler score moved by one."""
    match = CHANGED_NUMBER.search(text)
    if match is None:
        raise ValueError("the lesson has no bonus_filler_score to change")
    changed = int(match.group(2)) + 1
    return f"{text[: match.start(2)]}{changed}{text[match.end(2) :]}"


def run(command: Sequence[str], cwd: Path = ROOT, cache: Path | None = None) -> Sample:
    """Run ``command`` to completion, quietly; fail loudly with its output if it fails.
    ``cache``: this user's cache folder for the run (``XDG_CACHE_HOME``), so that a render
    from nothing finds nothing typeset or hashed by an earlier one."""
    env = None if cache is None else {**os.environ, "XDG_CACHE_HOME": str(cache)}
    started = time.monotonic()
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT
        )
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
        if process.returncode != 0:
            output.seek(0)
            tail = output.read().decode(errors="replace")[-2000:]
            raise SystemExit(f"bench: {' '.join(command)} failed ({process.returncode}):\n{tail}")
    sample = Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
    shown = " ".join(Path(part).name if "/" in part else part for part in command)
    print(f"bench: {sample.wall:7.1f} s wall {sample.cpu:7.1f} s CPU  {shown}", file=sys.stderr)
    return sample


def video_seconds(path: Path) -> float:
    """The container duration ffprobe reports."""
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(out)


def machine() -> dict[str, Any]:
    """Cores, CPU model, memory and the versions that shape the figures."""
    import manim

    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    model = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
    pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    ffmpeg = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True, check=True)
    return {
        "cores": os.cpu_count(),
        "cpu": model.group(1) if model else platform.processor(),
        "memory_gib": round(pages / 2**30, 1),
        "load_average_at_start": os.getloadavg(),
        "python": platform.python_version(),
        "manim": manim.__version__,
        "ffmpeg": ffmpeg.stdout.split("\n", 1)[0],
    }


def _render(quality: Quality, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "render.py", "--quality", quality.name, "--out", str(out), *extra]


def bench_render(quality: Quality, repeat: int, scratch: Path) -> list[Summary]:
    """render.py from nothing, silent and narrated (its speech synthesised too), again with
    nothing changed, after one number changed, dry run.

    The silent render's clips are the ones compared with plain manim's (which is silent) and
    re-encoded for the encode floor.
    """
    silent, cold, cached, changed, dry = [], [], [], [], []
    lesson_copy = scratch / "changed.toml"
    lesson_copy.write_text(change_one_number(LESSON.read_text("utf-8")), "utf-8")
    length = silent_length = 0.0
    for index in range(repeat):
        quiet = scratch / f"silent{index}"
        silent.append(
            run(_render(quality, quiet, "--voice", "none"), cache=scratch / f"cache-silent{index}")
        )
        whole = quiet / quality.name / f"{FULL_NAME}.mp4"
        silent_length = video_seconds(whole)
        shutil.copyfile(whole, scratch / LESSON_VIDEO)
        shutil.rmtree(scratch / CLIPS, ignore_errors=True)
        shutil.copytree(quiet / quality.name, scratch / CLIPS)
        shutil.rmtree(quiet)
        out = scratch / f"render{index}"
        cache = scratch / f"cache{index}"  # the user's, from nothing with the render
        cold.append(run(_render(quality, out), cache=cache))
        length = video_seconds(out / quality.name / f"{FULL_NAME}.mp4")
        cached.append(run(_render(quality, out), cache=cache))
        dry += [run(_render(quality, out, "--dry-run"), cache=cache) for _ in range(QUICK_RUNS)]
        changed.append(run(_render(quality, out, "--lesson", str(lesson_copy)), cache=cache))
        shutil.rmtree(out)
    return [
        summarise(SILENT_ROW, silent, silent_length),
        summarise(NARRATED_ROW, cold, length),
        summarise("render.py, all cached", cached, None),
        summarise(CHANGED, changed, length),
        summarise(DRY_ROW, dry, None),
    ]


QUICK_RUNS = 3
"""Runs of each measurement of about ten seconds (the dry run, the ``-ql`` reference) whatever
``--repeat`` says: a single one is as likely as not to meet the host at a slow moment (the dry
run straight after a render from nothing took 1.05–1.12 of the reference, later ones
0.70–0.90), and three cost half a minute."""


def bench_plain(quality: Quality, repeat: int, scratch: Path) -> tuple[Summary, float]:
    """``manim render`` of each scene file in turn, with manim's defaults, as a user would run it.

    Also returns the SSIM of render.py's clips against the first run's.
    """
    from manim import QUALITIES as MANIM_QUALITIES

    from scenes import SCENES

    flag = f"-q{MANIM_QUALITIES[quality.preset]['flag']}"
    manim = Path(sys.executable).with_name("manim")
    samples, length, similarity = [], 0.0, 0.0
    for index in range(repeat):
        media = scratch / f"plain{index}"
        parts = [
            run(
                [
                    str(manim),
                    "render",
                    flag,
                    "--media_dir",
                    str(media),
                    str(Path(inspect.getfile(scene)).relative_to(ROOT)),
                    scene.__name__,
                ]
            )  # fmt: skip
            for scene in SCENES
        ]
        samples.append(
            Sample(
                wall=sum(p.wall for p in parts),
                cpu=sum(p.cpu for p in parts),
                max_rss_mib=max(p.max_rss_mib for p in parts),
            )
        )
        plain = [next(media.glob(f"videos/*/*/{scene.__name__}.mp4")) for scene in SCENES]
        length = sum(map(video_seconds, plain))
        if index == 0:
            ours = [scratch / CLIPS / f"{clip_name(s.step, s.slug)}.mp4" for s in SCENES]
            similarity = ssim(list(zip(ours, plain, strict=True)))
        shutil.rmtree(media)
    return summarise("plain manim render, sequential", samples, length), similarity


REFERENCE_LOW, REFERENCE_HIGH = "plain manim -ql, step 3, nothing cached", "plain manim -qh, step 3"
"""The same-run references issue 39 reads against: the dry run against ``-ql`` of step 3 from
nothing, the render against ``-qh --disable_caching`` of it (47.9 s where the silent lesson
took 0.48 of its running time)."""
HIGH_REFERENCE_RUNS = 3
"""Runs of the ``-qh`` reference (the median is read): one run moved from 65.8 to 79.9 s between
benches on the same host, and again to 67.4 s straight after, which moves every render target
by as much. Three cost about two minutes more."""
REFERENCE_HOST_HIGH = 47.9
"""``-qh`` of step 3 on the host where issue 39 set its targets."""


def reference_step() -> type[LessonScene]:
    """Step 3 of the default lesson: what the references render, and whose clip the encoder's
    cost is measured on."""
    from scenes import SCENES

    return SCENES[2]


def bench_references(scratch: Path) -> list[Summary]:
    """Plain ``manim render --disable_caching`` of step 3, each run from nothing (a fresh
    media folder and user cache, so every text is typeset): at ``-ql`` the median of
    :data:`QUICK_RUNS`, at ``-qh`` of :data:`HIGH_REFERENCE_RUNS`."""
    step = reference_step()
    file = str(Path(inspect.getfile(step)).relative_to(ROOT))
    manim = str(Path(sys.executable).with_name("manim"))
    rows = []
    references = ((REFERENCE_LOW, "-ql", QUICK_RUNS), (REFERENCE_HIGH, "-qh", HIGH_REFERENCE_RUNS))
    for name, flag, runs in references:
        samples, length = [], 0.0
        for index in range(runs):
            media, cache = scratch / f"reference{flag}", scratch / f"cache{flag}-{index}"
            command = [manim, "render", flag, "--disable_caching", "--media_dir", str(media)]
            samples.append(run([*command, file, step.__name__], cache=cache))
            length = video_seconds(next(media.glob(f"videos/*/*/{step.__name__}.mp4")))
            shutil.rmtree(media)
        rows.append(summarise(name, samples, length))
    return rows


def step_clip() -> str:
    """The file name of the reference step's clip."""
    step = reference_step()
    return f"{clip_name(step.step, step.slug)}.mp4"


def encoder_cost(clip: Path) -> dict[str, float]:
    """The encoder's CPU milliseconds a held and a drawn frame, on ``clip``'s pictures
    (``bench/encoder_cost.py``, in a process of its own)."""
    command = [sys.executable, str(ROOT / "bench" / "encoder_cost.py"), str(clip), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    costs: dict[str, float] = json.loads(done.stdout)
    return costs


def against_references(rows: Sequence[Summary]) -> dict[str, float]:
    """Issue 39's ratios: each render's wall time a second of video, the target for it scaled
    by this host's ``-qh`` reference, and the dry run as a share of the ``-ql`` reference."""
    by_name = {row.name: row for row in rows}
    scale = by_name[REFERENCE_HIGH].wall / REFERENCE_HOST_HIGH
    return {
        "silent_wall_per_video_second": by_name[SILENT_ROW].wall_per_video_second or 0.0,
        "silent_target_here": 0.30 * scale,
        "narrated_wall_per_video_second": by_name[NARRATED_ROW].wall_per_video_second or 0.0,
        "narrated_target_here": 0.40 * scale,
        "dry_run_of_reference": by_name[DRY_ROW].wall / by_name[REFERENCE_LOW].wall,
        "dry_run_target": 15 / 16.4,
    }


def ssim(pairs: Sequence[tuple[Path, Path]]) -> float:
    """SSIM of each video against its reference, over all their frames (ffmpeg's ``ssim``
    filter, luma and chroma), two comparisons at a time; the mean weighted by frame count."""
    from concurrent.futures import ThreadPoolExecutor

    def compare(pair: tuple[Path, Path]) -> tuple[float, int]:
        ours, reference = pair
        command = [
            "ffmpeg", "-nostdin", "-v", "info", "-i", str(ours), "-i", str(reference),
            "-lavfi", "[0:v][1:v]ssim", "-f", "null", "-",
        ]  # fmt: skip
        log = subprocess.run(command, capture_output=True, text=True, check=True).stderr
        found = re.search(r"SSIM .*All:([0-9.]+)", log)
        frames = re.findall(r"frame=\s*(\d+)", log)
        if found is None or not frames:
            raise SystemExit(f"bench: no SSIM for {ours.name}:\n{log[-2000:]}")
        return float(found.group(1)), int(frames[-1])

    with ThreadPoolExecutor(2) as threads:
        results = list(threads.map(compare, pairs))
    return sum(value * frames for value, frames in results) / sum(f for _, f in results)


def encode_floor(lesson_video: Path, repeat: int, scratch: Path) -> Summary:
    """ffmpeg alone re-encoding every frame of the rendered lesson with render.py's settings.

    It decodes the lesson's own frames (decoding H.264 costs a few percent of encoding it), so
    the content is the same as the render's; one encoder at a time, like one render worker.
    """
    options = [arg for key, value in sorted(ENCODER_OPTIONS.items()) for arg in (f"-{key}", value)]
    command = [
        "ffmpeg", "-nostdin", "-v", "error", "-y", "-threads", "1", "-i", str(lesson_video),
        "-c:v", "libx264", "-pix_fmt", "yuv420p", *options, str(scratch / "floor.mp4"),
    ]  # fmt: skip
    samples = [run(command) for _ in range(repeat)]
    return summarise("encode floor (ffmpeg alone)", samples, video_seconds(lesson_video))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bench.py", description=__doc__.split("\n", 1)[0])
    p.add_argument("--quality", choices=list(QUALITIES), default="high", help="default high")
    p.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per measurement (3)")
    p.add_argument(
        "--baseline-repeat", type=int, default=1, metavar="N",
        help="runs of plain manim and of the encode floor (1: they take 16 minutes a run)",
    )  # fmt: skip
    p.add_argument("--skip-plain", action="store_true", help="skip plain manim (slow)")
    p.add_argument(
        "--json", type=Path, default=ROOT / "bench" / "latest.json", metavar="PATH",
        help="where the results go (default bench/latest.json)",
    )  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.repeat < 1 or args.baseline_repeat < 1:
        parser().error("--repeat and --baseline-repeat must be at least 1")
    quality = QUALITIES[args.quality]
    about = machine()
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        scratch = Path(folder)
        rows = bench_render(quality, args.repeat, scratch)
        plain, similarity = (None, None)
        if not args.skip_plain:
            plain, similarity = bench_plain(quality, args.baseline_repeat, scratch)
        rows.append(encode_floor(scratch / LESSON_VIDEO, args.baseline_repeat, scratch))
        rows += bench_references(scratch)
        encoder = encoder_cost(scratch / CLIPS / step_clip())
    if plain is not None:
        rows.append(plain)
    print(table(rows, plain))
    ratio = edit_ratio(rows)
    verdict = "within" if ratio <= TARGET else "OVER"
    print(f"one number changed: {ratio:.2f} of a full render's wall time ({verdict} 1/3)")
    cost = narration_cost(rows)
    if cost is not None:
        print(f"narration adds {cost:.1%} to the wall time of a render from nothing")
    if similarity is not None:
        print(f"SSIM of render.py's clips against plain manim's (every frame): {similarity:.4f}")
    held, drawn = encoder["held_frame"], encoder["drawn_frame"]
    print(f"the encoder: {held:.2f} ms of CPU a held frame, {drawn:.2f} ms a drawn one")
    ratios = against_references(rows)
    print(
        f"silent {ratios['silent_wall_per_video_second']:.3f} of its running time "
        f"(target here {ratios['silent_target_here']:.3f}), "
        f"narrated {ratios['narrated_wall_per_video_second']:.3f} "
        f"(target here {ratios['narrated_target_here']:.3f}); "
        f"the dry run {ratios['dry_run_of_reference']:.2f} of plain -ql step 3 "
        f"(target {ratios['dry_run_target']:.2f})"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    data = report(rows, quality, about) | {
        "ssim_against_plain_manim": similarity,
        "narration_cost": cost,
        "encoder_cpu_ms": encoder,
        "against_references": ratios,
    }
    args.json.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    print(f"results: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
