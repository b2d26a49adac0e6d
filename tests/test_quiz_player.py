"""The quick check inside the video and the xAPI statements of a viewing: its data checked
against the worked lesson, then the embed page worked in Chromium on Day 004 (``rendered``)
and Day 006 (``series``), by keyboard, and axe-core run over it with the quiz open."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Frame, Page

from attention_core import Lesson, default_lesson, load_lesson
from attention_core.worked import Quiz, worked
from publish.kit.quiz_player import quiz_data
from publish.media.manifest import Chapter, FileRef, FullEntry
from tests.conftest import ROOT, CourseRun, Rendered
from tests.test_accessibility import AWAY, AXE, RUN_AXE, TAGS, driver  # noqa: F401 (a fixture)
from tests.test_lecture_kit import browser  # noqa: F401 (a fixture)

DAY_006 = ROOT / "lessons" / "day006_heads.toml"
STORE = "attention-by-hand.xapi"
VIDEO = "https://w3id.org/xapi/video"
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
SEGMENTS = re.compile(r"^\d+(\.\d+)?\[\.\]\d+(\.\d+)?(\[,\]\d+(\.\d+)?\[\.\]\d+(\.\d+)?)*$")


def _full(lesson: Lesson) -> FullEntry:
    """A whole video's entry for ``lesson``, a minute per step: the quiz needs no render."""
    chapters = tuple(Chapter(step, 60.0 * i, 60.0 * (i + 1)) for i, step in enumerate(lesson.steps))
    ref = FileRef("x.txt", 0, "")
    return FullEntry(
        "x.mp4", lesson.title, 60.0 * len(chapters), 1, 1, 1.0, 0, "", chapters, (), (), ref
    )


def _expected(lesson: Lesson) -> tuple[list[str], str, list[str]]:
    """The options as the video offers them, the right one's line and every explanation,
    read from the worked lesson and the words as the handout words them."""
    w, words = worked(lesson), lesson.words
    if lesson.steps == default_lesson().steps:
        q = w.quiz
        why = words.say(
            "handout.line.why", rival=q.rival, filler=q.filler, ratio=q.ratio, count=q.count
        )
        answer = words.say("handout.line.pick", letter=q.letter, option=q.answer)
        return list(q.options), answer, [why]
    s = w.share_quiz
    explanations = []
    for i, (option, slip) in enumerate(zip(s.options, s.slips, strict=True)):
        if slip == "right":
            row, cell = s.grid.rows[s.numbers.quiz.asker], s.grid.cells[s.numbers.quiz.asker]
            to = cell[s.numbers.quiz.to]
            explanations.append(
                words.say(
                    "handout.line.share_work",
                    asker=s.asker.short,
                    to=s.to.short,
                    total=row.total,
                    pull=to.pull,
                    share=to.share,
                )
            )
        else:
            explanations.append(
                words.say(
                    "handout.line.slip",
                    letter=Quiz.letter_of(i),
                    option=option,
                    slip=words[f"answer.line.slip_{slip}"],
                )
            )
    answer = words.say("handout.line.pick", letter=s.letter, option=s.answer)
    return list(s.options), answer, explanations


def right_letter(lesson: Lesson) -> str:
    """The right option's letter as attention_core works it out, never as the page holds it."""
    return _right(lesson)[0]


def _right(lesson: Lesson) -> tuple[str, str]:
    """The right option's letter and text, from :func:`worked`."""
    w = worked(lesson)
    q = w.quiz if lesson.steps == default_lesson().steps else w.share_quiz
    return q.letter, q.answer


def right_option(tab: Page | Frame, lesson: Lesson) -> int:
    """Where the option lettered :func:`right_letter` sits among the page's radio buttons,
    read from the labels the viewer sees (each opens with its letter in bold)."""
    labels = "[...document.querySelectorAll('form.quiz label b')]"
    letters = tab.evaluate(f"{labels}.map(b => b.textContent)")
    assert right_letter(lesson) in letters, letters
    at: int = letters.index(right_letter(lesson))
    return at


