"""The lecture kit: beats, the handout's numbers, and the page, deck and .pptx of a real render.

The page and the deck are loaded in Debian's Chromium (driven by playwright, no browser download)
from ``file://`` with every other request blocked and recorded.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Browser, Route, sync_playwright
from pptx import Presentation

import render
from attention_core import attend, english
from attention_core import formatting as fmt
from publish.kit.deck import deck_html
from publish.kit.embed import embed_html
from publish.kit.handout import handout_html, print_pdf
from publish.kit.powerpoint import P14, write_pptx
from publish.kit.twin import twin_html
from publish.media.captions import Cue, parse_srt
from publish.media.clip_beats import Beat, Step, beats_of, steps_of
from publish.media.manifest import ClipEntry, FileRef
from publish.presets import FULL_NAME
from scenes import SCENES

from .conftest import Rendered
from .probe import NUMBER
from .scene_checks import allowed_numbers, lesson_texts
from .test_scenes import LESSONS, TRANSLATED, _words, probe

CHROMIUM = Path("/usr/bin/chromium")
WORKED = SCENES[2:]
"""The steps that work the maths out (after the title and the overview): the handout's content."""


# --- pure parts -------------------------------------------------------------------------------


def test_beats_run_from_cue_to_cue_and_tile_the_clip() -> None:
    cues = [Cue(0, 4000, "one"), Cue(4500, 9000, "two"), Cue(9000, 9500, "three")]
    assert beats_of(cues, 10.0) == (
        Beat(0.0, 4.5, "one"),
        Beat(4.5, 9.0, "two"),
        Beat(9.0, 10.0, "three"),
    )
    assert beats_of([Cue(700, 900, "late")], 2.0) == (Beat(0.0, 2.0, "late"),)
    assert beats_of([], 3.0) == (Beat(0.0, 3.0, ""),)


MP4 = "video/mp4"
CLIP = ClipEntry(
    "01_x.mp4", 1, "X", "X", 2.0, 854, 480, 15, 1, "0", FileRef("01_x.png", 1, "0"), None, ()
)
"""A clip as the manifest lists it, for pages built without a render."""


def test_a_caption_cannot_break_out_of_the_deck_script() -> None:
    caption = 'Ends </script><script>alert("x")</script> & “quotes”'
    page = deck_html(LESSONS["default"], [Step(CLIP, None, (Beat(0.0, 2.0, caption),))], MP4)
    assert json.loads(_deck_data(page))["steps"][0]["beats"] == [[0.0, 2.0, caption]]


def _deck_data(page: str) -> str:
    data = re.search(r'<script type="application/json" id=deck-data>(.*?)</script>', page, re.S)
    assert data is not None
    return data.group(1)


def test_slides_need_mp4(capsys: pytest.CaptureFixture[str]) -> None:
    assert render.main(["--slides", "--format", "webm", "--list"]) == 2
    assert "--slides needs --format mp4" in capsys.readouterr().err


# --- the handout -------------------------------------------------------------------------------


class _Text(HTMLParser):
    """The text a reader sees: no style, no script."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_numbers(page: str) -> set[str]:
    reader = _Text()
    reader.feed(page)
    return set(NUMBER.findall(" ".join(reader.parts)))


@pytest.mark.parametrize(
    "lesson_name", ["default", pytest.param("four_tokens", marks=pytest.mark.lessons)]
)
def test_the_handout_shows_the_numbers_the_scenes_show(lesson_name: str) -> None:
    lesson = LESSONS[lesson_name]
    on_paper = visible_numbers(handout_html(lesson))
    stray = on_paper - allowed_numbers(lesson)
    assert not stray, f"the handout shows numbers attention_core never made: {stray}"
    # A pull counts up from its score: those starting values flash by and are not worked out.
    counting = {f"{s:.{fmt.PULL_PLACES}f}" for s in attend(lesson).scores}
    for scene in WORKED:
        missing = probe(scene, lesson_name).numbers - on_paper - counting
        assert not missing, f"{scene.__name__} shows {missing}, the handout does not"


class _Prose(_Text):
    """The words a reader of a page meets: its text and the labels it shows, but not its code."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag(tag, attrs)
        self.hidden += tag == "pre"
        self.parts += [value or "" for name, value in attrs if name in ("label", "data-done")]

    def handle_endtag(self, tag: str) -> None:
        super().handle_endtag(tag)
        self.hidden -= tag == "pre"


