"""Narration: what is said, the voices, and a narrated draft-quality render heard with ffmpeg."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from attention_core import LessonError, default_lesson, load_lesson, parse_lesson
from attention_core.words import caption_name, english, kind_of, placeholders
from publish.media.captions import Cue, parse_srt
from publish.media.cues import FASTEST, LINES, LONGEST, SHORTEST
from publish.media.ffmpeg import chapters
from publish.media.files import sha256
from publish.media.upload_text import stamp
from publish.narration.level import LUFS, PEAK
from publish.narration.recordings import recordings_problem
from publish.narration.script import spoken
from publish.narration.voices import (
    CAPTIONED,
    HEART,
    JOE,
    Narrator,
    Voice,
    VoiceError,
    choose_voice,
    seconds,
)
from publish.presets import FULL_NAME
from scenes import style
from tests.conftest import LONG_BEAT, LOW, NARRATED, ROOT, Recorded, Rendered, cli

LESSONS = ROOT / "lessons"
SILENCE = "-40dB"
"""Below this a stretch counts as silence (speech sits around -16 LUFS)."""
TOLERANCE = 0.25
"""How far a cue's edge may be from the edge of the silence ffmpeg hears there, in seconds."""
PAUSE = 0.05
"""Seconds of silence ffmpeg must hear to call it a pause: where a beat's words are cut into
cues, at a comma or a full stop, joe pauses for 0.08 to 0.3 s."""


# --- what is said ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shown", "said"),
    [
        ("so [3, 1, 0] becomes [.84, .11, .04].", "so 3, 1, 0 becomes 0.84, 0.11, 0.04."),
        ("split by e^score. Whatever", "split by e to the score. Whatever"),
        (
            "river: e^3 is 20.09, lamp: e^-1.5 is 0.22.",
            "river: e to the 3 is 20.09, lamp: e to the -1.5 is 0.22.",
        ),
        ("q·k ÷ √4 × 2", "q·k divided by root 4 times 2"),
        ("prints tensor([0.8438, 0.1142]).", "prints tensor 0.8438, 0.1142."),
        ("✓ The model leans hard towards 4821.", "The model leans hard towards 4821."),
        ("Liu (2026). It holds 84.4% of it", "Liu 2026. It holds 84.4% of it"),
        ("e to the 3 is 20.09.", "e to the 3 is 20.09."),
    ],
)
def test_symbols_are_said_in_words(shown: str, said: str) -> None:
    assert spoken(shown, english()) == said


@pytest.mark.parametrize("lesson", ["default", "greek"])
def test_captions_show_the_notation_and_only_the_voice_spells_it_out(lesson: str) -> None:
    """No caption shows a said-only spelling (``d k``, ``e to the``, "the square root"): the
    screen's dₖ, √ and e^ are what a deaf viewer reads; the said entries keep the words."""
    words = (default_lesson() if lesson == "default" else load_lesson(LESSONS / "greek.toml")).words
    spelled = [r"\bd k\b", r"\bW [QKVO]\b", f"\\be {words['common.said.power']}", "square root"]
    spelled.append("τετραγωνική ρίζα")
    captions = {name: words[name] for name in words if kind_of(name) == "caption"}
    for name, text in captions.items():
        assert not [s for s in spelled if re.search(s, text)], (name, text)
    said = [words[name] for name in words if kind_of(name) == "said" and ".said." in name]
    assert any("d k" in text for text in said)  # the voice still says it
    assert any("√dₖ" in text for text in captions.values())


def test_every_said_entry_speaks_a_caption_with_its_placeholders() -> None:
    said = [name for name in english() if kind_of(name) == "said"]
    assert "answer.said.reveal" in said
    for name in said:
        caption = english().get(caption_name(name), "")
        assert sorted(placeholders(english()[name])) == sorted(placeholders(caption)), name


