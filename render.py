"""Render the lesson into upload-ready media: clips, posters, captions, one video, a manifest.

python render.py --quality high            # everything, into media/high/
python render.py --quality low --scene 3   # one step, quickly
python render.py --list                    # the steps and how long each runs
python render.py --slides                  # also an HTML deck and a .pptx to present from
python render.py --check-lesson FILE       # validate a lesson and print what it will show
python render.py --voice espeak            # narrated by espeak-ng (default: Piper's joe)
python render.py --described               # also an audio-described video, NAME_described.mp4
python render.py --script FILE             # the narration script, to record your own voice
python render.py --course course.toml      # a course: each lesson in a folder, one index page
python render.py --package scorm           # also LESSON_scorm12.zip, for Moodle, Canvas...
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2

STOPS = {signal.SIGINT, signal.SIGTERM}
INTERRUPTED = "render.py: interrupted; finished clips are kept, run again to finish"


def _stop_starting(signum: int, frame: object) -> None:
    """Until :func:`run` takes over: a signal during start-up (imports) ends the run at once,
    128 + its number, without a traceback."""
    print(INTERRUPTED, file=sys.stderr, flush=True)
    # Not SystemExit: raised at whatever bytecode an import is at, it can be discarded on the
    # way out (inside pptx's import chain, by code that clears any error), and the run went on
    # to finish and exit 0. Nothing is written during start-up, so nothing to clean.
    sys.stdout.flush()
    os._exit(128 + signum)


if __name__ == "__main__":
    for _signal in STOPS:
        signal.signal(_signal, _stop_starting)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # any held back across the exec below

# Typed with the system's Python, the command runs in the project's .venv/ (made by
# scripts/setup.sh), so this must come before the first third-party import. A virtualenv the
# user activated is theirs to choose, and is kept.
_VENV_PYTHON = Path(__file__).resolve().parent / ".venv" / "bin" / "python"
if __name__ == "__main__" and sys.prefix == sys.base_prefix:
    if not _VENV_PYTHON.exists():
        print("render.py: not set up yet; run `bash scripts/setup.sh` first", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)
    # Blocked, a signal stays pending across the exec, and is taken once the new process has
    # its handlers, instead of meeting the new interpreter's start-up with a traceback.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    os.execv(_VENV_PYTHON, [str(_VENV_PYTHON), *sys.argv])

from attention_core import LessonError, default_lesson, fontset, load_lesson
from publish.course import (
    BUILT_IN,
    Course,
    CourseError,
    CourseFile,
    LessonSpec,
    load_lessons,
    read_course,
)
from publish.presets import ALPHA_FORMATS, FORMATS, PREVIEW_QUALITY, QUALITIES, SLIDE_FORMATS
from publish.tools import RENDER_TOOLS, SCENE_TOOLS, install_line, missing_tools

OUTPUT_TROUBLE = {
    *(errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS),
    *(errno.ENOTDIR, errno.EISDIR, errno.EEXIST),  # a file or folder where the other belongs
}
"""Errors writing the output that the user can fix: said in one line, exit 2, no traceback."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="render.py",
        description="Render 'Attention, by hand' into upload-ready clips and one chaptered video.",
    )
    p.add_argument(
        "--quality",
        choices=list(QUALITIES),
        help="manim preset: draft 480p8 (the default for --watch), low 480p15, medium 720p30, "
        "high 1080p60 (the default), production 1440p60, 4k 2160p60",
    )
    p.add_argument(
        "--scene",
        action="append",
        default=[],
        metavar="S",
        help="a step number, scene class or slug (repeatable; default: every step)",
    )
    p.add_argument("--list", action="store_true", help="print the steps and their durations")
    p.add_argument(
        "--lesson",
        action="append",
        default=[],
        metavar="FILE",
        help=f"a lesson TOML file ({BUILT_IN}: the built-in lesson); repeat it to render "
        "several as a course, each into a folder of its own",
    )
    p.add_argument(
        "--course",
        type=Path,
        metavar="FILE",
        help="a course TOML file: a title and [[lessons]] in order (see the README)",
    )
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
        "--package",
        metavar="KIND",
        help="also write the lesson as a package an LMS takes: scorm (LESSON_scorm12.zip, "
        "SCORM 1.2: the page, video, captions and transcript; it reports the quiz's score)",
    )
    p.add_argument(
        "--voice",
        metavar="V",
        help="who narrates: joe (Piper, the default for English), espeak (espeak-ng, any "
        "language), PATH.onnx (a Piper voice), DIR (your recordings, one per beat, named by "
        "its id) or none (silent clips paced for reading); default: the lesson's voice",
    )
    p.add_argument(
        "--described",
        action="store_true",
        help="also write NAME_described.mp4: the descriptions of what the screen shows spoken "
        "in the narration's pauses, the picture held where one does not fit (in a course, "
        "each lesson's); where nothing holds, NAME.mp4 carries it as a second sound track",
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
    p.add_argument(
        "--watch",
        action="store_true",
        help="a live preview: serve a page on 127.0.0.1 that plays the lesson, and re-render "
        "only the beats each save of the lesson changes (into OUT/preview/)",
    )
    p.add_argument(
        "--watch-code",
        action="store_true",
        help="with --watch: also re-render when the scene code changes",
    )
    p.add_argument(
        "--port", type=int, default=8417, help="with --watch: the page's port (default 8417)"
    )
    return p


def package_problem(package: str | None, fmt: str) -> str | None:
    """Why ``--package`` cannot be made as asked (an unknown kind, a format no browser plays,
    the schema files not installed); None when it can, or was not asked."""
    if package is None:
        return None
    from publish.kit import scorm
    from publish.kit.lecture import WEB_FORMATS

    if package != scorm.KIND:
        return f"--package {package}: unknown kind; the one there is: --package {scorm.KIND}"
    if fmt not in WEB_FORMATS:
        return f"--package {package} needs --format mp4 or webm (a browser cannot play {fmt})"
    return scorm.missing_schemas()


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.quality is None:
        args.quality = PREVIEW_QUALITY if args.watch else "high"
    if args.watch and (args.course or len(args.lesson) > 1 or args.list or args.dry_run):
        return _bad("--watch takes one lesson, to render (not --course, --list, --dry-run)")
    unset = fontset.problem()  # every command reads the font set: the lesson's check too
    if unset:
        return _bad(unset)
    if args.check_lesson:
        return check_lesson(args.check_lesson)
    if not args.script:
        from publish.render.claim import FolderBusy, claim_early

        quality = QUALITIES[args.quality].name
        try:  # before anything slow: a busy folder is refused at once
            claim_early(args.out / quality, args.out / ".work" / quality)
        except FolderBusy as busy:
            return _bad(str(busy))
    if args.transparent and args.fmt not in ALPHA_FORMATS:
        return _bad(f"--transparent needs --format mov or webm ({args.fmt} has no alpha channel)")
    if args.slides and args.fmt not in SLIDE_FORMATS:
        return _bad(f"--slides needs --format mp4 (PowerPoint cannot play {args.fmt})")
    if args.described and (args.fmt != "mp4" or args.transparent):
        return _bad("--described needs --format mp4 without --transparent (an AAC second track)")
    unpackable = package_problem(args.package, args.fmt)
    if unpackable:
        return _bad(unpackable)
    course = load_course(args)
    if isinstance(course, str):
        return _bad(course)
    rendering = not (args.list or args.dry_run)
    missing = missing_tools(RENDER_TOOLS if rendering else SCENE_TOOLS)
    if missing:
        for tool in missing:
            print(f"render.py: missing {tool.name} ({tool.why})", file=sys.stderr)
        return _bad(f"install with: {install_line(missing)}")
    if rendering and not (args.watch or args.script or args.scheduler):
        from publish.render.pool import warm

        warm()  # the workers' manim is imported meanwhile
    unseen = font_problems(course)
    if unseen:
        return _bad(*unseen)

    from publish.render.plan import choose, plan
    from publish.render.selection import SelectionError

    try:  # before the voices are checked, which may dry-run every scene
        for entry in course.lessons:
            choose(entry.lesson, args.scene)
    except SelectionError as error:
        return _bad(str(error))

    from publish.described.make import description_voice
    from publish.narration.voices import VoiceError, choose_voice
    from publish.render import preview
    from publish.render.claim import OutputTrouble, claimed, trouble
    from publish.render.cluster import ClusterError
    from publish.render.options import RunOptions
    from publish.render.pipeline import publish
    from publish.render.progress import make_display
    from publish.render.voice_checks import voice_problem

    run = RunOptions(
        quality=QUALITIES[args.quality],
        fmt=args.fmt,
        transparent=args.transparent,
        out=args.out,
        jobs=args.jobs,
        force=args.force,
        slides=args.slides,
        package=args.package,
        scheduler=args.scheduler,
        described=args.described,
    )
    plans, problems, said = [], [], []
    for number, entry in enumerate(course.lessons, start=1):
        where = f"lesson {number} ({entry.source}): " if course.is_course else ""
        try:
            voice = None if args.script else choose_voice(args.voice or entry.voice, entry.lesson)
        except VoiceError as error:
            problems.append(f"{where}{error}")
            continue
        describer = None
        if args.described and rendering and not args.watch:
            try:
                describer, why = description_voice(voice, entry.lesson)
            except VoiceError as error:
                problems.append(f"{where}{error}")
                continue
            said += [f"{where}{why}"] if why else []
        options = run.lesson(voice, entry.name, entry.stem, describer)
        each = plan(entry.lesson, options, args.scene)
        unable = None if voice is None else voice_problem(voice)
        if not unable and describer is not None and describer != voice:
            unable = voice_problem(describer)
        if unable:
            problems.append(f"{where}{unable}")
            continue
        if voice is not None and voice.kind == "recordings" and rendering:
            problem = recordings_problem(each)
            if problem:
                problems.append(f"{where}--voice {args.voice or entry.voice}: {problem}")
        plans.append(each)
    if problems:
        return _bad(*problems)
    for line in said:
        print(f"render.py: {line}", flush=True)
    # --script, --watch, --list and --dry-run take one lesson (load_course sees to it).
    one = plans[0]
    if args.script:
        return write_script(one, args.script)
    if args.watch:  # into a folder of its own, which a render of the lesson never shares
        preview_run = replace(run, out=run.out / "preview")
        options = one.options
        return _watch(args, preview_run.lesson(options.voice, options.lesson, options.stem))
    try:
        with claimed(run.quality_folder, run.claim):
            if args.list:
                preview.list_scenes(one, sys.stdout)
                return EXIT_OK
            if args.dry_run:
                preview.dry_run(one, sys.stdout)
                return EXIT_OK
            with make_display() as display:
                return publish(run, plans, display, course.page)
    except (OutputTrouble, ClusterError) as error:
        return _bad(str(error))
    except OSError as error:
        if error.errno not in OUTPUT_TROUBLE:
            raise
        return _bad(str(trouble(run.out, error)))


def _watch(args: argparse.Namespace, options: Any) -> int:
    """``--watch``: the preview, until Ctrl-C."""
    from publish.render.claim import OutputTrouble
    from publish.watch.run import watch

    built_in = Path(__file__).resolve().parent / "attention_core" / "lesson.toml"
    file = Path(args.lesson[0]) if args.lesson and args.lesson[0] != BUILT_IN else built_in
    try:
        return watch(file, options, args.scene, args.port, args.watch_code)
    except OutputTrouble as error:
        return _bad(str(error))


def load_course(args: argparse.Namespace) -> Course | str:
    """The lessons the command names, every one loaded and checked; or what is wrong with them,
    a line per problem. One ``--lesson`` (or none) renders as it always has; several, or
    ``--course``, make a course."""
    if args.course and args.lesson:
        return "--course and --lesson: give the lessons in the course file, or with --lesson"
    if not args.course and len(args.lesson) <= 1:
        file = args.lesson[0] if args.lesson else BUILT_IN
        try:
            return Course.of(default_lesson() if file == BUILT_IN else load_lesson(file), file)
        except LessonError as error:
            return f"lesson: {error}"
    one_lesson = [flag for flag in ("list", "dry_run", "script") if getattr(args, flag)]
    if one_lesson:
        return f"--{one_lesson[0].replace('_', '-')} takes one lesson, not a course"
    try:
        file = (
            read_course(args.course)
            if args.course
            else CourseFile("", [LessonSpec(f) for f in args.lesson])
        )
    except CourseError as error:
        return str(error)
    lessons, problems = load_lessons(file.lessons)
    if problems:
        return "\n".join(problems)
    # Lessons given with --lesson make a course named after the first one's series.
    course = Course(file.title or lessons[0].lesson.series, tuple(lessons), file.language)
    problem = course.language_problem()
    return f"course {args.course}: {problem}" if problem else course


def font_problems(course: Course) -> list[str]:
    """A line per character of any lesson that no font of the font set draws (a box, drawn)."""
    from publish.render.fonts import uncovered

    return [
        f"lesson {number} ({entry.source}): {line}" if course.is_course else f"lesson: {line}"
        for number, entry in enumerate(course.lessons, start=1)
        for line in uncovered(entry.lesson)
    ]


def _scenes_as_rendered(plan: Any, scenes: Any = None) -> list[tuple[Any, dict[str, Any]]]:
    """``scenes`` (every scene of the plan unless named) with the arguments each renders with:
    the title with the lesson's minutes, measured silent (which dry-runs every scene, so only
    when the title is among them)."""
    from scenes import timing

    lesson, scenes = plan.lesson, plan.scenes if scenes is None else scenes
    minutes = 0
    if timing.titles(scenes):
        minutes = timing.measured_minutes(
            plan.scenes, lambda scene: timing.scene_seconds(scene, lesson)
        )
    return [(scene, timing.length_arguments(scene, minutes)) for scene in scenes]


def write_script(plan: Any, target: Path) -> int:
    """Write the narration script of the plan's lesson to ``target`` (atomically)."""
    from manim import tempconfig

    from publish.media.files import write_text
    from publish.narration.script import script
    from publish.render.tex_folder import manim_folders

    if not target.parent.is_dir():
        return _bad(f"--script {target}: no folder {target.parent}")
    if target.is_dir():
        return _bad(f"--script {target}: a folder stands there; name a file to write")
    with tempconfig(manim_folders(plan.options.work / "script")):
        text = script(plan.lesson, _scenes_as_rendered(plan))
    try:
        write_text(target, text)
    except OSError as error:
        return _bad(f"--script {target}: cannot write it ({error.strerror or error})")
    print(f"render.py: wrote the narration script to {target}")
    return EXIT_OK


def recordings_problem(plan: Any) -> str | None:
    """What is wrong with the recordings the plan's voice names, for every beat of the steps it
    renders: a step recorded renders before the others are (``--scene 3``), and a whole run
    checks every beat before any scene runs."""
    from manim import tempconfig

    from publish.narration.recordings import recordings_problem as problem
    from publish.presets import clip_name
    from publish.render.tex_folder import manim_folders
    from publish.render.voice_checks import too_little_speech, unreadable_recordings
    from scenes.probe import run_dry

    lesson, options = plan.lesson, plan.options
    folder = Path(options.voice.source)
    unreadable = unreadable_recordings(folder)  # before the slow dry runs, which write files
    if unreadable:
        return unreadable
    with tempconfig(manim_folders(options.work / "script")):
        beats = [
            (beat.id, beat.caption.said)
            for scene, kwargs in _scenes_as_rendered(plan, plan.chosen)
            for beat in run_dry(scene, lesson, **kwargs).beats
        ]
    elsewhere = [clip_name(s.step, s.slug) for s in plan.scenes if s not in plan.chosen]
    found = problem(options.voice, [id for id, _ in beats], elsewhere)
    return found or too_little_speech(folder, beats)


def check_lesson(path: Path) -> int:
    """Print what the lesson's video will show, or why the file cannot be shown."""
    from publish.kit.check import summary

    try:
        lesson = load_lesson(path)
    except LessonError as error:
        return _bad(f"lesson: {error}")
    unseen = font_problems(Course.of(lesson))
    if unseen:
        return _bad(*unseen)
    print("\n".join(summary(lesson)))
    return EXIT_OK


def _bad(*messages: str) -> int:
    """Say what is wrong, one line per problem, and exit 2."""
    for message in messages:
        for line in message.splitlines():
            print(f"render.py: {line}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(argv: list[str] | None = None) -> int:
    """:func:`main`, ended by SIGINT or SIGTERM whenever either arrives: one line, exit 130 or
    143, no traceback, and never an error reported in place of the interrupt."""
    from publish.render.interrupts import Interrupted, stop_on_signals

    came = stop_on_signals()
    try:
        code = main(argv)
        # Done: a signal from now on is held (and dropped at exit), not met by the interpreter's
        # shutdown, which no longer handles it (the run would end killed by it, with no word).
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        if not came:
            return code
    except (KeyboardInterrupt, Interrupted):
        pass
    except BrokenPipeError:  # `render.py --list | head`: the reader has all it wanted
        _quiet_stdout()
        return 128 + int(signal.SIGPIPE)
    # Stopped; or a stop came where it could not be raised and the run finished first.
    # From here on a second signal must not cut this short with a traceback.
    for each in STOPS:
        signal.signal(each, signal.SIG_IGN)
    print(INTERRUPTED, file=sys.stderr)
    return 128 + int(came[0] if came else signal.SIGINT)


def _quiet_stdout() -> None:
    """Standard output to /dev/null, so that flushing it at exit raises no second error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(run())
