"""Shared fixtures: the full lesson rendered once, at low quality, with the lecture kit."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from publish.presets import FULL_NAME, QUALITIES, Quality

ROOT = Path(__file__).parent.parent
LOW = QUALITIES["low"]
DRAFT = QUALITIES["draft"]
"""480p at 8 fps: for a render whose test proves what is the same at any frame rate (what is
typeset, shown, heard, captioned, described or printed), drawn and encoded in about half of
low's frames. The session render stays at low: its clips' lengths are the dry runs' (15 fps)."""
NARRATED = DRAFT
"""The narrated lesson's quality."""


@dataclass(frozen=True)
class Rendered:
    """The full set rendered once, and how the run went."""

    out: Path
    stdout: str
    seconds: float
    cpu: float
    """User and system seconds of render.py and every process it waited for (getrusage)."""

    @property
    def folder(self) -> Path:
        return self.out / LOW.name

    @property
    def manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.folder / "manifest.json").read_text("utf-8"))
        return data

    @property
    def full(self) -> Path:
        return self.folder / f"{FULL_NAME}.mp4"


def cli(
    out: Path, *args: str, timeout: float = 600, quality: Quality = LOW
) -> subprocess.CompletedProcess[str]:
    """Run render.py at low quality (or ``quality``), as a user would (output piped: plain
    progress lines); silent (``--voice none``) unless ``args`` name a voice."""
    voice = [] if "--voice" in args or "--script" in args else ["--voice", "none"]
    command = [sys.executable, str(ROOT / "render.py"), "--quality", quality.name]
    command += ["--out", str(out)]
    return subprocess.run(
        [*command, *voice, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# --- two workers (pytest-xdist: pyproject's addopts say -n 2 --dist loadfile) ---------------

DRY_RUNS = "the dry-run readers"
DRY_RUN_READERS = frozenset(
    {
        "test_continuity.py",
        "test_cues.py",
        "test_descriptions.py",
        "test_scenes.py",
        "test_steps.py",
        "test_timing.py",
        "test_unchanged_screens.py",
    }
)
"""The modules that read the dry runs of the built-in lessons' steps, which ``scenes.probe``
makes once per process: one unit of work, so the run makes them once, not once per worker."""

SLOWEST_FIRST = (
    "test_narration.py",
    "test_cluster.py",
    DRY_RUNS,
    "test_beats.py",
    "test_toolchain_identity.py",
    "test_hostile_text.py",
    "test_odd_paths.py",
    "test_described.py",
    "test_lecture_kit.py",
    "test_render.py",
    "test_grid_scenes.py",
    "test_watch.py",
    "test_handout_series.py",
    "test_scripts.py",
    "test_interrupts.py",
    "test_cache_keys.py",
    "test_random_lessons.py",
    "test_twin.py",
    "test_handout_print.py",
)
"""The units that take longest (CPU seconds, measured), longest first: handed out before the
rest, so that the quick modules fill in at the end and the two workers finish together. Out of
date, it costs minutes, never a result."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's ``--dist loadfile``, with the dry-run readers one unit and the slowest
    units first. A module's tests run on one worker, in their order, so each module fixture is
    made once and a test may follow the one before it, as in a run without xdist."""
    if config.getoption("dist") != "loadfile":
        return None
    from collections import OrderedDict

    from xdist.scheduler import LoadFileScheduling

    def rank(scope: str) -> int:
        name = Path(scope).name
        return SLOWEST_FIRST.index(name) if name in SLOWEST_FIRST else len(SLOWEST_FIRST)

    class ByModule(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return DRY_RUNS if Path(module).name in DRY_RUN_READERS else module

        def _assign_work_unit(self, node: Any) -> None:
            # The queue is made (in collection order, or by size) just before the first unit
            # is handed out; sorting is stable, so the rest keep that order.
            self.workqueue = OrderedDict(sorted(self.workqueue.items(), key=lambda u: rank(u[0])))
            super()._assign_work_unit(node)

    return ByModule(config, log)


@pytest.fixture(scope="session", autouse=True)
def own_media_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """manim's default media folder (``./media``, where in-process dry runs keep their TeX) is
    this test run's own: two runs, in one checkout or two, never write the same files."""
    from manim import config

    config.media_dir = str(tmp_path_factory.mktemp("manim_media"))


@pytest.fixture(scope="session", autouse=True)
def own_user_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """This test run's own user cache (``XDG_CACHE_HOME``: the typeset shelf, the digest memo),
    shared by its workers and every render they start, as one user's runs share theirs: the
    run starts from nothing, and never reads or fills the cache of the person running it.
    A test that proves a render does not depend on another's gives that one a cache of its
    own."""
    os.environ["XDG_CACHE_HOME"] = str(_run_folder(tmp_path_factory) / "user_cache")


@pytest.fixture(scope="session", autouse=True)
def shared_typesetting(own_user_cache: None) -> Iterator[None]:
    """The tests' own dry runs keep what they typeset on the run's shelf, as a render's
    processes do, and load what those typeset: a text made once in the run, whoever makes it,
    is parsed once (a dry run of a lesson whose texts are shelved takes about a third less
    CPU). The shelf is named when first asked, so a run that typesets nothing pays nothing."""
    from scenes import typeset

    before = typeset.shelve(RunShelf())
    yield
    typeset.shelve(before)


class RunShelf:
    """The run's typeset shelf (``publish.render.plan.typeset_shelf`` in the run's user
    cache), its salt (the code's and the toolchain's digests: seconds) found on first use."""

    @cached_property
    def shelf(self) -> Any:
        from publish.render.file_digests import cache_folder
        from publish.render.plan import typeset_shelf

        return typeset_shelf(cache_folder() / "typeset")

    def load(self, key: tuple[Any, ...]) -> Any:
        return self.shelf.load(key)

    def keep(self, key: tuple[Any, ...], made: Any) -> None:
        self.shelf.keep(key, made)


def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the whole run: its workers' parent under xdist, else the base itself."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], dict[str, Any]]
) -> tuple[Path, dict[str, Any]]:
    """``make(folder)`` run once for the whole test run, into ``folder``, however many xdist
    workers ask: the first takes a lock and makes it; the others wait on the lock, then read the
    folder and the JSON ``make`` returned. Each worker's base temporary folder is its own
    (``…/pytest-N/popen-gw0``); their parent is the run's, so one run never reads another's.
    A ``make`` that fails leaves nothing, and the next worker to ask tries again (and fails as
    loudly). The folder is read only from then on: a test that writes copies it first."""
    shared = _run_folder(tmp_path_factory)
    folder, made = shared / name, shared / f"{name}.json"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the worker dies
        if not made.is_file():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed make left
            folder.mkdir()
            result = make(folder)
            made.write_text(json.dumps(result), "utf-8")
        data: dict[str, Any] = json.loads(made.read_text("utf-8"))
        return folder, data


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    """The default lesson rendered with its slides, once for the run (shared by xdist workers)."""

    def render(out: Path) -> dict[str, Any]:
        before = children_cpu()
        started = time.monotonic()
        result = cli(out, "--slides")
        assert result.returncode == 0, result.stdout + result.stderr
        seconds = time.monotonic() - started
        return {"stdout": result.stdout, "seconds": seconds, "cpu": children_cpu() - before}

    out, run = once_per_run(tmp_path_factory, "rendered", render)
    return Rendered(out, run["stdout"], run["seconds"], run["cpu"])


def children_cpu() -> float:
    """User and system seconds of the processes this one has waited for, theirs included."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="session")
def narration_script(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The default lesson's narration script, as ``render.py --script`` writes it (a dry run of
    every step), written once for the run: the recorded-voice tests read it aloud."""

    def write(folder: Path) -> dict[str, Any]:
        script = folder / "script.txt"
        done = cli(folder / "media", "--script", str(script), timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        return {"text": script.read_text("utf-8")}

    _, made = once_per_run(tmp_path_factory, "script", write)
    text: str = made["text"]
    return text


SCRIPT_BEAT = re.compile(r"^(\d\d_\w+-\d\d)  \(animation ([\d.]+) s\)\n(.+)$", re.M)
"""A beat of the narration script: its id, its animation's seconds, then its words."""
LONG_BEAT = "03_score-03"
"""The beat the recordings read three times over, longer than its animation."""


@dataclass(frozen=True)
class Recorded:
    """The lecturer's own recordings (espeak-ng reading the script, one WAV per beat; beat
    :data:`LONG_BEAT` read three times over), and step 3 rendered with them (at
    :data:`NARRATED` quality: ``out / NARRATED.name``)."""

    recordings: Path
    beats: dict[str, float]
    """Every beat of the script, in order, with its animation's seconds."""
    out: Path
    stdout: str


@pytest.fixture(scope="session")
def recorded(tmp_path_factory: pytest.TempPathFactory, narration_script: str) -> Recorded:
    """Made once for the run: the recorded-voice tests (tests/test_narration.py,
    tests/test_voice_checks.py) read the one render, and copy the recordings they change."""

    def record(folder: Path) -> dict[str, Any]:
        recordings = folder / "recordings"
        recordings.mkdir()
        beats = {}
        for beat, needs, words in SCRIPT_BEAT.findall(narration_script):
            said = " ".join([words] * 3) if beat == LONG_BEAT else words
            wav = recordings / f"{beat}.wav"
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(wav), said], check=True)
            beats[beat] = float(needs)
        result = cli(folder / "media", "--voice", str(recordings), "--scene", "3", quality=NARRATED)
        assert result.returncode == 0, result.stdout + result.stderr
        return {"beats": beats, "stdout": result.stdout}

    folder, made = once_per_run(tmp_path_factory, "recorded", record)
    return Recorded(folder / "recordings", made["beats"], folder / "media", made["stdout"])


@pytest.fixture(scope="session")
def narrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default lesson narrated by its default voice (Piper's joe), at :data:`NARRATED`
    quality, once for the run: its output folder (tests/test_narration.py hears it,
    tests/test_described.py describes a copy of it)."""

    def render(out: Path) -> dict[str, Any]:
        result = cli(out, "--voice", "joe", quality=NARRATED)
        assert result.returncode == 0, result.stdout + result.stderr
        return {}

    out, _ = once_per_run(tmp_path_factory, "narrated", render)
    return out


@pytest.fixture
def copy_of(rendered: Rendered, tmp_path: Path) -> Path:
    """A private copy of the rendered output folder (with its caches) to run again into."""
    out = tmp_path / "media"
    shutil.copytree(rendered.out, out, symlinks=True)
    return out


TITLE = "Transformers, by hand"
"""The series' title (lessons/series.toml)."""


@dataclass(frozen=True)
class CourseRun:
    folder: Path
    stdout: str

    def manifest(self, name: str) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.folder / name / "manifest.json").read_text())
        return data


