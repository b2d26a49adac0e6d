"""Lessons in any script: real glyphs in Chinese, Hindi and Arabic, and a missing font named."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from manim import tempconfig

from attention_core import load_lesson
from publish.render.fonts import Coverage, installed, lesson_texts, uncovered
from scenes.probe import run_dry
from scenes.steps.score import Step3Score

from .conftest import DRAFT, cli
from .lessons import default_data, to_toml

SCRIPTS: dict[str, dict[str, Any]] = {
    "zh": {
        "title": "注意力，手算",
        "tokens": [("河的密码是4821", "河"), ("灯的密码是7390", "灯"), ("天气很温和", "天气")],
        "rival": ("河的密码是1937", "对手"),
        "words": {"token": "词元", "score": "分数"},
    },
    "hi": {
        "title": "ध्यान, हाथ से",
        "tokens": [
            ("नदी का कोड 4821 है", "नदी"),
            ("दीपक का कोड 7390 है", "दीपक"),
            ("मौसम सुहाना था", "मौसम"),
        ],
        "rival": ("नदी का कोड 1937 है", "विरोधी"),
        "words": {"token": "टोकन", "score": "स्कोर"},
    },
    "ar": {
        "title": "الانتباه باليد",
        "tokens": [
            ("رمز النهر هو 4821", "النهر"),
            ("رمز المصباح هو 7390", "المصباح"),
            ("كان الطقس معتدلا", "الطقس"),
        ],
        "rival": ("رمز النهر هو 1937", "المنافس"),
        "words": {"token": "وحدة", "score": "درجة"},  # one word each: the headers that vanished
    },
}


def lesson_file(folder: Path, language: str) -> Path:
    """The default lesson with its title, tokens and step 3's headers in ``language``."""
    script = SCRIPTS[language]
    data = default_data()
    data["title"] = script["title"]
    for token, (text, short) in zip(data["tokens"], script["tokens"], strict=True):
        token["text"], token["short"] = text, short
    data["rival"]["text"], data["rival"]["short"] = script["rival"]
    data["words"] = {"common": {"word": {**script["words"], "language": language}}}
    path = folder / f"{language}.toml"
    path.write_text(to_toml(data), "utf-8")
    return path


@pytest.mark.parametrize("language", sorted(SCRIPTS))
def test_every_character_of_the_lesson_is_in_an_installed_font(
    tmp_path: Path, language: str
) -> None:
    lesson = load_lesson(lesson_file(tmp_path, language))
    assert uncovered(lesson) == []
    shown = "".join(text for _, text in lesson_texts(lesson))
    assert SCRIPTS[language]["words"]["token"] in shown


@pytest.mark.parametrize(
    ("word", "glyphs"), [("川流不息", 4), ("नमस", 3), ("وحدة", 4), ("שלום", 4), ("ไทย", 3)]
)
def test_a_word_is_drawn_as_its_glyphs_not_boxes(tmp_path: Path, word: str, glyphs: int) -> None:
    # Pango draws a missing glyph as a box with its code point's hex digits: five outlines a
    # character, not one; a right-to-left word cut away had none.
    from scenes.helpers import text

    with tempconfig({"media_dir": str(tmp_path)}):
        drawn = text(word)
    outlines = [part for part in drawn.submobjects if len(part.points)]
    assert len(outlines) == glyphs
    assert drawn.width > 0.2


