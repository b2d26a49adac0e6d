"""``render.py --watch``: serve the preview page, watch the lesson, re-render on every save."""

from __future__ import annotations

import errno
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from attention_core import Lesson, LessonError, load_lesson
from publish.render.claim import claimed
from publish.render.interrupts import STOPS, Interrupted, stop_on_signals
from publish.render.options import LessonOptions
from publish.watch.server import serve
from publish.watch.session import Session
from publish.watch.state import State

__all__ = ["CODE", "PREVIEW", "watch"]

ROOT = Path(__file__).resolve().parents[2]
PREVIEW = "preview"
"""The preview's folder under the output folder: ``media/preview/``, never a render's own."""
WORDS = ROOT / "attention_core" / "words.toml"
"""The English words every lesson starts from (its own ``[words]`` are in its file)."""
CODE = ("scenes", "attention_core", "publish/render", "publish/narration", "publish/media")
"""What ``--watch-code`` watches too: the code a clip is made by."""


def watch(
    lesson_file: Path,
    options: LessonOptions,
    wanted: Sequence[str],
    port: int,
    code: bool,
    out: TextIO = sys.stdout,
) -> int:
    """Run the preview until Ctrl-C (130) or SIGTERM (143), as a render ends, or a port in use
    (2): ``options`` already point into the preview folder."""
    from publish.render.plan import choose
    from publish.render.selection import SelectionError

    def load() -> Lesson:
        lesson = load_lesson(lesson_file)
        try:
            choose(lesson, wanted)
        except SelectionError as error:
            raise LessonError(f"--scene: {error}") from None
        return lesson

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    # inside watchfiles' wait, whatever a handler raises comes out as KeyboardInterrupt: the
    # signals that came say which it was
    stopped_by = stop_on_signals()
    state = State()
    with claimed(options.run.quality_folder, options.run.claim):
        session = Session(options, state, load, wanted, say)
        try:
            server = serve(state, session.folder, port)
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            print(
                f"render.py --watch: port {port} on 127.0.0.1 is in use; pass another --port",
                file=sys.stderr,
            )
            return 2
        threading.Thread(target=server.serve_forever, name="preview-server", daemon=True).start()
        bound = server.server_address[1]
        try:  # from the line on, a signal stops the preview as it stops it later
            say(f"preview: http://127.0.0.1:{bound}/  (watching {lesson_file}; Ctrl-C stops)")
            session.start()
            _watch_files(lesson_file, code, session.saved)
        except (KeyboardInterrupt, Interrupted):
            pass
        finally:
            for each in STOPS:  # a second signal must not cut the clean-up short
                signal.signal(each, signal.SIG_IGN)
            server.shutdown()
            server.server_close()
            session.stop()
        say("preview stopped")
    return (128 + stopped_by[0]) if stopped_by else 0


def _watch_files(lesson_file: Path, code: bool, saved: Callable[[bool], None]) -> None:
    """Call ``saved`` on every change to the lesson or its words (``saved(True)``: the code)."""
    from watchfiles import watch as changes

    lesson, words = lesson_file.resolve(), WORDS.resolve()
    folders = {lesson.parent, words.parent}
    code_folders = [(ROOT / name).resolve() for name in CODE] if code else []

    def relevant(change: object, path: str) -> bool:
        where = Path(path)
        if where in (lesson, words):
            return True
        return where.suffix == ".py" and any(where.is_relative_to(f) for f in code_folders)

    # Editors save by writing a new file and renaming it: watch the folders, not the files.
    watched = sorted({*folders, *code_folders})
    for batch in changes(*watched, watch_filter=relevant, debounce=50, step=20):
        paths = {Path(path) for _, path in batch}
        saved(any(path.suffix == ".py" for path in paths))