# --- the data the page is given ---------------------------------------------------------------


@pytest.mark.parametrize("lesson", [default_lesson(), load_lesson(DAY_006)], ids=["004", "006"])
def test_the_quiz_offers_the_videos_options_and_explains_each(lesson: Lesson) -> None:
    data = quiz_data(lesson, _full(lesson), "whole")
    assert data is not None
    options, answer, explanations = _expected(lesson)
    assert [o["text"] for o in data["options"]] == options
    assert [o["letter"] for o in data["options"]] == list("ABCD")
    assert data["answer"] == answer
    assert [o["why"] for o in data["options"] if o["why"]] == explanations
    assert data["at"] == 60.0 * lesson.steps.index("answer")  # where the answer step begins
    assert data["legend"] == lesson.words["handout.heading.quiz"]
    right = data["options"][data["correct"]]
    assert (right["letter"], right["text"]) == _right(lesson), "worked()'s option is right"


def test_a_lesson_without_the_answer_step_asks_nothing() -> None:
    lesson = default_lesson()
    from dataclasses import replace

    shorter = replace(lesson, steps=lesson.steps[:-1])
    assert quiz_data(shorter, _full(shorter), "whole") is None
    assert quiz_data(lesson, _full(shorter), "whole") is None  # chapters not one per step


# --- the page, in Chromium ----------------------------------------------------------------------


def open_page(browser: Browser, page: Path, query: str = "") -> Page:  # noqa: F811
    """The page from file://, its statements store emptied, the whole video ready and muted."""
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    tab.goto(page.resolve().as_uri() + query)
    tab.evaluate(f"localStorage.removeItem('{STORE}')")
    tab.reload()
    tab.wait_for_function("document.getElementById('whole').readyState >= 2", timeout=30_000)
    tab.evaluate("window.v = document.getElementById('whole'); v.muted = true")
    return tab


def settings_of(tab: Page) -> dict[str, Any]:
    """The quiz's data as the page holds it (the argument of the player's script)."""
    script = tab.evaluate("document.querySelector('.player script').textContent")
    given = re.search(r"\}\)\((\{.*\})\);$", script, re.S)
    assert given is not None
    data: dict[str, Any] = json.loads(given.group(1))
    return data


def play_into_quiz(tab: Page, at: float) -> None:
    """Play across the quiz's moment, from a second before it, and wait for the question."""
    tab.evaluate(f"v.currentTime = {at - 1.0}")
    tab.wait_for_function("!v.seeking")
    tab.evaluate("v.play()")
    tab.wait_for_function("document.querySelector('form.quiz').dataset.state == 'asking'")


def answer_by_keyboard(tab: Page, option: int) -> None:
    """Arrow keys to the option (focus starts on the first), Tab to the button, Enter."""
    tab.keyboard.press("Space")  # checks the focused first option
    for _ in range(option):
        tab.keyboard.press("ArrowDown")
    tab.keyboard.press("Tab")
    tab.keyboard.press("Enter")
    tab.wait_for_function("document.querySelector('form.quiz').dataset.state == 'answered'")


def statements(tab: Page) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = tab.evaluate(f"JSON.parse(localStorage.getItem('{STORE}'))")
    return kept


def _lesson_page(which: str, rendered: Rendered, series: CourseRun) -> tuple[Lesson, Path]:
    if which == "004":
        return default_lesson(), rendered.folder / "index.html"
    return load_lesson(DAY_006), series.folder / "day006_heads" / "index.html"