def test_a_translated_lesson_gets_a_kit_without_english(tmp_path: Path) -> None:
    """The handout, the deck and the index page of a translation, built without a render, use
    none of the template's English words but those the translation itself keeps."""
    lesson = LESSONS[TRANSLATED]
    english_only = _words(*english().values()) - _words(
        *lesson.words.values(), *lesson_texts(lesson)
    )
    (tmp_path / "01_x.vtt").write_text("WEBVTT\n", "utf-8")
    step = Step(CLIP, "01_x.vtt", (Beat(0.0, 2.0, ""),))
    kit = ["handout.html", "handout.pdf", "slides.html", "slides.pptx"]
    deck = deck_html(lesson, [step], MP4)
    pages = {
        "handout": (handout_html(lesson), []),
        "deck": (deck, list(json.loads(_deck_data(deck))["words"].values())),
        "index": (embed_html(lesson, [step], None, MP4, kit, tmp_path), []),
        "twin": (twin_html(lesson), []),
    }
    for name, (page, scripted) in pages.items():
        assert '<html lang="el">' in page, name
        reader = _Prose()
        reader.feed(page)
        leaked = _words(*reader.parts, *scripted) & english_only
        assert not leaked, f"the {name} shows English {sorted(leaked)}"
    assert 'srclang="el" label="Ελληνικά"' in pages["index"][0]


# --- a real render: files, .pptx, and the pages in Chromium -------------------------------------


@pytest.mark.render
def test_the_kit_lies_beside_the_clips(rendered: Rendered) -> None:
    folder = rendered.folder
    names = ("index.html", "handout.html", "transcript.html", "transcript.txt", "slides.html")
    for name in (*names, "slides.pptx", f"{FULL_NAME}.descriptions.vtt"):
        assert (folder / name).is_file(), name
    assert (folder / "handout.pdf").read_bytes().startswith(b"%PDF")
    assert (folder / "handout.html").read_text("utf-8") == handout_html(LESSONS["default"])
    for clip in rendered.manifest["clips"]:
        vtt = folder / Path(clip["file"]).with_suffix(".vtt")
        assert vtt.read_text("utf-8").startswith("WEBVTT")
    kit = "lecture kit: index.html, handout.html, handout.pdf, transcript.html, transcript.txt, "
    assert kit + "slides.html" in rendered.stdout


@pytest.mark.render
def test_the_pptx_has_a_slide_per_step_with_its_clip_and_captions(rendered: Rendered) -> None:
    deck = Presentation(str(rendered.folder / "slides.pptx"))
    clips = rendered.manifest["clips"]
    assert len(deck.slides) == len(SCENES) == len(clips)
    for slide, clip in zip(deck.slides, clips, strict=True):
        parts = {rel.reltype.rsplit("/", 1)[1]: rel.target_part for rel in slide.part.rels.values()}
        movie = (rendered.folder / clip["file"]).read_bytes()
        assert parts["media"].blob == movie, clip["file"]
        assert parts["image"].blob == (rendered.folder / clip["poster"]["file"]).read_bytes()
        notes = slide.notes_slide.notes_text_frame.text
        beats = clip["beats"]  # a beat's whole caption, though its words span several cues
        captions = parse_srt((rendered.folder / clip["captions"]["file"]).read_text("utf-8"))
        assert len(captions) >= len(beats) > 1, clip["file"]
        for _, text in beats:
            assert text in notes, (clip["file"], text)
        marks = slide.shapes[0]._element.findall(f".//{{{P14}}}bmk")
        starts = [round(start * 1000) for start, _ in beats[1:]]
        assert [int(mark.get("time")) for mark in marks] == starts


@pytest.mark.render
def test_the_same_clips_give_the_same_pptx(rendered: Rendered, tmp_path: Path) -> None:
    clips = [ClipEntry.from_json(clip) for clip in rendered.manifest["clips"]]
    again = tmp_path / "slides.pptx"
    write_pptx(again, LESSONS["default"].title, steps_of(rendered.folder, clips), rendered.folder)
    assert again.read_bytes() == (rendered.folder / "slides.pptx").read_bytes()


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


class Visit:
    """A page opened from file://, every other request blocked and recorded, failures kept."""

    def __init__(self, browser: Browser, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 720})
        self.blocked: list[str] = []
        self.failed: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("requestfailed", lambda request: self.failed.append(request.url))
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_function(
            "[...document.querySelectorAll('video')].every(v => v.readyState >= 2)",
            timeout=30_000,
        )

    def _route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def check_offline(self) -> None:
        assert not self.blocked, f"asked the network for {self.blocked}"
        assert not self.failed, f"failed to load {self.failed}"

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))
        pixels = np.asarray(Image.open(path).convert("L"), dtype=np.float64)
        assert pixels.std() > 10, f"{path.name} looks blank"


