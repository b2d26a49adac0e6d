"""Hostile lesson text is shown, never obeyed: no TeX sees it, no markup is read, nothing runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from manim import Text, tempconfig

from attention_core import load_lesson
from publish.media.captions import parse_srt
from scenes import SCENES, LessonScene
from scenes.probe import record
from scenes.timing import length_arguments

from .conftest import DRAFT

ROOT = Path(__file__).parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile.toml"
LESSON = load_lesson(HOSTILE)
PWNED = Path("/tmp/pwned")
"""What ``\\write18{touch /tmp/pwned}`` would create if TeX ever ran the lesson's text."""
SHOWN_IN = {
    SCENES[0]: [LESSON.title, LESSON.question, *(token.short for token in LESSON.tokens)],
    SCENES[2]: [LESSON.question, *(token.text for token in LESSON.tokens)],
}
"""The title, the question, every token's text and short name, and the steps that show them."""
STRINGS = [string for strings in SHOWN_IN.values() for string in strings]
COMMANDS = [r"\input", r"\write18", r"\def", r"\catcode", "/etc/passwd", "pwned", "<span", "<b>"]
TEX_INSTALLATION = ("/usr/share/texlive/", "/usr/share/texmf/", "/var/lib/texmf/", "/etc/texmf/")


def test_the_hostile_lesson_carries_every_hostile_string() -> None:
    """Guards the fixture: if an edit drops a case, the render tests below stop testing it."""
    everything = " ".join(STRINGS)
    for case in [*COMMANDS, *"\\{}$&#^_~%", "&amp;", "</span>"]:
        assert case in everything, case


def built_texts(scene_class: type[LessonScene]) -> Iterator[Text]:
    """Every Text mobject a dry run of the scene puts on screen, at any moment."""
    seen: dict[int, Text] = {}
    settings = {"dry_run": True, "disable_caching": True, "verbosity": "WARNING"}
    with tempconfig({**settings, "progress_bar": "none", "quality": "low_quality"}):
        # The title's length in minutes is given, not measured by dry-running every step.
        scene = scene_class(lesson=LESSON, skip_animations=True, **length_arguments(scene_class, 1))

        def collect() -> None:
            for mob in scene.mobjects:
                seen.update((id(m), m) for m in mob.get_family() if isinstance(m, Text))

        record(scene, after_each=collect)
        scene.render()
    return iter(seen.values())


@pytest.mark.parametrize("scene", list(SHOWN_IN), ids=[s.__name__ for s in SHOWN_IN])
def test_text_is_typeset_glyph_for_glyph(scene: type[LessonScene]) -> None:
    """Markup would swallow its tags: one glyph per visible character proves none was read."""
    texts = list(built_texts(scene))
    shown = " ".join(t.original_text for t in texts)
    for text in texts:
        visible = sum(not char.isspace() for char in text.original_text)
        assert len(text.submobjects) == visible, f"{text.original_text!r} lost glyphs"
    for string in SHOWN_IN[scene]:
        for word in string.split():  # a wrapped paragraph shows the words on several lines
            assert word in shown, f"{scene.__name__} never shows {word!r}"


def tex_log_openings(log: str, cwd: Path) -> list[str]:
    """The files TeX reports opening, ``(/usr/share/…`` or ``(./…``, across its 79-column lines;
    a relative path is resolved against the folder TeX ran in."""
    unwrapped = re.sub(r"(?m)^(.{79})\n", r"\1", log)
    found = re.findall(r"\(((?:/|\./|\.\./)[^()\s]*)", unwrapped)
    return [os.path.normpath(cwd / path) if not path.startswith("/") else path for path in found]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Steps 1 and 3 of the hostile lesson, really rendered, TeX logs kept; at draft quality
    (480p, 8 fps): what is typeset and shown is the same as at low, in half the frames."""
    assert not PWNED.exists(), f"remove {PWNED} first: it would hide what this test looks for"
    folder = tmp_path_factory.mktemp("hostile")
    # manim reads manim.cfg from the folder it runs in; keep the .log files TeX writes.
    (folder / "manim.cfg").write_text("[CLI]\nno_latex_cleanup = True\n", "utf-8")
    args = ["--quality", DRAFT.name, "--lesson", str(HOSTILE), "--out", "media", "--jobs", "2"]
    args += [arg for scene in SHOWN_IN for arg in ("--scene", str(scene.step))]
    # A user cache of its own: every formula typeset here, none loaded from another's shelf.
    alone = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache")}
    run = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), *args],
        cwd=folder,
        env=alone,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return folder / "media"


@pytest.mark.render
def test_no_command_in_the_text_runs(rendered: Path) -> None:
    assert not PWNED.exists()


@pytest.mark.render
def test_no_lesson_text_reaches_latex(rendered: Path) -> None:
    tex = sorted((rendered / ".work").rglob("*.tex"))
    assert tex, "no formula was typeset, so this test would prove nothing"
    for path in tex:
        source = path.read_text("utf-8")
        for string in [*STRINGS, *COMMANDS]:
            assert string not in source, f"{path.name} contains {string!r}"


@pytest.mark.render
def test_tex_opens_no_file_outside_its_installation_and_work_folder(rendered: Path) -> None:
    logs = sorted((rendered / ".work").rglob("*.log"))
    assert logs, "manim kept no TeX log (is no_latex_cleanup read from manim.cfg?)"
    work = str((rendered / ".work").resolve()) + "/"
    for log in logs:
        opened = tex_log_openings(log.read_text("utf-8", errors="replace"), rendered.parent)
        assert opened, f"{log.name}: no file openings found; the parser is wrong"
        outside = [p for p in opened if not p.startswith((*TEX_INSTALLATION, work))]
        assert not outside, f"{log.name} opened {outside}"


@pytest.mark.render
def test_srt_captions_carry_markup_as_entities(rendered: Path) -> None:
    """SubRip players read ``<b>``, ``<i>`` and ``<font>`` as markup: the lesson's tags must be
    written as entities, and read back as the lesson typed them."""
    files = sorted((rendered / DRAFT.name).glob("*.srt"))
    assert [path.name[:2] for path in files] == ["01", "03"]
    for path in files:
        text = path.read_text("utf-8")
        assert not re.search("[<>]", text.replace(" --> ", " ")), f"{path.name} has raw markup"
    # A beat's words are cut into cues of two lines (publish/media/cues.py): read them joined.
    cues = [cue.text for path in files for cue in parse_srt(path.read_text("utf-8"))]
    said = " ".join(" ".join(cues).split())
    for string in (LESSON.promise, LESSON.question, LESSON.tokens[1].text):
        assert " ".join(string.split()) in said, f"no caption says {string!r}"