def test_a_beat_says_its_said_form() -> None:
    words = default_lesson().words
    values = {"letter": "C", "option": "about 20"}
    assert words.say("answer.caption.reveal", **values).endswith("The answer is C: about 20.")
    assert words.said("answer.caption.reveal", **values).endswith("is option C: about 20.")


def _with_words(words: dict[str, object], **fields: object) -> dict[str, object]:
    text = (ROOT / "attention_core" / "lesson.toml").read_text("utf-8")
    return tomllib.loads(text) | {"words": words} | fields


def test_a_translation_may_add_a_said_form_with_its_captions_placeholders() -> None:
    said = "Step {token}: {dot} over {root}, score {score}."
    lesson = parse_lesson(_with_words({"score": {"said": {"dot": said}}}))
    values = {"token": "a", "dot": "6", "root": "2", "score": "3"}
    assert lesson.words.said("score.caption.dot", **values) == "Step a: 6 over 2, score 3."


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ({"score": {"said": {"dot": "{token} {x}"}}}, "words.score.said.dot: unknown placeholder"),
        ({"score": {"said": {"dot": "{token}"}}}, "words.score.said.dot: missing placeholder"),
        ({"score": {"said": {"nope": "x"}}}, "words.score.said.nope: unknown entry"),
        ({"answer": {"said": {"reveal": "{letter}"}}}, "missing placeholder {option}"),
    ],
)
def test_a_said_form_with_other_placeholders_is_refused(
    words: dict[str, object], message: str
) -> None:
    with pytest.raises(LessonError, match=re.escape(message)):
        parse_lesson(_with_words(words))


def test_a_translated_caption_without_its_said_form_is_said_as_translated() -> None:
    reveal = "Réponse {letter} : {option}."
    lesson = parse_lesson(_with_words({"answer": {"caption": {"reveal": reveal}}}))
    assert lesson.words.said("answer.caption.reveal", letter="C", option="20") == "Réponse C : 20."


def test_a_lesson_names_one_of_the_known_voices() -> None:
    assert parse_lesson(_with_words({}, voice="espeak")).voice == "espeak"
    with pytest.raises(
        LessonError, match=r'voice: expected one of "joe", "heart", "espeak", "none"'
    ):
        parse_lesson(_with_words({}, voice="bob"))


# --- the voices -----------------------------------------------------------------------------


def test_the_voice_follows_the_flag_then_the_lesson_then_the_language() -> None:
    english_lesson, greek = default_lesson(), load_lesson(LESSONS / "greek.toml")
    joe = choose_voice(None, english_lesson)
    assert joe is not None
    assert joe.kind == "piper"
    assert choose_voice("none", english_lesson) is None
    espeak = choose_voice(None, greek)
    assert espeak is not None
    assert (espeak.kind, espeak.source) == ("espeak", "el")
    silent_greek = replace(greek, voice=None)
    with pytest.raises(VoiceError, match="no voice for the lesson's language 'el': pass --voice"):
        choose_voice(None, silent_greek)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gone.onnx", "gone.onnx not found"),
        ("lonely.onnx", "lonely.onnx.json not found"),
        ("nobody", "not joe, heart, espeak, none"),
    ],
)
def test_a_voice_that_cannot_speak_is_named(spec: str, message: str, tmp_path: Path) -> None:
    (tmp_path / "lonely.onnx").write_bytes(b"")
    with pytest.raises(VoiceError, match=re.escape(message)):
        choose_voice(str(tmp_path / spec) if spec.endswith(".onnx") else spec, default_lesson())


