"""``render.py --watch`` end to end, on a copy of the lesson in a temporary folder: the page, its
state after an edit, a bad save and the recovery, the page in Chromium, a busy port, and Ctrl-C
or SIGTERM mid-render.

The edit tests share one preview (a module fixture: starting one and rendering its first clip
is most of their time), and each saves the lesson it starts from itself and waits until the
preview shows it, so each passes alone, after any other, or in any order. Each edits a number
or a caption no other test edits, so no other test's beats in the store change what it draws.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

from publish.presets import PREVIEW_QUALITY

from .conftest import ROOT

LESSON = (ROOT / "attention_core" / "lesson.toml").read_text("utf-8")
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path("/tmp/watch_shots")
"""Where the browser test leaves its screenshots, for a person to look at."""
KEYS = '[words.score.caption]\nkeys = "Each token holds out a key, to be matched on."'
"""A new caption for step 3's third beat."""
WAIT = 600.0
"""Seconds to wait for a render: generous, as the machine may be shared."""


@dataclass
class Preview:
    process: subprocess.Popen[str]
    url: str
    lesson: Path
    out: Path

    @property
    def beats(self) -> Path:
        """The preview's beat store: a beat's segment appears there once it is drawn."""
        return self.out / "preview" / PREVIEW_QUALITY / ".beats"

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}state.json", timeout=10) as response:
            data: dict[str, Any] = json.load(response)
            return data

    def until(self, what: str, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = self.state()
            if test(state):
                return state
            assert self.process.poll() is None, f"the preview stopped waiting for {what}"
            time.sleep(0.1)
        raise AssertionError(f"never {what}: {self.state()}")

    def save(self, text: str) -> int:
        """Save the lesson; the generation the preview will give the save."""
        generation = int(self.state()["generation"]) + 1
        self.lesson.write_text(text, "utf-8")
        return generation

    def show(self, text: str) -> dict[str, Any]:
        """Save the lesson and wait until the preview shows it, every clip in: where a test
        starts from, whatever the test before it left."""
        generation = self.save(text)
        return self.until(
            "showed the lesson to start from",
            lambda s: s["done"] and s["good"] == generation and s["error"] is None,
        )

    def clip(self, state: dict[str, Any]) -> dict[str, Any]:
        (clip,) = state["clips"]
        return dict(clip)

    def fetch(self, path: str) -> bytes:
        with urllib.request.urlopen(f"{self.url.rstrip('/')}{path}", timeout=10) as response:
            data: bytes = response.read()
            return data


def start_preview(folder: Path) -> Preview:
    """``render.py --watch`` of step 3 of a copy of the lesson, silent, on a free port, as
    soon as it serves (its first render has begun)."""
    lesson = folder / "lesson.toml"
    lesson.write_text(LESSON, "utf-8")
    out = folder / "media"
    command = [sys.executable, str(ROOT / "render.py"), "--watch", "--voice", "none"]
    args = ["--lesson", str(lesson), "--out", str(out), "--scene", "3", "--port", "0"]
    process = subprocess.Popen(
        [*command, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    first = process.stdout.readline()  # the served line: the port is bound and answering
    found = re.match(r"preview: (http://127\.0\.0\.1:\d+/) ", first)
    if not found:
        process.kill()
        _, errors = process.communicate()
        raise AssertionError(first + errors)
    return Preview(process, found[1], lesson, out)


def stopped(preview: Preview) -> None:
    """Killed, if it still runs (a test failed): no preview outlives its test."""
    if preview.process.poll() is None:
        preview.process.kill()
        preview.process.communicate()


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Preview]:
    """A preview of step 3 of a copy of the lesson, silent, first render done."""
    running = start_preview(tmp_path_factory.mktemp("watch"))
    try:
        running.until("made the first clip", lambda s: s["done"] and len(s["clips"]) == 1)
        yield running
    finally:
        stopped(running)


def a_new_key(text: str) -> str:
    """The lesson with a number of the last token's key changed (the weather's, step 3's last
    row)."""
    assert text.count("key = [0, 1, 0, 0]") == 1
    return text.replace("key = [0, 1, 0, 0]", "key = [0, 1, 0, 1]")


@pytest.mark.render
def test_an_edit_a_bad_save_and_the_recovery(preview: Preview) -> None:
    before = preview.clip(preview.show(LESSON))
    page = preview.fetch("/").decode("utf-8")
    assert "<video" in page

    generation = preview.save(a_new_key(LESSON))
    state = preview.until("showed the edit", lambda s: s["done"] and s["good"] == generation)
    clip = preview.clip(state)
    assert clip["generation"] == generation
    assert clip["video"] != before["video"]
    assert state["changed"]["clip"] == "03_score"
    assert state["changed"]["beat"] == "03_score-01"  # the table shows every key from beat 1
    assert state["error"] is None

    good = a_new_key(LESSON)
    preview.save(good.replace("[[tokens]]", "[[tokens]", 1))  # invalid TOML
    state = preview.until("showed the error", lambda s: s["error"] is not None)
    assert "lesson not loaded" in state["error"]
    assert preview.clip(state)["video"] == clip["video"]  # the last good video stays
    assert len(preview.fetch(clip["video"])) > 10_000

    key = re.search(r"(?m)^key = \[[^\]]*\]", good)
    assert key is not None
    preview.save(good.replace(key[0], "key = [1, 2]", 1))  # a failed validation
    state = preview.until("named the field", lambda s: "tokens[0].key" in (s["error"] or ""))
    assert preview.clip(state)["video"] == clip["video"]

    generation = preview.save(f"{good}\n{KEYS}\n")
    state = preview.until("recovered", lambda s: s["done"] and s["good"] == generation)
    assert state["error"] is None
    assert state["changed"]["beat"] == "03_score-03"  # that caption's beat alone
    assert state["changed"]["fresh"] == ["03_score-03"]
    assert "beat 3 of 7 rendered" in state["last"]


def weather(second: int) -> str:
    """The lesson with the weather token's key's second number ``second``: every beat of step
    3 changed."""
    return LESSON.replace("key = [0, 1, 0, 0]", f"key = [0, {second}, 0, 0]")


def early(generation: int) -> Callable[[dict[str, Any]], bool]:
    """Whether the preview shows the first beats of save ``generation``'s clip, the rest
    still rendering."""
    return lambda state: state["good"] == generation and not state["clips"][0]["complete"]


@pytest.mark.render
def test_a_newer_save_stops_the_render_it_outdates(preview: Preview) -> None:
    """The first save's clip shows its first changed beat at once, drawn by a process of its
    own, while the rest renders; the second save stops that rest at its next beat: none of
    those beats is stored, and the second save's clip is the one shown. An early clip
    outdated by a save that needs nothing rendered gives way to the last complete one."""
    preview.show(LESSON)
    before = set(preview.beats.glob("*.mp4"))
    first = preview.save(weather(2))
    clip = preview.clip(preview.until("showed the first beat", early(first)))
    assert clip["generation"] == first
    assert [beat["id"] for beat in clip["beats"]] == ["03_score-01"]  # a key edit: every beat
    assert clip["fresh"] == ["03_score-01"]
    assert len(preview.fetch(clip["video"])) > 10_000
    second = preview.save(weather(3))
    state = preview.until("showed the second", lambda s: s["done"] and s["good"] == second)
    assert (preview.out / "preview" / PREVIEW_QUALITY / ".stop" / str(first)).is_file()
    assert preview.clip(state)["generation"] == second
    assert preview.clip(state)["complete"]
    fresh = len(state["changed"]["fresh"])
    added = set(preview.beats.glob("*.mp4")) - before
    # the second's beats (and a tail), and the first's first beat, no other of the first's
    assert fresh + 1 <= len(added) <= fresh + 2

    shown = preview.clip(state)
    preview.until("showed another first beat", early(preview.save(weather(4))))
    undone = preview.save(weather(3))  # outdates it, and needs nothing rendered
    state = preview.until("undid it", lambda s: s["done"] and s["good"] == undone)
    assert preview.clip(state) == shown  # the last complete clip, not the early one


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: run scripts/setup.sh (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"],
        )
        yield launched
        launched.close()


@pytest.mark.browser
def test_the_page_plays_and_follows_an_edit(preview: Preview, browser: Browser) -> None:
    preview.show(LESSON)
    SHOTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    failed: list[str] = []
    page.on(
        "requestfailed",
        # A player cancels its own download of a clip when it seeks or swaps it: not a failure.
        lambda request: (
            None
            if "/media/" in request.url and request.failure == "net::ERR_ABORTED"
            else failed.append(f"{request.url} {request.failure}")
        ),
    )
    page.on(
        "response",
        lambda response: failed.append(response.url) if response.status >= 400 else None,
    )
    page.goto(preview.url)
    page.wait_for_function("document.querySelectorAll('#beats li').length === 7", timeout=30_000)
    page.wait_for_function("document.getElementById('video').readyState >= 2", timeout=30_000)
    page.click("#beats li:nth-child(2)")  # the second beat: the page jumps there and plays
    page.wait_for_function("document.getElementById('video').currentTime > 4", timeout=30_000)
    page.screenshot(path=str(SHOTS / "1_playing.png"))
    src = page.evaluate("document.getElementById('video').src")

    dot = 'dot = "{token}: the query times its key is {dot}; over {root}, {score}."'
    page.evaluate("document.getElementById('video').pause()")  # to find it where it jumped to
    generation = preview.save(f"{LESSON}\n[words.score.caption]\n{dot}\n")
    preview.until("showed the edit", lambda s: s["good"] == generation and s["done"])
    page.wait_for_function(f"document.getElementById('video').src !== {json.dumps(src)}")
    page.wait_for_function("document.querySelectorAll('#beats li.fresh').length > 0")
    page.wait_for_timeout(1500)
    page.screenshot(path=str(SHOTS / "2_after_edit.png"))
    fresh = page.evaluate("[...document.querySelectorAll('#beats li.fresh')].map(li => li.id)")
    assert fresh == ["03_score-04", "03_score-05", "03_score-06"]  # one entry, three rows
    at = page.evaluate("document.getElementById('video').currentTime")
    starts = preview.clip(preview.state())["beats"]
    assert abs(at - starts[3]["start"]) < 0.1  # it jumped to the first changed beat

    preview.save(LESSON.replace("[[tokens]]", "[[tokens]", 1))
    page.wait_for_selector("#error", state="visible")
    assert "lesson not loaded" in page.inner_text("#error")
    page.screenshot(path=str(SHOTS / "3_bad_save.png"))
    assert not failed, f"failed requests: {failed}"
    page.close()


@pytest.mark.render
def test_a_busy_port_is_one_line_and_exit_2(preview: Preview, tmp_path: Path) -> None:
    port = int(preview.url.rsplit(":", 1)[1].strip("/"))
    result = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "--watch", "--voice", "none"]
        + ["--out", str(tmp_path / "media"), "--port", str(port), "--scene", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"render.py --watch: port {port} on 127.0.0.1 is in use; pass another --port"
    ]


@pytest.mark.render
@pytest.mark.parametrize(
    ("stop", "status", "drawing"),
    [(signal.SIGINT, 130, True), (signal.SIGTERM, 143, False)],
    ids=["SIGINT mid-render", "SIGTERM as it serves"],
)
def test_a_signal_stops_it_as_a_render_stops_leaving_nothing_half_written(
    tmp_path: Path, stop: signal.Signals, status: int, drawing: bool
) -> None:
    """A preview of its own, stopped by a signal: exit 128 + its number (as a render's), one
    line, no traceback, nothing half-written. Ctrl-C once the first render has drawn a beat
    and has more to draw; SIGTERM (a service manager's stop, at any moment) as soon as the
    preview serves, its workers still starting."""
    preview = start_preview(tmp_path)
    try:
        if drawing:
            preview.until(
                "drew a beat of the first clip",
                lambda s: not s["done"] and any(preview.beats.glob("*.mp4")),
            )
        preview.process.send_signal(stop)
        output, errors = preview.process.communicate(timeout=60)
    finally:
        stopped(preview)
    assert preview.process.returncode == status
    assert output.strip().splitlines()[-1] == "preview stopped"
    assert errors == ""
    folder = preview.out / "preview" / PREVIEW_QUALITY
    partial = [p for p in preview.out.rglob("*") if ".partial" in p.name]
    assert not partial, partial
    assert not (folder / ".stop").exists()
    for clip in (folder / "clips").glob("*.mp4"):
        assert clip.stat().st_size > 10_000
