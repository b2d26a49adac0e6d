"""Render the lesson into upload-ready media: clips, posters, captions, one video, a manifest.

python render.py --quality high            # everything, into media/high/
python render.py --quality low --scene 3   # one step, quickly
python render.py --list                    # the steps and how long each runs
python render.py --slides                  # also an HTML deck and a .pptx to present from
python render.py --check-lesson FILE       # validate a lesson and print what it will show
python render.py --voice espeak            # narrated by espeak-ng (default: Piper's joe)
python render.py --script FILE             # the narration script, to record your own voice
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2

# Typed with the system's Python, the command runs in the project's .venv/ (made by
# scripts/setup.sh), so this must come before the first third-party import. A virtualenv the
# user activated is theirs to choose, and is kept.
_VENV_PYTHON = Path(__file__).resolve().parent / ".venv" / "bin" / "python"
if __name__ == "__main__" and sys.prefix == sys.base_prefix:
    if not _VENV_PYTHON.exists():
        print("render.py: not set up yet; run `bash scripts/setup.sh` first", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    os.execv(_VENV_PYTHON, [str(_VENV_PYTHON), *sys.argv])

from attention_core import Lesson, LessonError, default_lesson, load_lesson
from publish.kit.lecture import SLIDE_FORMATS
from publish.presets import ALPHA_FORMATS, FORMATS, QUALITIES
from publish.render.tools import RENDER_TOOLS, SCENE_TOOLS, install_line, missing_tools

OUTPUT_TROUBLE = {errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS}
"""Errors writing the output that the user can fix: said in one line, exit 2, no traceback."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="render.py",
        description="Render 'Attention, by hand' into upload-ready clips and one chaptered video.",
    )
    p.add_argument(
        "--quality",
        choices=list(QUALITIES),
        default="high",
        help="manim preset: low 480p15, medium 720p30, high 1080p60 (default), "
        "production 1440p60, 4k 2160p60",
    )
    p.add_argument(
        "--scene",
        action="append",
        default=[],
        metavar="S",
        help="a step number, scene class or slug (repeatable; default: every step)",
    )
    p.add_argument("--list", action="store_true", help="print the steps and their durations")
    p.add_argument("--lesson", type=Path, metavar="FILE", help="a lesson TOML file")
    p.add_argument(
        "--check-lesson",
        type=Path,
        metavar="FILE",
        help="validate a lesson file and print its scores, shares, output and quiz; render nothing",
    )
    p.add_argument("--format", choices=FORMATS, default="mp4", dest="fmt", help="default mp4")
    p.add_argument(
        "--transparent",
        action="store_true",
        help="keep an alpha channel (mov or webm), for compositing over slides",
    )
    p.add_argument(
        "--jobs",
        type=_positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="scenes rendered at once (default: the number of cores)",
    )
    p.add_argument("--out", type=Path, default=Path("media"), metavar="DIR", help="default media/")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="construct every scene without rendering and print what each shows",
    )
    p.add_argument("--force", action="store_true", help="re-render even what is cached")
    p.add_argument(
        "--slides",
        action="store_true",
        help="also write slides.html (an offline deck that pauses after every beat, captions "
        "as speaker notes) and slides.pptx (PowerPoint, a slide per step, clips embedded)",
    )
    p.add_argument(
        "--voice",
        metavar="V",
        help="who narrates: joe (Piper, the default for English), espeak (espeak-ng, any "
        "language), PATH.onnx (a Piper voice), DIR (your recordings, one per beat, named by "
        "its id) or none (silent clips paced for reading); default: the lesson's voice",
    )
    p.add_argument(
        "--script",
        type=Path,
        metavar="FILE",
        help="write the narration script (each beat's id, words and animation time) and stop",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="render on the workers of a running Dask scheduler (tcp://host:8786) instead of "
        "this machine's cores; finishing, the cache and the manifest stay here",
    )
    return p


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.check_lesson:
        return check_lesson(args.check_lesson)
    if args.transparent and args.fmt not in ALPHA_FORMATS:
        return _bad(f"--transparent needs --format mov or webm ({args.fmt} has no alpha channel)")
    if args.slides and args.fmt not in SLIDE_FORMATS:
        return _bad(f"--slides needs --format mp4 (PowerPoint cannot play {args.fmt})")
    try:
        lesson: Lesson = load_lesson(args.lesson) if args.lesson else default_lesson()
    except LessonError as error:
        return _bad(f"lesson: {error}")
    rendering = not (args.list or args.dry_run)
    missing = missing_tools(RENDER_TOOLS if rendering else SCENE_TOOLS)
    if missing:
        for tool in missing:
            print(f"render.py: missing {tool.name} ({tool.why})", file=sys.stderr)
        return _bad(f"install with: {install_line(missing)}")

    from publish.render.selection import SelectionError, select
    from scenes import SCENES

    try:
        chosen = select(SCENES, args.scene)
    except SelectionError as error:
        return _bad(str(error))

    from publish.narration.voices import VoiceError, choose_voice
    from publish.render import preview
    from publish.render.claim import OutputTrouble, claimed, trouble
    from publish.render.cluster import ClusterError
    from publish.render.pipeline import Interrupted, Options, publish, terminate_on_sigterm
    from publish.render.progress import make_display

    try:
        voice = None if args.script else choose_voice(args.voice, lesson)
    except VoiceError as error:
        return _bad(str(error))

    options = Options(
        quality=QUALITIES[args.quality],
        fmt=args.fmt,
        transparent=args.transparent,
        out=args.out,
        jobs=args.jobs,
        force=args.force,
        slides=args.slides,
        voice=voice,
        scheduler=args.scheduler,
    )
    if args.script:
        return write_script(lesson, options, args.script)
    if voice is not None and voice.kind == "recordings" and rendering:
        problem = recordings_problem(lesson, options)
        if problem:
            return _bad(f"--voice {args.voice}: {problem}")
    try:
        with claimed(options.folder, options.work):
            if args.list:
                preview.list_scenes(lesson, chosen, options.work, sys.stdout, options.narrator)
                return EXIT_OK
            if args.dry_run:
                preview.dry_run(lesson, chosen, options, sys.stdout)
                return EXIT_OK
            with terminate_on_sigterm(), make_display() as display:
                return publish(lesson, SCENES, chosen, options, display)
    except (OutputTrouble, ClusterError) as error:
        return _bad(str(error))
    except OSError as error:
        if error.errno not in OUTPUT_TROUBLE:
            raise
        return _bad(str(trouble(options.out, error)))
    except (KeyboardInterrupt, Interrupted) as stop:
        signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
        print(
            "render.py: interrupted; finished clips are kept, run again to finish",
            file=sys.stderr,
        )
        return 128 + int(signum)