def test_a_beat_said_faster_than_its_caption_can_be_read_is_said_slower(tmp_path: Path) -> None:
    """Mask, step 1 of Day 005: joe says its 70 characters in 3.0 s, 23 a second, faster than
    any cue of it can be read; said again, slower, it comes near the captions' 20."""
    voice = choose_voice(JOE, default_lesson())
    assert voice is not None
    words = "Here is the grid again. But a sentence is written one token at a time."
    brisk = Narrator(voice, tmp_path).say("04_mask-01", words)  # no caption: its own pace
    paced = Narrator(voice, tmp_path).say("04_mask-01", words, len(words))
    assert paced != brisk
    assert len(words) / seconds(brisk) > CAPTIONED
    # near it: Piper slows its sounds more than its pauses; the cues ease the rest
    assert len(words) / seconds(paced) <= CAPTIONED * 1.05
    calm = "Step three: mix."
    assert Narrator(voice, tmp_path).say("x", calm, len(calm)).read_bytes() == (
        Narrator(voice, tmp_path).say("x", calm).read_bytes()
    )  # slow enough already: said once, as the voice says it


@pytest.mark.parametrize("kind", [JOE, HEART, "espeak"])
def test_synthesis_is_deterministic_and_stored_once(kind: str, tmp_path: Path) -> None:
    voice = choose_voice(kind, default_lesson())
    assert voice is not None
    line = ("03_score-04", "For river, e to the 3 is 20.09.")
    first = Narrator(voice, tmp_path / "a").say(*line)
    again = Narrator(voice, tmp_path / "b").say(*line)
    assert first.read_bytes() == again.read_bytes()
    assert 1.0 < seconds(first) < 6.0
    stamp_before = first.stat().st_mtime_ns
    assert Narrator(voice, tmp_path / "a").say(*line) == first
    assert first.stat().st_mtime_ns == stamp_before  # reused, not made again
    assert abs(_loudness(first) - LUFS) <= 0.5  # levelled once, as stored
    assert _true_peak(first) <= PEAK


def test_recordings_are_checked_beat_by_beat(tmp_path: Path) -> None:
    beats = ["01_title-01", "01_title-02"]
    for beat in beats:
        _espeak(f"Beat {beat}.", tmp_path / f"{beat}.wav")
    voice = Voice("recordings", str(tmp_path), "x")
    assert recordings_problem(voice, beats) is None
    (tmp_path / "01_title-02.wav").write_bytes(b"")
    assert "beat 01_title-02: " in str(recordings_problem(voice, beats))
    (tmp_path / "01_title-02.wav").write_text("not audio")
    assert "is empty or not audio" in str(recordings_problem(voice, beats))
    (tmp_path / "01_title-02.wav").unlink()
    assert "beat 01_title-02: no recording" in str(recordings_problem(voice, beats))
    _espeak("Extra.", tmp_path / "01_title-02.wav")
    _espeak("Extra.", tmp_path / "09_extra-01.wav")
    assert "09_extra-01.wav: not a recording of a beat" in str(recordings_problem(voice, beats))
    # a step not rendered this time: its beats' files wait to be checked when it renders
    assert recordings_problem(voice, beats, elsewhere=["09_extra"]) is None
    _espeak("Extra.", tmp_path / "09_extra-x.wav")
    assert "09_extra-x.wav: not a recording" in str(recordings_problem(voice, beats, ["09_extra"]))


def test_description_chapter_stamps() -> None:
    assert [stamp(s) for s in (0, 4.999, 65.2, 3723)] == ["0:00", "0:04", "1:05", "1:02:03"]


def _espeak(words: str, target: Path) -> None:
    subprocess.run(["espeak-ng", "-w", str(target), words], check=True)


# --- a narrated render, heard --------------------------------------------------------------


