"""The transcript: its files, and the embed page's interactive one worked by keyboard alone."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from attention_core import default_lesson
from publish.kit.transcript import interactive, transcript_text
from publish.media.captions import Cue
from publish.media.clip_beats import Step, beats_of
from publish.media.manifest import Chapter, FileRef, FullEntry
from tests.conftest import CourseRun, Rendered
from tests.test_lecture_kit import CLIP, Visit, browser  # noqa: F401 (browser: a fixture)

LESSON = default_lesson()


def _step(number: int, *captions: str) -> Step:
    cues = [Cue(2000 * i, 2000 * i + 1500, text) for i, text in enumerate(captions)]
    clip = CLIP.__class__(**{**CLIP.__dict__, "step": number, "title": f"Step {number}"})
    return Step(clip, None, beats_of(cues, 2.0 * len(captions)))


def test_the_transcript_is_the_steps_as_headings_and_their_words_as_paragraphs() -> None:
    steps = [_step(1, "One, score: over √dₖ.", "Two."), _step(2, "Three\nlines.")]
    text = transcript_text(LESSON, steps)
    assert text.splitlines()[:2] == [LESSON.title, "=" * len(LESSON.title)]
    assert "1 · Step 1\n----------\nOne, score: over √dₖ. Two.\n" in text
    assert "2 · Step 2\n----------\nThree lines.\n" in text


def test_each_sentence_of_the_interactive_transcript_seeks_the_whole_video() -> None:
    steps = [_step(1, "A <b>.", "B."), _step(2, "C.")]
    chapters = (Chapter("Step 1", 0.0, 4.0), Chapter("Step 2", 4.0, 6.0))
    ref = FileRef("x", 1, "0")
    full = FullEntry("w.mp4", "t", 6.0, 854, 480, 15, 1, "0", chapters, (ref,), (), ref)
    html = interactive(LESSON, steps, full)
    assert html.count("<button class=line") == 3
    assert 'data-seek="2.000" data-end="4.000"' in html  # B: its clip's second beat
    assert 'data-seek="4.000" data-end="6.000"' in html  # C: the second clip's, shifted
    assert "A &lt;b&gt;." in html


@pytest.mark.render
def test_transcript_files_hold_every_beat_as_the_captions_write_it(rendered: Rendered) -> None:
    text = (rendered.folder / "transcript.txt").read_text("utf-8")
    page = (rendered.folder / "transcript.html").read_text("utf-8")
    for clip in rendered.manifest["clips"]:
        assert f"{clip['step']} · {clip['title']}" in text
        for _, caption in clip["beats"]:
            assert " ".join(caption.split()) in text, caption
    assert "√dₖ" in text
    assert "d k" not in text
    # the steps, then what to read further: each reference named, with the link it is at
    further = LESSON.words["page.heading.references"]
    assert page.count("<h2>") == len(rendered.manifest["clips"]) + 1
    text, read_further = text.split(f"\n{further}\n{'-' * len(further)}\n")
    assert read_further.splitlines() == [f"- {r.named}: {r.link}" for r in LESSON.references]
    for r in LESSON.references:
        assert f'<a href="{r.link}">{html.escape(r.address)}</a>' in page
    # the page reads as the text does, its descriptions marked as what the picture shows
    paragraphs = re.findall(r"<p>(.*?)</p>", page)
    assert [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in paragraphs] == [
        line
        for line in text.splitlines()[3:]
        if line
        and not set(line) <= {"-"}
        and not any(line == f"{c['step']} · {c['title']}" for c in rendered.manifest["clips"])
    ]
    assert 0 < page.count("<span class=described>") < len(paragraphs) * 10
    assert '<html lang="en">' in page


@pytest.mark.render
@pytest.mark.browser
def test_the_transcript_and_player_work_by_keyboard_alone(
    rendered: Rendered,
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    visit = Visit(browser, rendered.folder / "index.html")
    page = visit.page
    page.evaluate("document.getElementById('whole').muted = true")

    def focused() -> str:
        found: str = page.evaluate(
            "(() => { const e = document.activeElement;"
            " return e.tagName + '.' + e.className + '@' + (e.dataset.seek || ''); })()"
        )
        return found

    seen = []
    for _ in range(80):  # Tab from the top: the player, then the transcript's first sentence
        page.keyboard.press("Tab")
        seen.append(focused())
        if seen[-1].startswith("BUTTON.line@"):
            break
    assert any(f.startswith("VIDEO") for f in seen), seen
    assert seen[-1].startswith("BUTTON.line@"), seen
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    target = float(focused().rpartition("@")[2])
    assert target > 0
    page.keyboard.press("Enter")
    whole = "document.getElementById('whole')"
    assert page.evaluate(f"{whole}.currentTime") == pytest.approx(target, abs=0.3)
    page.wait_for_function(
        "document.querySelector('button.line[aria-current=true]') !== null", timeout=10_000
    )
    current = page.evaluate("document.querySelector('button.line[aria-current=true]').dataset.seek")
    assert float(current) == pytest.approx(target, abs=0.01)  # the sentence being said is marked
    page.keyboard.press("Shift+Tab")
    earlier = float(focused().rpartition("@")[2])
    page.keyboard.press("Space")
    assert page.evaluate(f"{whole}.currentTime") == pytest.approx(earlier, abs=0.3)
    visit.screenshot(tmp_path / "transcript.png")
    visit.check_offline()


@pytest.mark.render
@pytest.mark.browser
def test_the_course_page_plays_each_lesson_beside_its_transcript(
    series: CourseRun,
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Each lesson's whole video with the embed page's transcript beside it: a sentence
    clicked, or reached by Tab and pressed with Enter or Space, plays that lesson's video from
    there, and the sentence being said is marked as it plays; the other lesson's stays put."""
    visit = Visit(browser, series.folder / "index.html")
    page = visit.page
    players = page.eval_on_selector_all(
        "section.transcript",
        "ss => ss.map(s => [s.dataset.video, document.getElementById(s.dataset.video)"
        ".querySelector('source').getAttribute('src')])",
    )
    assert players == [
        ["lesson-1", "default/attention_by_hand.mp4"],
        ["lesson-2", "day005_masked/masked_attention_by_hand.mp4"],
        ["lesson-3", "day006_heads/many_heads_by_hand.mp4"],
    ]
    page.evaluate("document.querySelectorAll('video').forEach(v => v.muted = true)")

    def time(video: str) -> float:
        found: float = page.evaluate(f"document.getElementById('{video}').currentTime")
        return found

    def marked(video: str) -> float | None:
        found: str | None = page.evaluate(
            f"document.querySelector('[data-video={video}] button.line[aria-current=true]')"
            "?.dataset.seek ?? null"
        )
        return None if found is None else float(found)

    second = page.locator("[data-video=lesson-2] button.line").nth(3)  # clicked
    target = float(second.get_attribute("data-seek") or "nan")
    second.click()
    assert time("lesson-2") == pytest.approx(target, abs=0.3)
    page.wait_for_function(f"document.getElementById('lesson-2').currentTime > {target + 0.5}")
    assert marked("lesson-2") == pytest.approx(target, abs=0.01)
    assert time("lesson-1") == 0
    page.evaluate("document.getElementById('lesson-2').pause()")

    def focused() -> str:
        found: str = page.evaluate(
            "(() => { const e = document.activeElement;"
            " return (e.closest('[data-video]')?.dataset.video ?? '') + ' ' + e.tagName"
            " + '@' + (e.dataset.seek || ''); })()"
        )
        return found

    page.locator("h1").click()  # by keyboard from the top: the links, the player, its lines
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        seen.append(focused())
        if seen[-1].startswith("lesson-1 BUTTON@"):
            break
    assert seen[-1].startswith("lesson-1 BUTTON@"), seen
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    target = float(focused().rpartition("@")[2])
    page.keyboard.press("Enter")
    assert time("lesson-1") == pytest.approx(target, abs=0.3)
    page.wait_for_function(f"document.getElementById('lesson-1').currentTime > {target + 0.3}")
    assert marked("lesson-1") == pytest.approx(target, abs=0.01)
    later = page.eval_on_selector_all(
        "[data-video=lesson-1] button.line", "bs => Number(bs[8].dataset.seek)"
    )
    page.evaluate(f"document.getElementById('lesson-1').currentTime = {later + 0.2}")
    page.wait_for_function(  # the mark follows the playback, wherever it goes
        "document.querySelector('[data-video=lesson-1] button.line[aria-current=true]')"
        f"?.dataset.seek == '{later:.3f}'"
    )
    page.keyboard.press("Shift+Tab")
    earlier = float(focused().rpartition("@")[2])
    page.keyboard.press("Space")
    assert time("lesson-1") == pytest.approx(earlier, abs=0.3)
    assert page.locator("button.line[aria-current=true]").count() <= 2
    visit.screenshot(tmp_path / "course.png")
    visit.check_offline()
