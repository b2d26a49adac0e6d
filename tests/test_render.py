"""render.py: pure parts on tables of cases, then real low-quality renders inspected with ffprobe.

The full set is rendered once per test session (``rendered``, in conftest.py); the other render
tests work on copies of it, so that only the interrupt test renders a clip again.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import render
from attention_core import Words, default_lesson
from attention_core.meaning import Meaning
from publish import tools
from publish.code_digest import package_files, source_digest
from publish.media import captions, join
from publish.media import ffmpeg as media
from publish.media.captions import Cue
from publish.media.files import PARTIAL, clean_partials, replacing, sha256
from publish.media.manifest import Chapter, ClipEntry, FileRef, FullEntry
from publish.presets import FULL_NAME, QUALITIES
from publish.render import preview, toolchain
from publish.render.cache import SOURCE_PACKAGES, Records, clip_key
from publish.render.pipeline import RunOptions, plan, publish
from publish.render.pool import longest_first
from publish.render.progress import PlainDisplay, RichDisplay, Row, SummaryRow
from publish.render.selection import SelectionError, select
from scenes import SCENES
from scenes.timing import minutes_of

from .conftest import Rendered, cli
from .scene_checks import allowed_numbers

ROOT = Path(__file__).parent.parent
LOW = QUALITIES["low"]
FRAME = 1 / LOW.fps


# --- pure parts -------------------------------------------------------------------------------

SRT = """1
00:00:00,000 --> 00:00:02,500
First line.

2
00:00:02,500 --> 00:00:05,125
Second line, with a comma.
"""


def test_srt_is_read_into_millisecond_cues() -> None:
    assert captions.parse_srt(SRT) == [
        Cue(0, 2500, "First line."),
        Cue(2500, 5125, "Second line, with a comma."),
    ]


@pytest.mark.parametrize(
    ("cue", "duration", "kept"),
    [
        (Cue(0, 1000, "a"), 2000, Cue(0, 1000, "a")),
        (Cue(1500, 2010, "a"), 2000, Cue(1500, 2000, "a")),
        (Cue(-20, 500, "a"), 2000, Cue(0, 500, "a")),
        (Cue(2000, 2100, "a"), 2000, None),
    ],
)
def test_a_cue_is_cut_to_its_clip(cue: Cue, duration: int, kept: Cue | None) -> None:
    assert captions.clamp([cue], duration) == ([kept] if kept else [])


def test_joined_cues_are_shifted_by_the_clips_before_them() -> None:
    first = [Cue(0, 1000, "one"), Cue(1000, 2100, "two")]
    second = [Cue(0, 500, "three")]
    assert captions.join([(first, 2000), (second, 700), (first[:1], 1000)]) == [
        Cue(0, 1000, "one"),
        Cue(1000, 2000, "two"),
        Cue(2000, 2500, "three"),
        Cue(2700, 3700, "one"),
    ]


@pytest.mark.parametrize(
    ("ms", "srt_stamp", "vtt_stamp"),
    [
        (0, "00:00:00,000", "00:00:00.000"),
        (61_001, "00:01:01,001", "00:01:01.001"),
        (3_723_456, "01:02:03,456", "01:02:03.456"),
    ],
)
def test_timestamps_in_srt_and_vtt(ms: int, srt_stamp: str, vtt_stamp: str) -> None:
    cue = Cue(ms, ms + 1, "x")
    assert f"{srt_stamp} --> " in captions.to_srt([cue])
    assert f"{vtt_stamp} --> " in captions.to_vtt([cue])


def test_srt_round_trips_and_both_formats_escape_markup() -> None:
    cues = [Cue(0, 900, "q · k < 3 & more"), Cue(900, 1800, "<b>&amp;</b>")]
    assert captions.parse_srt(captions.to_srt(cues)) == cues
    srt = captions.to_srt(cues)
    assert "q · k &lt; 3 &amp; more" in srt
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in srt
    vtt = captions.to_vtt(cues)
    assert vtt.startswith("WEBVTT\n\n")
    assert "q · k &lt; 3 &amp; more" in vtt
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in vtt


def test_manims_own_srt_is_read_as_typed() -> None:
    """manim writes subcaptions unescaped: an ``&amp;`` there is the lesson's own text."""
    raw = "1\n00:00:00,000 --> 00:00:01,000\n<b>&amp;</b>\n"
    assert captions.parse_srt(raw, escaped=False) == [Cue(0, 1000, "<b>&amp;</b>")]
    assert captions.parse_srt(raw) == [Cue(0, 1000, "<b>&</b>")]