def _ffmpeg_log(path: Path, *args: str) -> str:
    command = ["ffmpeg", "-nostdin", "-hide_banner", "-i", str(path), *args, "-f", "null", "-"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stderr


def _streams(path: Path) -> list[dict[str, object]]:
    command = ["ffprobe", "-v", "error", "-show_streams", "-of", "json", str(path)]
    found: list[dict[str, object]] = json.loads(
        subprocess.run(command, capture_output=True, text=True, check=True).stdout
    )["streams"]
    return found


def _loudness(path: Path) -> float:
    summary = _ffmpeg_log(path, "-map", "0:a", "-af", "ebur128").split("Summary:")[-1]
    found = re.search(r"I:\s+(-?[\d.]+) LUFS", summary)
    assert found is not None
    return float(found[1])


def _true_peak(path: Path) -> float:
    summary = _ffmpeg_log(path, "-map", "0:a", "-af", "ebur128=peak=true").split("Summary:")[-1]
    found = re.search(r"Peak:\s+(-?[\d.]+) dBFS", summary)
    assert found is not None
    return float(found[1])


def _silences(path: Path, end: float, shortest: float = 0.2) -> list[tuple[float, float]]:
    log = _ffmpeg_log(path, "-map", "0:a", "-af", f"silencedetect=n={SILENCE}:d={shortest}")
    starts = [float(x) for x in re.findall(r"silence_start: (-?[\d.]+)", log)]
    ends = [float(x) for x in re.findall(r"silence_end: ([\d.]+)", log)]
    return list(zip(starts, [*ends, end][: len(starts)], strict=True))


def _subtitles(path: Path) -> list[Cue]:
    command = ["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-map", "0:s", "-f", "srt"]
    text = subprocess.run([*command, "-"], capture_output=True, text=True, check=True).stdout
    return parse_srt(text, escaped=False)


def _clips(narrated: Path) -> list[Path]:
    return sorted((narrated / NARRATED.name).glob("0*.mp4"))


@pytest.mark.render
def test_every_file_has_sound_and_subtitles_in_its_language(narrated: Path) -> None:
    files = [*_clips(narrated), narrated / NARRATED.name / f"{FULL_NAME}.mp4"]
    assert len(files) == 8
    for path in files:
        kinds = {str(s["codec_type"]): s for s in _streams(path)}
        assert set(kinds) - {"data"} == {"video", "audio", "subtitle"}, path.name  # data: chapters
        audio, text = kinds["audio"], kinds["subtitle"]
        assert (audio["codec_name"], audio["sample_rate"]) == ("aac", "48000"), path.name
        assert text["codec_name"] == "mov_text", path.name
        for stream in (audio, text):
            assert stream["tags"]["language"] == "eng", path.name  # type: ignore[index]


@pytest.mark.render
def test_loudness_is_minus_16_lufs_in_every_file(narrated: Path) -> None:
    for path in [*_clips(narrated), narrated / NARRATED.name / f"{FULL_NAME}.mp4"]:
        assert _loudness(path) == pytest.approx(-16, abs=1), path.name


@pytest.mark.render
def test_words_are_heard_inside_their_cues_and_nowhere_else(narrated: Path) -> None:
    """Each cue starts within 0.25 s of its words and ends with them or in the silence after
    them (a cue too fast to read lingers there, as the BBC lets it): the silence between two
    cues (a beat's breath, or the pause at a clause inside a beat, where a beat's words are cut
    into cues) starts by the time one ends and ends as the next starts."""
    for clip in _clips(narrated):
        cues = parse_srt(clip.with_suffix(".srt").read_text("utf-8"))
        end = cues[-1].end / 1000 + 1
        silences = _silences(clip, end, PAUSE)
        for cue, following in zip(cues, [*cues[1:], None], strict=True):
            start, stop = cue.start / 1000, cue.end / 1000
            if start > 0:  # speech starts with its cue: the silence before it ends there
                assert min(abs(start - b) for _, b in silences) <= TOLERANCE, (clip.name, cue)
            if following is not None:  # and stops with it: one silence until the next cue
                after = following.start / 1000
                between = [
                    (a, b)
                    for a, b in silences
                    if a - TOLERANCE <= stop <= b + TOLERANCE and abs(b - after) <= TOLERANCE
                ]
                assert between, (clip.name, cue, following)
            heard = stop - start - sum(max(0.0, min(b, stop) - max(a, start)) for a, b in silences)
            assert heard > 0.5 * (stop - start), (clip.name, cue)


@pytest.mark.render
def test_every_cue_of_every_file_keeps_to_the_rules(narrated: Path) -> None:
    """Two lines of at most 42 characters, 5/6 to 7 s, at most 20 characters a second; the
    subtitle track inside each MP4 is its sidecar, cue for cue."""
    folder = narrated / NARRATED.name
    files = [*_clips(narrated), folder / f"{FULL_NAME}.mp4"]
    fast = []
    for path in files:
        cues = parse_srt(path.with_suffix(".srt").read_text("utf-8"))
        assert [(c.start, c.end, c.text) for c in _subtitles(path)] == [
            (c.start, c.end, c.text) for c in cues
        ], path.name
        for cue in cues:
            lines, seconds = cue.text.split("\n"), (cue.end - cue.start) / 1000
            assert len(lines) <= LINES, (path.name, cue)
            assert max(len(line) for line in lines) <= 42, (path.name, cue)
            assert SHORTEST / 1000 <= seconds <= LONGEST / 1000, (path.name, cue)
            speed = len(" ".join(lines)) / seconds
            fast += [(path.name, cue.text, speed)] if speed > FASTEST else []
    joined = parse_srt((folder / f"{FULL_NAME}.srt").read_text("utf-8"))
    assert len(joined) > 60
    assert not fast, fast  # joe's fastest sentences too: their cues linger into the silence


@pytest.mark.render
def test_subtitles_and_description_agree_with_the_chapters(narrated: Path) -> None:
    folder = narrated / NARRATED.name
    full = folder / f"{FULL_NAME}.mp4"
    marks = chapters(full)
    sidecar = parse_srt((folder / f"{FULL_NAME}.srt").read_text("utf-8"))
    track = _subtitles(full)
    assert [(c.start, c.end, c.text) for c in track] == [(c.start, c.end, c.text) for c in sidecar]
    clips = _clips(narrated)
    for (title, start, _), clip in zip(marks, clips, strict=True):
        own = parse_srt(clip.with_suffix(".srt").read_text("utf-8"))
        first = next(c for c in track if c.text == own[0].text and c.start >= start * 1000 - 1)
        assert first.start == round(start * 1000) + own[0].start, title
    description = (folder / "description.txt").read_text("utf-8").splitlines()
    lines = [f"{stamp(start)} {title}" for title, start, _ in marks]
    assert description[description.index(lines[0]) :][: len(lines)] == lines
    assert lines[0].startswith("0:00 ")


@pytest.mark.render
def test_the_narrated_lesson_runs_4_to_5_and_a_half_minutes(narrated: Path) -> None:
    manifest = json.loads((narrated / NARRATED.name / "manifest.json").read_text("utf-8"))
    assert 240 <= manifest["full"]["duration"] <= 330


@pytest.mark.render
def test_two_narrated_runs_give_the_same_bytes(narrated: Path, tmp_path: Path) -> None:
    """A fresh run, its speech synthesised again, gives byte-identical files."""
    result = cli(tmp_path, "--voice", JOE, "--scene", "3", quality=NARRATED)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("03_score.mp4", "03_score.srt"):
        ours, theirs = tmp_path / NARRATED.name / name, narrated / NARRATED.name / name
        assert sha256(ours) == sha256(theirs), name


@pytest.fixture(scope="module")
def heart(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Step 3 narrated by heart at draft quality: its output folder."""
    out = tmp_path_factory.mktemp("heart")
    result = cli(out, "--voice", HEART, "--scene", "3", quality=NARRATED)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.mark.render
def test_heart_narrates_a_clip_end_to_end(heart: Path) -> None:
    """--voice heart (hibari, Apache-2.0): sound at -16 LUFS, cues to the rules and on its
    words, all at draft quality."""
    tmp_path = heart
    clip = tmp_path / NARRATED.name / "03_score.mp4"
    assert {str(s["codec_type"]) for s in _streams(clip)} >= {"video", "audio", "subtitle"}
    assert _loudness(clip) == pytest.approx(-16, abs=1)
    test_words_are_heard_inside_their_cues_and_nowhere_else(tmp_path)
    cues = parse_srt(clip.with_suffix(".srt").read_text("utf-8"))
    assert len(cues) > 8
    for cue in cues:
        lines = cue.text.split("\n")
        assert len(lines) <= LINES, cue
        assert max(len(line) for line in lines) <= 42, cue
        assert SHORTEST / 1000 <= (cue.end - cue.start) / 1000 <= LONGEST / 1000, cue
        assert len(" ".join(lines)) / ((cue.end - cue.start) / 1000) <= FASTEST, cue


@pytest.mark.render
def test_heart_gives_the_same_bytes_in_another_folder(heart: Path, tmp_path: Path) -> None:
    """hibari with seed=0 in a fresh run, into another --out: byte-identical clip and
    captions (nothing of the folder's path, the clock or a random draw gets into the file)."""
    result = cli(tmp_path, "--voice", HEART, "--scene", "3", quality=NARRATED)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("03_score.mp4", "03_score.srt"):
        ours, theirs = tmp_path / NARRATED.name / name, heart / NARRATED.name / name
        assert sha256(ours) == sha256(theirs), name


@pytest.mark.render
def test_a_silent_render_has_no_sound_and_reads_at_caption_pace(rendered: Rendered) -> None:
    from scenes.probe import run_dry
    from scenes.steps.score import Step3Score

    clip = rendered.folder / "03_score.mp4"  # the session's render is silent (--voice none)
    assert {s["codec_type"] for s in _streams(clip)} == {"video", "subtitle"}
    silent = run_dry(Step3Score, default_lesson()).seconds
    durations = {c["file"]: c["duration"] for c in rendered.manifest["clips"]}
    assert durations[clip.name] == pytest.approx(silent, abs=0.5)  # whole frames


# --- the lecturer's own recordings ----------------------------------------------------------


def seconds_of(path: Path) -> float:
    command = ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0"]
    return float(subprocess.run([*command, str(path)], capture_output=True, text=True).stdout)


@pytest.mark.render
def test_a_recorded_voice_times_the_beats(recorded: Recorded) -> None:
    folder = recorded.recordings
    assert seconds_of(folder / f"{LONG_BEAT}.wav") > recorded.beats[LONG_BEAT] + 2
    clip = recorded.out / NARRATED.name / "03_score.mp4"
    assert "audio" in {s["codec_type"] for s in _streams(clip)}
    cues = parse_srt(clip.with_suffix(".srt").read_text("utf-8"))
    # 03_score-03, read three times over, its caption cut into cues; the next beat's come next
    first = next(i for i, cue in enumerate(cues) if cue.text.startswith("Each token"))
    after = next(i for i, cue in enumerate(cues) if i > first and "river" in cue.text)
    start, stop = cues[first].start, cues[after - 1].end
    recording = seconds_of(folder / f"{LONG_BEAT}.wav")
    assert (stop - start) / 1000 == pytest.approx(recording, abs=0.5)
    heard = (stop - start) / 1000  # the recording less its leading silence
    frame = 1 / NARRATED.fps
    assert (cues[after].start - start) / 1000 >= heard + style.BREATH - frame  # it waited


@pytest.mark.render
def test_a_missing_recording_is_named_and_nothing_is_written(
    recorded: Recorded, tmp_path: Path
) -> None:
    """Step 3 asks for its own beats' recordings, not those of the steps it does not render:
    one missing there is named, one missing in step 2 is not asked for."""
    beats = list(recorded.beats)
    [other, *_] = (beat for beat in beats if beat.startswith("02_"))
    [*_, missing] = (beat for beat in beats if beat.startswith("03_"))
    partial = tmp_path / "recordings"
    shutil.copytree(recorded.recordings, partial)
    for beat in (other, missing):
        (partial / f"{beat}.wav").unlink()
    out = tmp_path / "media"
    result = cli(out, "--voice", str(partial), "--scene", "3")
    assert result.returncode == 2
    assert f"beat {missing}: no recording" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (out / LOW.name).exists()
