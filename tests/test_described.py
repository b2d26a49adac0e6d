"""``render.py --described``: descriptions spoken in the pauses, holds where they do not fit,
shifted chapters and captions, a second sound track where nothing holds, the page's toggle."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from attention_core import default_lesson, load_lesson
from publish.described.holds import (
    AFTER,
    Hold,
    Pause,
    earlier,
    later,
    place,
    shift_chapters,
    shift_cues,
)
from publish.described.make import description_voice
from publish.described.sound import described_track, heard
from publish.described.video import add_described_track, held_filter, streams
from publish.media.captions import parse_srt
from publish.media.clip_beats import steps_of
from publish.media.ffmpeg import chapters
from publish.media.manifest import Chapter, ClipEntry
from publish.narration.voices import VoiceError
from publish.presets import FULL_NAME
from tests.conftest import NARRATED, ROOT, cli
from tests.test_accessibility import AXE, TAGS
from tests.test_lecture_kit import Visit, browser  # noqa: F401 (browser: a fixture)

FRAME = 1 / 15
"""A frame at low quality: the unit holds come in."""
DESCRIBED_TRACK = "English (described)"


# --- placing descriptions: pure -----------------------------------------------------------


def test_a_description_that_fits_its_pause_holds_nothing() -> None:
    pause = Pause(start=0.0, spoken_until=2.0, end=5.0, description="The table.")
    placed, holds = place([pause], [2.0], FRAME, breath=0.35)
    assert holds == []
    assert placed[0].at == pytest.approx(2.35)  # a breath after the words


def test_a_hold_adds_exactly_the_missing_time_in_whole_frames() -> None:
    pauses = [Pause(0.0, 2.0, 3.0, "Long."), Pause(3.0, 4.0, 6.0, "Short."), Pause(6, 7, 9, "")]
    placed, holds = place(pauses, [2.0, 0.5, 0.0], FRAME, breath=0.35)
    missing = 2.0 + 0.35 + 2.0 + AFTER - 3.0  # 1.6 s: 24 frames
    assert holds == [Hold(3.0, pytest.approx(24 * FRAME))]
    assert holds[0].length >= missing > holds[0].length - FRAME
    # the second description moves with the hold before it; the empty third is not said
    assert [p.text for p in placed] == ["Long.", "Short."]
    assert placed[1].at == pytest.approx(4.35 + holds[0].length)


def test_a_description_the_last_one_said_is_not_said_again() -> None:
    from publish.described.make import _not_again

    options = "The quiz's options: A, 1; B, 3."
    texts = ["The table.", options, "", options, "The table.", "The table."]
    assert _not_again(texts) == ["The table.", options, "", "", "The table.", ""]


def test_a_silent_beat_is_described_from_its_start() -> None:
    placed, _ = place([Pause(1.0, 1.0, 4.0, "A grid.")], [1.0], FRAME, breath=0.35)
    assert placed[0].at == 1.0


def test_moments_map_through_the_holds_both_ways() -> None:
    holds = [Hold(3.0, 1.6), Hold(10.0, 0.4)]
    for plain in (0.0, 2.9, 3.0, 5.0, 10.0, 12.5):
        assert earlier(later(plain, holds), holds) == pytest.approx(plain)
    assert later(3.0, holds) == pytest.approx(4.6)  # the next beat starts after the hold
    assert earlier(3.8, holds) == 3.0  # inside the hold: the held frame's moment
    assert later(3.0, holds, ending=True) == 3.0  # a cue ending there ends before the hold


def test_chapters_and_cues_end_with_their_holds() -> None:
    holds = [Hold(3.0, 1.6)]
    shifted = shift_chapters([Chapter("one", 0.0, 3.0), Chapter("two", 3.0, 6.0)], holds)
    assert [(c.start, c.end) for c in shifted] == [(0.0, 4.6), (4.6, pytest.approx(7.6))]
    cues = shift_cues(parse_srt("1\n00:00:01,000 --> 00:00:03,000\nA.\n"), holds)
    assert (cues[0].start, cues[0].end) == (1000, 3000)


def test_the_filter_counts_each_hold_in_the_frames_already_held() -> None:
    filtered = held_filter([Hold(2.0, 1.0), Hold(4.0, 0.2)], 15)
    assert filtered == (
        "loop=loop=15:size=1:start=29,loop=loop=3:size=1:start=74,setpts=N/FRAME_RATE/TB"
    )


def test_a_silent_lesson_is_described_by_the_default_voice_and_greek_asks_for_one() -> None:
    voice, why = description_voice(None, default_lesson())
    assert voice is not None
    assert voice.kind == "piper"
    assert why is not None
    assert "--voice none" in why
    assert "joe" in why
    with pytest.raises(VoiceError, match=r"--described: .*pass --voice espeak"):
        description_voice(None, load_lesson(ROOT / "lessons" / "greek.toml"))


def test_described_without_mp4_is_refused_in_one_line(tmp_path: Path) -> None:
    result = cli(tmp_path, "--described", "--format", "webm")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "render.py: --described needs --format mp4 without --transparent (an AAC second track)"
    ]


@pytest.mark.render
def test_where_nothing_holds_the_plain_video_carries_the_described_track(
    narrated: Path, tmp_path: Path
) -> None:
    """The second track as a lesson whose descriptions all fit gets it (today's descriptions
    never all fit, so it is made here from a narrated clip, as ``--described`` makes it)."""
    plain = tmp_path / "01_title.mp4"
    shutil.copy(narrated / NARRATED.name / plain.name, plain)
    sound = described_track(heard(plain, tmp_path), _duration(plain), [], [], tmp_path / "s.wav")
    made = []
    for _ in range(2):  # a second run replaces the described track, never adds one
        add_described_track(plain, sound, language="eng", title=DESCRIBED_TRACK)
        made.append(plain.read_bytes())
    assert made[0] == made[1], "the same bytes run to run"
    command = ["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(plain)]
    probed = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    audio = [s for s in probed["streams"] if s["codec_type"] == "audio"]
    assert len(audio) == 2
    assert [a["disposition"]["default"] for a in audio] == [1, 0]
    # for viewers who cannot see the picture: what a player picks a described track by
    assert [a["disposition"]["visual_impaired"] for a in audio] == [0, 1]
    assert [a["disposition"]["descriptions"] for a in audio] == [0, 1]
    assert audio[1]["tags"]["language"] == "eng"
    assert audio[1]["tags"]["handler_name"] == DESCRIBED_TRACK  # MP4's name for a track
    assert any(s["codec_type"] == "subtitle" for s in probed["streams"])
    assert _loudness(plain, "0:a:1") == pytest.approx(-16, abs=1)


# --- the narrated lesson described ----------------------------------------------------------


@dataclass(frozen=True)
class Described:
    folder: Path
    stdout: str
    seconds: float

    @property
    def plain(self) -> Path:
        return self.folder / f"{FULL_NAME}.mp4"

    @property
    def video(self) -> Path:
        return self.folder / f"{FULL_NAME}_described.mp4"

    @property
    def record(self) -> dict[str, list[list[float]]]:
        data: dict[str, list[list[float]]] = json.loads(
            self.video.with_suffix(".json").read_text("utf-8")
        )
        return data

    @property
    def holds(self) -> list[Hold]:
        return [Hold(at, length) for at, length in self.record["holds"]]


@pytest.fixture(scope="module")
def described(narrated: Path, tmp_path_factory: pytest.TempPathFactory) -> Described:
    """A copy of the narrated lesson, run again with ``--described``: every clip and the whole
    video cached, only the descriptions' speech, the described video and the kit are made."""
    out = tmp_path_factory.mktemp("described") / "media"
    shutil.copytree(narrated, out, symlinks=True)
    started = time.monotonic()
    result = cli(out, "--voice", "joe", "--described", quality=NARRATED)
    assert result.returncode == 0, result.stdout + result.stderr
    return Described(out / NARRATED.name, result.stdout, time.monotonic() - started)