SERIES = ROOT / "lessons" / "series.toml"


@pytest.fixture(scope="session")
def series(rendered: Rendered, tmp_path_factory: pytest.TempPathFactory) -> CourseRun:
    """lessons/series.toml rendered once as a course, into a copy of the session render's folder
    (so Day 004's clips are copied from its cache and only Day 005 and Day 006 are rendered);
    once for the run, like ``rendered``."""

    def render(folder: Path) -> dict[str, Any]:
        out = folder / "media"
        shutil.copytree(rendered.out, out, symlinks=True)
        result = cli(out, "--course", str(SERIES), timeout=1200)
        assert result.returncode == 0, result.stdout + result.stderr
        return {"stdout": result.stdout}

    folder, run = once_per_run(tmp_path_factory, "series", render)
    return CourseRun(folder / "media" / LOW.name, run["stdout"])


def series_lessons() -> dict[str, tuple[int, str]]:
    """Each lesson of the series: its folder's name, how many steps it has and its whole
    video's name, in the course's order."""
    from attention_core import default_lesson, load_lesson
    from publish.presets import full_name

    listed = tomllib.loads(SERIES.read_text("utf-8"))["lessons"]
    lessons = {}
    for entry in listed:
        if entry["file"] == "default":
            name, lesson = "default", default_lesson()
        else:
            path = SERIES.parent / entry["file"]
            name, lesson = path.stem, load_lesson(path)
        lessons[name] = (len(lesson.steps), full_name(lesson, name))
    return lessons