def test_chapters_follow_each_other() -> None:
    chapters = join.chapters_for([("A", 1500), ("B", 2000)])
    assert [(c.title, c.start, c.end) for c in chapters] == [("A", 0, 1.5), ("B", 1.5, 3.5)]


def test_ffmetadata_escapes_its_syntax() -> None:
    text = join.ffmetadata("a=b", join.chapters_for([("x;y#z\\", 1000)]))
    assert text.startswith(";FFMETADATA1\ntitle=a\\=b\n")
    assert "START=0\nEND=1000\ntitle=x\\;y\\#z\\\\\n" in text


def test_concat_list_quotes_any_file_name(tmp_path: Path) -> None:
    listing = join.concat_list([tmp_path / "it's.mp4"])
    assert listing == f"file '{tmp_path.resolve()}/it'\\''s.mp4'\n"


@pytest.mark.parametrize(
    ("wanted", "steps"),
    [
        ([], [1, 2, 3, 4, 5, 6, 7]),
        (["3"], [3]),
        (["03"], [3]),
        (["Step5Mix"], [5]),
        (["step5mix"], [5]),
        (["answer", "1"], [1, 7]),
        (["06_rival", "6"], [6]),
    ],
)
def test_scenes_are_chosen_by_step_class_or_slug(wanted: list[str], steps: list[int]) -> None:
    assert [scene.step for scene in select(SCENES, wanted)] == steps


@pytest.mark.parametrize("wanted", ["8", "0", "Step9", "nothing"])
def test_an_unknown_scene_is_refused_with_the_choices(wanted: str) -> None:
    with pytest.raises(SelectionError, match="Step3Score"):
        select(SCENES, [wanted])


def test_missing_tools_are_named_with_the_packages_to_install() -> None:
    present = {"latex": "/usr/bin/latex", "kpsewhich": "/usr/bin/kpsewhich"}
    missing = tools.missing_tools([tools.LATEX, tools.DVISVGM, tools.FFMPEG], present.get)
    assert [tool.name for tool in missing] == ["dvisvgm", "ffmpeg"]
    assert tools.install_line(missing) == "sudo apt-get install dvisvgm ffmpeg"
    both = tools.missing_tools([tools.FFMPEG, tools.FFPROBE], lambda name: None)
    assert tools.install_line(both) == "sudo apt-get install ffmpeg"