@pytest.mark.render
@pytest.mark.browser
@pytest.mark.parametrize("which", ["004", "006"])
def test_the_quiz_pauses_at_its_beat_takes_an_answer_and_explains_it(
    which: str,
    rendered: Rendered,
    series: CourseRun,
    browser: Browser,  # noqa: F811
) -> None:
    lesson, page = _lesson_page(which, rendered, series)
    options, answer, explanations = _expected(lesson)
    tab = open_page(browser, page)
    at = settings_of(tab)["at"]
    play_into_quiz(tab, at)

    state = tab.evaluate(
        """({ paused: v.paused, time: v.currentTime, focused: document.activeElement.type,
             inForm: document.querySelector('form.quiz').contains(document.activeElement),
             captions: v.textTracks[0].mode, cues: v.textTracks[0].activeCues.length,
             legend: document.querySelector('form.quiz legend').textContent,
             labels: [...document.querySelectorAll('form.quiz label')].map(l => l.textContent) })"""
    )
    assert state["paused"]
    # where the answer step begins (0.1 s before it), give or take a late frame on a busy machine
    assert at - 0.4 < state["time"] < at + 0.25, "paused where the answer step begins"
    assert state["focused"] == "radio", "focus moves to the question"
    assert state["inForm"]
    assert state["captions"] == "showing", "the captions stay on"
    assert state["cues"] >= 1
    assert lesson.words["handout.heading.quiz"] in state["legend"]
    assert state["labels"] == [
        f" {letter} {text}" for letter, text in zip("ABCD", options, strict=True)
    ]

    right = right_option(tab, lesson)
    wrong = (right + 1) % 4
    answer_by_keyboard(tab, wrong)
    result = tab.evaluate(
        """({ verdict: document.querySelector('form.quiz .verdict').textContent,
             answer: document.querySelector('form.quiz .result .answer').textContent,
             why: [...document.querySelectorAll('form.quiz .explanations li')]
               .map(li => li.textContent),
             live: document.querySelector('form.quiz .result').getAttribute('aria-live'),
             recorded: document.querySelector('form.quiz').dataset.answer,
             focused: document.activeElement.className, paused: v.paused })"""
    )
    assert result["verdict"] == lesson.words["page.line.wrong"]
    assert result["answer"] == answer
    assert result["why"] == explanations
    assert result["live"] == "polite"
    assert result["recorded"] == "ABCD"[wrong]
    assert result["paused"], "the video waits while the explanation is read"
    answered = [s for s in statements(tab) if s["verb"]["id"].endswith("/answered")]
    assert [(s["result"]["response"], s["result"]["success"]) for s in answered] == [
        ("ABCD"[wrong], False)
    ]

    assert result["focused"] == "continue"
    tab.keyboard.press("Enter")
    tab.wait_for_function("!v.paused && v.currentTime > " + str(at))
    assert tab.evaluate("document.querySelector('form.quiz').hidden")
    tab.close()