def _scenes_as_rendered(lesson: Lesson, options: Any) -> list[tuple[Any, dict[str, Any]]]:
    """Every scene with the arguments it renders with: the title with the lesson's minutes."""
    from scenes import SCENES
    from scenes.timing import length_arguments, lesson_minutes

    return [(scene, length_arguments(scene, lesson_minutes(lesson))) for scene in SCENES]


def write_script(lesson: Lesson, options: Any, target: Path) -> int:
    """Write the narration script to ``target`` (atomically)."""
    from manim import tempconfig

    from publish.media.files import write_text
    from publish.narration.script import script

    if not target.parent.is_dir():
        return _bad(f"--script {target}: no folder {target.parent}")
    with tempconfig({"media_dir": str(options.work / "script")}):
        text = script(lesson, _scenes_as_rendered(lesson, options))
    write_text(target, text)
    print(f"render.py: wrote the narration script to {target}")
    return EXIT_OK


def recordings_problem(lesson: Lesson, options: Any) -> str | None:
    """What is wrong with the recordings ``options.voice`` names, for every beat of the lesson."""
    from manim import tempconfig

    from publish.narration.recordings import recordings_problem as problem
    from scenes.probe import run_dry

    with tempconfig({"media_dir": str(options.work / "script")}):
        beats = [
            beat.id
            for scene, kwargs in _scenes_as_rendered(lesson, options)
            for beat in run_dry(scene, lesson, **kwargs).beats
        ]
    return problem(options.voice, beats)


def check_lesson(path: Path) -> int:
    """Print what the lesson's video will show, or why the file cannot be shown."""
    from publish.kit.check import summary

    try:
        lesson = load_lesson(path)
    except LessonError as error:
        return _bad(f"lesson: {error}")
    print("\n".join(summary(lesson)))
    return EXIT_OK


def _bad(message: str) -> int:
    print(f"render.py: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