def test_minutes_round_as_the_timing_module_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent computes the title's minutes from the other clips' lengths."""
    from scenes import timing

    for total in (10.0, 89.0, 91.0, 149.0, 151.0, 271.0):
        each = total / len(SCENES)
        monkeypatch.setattr(timing, "scene_seconds", lambda *args, _each=each, **kw: _each)
        assert minutes_of(sum([each] * len(SCENES))) == timing.lesson_minutes.__wrapped__(
            default_lesson()
        )


def test_every_input_of_a_clip_changes_its_key() -> None:
    lesson = default_lesson()
    base: dict[str, Any] = {
        "sources": source_digest(SOURCE_PACKAGES),
        "toolchain": toolchain.digest(),
        "lesson": lesson,
        "reads": [("title",), ("words", "score.caption.keys")],
        "scene": "Step3Score",
        "kwargs": (),
        "quality": "low",
        "fmt": "mp4",
        "transparent": False,
        "voice": None,
    }
    changed = [
        {"sources": "0" * 64},
        {"toolchain": "0" * 64},
        {"lesson": replace(lesson, title="Other")},
        {"lesson": replace(lesson, words=Words({**lesson.words, "score.caption.keys": "Other"}))},
        {"reads": [("title",)]},
        {"scene": "Step4Softmax"},
        {"kwargs": (("minutes", 4),)},
        {"quality": "high"},
        {"fmt": "webm"},
        {"transparent": True},
        {"voice": "1" * 64},
        {"voice": "2" * 64},
    ]
    keys = {clip_key(**base)} | {clip_key(**(base | change)) for change in changed}
    assert len(keys) == 1 + len(changed)
    assert clip_key(**base) == clip_key(**base)
    unread = replace(lesson, promise="Other", words=Words({**lesson.words, "mix.caption.o": "x"}))
    assert clip_key(**(base | {"lesson": unread})) == clip_key(**base)


def test_the_toolchain_names_the_fonts_the_scenes_ask_for() -> None:
    from attention_core import fontset
    from scenes import style

    described = toolchain.describe()
    for ask in (style.FONT, f"{style.FONT}:bold", style.MONO):
        found = subprocess.run(
            ["fc-match", "--format", "%{family}|%{file}", ask],
            env=fontset.environment(),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        family, path = found.split("|")
        assert family == ask.split(":")[0], f"{ask} is not in the font set: {path}"
        assert Path(path).name in described["fonts"]
    assert any(name.startswith("libx264") for name in described["pyav_libraries"])
    assert described["tex"].startswith("pdfTeX")


def test_every_module_that_makes_a_clip_is_in_its_key() -> None:
    # A cached clip made with older code of any of these must not be reused: the worker's own
    # imports render and encode it, and the pipeline writes its captions with
    # publish.media.captions.
    covered = {name.split("/")[0] for name, _ in package_files(SOURCE_PACKAGES)}
    tree = ast.parse((ROOT / "publish" / "render" / "worker.py").read_text("utf-8"))
    imported = {
        f"publish.{node.module}" if node.level else str(node.module)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    makers = {name for name in imported if name.split(".")[0] in {"publish", "scenes"}}
    assert "scenes.manim_internals" in makers
    for name in makers | {"publish.render.worker", "publish.media.captions"}:
        parts = name.split(".")
        packages = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        assert packages & covered, name


def test_a_record_is_trusted_only_while_its_files_are_unchanged(tmp_path: Path) -> None:
    for name in ("01_a.mp4", "01_a.png"):
        (tmp_path / name).write_bytes(name.encode())
    entry = ClipEntry(
        file="01_a.mp4",
        step=1,
        scene="A",
        title="A",
        duration=1.0,
        width=2,
        height=2,
        fps=15.0,
        size=8,
        sha256=sha256(tmp_path / "01_a.mp4"),
        poster=FileRef.of(tmp_path / "01_a.png"),
        captions=None,
        numbers=("1",),
    )
    records = Records(tmp_path)
    records.save("key ('title',)", entry, [("title",)], [("minutes", 3)])

    def key_of(reads: Any, kwargs: Any) -> str:
        assert list(kwargs) == [("minutes", 3)]
        return f"key {', '.join(map(str, reads))}"

    found = records.clip("01_a.mp4", key_of)
    assert found is not None
    assert (found.entry, found.reads, found.kwargs) == (entry, (("title",),), (("minutes", 3),))
    assert records.clip("01_a.mp4", lambda reads, kwargs: "other key") is None
    (tmp_path / "01_a.png").write_bytes(b"01_a.pnG")
    assert records.clip("01_a.mp4", key_of) is None
    assert records.last_duration("01_a.mp4") == 1.0  # still good to plan by
    assert records.last_duration("02_b.mp4") is None


_REF = FileRef("01_a.png", 3, "ab")
_CLIP = ClipEntry("01_a.mp4", 1, "A", "A", 1.0, 2, 2, 15.0, 8, "cd", _REF, _REF, ("1", "2"))


@pytest.mark.parametrize(
    "entry",
    [
        _CLIP,
        replace(_CLIP, captions=None, numbers=()),
        replace(
            _CLIP,
            shown=(("A", "1"), ()),
            meant=((Meaning("describe.line.options", (("options", "A, 1"),), ("A", "1")),), ()),
        ),
        FullEntry(
            "all.mp4",
            "T",
            2.0,
            2,
            2,
            15.0,
            9,
            "ef",
            (Chapter("A", 0.0, 1.0),),
            (_REF, _REF),
            ("3",),
            _REF,
        ),
    ],
    ids=["clip", "clip without captions", "clip and what it shows means", "whole video"],
)
def test_an_entry_comes_back_from_its_json(entry: ClipEntry | FullEntry) -> None:
    text = json.dumps(entry.to_json())
    assert type(entry).from_json(json.loads(text)) == entry


def test_work_goes_longest_first_and_the_title_last() -> None:
    title, big_picture, score, *_, answer = SCENES
    order = longest_first(SCENES, {title: 60.0, score: 49.0, answer: 48.5})
    assert order[:2] == [score, answer]
    assert order[2:-1] == [s for s in SCENES if s not in (title, score, answer)]  # lesson order
    assert order[-1] is title


def test_a_file_appears_only_when_complete(tmp_path: Path) -> None:
    final = tmp_path / "clip.mp4"
    final.write_text("old")

    def interrupted_write() -> None:
        with replacing(final) as temporary:
            temporary.write_text("half")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted_write()
    assert final.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip.mp4"]
    with replacing(final) as temporary:
        assert temporary.suffix == ".mp4"
        assert PARTIAL in temporary.name
        temporary.write_text("new")
    assert final.read_text() == "new"
    leftover = tmp_path / f".clip.999{PARTIAL}.mp4"
    leftover.write_text("killed")
    assert clean_partials(tmp_path) == [leftover]


def test_plain_and_live_displays_report_every_event() -> None:
    plain, live = io.StringIO(), io.StringIO()
    rich = RichDisplay(Console(file=live, force_terminal=True, width=120))
    for display in (PlainDisplay(plain), rich):
        with display:
            display.plan([Row("01_a", "A", 2.0), Row("02_b", "B", 3.0)])
            display.cached("01_a")
            display.running("02_b")
            display.advanced("02_b", 1.5)
            display.done("02_b", 3.0, 4.0)
            display.failed("02_b", "[not markup]")
            display.summary([SummaryRow("01_a.mp4", "cached", 2.0, 2_000_000)])
    lines = plain.getvalue().splitlines()
    assert lines[:3] == [
        "cached   01_a",
        "running  02_b",
        "done     02_b  (3.0 s of video in 4.0 s)  [1/1 clips]",
    ]
    assert "0:02.0" in lines[-1]
    assert "2.0 MB" in lines[-1]
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", live.getvalue())
    assert "02_b failed: [not markup]" in shown
    assert re.search(r"01_a\.mp4\W+cached\W+0:02\.0\W+2\.0 MB", shown)


# --- the command line, without rendering ---------------------------------------------------------


def test_transparent_mp4_or_gif_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("mp4", "gif"):
        assert render.main(["--transparent", "--format", fmt]) == 2
        assert "--transparent needs --format mov or webm" in capsys.readouterr().err


def test_a_silent_render_starts_without_the_speech_leveller() -> None:
    """scipy.signal took a second of every run's start-up, before its workers could start."""
    code = (
        "import sys, render, publish.render.pipeline, publish.render.plan\n"
        "sys.exit(sum(name in sys.modules for name in ('scipy.signal', 'scipy.ndimage')))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def _start_up_then_exit(status: int) -> None:
    """A worker process's start-up, then its end with ``status``."""
    from publish.render import worker

    worker.init(None)
    sys.exit(status)


def test_a_spawned_worker_ends_with_its_own_status() -> None:
    """The preview spawns its workers (they import the scene code afresh after an edit): their
    start-up leaves their exit status as it is, as a forked worker's."""
    import multiprocessing

    process = multiprocessing.get_context("spawn").Process(target=_start_up_then_exit, args=(3,))
    process.start()
    process.join(timeout=120)
    assert process.exitcode == 3


@pytest.mark.render
def test_the_workers_cpu_time_is_the_runs(rendered: Rendered) -> None:
    """Workers fork from a server render.py starts (``pool.warm``) and waits for at exit, so
    their CPU time is counted in the run's (``getrusage`` of its children), where ``bench/``
    reads it; uncounted, the run's would be render.py's own and its ffmpeg's, a small part."""
    assert rendered.cpu > 0.5 * rendered.seconds, (rendered.cpu, rendered.seconds)


def test_a_bad_flag_exits_2() -> None:
    with pytest.raises(SystemExit) as stop:
        render.main(["--quality", "ultra"])
    assert stop.value.code == 2


def test_an_unknown_scene_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert render.main(["--scene", "42", "--out", str(tmp_path / "out")]) == 2
    assert "no such scene" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_broken_lesson_exits_2_naming_the_field_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "attention_core" / "lesson.toml").read_text("utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace("key = [0, 1, 0, 0]", "key = [0, 1, 0]"), "utf-8")
    out = tmp_path / "out"
    assert render.main(["--lesson", str(broken), "--quality", "low", "--out", str(out)]) == 2
    assert "tokens[2].key: expected 4 numbers" in capsys.readouterr().err
    assert not out.exists()


def test_a_missing_tool_is_named_before_anything_renders(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "--quality", "low", "--out", str(out)],
        env={**os.environ, "PATH": str(empty)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    for name in ("latex", "dvisvgm", "ffmpeg", "ffprobe"):
        assert f"missing {name} " in result.stderr
    assert "sudo apt-get install texlive-latex-base dvisvgm" in result.stderr
    assert not out.exists()


# --- real renders at low quality -------------------------------------------------------------


def clip_files(folder: Path) -> list[Path]:
    return [folder / f"{scene.step:02d}_{scene.slug}.mp4" for scene in SCENES]


@pytest.mark.render
def test_every_step_has_a_clip_a_poster_and_captions(rendered: Rendered) -> None:
    names = {p.name for p in rendered.folder.iterdir()}
    for clip in clip_files(rendered.folder):
        assert {clip.name, clip.with_suffix(".png").name, clip.with_suffix(".srt").name} <= names
    for suffix in (".mp4", ".srt", ".vtt"):
        assert f"{FULL_NAME}{suffix}" in names
    assert not [name for name in names if PARTIAL in name]
    for clip in clip_files(rendered.folder):
        assert f"done     {clip.stem}" in rendered.stdout


@pytest.mark.render
def test_only_the_title_is_measured_and_it_tells_the_videos_length(rendered: Rendered) -> None:
    assert "measuring 1 scene(s)" in rendered.stdout
    length = sum(clip["duration"] for clip in rendered.manifest["clips"])
    title = clip_files(rendered.folder)[0].with_suffix(".srt").read_text("utf-8")
    assert f"about {minutes_of(length)} minutes" in title


@pytest.mark.render
def test_resolution_and_frame_rate_match_the_preset(rendered: Rendered) -> None:
    for path in [*clip_files(rendered.folder), rendered.full]:
        info = media.probe(path)
        assert (info.width, info.height, info.fps) == (LOW.width, LOW.height, LOW.fps), path.name
        assert (info.codec, info.pixel_format) == ("h264", "yuv420p")
    for clip in clip_files(rendered.folder):
        poster = media.probe(clip.with_suffix(".png"))
        assert (poster.width, poster.height) == (LOW.width, LOW.height)


@pytest.mark.render
def test_the_full_video_lasts_as_long_as_its_clips(rendered: Rendered) -> None:
    clips = sum(media.probe(path).duration for path in clip_files(rendered.folder))
    assert abs(media.probe(rendered.full).duration - clips) <= FRAME


@pytest.mark.render
def test_the_full_video_has_a_chapter_per_step(rendered: Rendered) -> None:
    chapters = media.chapters(rendered.full)
    assert [title for title, _, _ in chapters] == [
        scene.headline(default_lesson()) for scene in SCENES
    ]
    start = 0.0
    for (_, chapter_start, chapter_end), clip in zip(
        chapters, clip_files(rendered.folder), strict=True
    ):
        duration = media.probe(clip).duration
        assert abs(chapter_start - start) <= FRAME
        assert abs(chapter_end - (start + duration)) <= FRAME
        start += duration


@pytest.mark.render
def test_captions_parse_and_stay_inside_each_clip(rendered: Rendered) -> None:
    every: list[Cue] = []
    offset = 0
    for clip in clip_files(rendered.folder):
        cues = captions.parse_srt(clip.with_suffix(".srt").read_text("utf-8"))
        duration = captions.milliseconds(media.probe(clip).duration)
        assert cues, clip.name
        for cue in cues:
            assert 0 <= cue.start < cue.end <= duration, (clip.name, cue)
        every += [cue.shifted(offset) for cue in cues]
        offset += duration
    full = rendered.folder / FULL_NAME
    assert captions.parse_srt(full.with_suffix(".srt").read_text("utf-8")) == every
    vtt = full.with_suffix(".vtt").read_text("utf-8")
    assert vtt.startswith("WEBVTT")
    assert vtt.count(" --> ") == len(every)


@pytest.mark.render
def test_the_manifest_describes_every_file_truly(rendered: Rendered) -> None:
    manifest = rendered.manifest
    assert (manifest["quality"], manifest["format"]) == ("low", "mp4")
    assert [clip["step"] for clip in manifest["clips"]] == [scene.step for scene in SCENES]
    assert [clip["title"] for clip in manifest["clips"]] == [
        scene.headline(default_lesson()) for scene in SCENES
    ]
    for entry in [*manifest["clips"], manifest["full"]]:
        path = rendered.folder / entry["file"]
        assert entry["sha256"] == sha256(path)
        assert entry["size"] == path.stat().st_size
        assert abs(entry["duration"] - media.probe(path).duration) < 1e-3
        assert (entry["width"], entry["height"], entry["fps"]) == (LOW.width, LOW.height, LOW.fps)
        companions = (
            [entry["poster"], entry["captions"]] if "poster" in entry else entry["captions"]
        )
        for companion in companions:
            assert companion["sha256"] == sha256(rendered.folder / companion["file"])
    assert len(manifest["full"]["chapters"]) == len(SCENES)


@pytest.mark.render
def test_the_manifest_names_every_file_in_the_folder(rendered: Rendered) -> None:
    """Whatever a run leaves beside the clips, the manifest names it, whole and unchanged."""
    manifest = rendered.manifest
    refs = [
        *(ref for clip in manifest["clips"] for ref in ClipEntry.from_json(clip).files),
        *FullEntry.from_json(manifest["full"]).files,
        *(FileRef(**ref) for ref in manifest["kit"]),
    ]
    for ref in refs:
        assert ref.matches(rendered.folder), ref.file
    named = [ref.file for ref in refs]
    assert len(named) == len(set(named))
    on_disk = {path.name for path in rendered.folder.iterdir() if path.is_file()}
    assert set(named) == on_disk - {"manifest.json"}
    kit = [ref["file"] for ref in manifest["kit"]]
    stems = [Path(clip["file"]).stem for clip in manifest["clips"]]
    vtt = [f"{stem}.vtt" for stem in stems]
    described = [f"{stem}.descriptions.vtt" for stem in [*stems, FULL_NAME]]
    pages = ["index.html", "handout.html", "handout.pdf", "transcript.html", "transcript.txt"]
    assert kit == [*vtt, *described, *pages, "slides.html", "slides.pptx", "twin.html"]


@pytest.mark.render
def test_the_manifest_lists_the_numbers_each_clip_shows(rendered: Rendered) -> None:
    allowed = allowed_numbers(default_lesson())
    clips = {clip["scene"]: clip for clip in rendered.manifest["clips"]}
    for clip in clips.values():
        assert set(clip["numbers"]) <= allowed, clip["file"]
    assert {"6", "2", "3"} <= set(clips["Step3Score"]["numbers"])
    assert set(rendered.manifest["full"]["numbers"]) == {
        n for clip in clips.values() for n in clip["numbers"]
    }


@pytest.mark.render
def test_a_second_run_reuses_everything(rendered: Rendered, copy_of: Path) -> None:
    before = {p.name: sha256(p) for p in (copy_of / LOW.name).iterdir() if p.is_file()}
    started = time.monotonic()
    result = cli(copy_of)
    took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    assert "running" not in result.stdout
    assert "measuring" not in result.stdout
    for clip in clip_files(rendered.folder):
        assert f"cached   {clip.stem}" in result.stdout
    assert f"{FULL_NAME}.mp4" in result.stdout
    assert "joined" not in result.stdout
    after = {p.name: sha256(p) for p in (copy_of / LOW.name).iterdir() if p.is_file()}
    assert after == before
    assert took < 30, f"a cached run took {took:.1f} s"


@pytest.mark.render
def test_scene_picks_steps_from_the_cache(copy_of: Path) -> None:
    result = cli(copy_of, "--scene", "3", "--scene", "Step5Mix", "--scene", "answer")
    assert result.returncode == 0, result.stderr
    cached = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("cached")]
    assert cached == ["03_score", "05_mix", "07_answer"]


@pytest.mark.render
def test_list_prints_each_step_and_its_length(
    rendered: Rendered, copy_of: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--list", "--scene", "5", "--scene", "score", "--quality", "low", "--out", str(copy_of)]
    assert render.main([*args, "--voice", "none"]) == 0  # timed as the silent render was
    lines = capsys.readouterr().out.splitlines()
    durations = {clip["scene"]: clip["duration"] for clip in rendered.manifest["clips"]}
    rows = {line.split()[1]: line.split() for line in lines[1:-1]}
    assert list(rows) == ["Step3Score", "Step5Mix"]
    for scene, row in rows.items():
        minutes, seconds = row[3].split(":")
        # A dry run adds run times exactly; a render rounds each animation to whole frames.
        assert abs(int(minutes) * 60 + float(seconds) - durations[scene]) <= 0.5
    assert lines[-1].split()[0] == "total"


@pytest.mark.render
def test_dry_run_prints_what_a_scene_shows_and_renders_nothing(
    copy_of: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sorted((copy_of / LOW.name).iterdir())
    args = ["--dry-run", "--scene", "3", "--quality", "low", "--out", str(copy_of)]
    assert render.main(args) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("03_score  Step3Score")
    numbers = next(line for line in printed.splitlines() if "numbers:" in line)
    assert {"6", "2", "3"} <= set(numbers.split(":")[1].replace(",", " ").split())
    assert "Score every token against the query" in printed
    assert sorted((copy_of / LOW.name).iterdir()) == before


@pytest.mark.render
def test_a_dry_run_of_every_step_titles_the_lesson_with_its_length(
    rendered: Rendered, copy_of: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The last render's lengths give the title's minutes up front, so every scene is
    # constructed once, in parallel; the title must still show the dry runs' own minutes.
    args = ["--dry-run", "--quality", "low", "--out", str(copy_of), "--voice", "none"]
    assert render.main(args) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    seconds = [float(block.split("\n")[0].split()[-2]) for block in blocks if block.strip()]
    assert len(seconds) == len(SCENES)
    title = blocks[0].split("\n")
    assert title[0].startswith("01_title")
    minutes = next(line for line in title if "numbers:" in line).split()[-1]
    assert minutes == str(minutes_of(sum(seconds)))
    shown = {clip["scene"]: clip["duration"] for clip in rendered.manifest["clips"]}
    assert minutes == str(minutes_of(sum(shown.values())))


def test_a_dry_run_in_workers_prints_what_one_in_process_prints(tmp_path: Path) -> None:
    from scenes.probe import _run_dry

    from .render_scenes import AlwaysFails, TinyCircle

    printed = []
    for jobs in (2, 1):
        misses = _run_dry.cache_info().misses
        out = io.StringIO()
        run = RunOptions(quality=LOW, fmt="mp4", transparent=False, out=tmp_path, jobs=jobs)
        tiny = plan(default_lesson(), run.lesson(), scenes_of=lambda _: (TinyCircle, AlwaysFails))
        preview.dry_run(tiny, out)
        printed.append(out.getvalue())
        constructed_here = _run_dry.cache_info().misses - misses
        assert constructed_here == (0 if jobs > 1 else 2)
    assert printed[0] == printed[1]
    assert printed[0].startswith("01_tiny  TinyCircle  'A circle'")
    assert "\n02_broken  AlwaysFails  'A scene with a bug'" in printed[0]
    assert printed[0].count("captions: 1\n") == 2


def _wait_for(process: subprocess.Popen[str], line: str, timeout: float = 300) -> list[str]:
    """Read the run's output until ``line`` appears; everything read so far."""
    assert process.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = process.stdout.readline()
        if not got:
            break
        seen.append(got.rstrip("\n"))
        if got.startswith(line):
            return seen
    raise AssertionError(f"never saw {line!r}: {seen}")


def _as_in_a_terminal() -> None:
    """A shell's background jobs start with SIGINT ignored; a user at a terminal has it on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(out: Path, victim: str, stop: signal.Signals) -> tuple[int | None, str]:
    """Start a run, stop it while ``victim`` renders: its exit code and everything it printed.

    SIGINT goes to the whole process group, as Ctrl-C in a terminal does; SIGTERM to the
    parent alone, as ``kill`` does.
    """
    command = [sys.executable, str(ROOT / "render.py"), "--quality", "low", "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--voice", "none"],  # silent, as the render it copies
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_in_a_terminal,
    )
    try:
        seen = _wait_for(process, f"running  {victim}")
        time.sleep(2)
        if stop == signal.SIGINT:
            os.killpg(process.pid, stop)
        else:
            process.send_signal(stop)
        rest, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, "\n".join([*seen, rest, errors])


@pytest.mark.render
def test_an_interrupted_run_leaves_no_partial_file_and_the_next_finishes(
    rendered: Rendered, copy_of: Path
) -> None:
    folder = copy_of / LOW.name
    clips = rendered.manifest["clips"]
    # The shortest clip that still takes seconds to render (the title would re-measure all).
    victim = min(
        (c for c in clips if c["step"] > 1 and c["duration"] > 10), key=lambda c: c["duration"]
    )
    stem = Path(victim["file"]).stem
    for path in folder.glob(f"{stem}.*"):
        path.unlink()
    shutil.rmtree(folder / ".beats")  # or its beats' segments would make it in a second
    whole = {clip["file"]: clip["sha256"] for clip in clips}
    whole[f"{FULL_NAME}.mp4"] = rendered.manifest["full"]["sha256"]

    for stop, code in ((signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM)):
        returned, printed = _interrupt(copy_of, stem, stop)
        assert returned == code, printed
        names = {p.name for p in folder.iterdir()}
        assert not [name for name in names if PARTIAL in name], names
        assert victim["file"] not in names
        for name, digest in whole.items():
            if name in names:
                assert sha256(folder / name) == digest, f"{name} changed under its final name"

    result = cli(copy_of)
    assert result.returncode == 0, result.stdout + result.stderr
    running = [line for line in result.stdout.splitlines() if line.startswith("running")]
    assert running == [f"running  {stem}"], result.stdout
    assert f"done     {stem}" in result.stdout
    again = folder / victim["file"]
    assert sha256(again) == _manifest_digest(folder, victim["file"])
    # Rendered again from scratch, alone in a fresh worker, the clip is byte-identical to the one
    # rendered after other scenes (see test_determinism.py for why it once was not).
    assert sha256(again) == whole[victim["file"]]


def _manifest_digest(folder: Path, name: str) -> str:
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    return next(clip["sha256"] for clip in manifest["clips"] if clip["file"] == name)


@pytest.mark.render
def test_a_failing_scene_is_named_and_the_others_are_kept(tmp_path: Path) -> None:
    from .render_scenes import AlwaysFails, TinyCircle

    log = io.StringIO()
    run = RunOptions(quality=LOW, fmt="mp4", transparent=False, out=tmp_path, jobs=2)
    scenes = (TinyCircle, AlwaysFails)
    with PlainDisplay(log) as display:
        plans = [plan(default_lesson(), run.lesson(), scenes_of=lambda _: scenes)]
        code = publish(run, plans, display)
    printed = log.getvalue()
    assert code == 1
    assert "FAILED   02_broken: RuntimeError: deliberate failure in AlwaysFails" in printed
    assert "step 2 (AlwaysFails) failed" in printed
    assert "done     01_tiny" in printed
    manifest = json.loads((tmp_path / LOW.name / "manifest.json").read_text("utf-8"))
    assert [clip["file"] for clip in manifest["clips"]] == ["01_tiny.mp4"]
    assert manifest["full"] is None
    assert (tmp_path / LOW.name / "01_tiny.mp4").is_file()
    assert not (tmp_path / LOW.name / "02_broken.mp4").exists()