@pytest.mark.render
@pytest.mark.browser
def test_the_embed_page_plays_every_clip_with_captions_offline(
    rendered: Rendered, browser: Browser, tmp_path: Path
) -> None:
    visit = Visit(browser, rendered.folder / "index.html")
    videos = visit.page.evaluate(
        """[...document.querySelectorAll('video')].map(v => ({
            state: v.readyState,
            track: v.querySelector('track')?.readyState,
            cues: v.textTracks[0]?.cues?.length ?? 0,
        }))"""
    )
    assert len(videos) == len(SCENES) + 1  # every step, and the whole lesson
    for video in videos:
        assert video["state"] >= 2
        assert video["track"] == 2, "captions track not loaded"
        assert video["cues"] > 0
    chapters = visit.page.locator("ol.chapters [data-seek]")
    assert chapters.count() == len(SCENES)
    chapters.nth(2).click()
    seconds = visit.page.evaluate("document.getElementById('whole').currentTime")
    assert seconds == pytest.approx(rendered.manifest["full"]["chapters"][2]["start"], abs=0.5)
    snippets = visit.page.locator(".snippet code").all_text_contents()
    assert [s.count("<video") for s in snippets] == [1] * len(SCENES)
    visit.screenshot(tmp_path / "index.png")
    visit.check_offline()


@pytest.mark.render
@pytest.mark.browser
def test_the_deck_pauses_after_each_beat_and_moves_on(
    rendered: Rendered, browser: Browser, tmp_path: Path
) -> None:
    visit = Visit(browser, rendered.folder / "slides.html")
    page = visit.page
    page.evaluate("document.querySelectorAll('video').forEach(v => v.playbackRate = 4)")
    first = steps_of(rendered.folder, [ClipEntry.from_json(rendered.manifest["clips"][0])])[0]

    def advance(expected: int) -> dict[str, float]:
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"document.body.dataset.slide == '{expected}' && document.body.dataset.state == "
            "'paused'",
            timeout=30_000,
        )
        state: dict[str, float] = page.evaluate(
            "(() => { const v = document.querySelector('video:not([hidden])');"
            " return { time: v.currentTime, paused: v.paused }; })()"
        )
        return state

    for beat_index in (0, 1):
        state = advance(beat_index)
        assert state["paused"]
        assert state["time"] == pytest.approx(first.beats[beat_index].end, abs=0.1)
    notes = page.locator("#now")
    assert notes.text_content() == first.beats[1].caption
    page.keyboard.press("n")
    assert page.locator("#notes").is_visible()
    muted = "[...document.querySelectorAll('video')].map(v => v.muted)"
    assert page.evaluate(muted) == [False] * len(SCENES)  # the narrator speaks
    page.keyboard.press("m")
    assert page.evaluate(muted) == [True] * len(SCENES)
    page.keyboard.press("m")
    assert page.evaluate(muted) == [False] * len(SCENES)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.body.dataset.slide") == "0"
    assert notes.text_content() == first.beats[0].caption
    visit.screenshot(tmp_path / "slides.png")
    visit.check_offline()


@pytest.mark.render
@pytest.mark.browser
def test_the_handout_opens_offline(rendered: Rendered, browser: Browser, tmp_path: Path) -> None:
    visit = Visit(browser, rendered.folder / "handout.html")
    assert visit.page.locator("table").count() >= 4
    visit.screenshot(tmp_path / "handout.png")
    visit.check_offline()


def test_two_prints_numbered_apart_by_chromium_become_the_same_bytes(tmp_path: Path) -> None:
    """Chromium's structure tree counts the page's DOM nodes, and now and then one more: the
    handout numbers them from 1 in their order, at the same width, so the offsets hold."""
    from publish.kit.handout import _steady

    def printed(first: int, at: str) -> bytes:
        nodes = [first, first + 1, first + 7]
        elements = "".join(f"<</ID (node{n:08d})>>\n" for n in nodes)
        tree = " ".join(f"(node{n:08d}) {k} 0 R" for k, n in enumerate(nodes, 5))
        pdf = tmp_path / f"{first}.pdf"
        text = f"%PDF-1.4\n/CreationDate (D:{at}+00'00')\n{elements}<</Names [{tree}]>>\n%%EOF\n"
        pdf.write_bytes(text.encode())
        _steady(pdf)
        assert len(pdf.read_bytes()) == len(text.encode())  # every offset holds
        return pdf.read_bytes()

    one, other = printed(20, "20261202170101"), printed(21, "20261202170233")
    assert one == other
    assert b"(node00000001) 5 0 R (node00000002) 6 0 R (node00000003) 7 0 R" in one


@pytest.mark.render
def test_the_handout_prints_to_the_same_bytes_every_time(
    rendered: Rendered, tmp_path: Path
) -> None:
    """Chromium stamps the time it printed; the handout's PDF says a fixed date instead."""
    shutil.copyfile(rendered.folder / "handout.html", tmp_path / "handout.html")
    time.sleep(1.1)  # a second later, so an undated print would differ
    assert print_pdf(tmp_path) == []
    printed = (tmp_path / "handout.pdf").read_bytes()
    assert printed == (rendered.folder / "handout.pdf").read_bytes()
    assert b"/CreationDate (D:19700101000000+00'00')" in printed