def test_a_character_no_font_has_is_named_before_anything_runs(tmp_path: Path) -> None:
    data = default_data()
    data["tokens"][1]["short"] = "lamp🧠"
    path = tmp_path / "emoji.toml"
    path.write_text(to_toml(data), "utf-8")
    for flags in (["--check-lesson", str(path)], ["--lesson", str(path), "--scene", "3"]):
        done = cli(tmp_path / "media", *flags, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == [
            "render.py: lesson: tokens[1].short: '🧠' (U+1F9E0 BRAIN) is in no font of the font "
            "set; fonts-symbola has it: add it to PACKAGES in attention_core/fontset.py"
        ]
    assert not (tmp_path / "media").exists()


def test_coverage_reads_fontconfigs_ranges() -> None:
    fonts = Coverage.parse("20-7e a0 4e00-4e01\n4e02")
    assert "A" in fonts
    assert "\u00a0" in fonts
    assert "\u4e02" in fonts
    assert "\u4e03" not in fonts
    assert "川" in installed()  # fonts-noto-cjk, from scripts/setup.sh


def test_the_arabic_one_word_headers_are_on_screen(tmp_path: Path) -> None:
    lesson = load_lesson(lesson_file(tmp_path, "ar"))
    with tempconfig({"media_dir": str(tmp_path / "manim")}):
        probe = run_dry(Step3Score, lesson)
    for header in ("وحدة", "درجة"):
        boxes = [s.box for moment in probe.moments for s in moment if s.text == header]
        assert boxes, f"{header} never shown"
        left, bottom, right, top = boxes[-1]
        assert right - left > 0.2
        assert top - bottom > 0.1


@pytest.mark.lessons
def test_the_arabic_lesson_dry_runs_every_step(tmp_path: Path) -> None:
    done = cli(tmp_path / "media", "--dry-run", "--lesson", str(lesson_file(tmp_path, "ar")))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.render
@pytest.mark.parametrize("language", sorted(SCRIPTS))
def test_step_3_renders_in_the_script(tmp_path: Path, language: str) -> None:
    out = tmp_path / "media"
    # at draft quality (480p, 8 fps): the same pictures as low's, in about half the frames
    lesson = str(lesson_file(tmp_path, language))
    done = cli(out, "--lesson", lesson, "--scene", "3", quality=DRAFT)
    assert done.returncode == 0, done.stderr
    frame = tmp_path / f"{language}.png"
    subprocess.run(
        ["ffmpeg", "-v", "error", "-sseof", "-1", "-i", str(out / DRAFT.name / "03_score.mp4")]
        + ["-frames:v", "1", "-y", str(frame)],
        check=True,
    )
    pixels = _pixels(frame)
    top = pixels[: pixels.shape[0] // 3]
    assert (np.abs(top - top[0, 0]).sum(axis=2) > 60).mean() > 0.005  # the table's header row


def _pixels(png: Path) -> np.ndarray[Any, Any]:
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(png), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        capture_output=True,
        check=True,
    ).stdout
    probe = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0"]
        + [str(png)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    width, height = (int(n) for n in probe.split(","))
    return np.frombuffer(raw, np.uint8).reshape(height, width, 3).astype(int)


@pytest.mark.parametrize(("language", "rtl"), [("ar", True), ("zh", False), ("hi", False)])
def test_the_pages_say_their_language_and_its_direction(
    tmp_path: Path, language: str, rtl: bool
) -> None:
    from publish.kit.course_page import course_html
    from publish.kit.deck import deck_html
    from publish.kit.embed import embed_html
    from publish.kit.handout import handout_html
    from publish.media.clip_beats import Beat, Step

    from .test_lecture_kit import CLIP, MP4

    lesson = load_lesson(lesson_file(tmp_path, language))
    (tmp_path / "01_x.vtt").write_text("WEBVTT\n", "utf-8")
    step = Step(CLIP, "01_x.vtt", (Beat(0.0, 2.0, ""),))
    pages = {
        "handout": handout_html(lesson),
        "deck": deck_html(lesson, [step], MP4),
        "index": embed_html(lesson, [step], None, MP4, ["handout.html"], tmp_path),
        "course": course_html(lesson.title, language, []),
    }
    opening = f'<html lang="{language}" dir="rtl">' if rtl else f'<html lang="{language}">'
    for name, page in pages.items():
        assert opening in page, name


@pytest.mark.parametrize(
    ("tag", "way"),
    [("ar", "rtl"), ("fa-IR", "rtl"), ("he", "rtl"), ("ur", "rtl"), ("az-Arab", "rtl")]
    + [("ku-Latn", "ltr"), ("el", "ltr"), ("en-US", "ltr"), ("zh-Hans", "ltr"), ("hi", "ltr")],
)
def test_a_languages_direction_comes_from_its_tag(tag: str, way: str) -> None:
    from publish.kit.direction import direction

    assert direction(tag) == way