def _duration(path: Path) -> float:
    command = ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json"]
    out = subprocess.run([*command, str(path)], capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["format"]["duration"])


def _log(path: Path, *args: str) -> str:
    command = ["ffmpeg", "-nostdin", "-hide_banner", "-i", str(path), *args, "-f", "null", "-"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stderr


def _loudness(path: Path, track: str = "0:a:0") -> float:
    summary = _log(path, "-map", track, "-af", "ebur128").split("Summary:")[-1]
    found = re.search(r"I:\s+(-?[\d.]+) LUFS", summary)
    assert found is not None
    return float(found[1])


def _sounds(path: Path) -> list[tuple[float, float]]:
    """Where the file's sound is heard (above -40 dB, silences of 0.05 s and longer apart)."""
    log = _log(path, "-map", "0:a:0", "-af", "silencedetect=n=-40dB:d=0.05")
    starts = [float(x) for x in re.findall(r"silence_start: (-?[\d.]+)", log)]
    ends = [float(x) for x in re.findall(r"silence_end: ([\d.]+)", log)]
    edges = [0.0, *(x for pair in zip(starts, ends, strict=False) for x in pair), _duration(path)]
    return [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a > 0.02]


@pytest.mark.render
def test_holds_add_exactly_the_missing_time(described: Described) -> None:
    """The described video lasts the plain one and its holds; each description ends, a pause
    after, before its beat does, and a held beat would end too soon held a frame less."""
    holds = described.holds
    total = sum(hold.length for hold in holds)
    assert _duration(described.video) == pytest.approx(_duration(described.plain) + total, abs=0.1)
    manifest = json.loads((described.folder / "manifest.json").read_text("utf-8"))
    clips = [ClipEntry.from_json(clip) for clip in manifest["clips"]]
    ends, offset = [], 0.0
    for step, clip in zip(steps_of(described.folder, clips, write=False), clips, strict=True):
        ends += [offset + beat.end for beat in step.beats]
        offset += round(clip.duration * 1000) / 1000
    frame = float(NARRATED.frame)  # the described lesson's frame: the unit its holds come in
    held = {round(hold.at / frame): hold for hold in holds}
    beats = list(zip([0.0, *ends[:-1]], ends, strict=True))
    for at, length, _ in described.record["descriptions"]:
        # its beat: from the hold before to its own hold's end, in the described video
        start, end = next(
            (a, b) for a, b in beats if later(a, holds) <= at + 0.01 < later(b, holds)
        )
        beat_end = later(end, holds)
        assert at + length + AFTER <= beat_end + 0.01
        if round(end / frame) in held:  # held a frame less, it would end too soon
            assert at + length + AFTER > beat_end - frame - 0.01


@pytest.mark.render
def test_every_beat_and_every_description_is_heard_inside_its_place(
    described: Described,
) -> None:
    """Every sound of the described track lies inside a caption cue (the narration, shifted by
    the holds) or a description's place; every description is heard there."""
    cues = parse_srt(described.video.with_suffix(".srt").read_text("utf-8"))
    said = [(at, at + length) for at, length, _ in described.record["descriptions"]]
    places = [(c.start / 1000, c.end / 1000) for c in cues] + said
    sounds = _sounds(described.video)
    for a, b in sounds:
        assert any(x - 0.25 <= a and b <= y + 0.25 for x, y in places), (a, b)
    for x, y in said:
        heard = sum(max(0.0, min(b, y) - max(a, x)) for a, b in sounds)
        assert heard > 0.5 * (y - x), (x, y)


@pytest.mark.render
def test_chapters_and_captions_are_shifted_by_the_holds(described: Described) -> None:
    plain = [Chapter(*chapter) for chapter in chapters(described.plain)]
    found = chapters(described.video)
    expected = shift_chapters(plain, described.holds)
    assert [title for title, _, _ in found] == [c.title for c in expected]
    for (_, start, end), chapter in zip(found, expected, strict=True):
        assert (start, end) == (
            pytest.approx(chapter.start, abs=0.002),
            pytest.approx(chapter.end, abs=0.002),
        )
    assert found[-1][2] == pytest.approx(_duration(described.video), abs=0.1)
    plain_cues = parse_srt(described.plain.with_suffix(".srt").read_text("utf-8"))
    cues = parse_srt(described.video.with_suffix(".srt").read_text("utf-8"))
    assert cues == shift_cues(plain_cues, described.holds)


@pytest.mark.render
def test_the_files_pass_ffprobe_and_both_tracks_are_at_minus_16_lufs(
    described: Described,
) -> None:
    kinds = streams(described.video)
    assert [kind for kind, _ in kinds if kind != "data"] == ["video", "audio", "subtitle"]
    assert ("audio", DESCRIBED_TRACK) in kinds
    assert _loudness(described.video) == pytest.approx(-16, abs=1)
    assert _loudness(described.plain) == pytest.approx(-16, abs=1)
    # where a hold was needed (today's descriptions: 22), the plain video keeps its one sound
    # track and the run says why; where none was, the plain video carries the described one
    plain = [kind for kind, _ in streams(described.plain)]
    if described.holds:
        assert plain.count("audio") == 1
        assert f"so {FULL_NAME}.mp4 has no described track" in described.stdout
    else:
        assert ("audio", DESCRIBED_TRACK) in streams(described.plain)
        assert f"so {FULL_NAME}.mp4 carries it too" in described.stdout


@pytest.mark.browser
@pytest.mark.render
def test_the_toggle_swaps_the_player_at_the_same_moment(
    described: Described,
    browser: Browser,  # noqa: F811
) -> None:
    first = (described.holds or [Hold(0.0, 0.0)])[0]
    visit = Visit(browser, described.folder / "index.html")
    page = visit.page
    toggle = page.locator("button.described-toggle")
    assert toggle.inner_text() == "Described version"
    moment = first.at + 1.0  # after the first hold
    page.evaluate(f"document.getElementById('whole').currentTime = {moment}")
    toggle.click()
    page.wait_for_function("document.getElementById('whole').currentSrc.endsWith('_described.mp4')")
    page.wait_for_function(
        f"Math.abs(document.getElementById('whole').currentTime - {moment + first.length}) < 0.1"
    )
    assert toggle.get_attribute("aria-pressed") == "true"
    # the quiz follows the lesson's own moments, read back through the holds
    lesson_time = page.evaluate("document.getElementById('whole').lessonTime()")
    assert abs(lesson_time - moment) < 0.1
    page.add_script_tag(path=str(AXE))  # the page, the toggle pressed, held to WCAG 2.1 AA
    found = page.evaluate(
        "async (tags) => (await axe.run(document, { runOnly: { type: 'tag', values: tags } }))"
        ".violations.map((v) => v.id)",
        TAGS,
    )
    assert found == []
    toggle.click()
    page.wait_for_function(
        "!document.getElementById('whole').currentSrc.endsWith('_described.mp4')"
    )
    page.wait_for_function(
        f"Math.abs(document.getElementById('whole').currentTime - {moment}) < 0.1"
    )
    assert page.evaluate("document.getElementById('whole').lessonTime") is None
    assert not visit.blocked  # (the swap cancels the loads in flight: no failed check here)