@pytest.mark.render
@pytest.mark.browser
def test_quiz_off_plays_through_the_question(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    tab = open_page(browser, rendered.folder / "index.html", "?quiz=off")
    at = settings_of(tab)["at"]
    tab.evaluate(f"v.currentTime = {at - 0.5}")
    tab.wait_for_function("!v.seeking")
    tab.evaluate("v.play()")
    tab.wait_for_function(f"v.currentTime > {at + 0.3}")
    assert not tab.evaluate("v.paused")
    assert tab.evaluate("document.querySelector('form.quiz').hidden")
    tab.close()


@pytest.mark.render
@pytest.mark.browser
def test_a_viewer_who_skipped_the_question_is_asked_at_the_end(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    tab = open_page(browser, rendered.folder / "index.html")
    tab.evaluate("v.currentTime = v.duration - 0.5")
    tab.wait_for_function("!v.seeking")
    tab.evaluate("v.play()")
    tab.wait_for_function("document.querySelector('form.quiz').dataset.state == 'asking'")
    assert tab.evaluate("v.ended")
    answer_by_keyboard(tab, right_option(tab, default_lesson()))
    verdict = tab.evaluate("document.querySelector('form.quiz .verdict').textContent")
    assert verdict == default_lesson().words["page.line.right"], "worked()'s letter is right"
    tab.keyboard.press("Enter")  # continue: the video stays at its end, not played over
    assert tab.evaluate("[v.ended, v.paused]") == [True, True]
    tab.close()


REQUIRED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # verb: (result extensions, context extensions beyond session-id), per the Video Profile
    "initialized": ((), ("length", "completion-threshold")),
    "played": (("time",), ()),
    "paused": (("time", "progress", "played-segments"), ("length",)),
    "seeked": (("time-from", "time-to"), ()),
    "completed": (("time", "progress", "played-segments"), ("length", "completion-threshold")),
}


@pytest.mark.render
@pytest.mark.browser
def test_one_viewing_emits_the_profiles_statements_in_order(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    """Play, seek to the quiz, answer it right, play on, seek near the end, play to the end."""
    tab = open_page(browser, rendered.folder / "index.html")
    at = settings_of(tab)["at"]
    tab.evaluate("v.play()")
    # The page follows the position once per drawn frame: wait some frames past 0.5 s.
    tab.wait_for_function("v.currentTime > 0.6")
    play_into_quiz(tab, at)
    answer_by_keyboard(tab, right_option(tab, default_lesson()))
    tab.keyboard.press("Enter")  # continue
    tab.wait_for_function(f"!v.paused && v.currentTime > {at}")
    tab.evaluate("v.currentTime = v.duration - 0.5")
    tab.wait_for_function("v.ended", timeout=30_000)
    tab.wait_for_function(
        f"JSON.parse(localStorage.getItem('{STORE}')).at(-1).verb.display['en-US'] == 'completed'"
    )
    made = statements(tab)
    tab.close()

    verbs = [s["verb"]["display"]["en-US"] for s in made]
    assert verbs == [
        "initialized",
        "played",
        "seeked",  # to a second before the quiz
        "paused",  # by the quiz
        "answered",
        "played",  # continue
        "seeked",  # near the end
        "paused",  # the end
        "completed",
    ]
    sessions = {s["context"]["extensions"][f"{VIDEO}/extensions/session-id"] for s in made}
    assert len(sessions) == 1
    assert [s["timestamp"] for s in made] == sorted(s["timestamp"] for s in made)
    for statement in made:
        assert UUID.match(statement["id"])
        assert {"id": VIDEO} in [
            {"id": c["id"]} for c in statement["context"]["contextActivities"]["category"]
        ]
        verb = statement["verb"]["display"]["en-US"]
        if verb == "answered":
            continue
        assert statement["object"]["definition"]["type"] == f"{VIDEO}/activity-type/video"
        results, contexts = REQUIRED[verb]
        got = statement.get("result", {}).get("extensions", {})
        assert {f"{VIDEO}/extensions/{name}" for name in results} <= got.keys(), verb
        context = statement["context"]["extensions"]
        assert {f"{VIDEO}/extensions/{name}" for name in contexts} <= context.keys(), verb

    ext = lambda s, name: s["result"]["extensions"][f"{VIDEO}/extensions/{name}"]  # noqa: E731
    first_seek, quiz_pause, answered, last_seek, end, completed = (
        made[2],
        made[3],
        made[4],
        made[6],
        made[7],
        made[8],
    )
    assert 0.5 <= ext(first_seek, "time-from") < 5
    assert ext(first_seek, "time-to") == pytest.approx(at - 1.0, abs=0.1)  # a frame
    assert at - 0.4 < ext(quiz_pause, "time") < at + 0.25
    assert SEGMENTS.match(ext(end, "played-segments"))
    assert 0 < ext(completed, "progress") < 0.1  # most of the video was skipped
    assert completed["result"]["completion"] is True
    assert completed["result"]["duration"].startswith("PT")
    length = completed["context"]["extensions"][f"{VIDEO}/extensions/length"]
    assert ext(completed, "time") == pytest.approx(length, abs=0.05)
    assert ext(last_seek, "time-to") == pytest.approx(length - 0.5, abs=0.1)  # a frame
    definition = answered["object"]["definition"]
    assert definition["type"] == "http://adlnet.gov/expapi/activities/cmi.interaction"
    assert definition["interactionType"] == "choice"
    assert answered["result"]["success"] is True
    assert answered["result"]["response"] == right_letter(default_lesson())
    assert definition["correctResponsesPattern"] == [right_letter(default_lesson())]


@pytest.mark.render
@pytest.mark.browser
def test_the_page_with_the_quiz_open_passes_axe(
    rendered: Rendered,
    driver: Any,  # noqa: F811
) -> None:
    page = rendered.folder / "index.html"
    driver.get(page.resolve().as_uri())
    driver.execute_async_script(
        """const done = arguments[0];
        const v = document.getElementById('whole');
        const form = document.querySelector('form.quiz');
        const at = JSON.parse(document.querySelector('.player script').textContent
          .match(/\\}\\)\\((\\{.*\\})\\);$/s)[1]).at;
        v.muted = true;
        v.addEventListener('seeked', () => v.play(), { once: true });
        new MutationObserver(() => { if (!form.hidden) done(); })
          .observe(form, { attributes: true });
        v.currentTime = at - 0.5;"""
    )
    assert not driver.execute_script("return document.querySelector('form.quiz').hidden")
    driver.execute_script(AXE.read_text("utf-8"))
    assert driver.execute_async_script(RUN_AXE, TAGS) == []
    assert driver.execute_script(AWAY) == [], "the page asked the network"


class _Store(BaseHTTPRequestHandler):
    """A learning record store's statements resource, as far as the page uses it: CORS for a
    page opened from disk, then every POST kept with its headers."""

    received: list[tuple[str, dict[str, str], dict[str, Any]]] = []

    def do_OPTIONS(self) -> None:  # noqa: N802 (http.server's naming)
        self.send_response(204)
        self._allow()
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.received.append((self.path, dict(self.headers), body))
        self.send_response(200)
        self._allow()
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps([body["id"]]).encode())

    def _allow(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "POST")
        self.send_header(
            "Access-Control-Allow-Headers", "Content-Type, Authorization, X-Experience-API-Version"
        )
        self.send_header("Access-Control-Allow-Private-Network", "true")

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.mark.render
@pytest.mark.browser
def test_statements_go_to_the_lrs_given_with_its_auth(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
) -> None:
    _Store.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Store)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        endpoint = f"http://127.0.0.1:{server.server_port}/xapi/"
        query = "?" + urlencode({"xapi": endpoint, "auth": "Basic dGVzdDp0ZXN0"})
        tab = browser.new_page()
        tab.goto((rendered.folder / "index.html").resolve().as_uri() + query)
        tab.wait_for_function("document.getElementById('whole').readyState >= 2")
        tab.evaluate("window.v = document.getElementById('whole'); v.muted = true; v.play()")
        tab.wait_for_function("v.currentTime > 0.3")
        tab.evaluate("v.pause()")
        for _ in range(50):  # sent one after another: wait for the last
            if [b for _, _, b in _Store.received if b["verb"]["display"]["en-US"] == "paused"]:
                break
            tab.wait_for_timeout(100)
        kept = tab.evaluate(f"JSON.parse(localStorage.getItem('{STORE}') || '[]')")
        tab.close()
    finally:
        server.shutdown()
    assert [body["verb"]["display"]["en-US"] for _, _, body in _Store.received] == [
        "initialized",
        "played",
        "paused",
    ]
    for path, headers, _ in _Store.received:
        assert path == "/xapi/statements"
        assert headers["Authorization"] == "Basic dGVzdDp0ZXN0"
        assert headers["X-Experience-API-Version"] == "1.0.3"
        assert headers["Content-Type"] == "application/json"
    ids = {body["id"] for _, _, body in _Store.received}
    assert not [s for s in kept if s["id"] in ids], "sent, so not kept in the browser"
