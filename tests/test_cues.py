"""Caption cues to the rules: lines, phrase boundaries, lengths, times at the speech's pauses."""

from __future__ import annotations

import pytest

import publish.media.cues
from attention_core import default_lesson, load_lesson
from publish.media.captions import Cue
from publish.media.cues import FASTEST, LINES, LONGEST, line_limit, split_cue, unbroken
from publish.narration.script import spoken
from tests.conftest import ROOT
from tests.lessons import lesson_files

WORDS = default_lesson().words


def _weigh(text: str) -> float:
    return float(len(spoken(text, WORDS)))


def _split(text: str, ms: int, pauses: list[tuple[int, int]] | None = None) -> list[Cue]:
    return split_cue(Cue(0, ms, text), pauses=pauses, weigh=_weigh, keep=KEEP)


KEEP = ["river's code is 4821", "the weather was mild"]
STEP3 = (
    "river's code is 4821: multiply the query and the key entry by entry, add up to 6, "
    "divide by 2: score 3."
)


def _lines(cues: list[Cue]) -> list[str]:
    return [line for cue in cues for line in cue.text.split("\n")]


def test_a_short_caption_is_one_cue_on_one_line() -> None:
    assert _split("Each token offers a key.", 1800) == [Cue(0, 1800, "Each token offers a key.")]


def test_a_long_caption_is_cut_into_cues_of_two_lines_of_42() -> None:
    cues = _split(STEP3, 5600)
    assert len(cues) >= 2
    assert all(len(cue.text.split("\n")) <= LINES for cue in cues)
    assert all(len(line) <= 42 for line in _lines(cues))
    assert " ".join(_lines(cues)) == STEP3  # every word, in order, once


def test_lines_never_break_inside_a_vector_a_number_or_a_token_name() -> None:
    text = (
        "Two, normalise: softmax raises e to each score and divides by the total, "
        "so [3, 1, 0] becomes [0.84, 0.11, 0.04], and the weather was mild gets 6 ÷ 2 of it."
    )
    lines = _lines(_split(text, 7000))
    joined = "\n".join(lines)
    for whole in ("[3, 1, 0]", "[0.84, 0.11, 0.04]", "the weather was mild", "6 ÷ 2"):
        assert whole in joined, (whole, lines)


def test_cues_are_cut_where_the_speech_pauses() -> None:
    """Pauses heard at the colons: the cue edges sit on them, not where the letters put them."""
    pauses = [(1300, 1600), (4700, 4900)]
    cues = _split(STEP3, 5600, pauses)
    edges = {(a.end, b.start) for a, b in zip(cues, cues[1:], strict=False)}
    assert edges <= set(pauses), cues
    assert cues[0].start == 0
    assert cues[-1].end == 5600


def test_a_silent_beat_shares_its_time_by_the_words() -> None:
    cues = _split(STEP3, 9000)
    assert [c.start for c in cues[1:]] == [c.end for c in cues[:-1]]
    for cue in cues:
        assert (cue.end - cue.start) / 1000 <= LONGEST / 1000
        assert len(cue.text) / ((cue.end - cue.start) / 1000) <= FASTEST


def test_cjk_lines_hold_16_characters() -> None:
    assert line_limit("注意力就是一个固定的预算") == 16
    assert line_limit("Προσοχή") == 42


@pytest.mark.parametrize("lesson", ["default", "greek", "four_tokens"])
def test_every_caption_of_a_lesson_breaks_into_lines_within_the_rules(lesson: str) -> None:
    """Each caption entry with its placeholders as they are: at the pace of speech (15
    characters a second), its cues keep to two lines of 42."""
    path = ROOT / "lessons" / f"{lesson}.toml"
    words = (default_lesson() if lesson == "default" else load_lesson(path)).words
    captions = [words[name] for name in words if ".caption." in name]
    assert len(captions) > 40
    for text in captions:
        cues = split_cue(Cue(0, round(len(text) / 15 * 1000), text), pauses=None, weigh=len)
        for cue in cues:
            lines = cue.text.split("\n")
            assert len(lines) <= LINES, cue.text
            assert all(len(line) <= 42 for line in lines), cue.text


def test_a_cue_too_fast_to_read_stays_into_the_silence_after_its_words() -> None:
    fast = Cue(1000, 2000, "x" * 26)  # 26 characters a second, said in one: it needs 1.3 s
    alone = publish.media.cues.eased([fast], 5000)[0]
    assert (alone.start, alone.end) == (1000, 2300)  # it lingers; it never shows early for it
    eased = publish.media.cues.eased([Cue(0, 900, "a"), fast, Cue(2100, 3000, "b")], 3000)
    # up to the next cue, then as early as the last cue allows (0.1 s), then the next cue
    # starts 0.1 s after its words (left 0.8 s for a letter: the clip ends there)
    assert eased[1] == Cue(900, 2200, fast.text)
    assert eased[2] == Cue(2200, 3000, "b")
    tight = publish.media.cues.eased([fast, Cue(2100, 2933, "b")], 3000)
    assert tight[0] == Cue(1000 - 150, 2150, fast.text)  # at most 0.15 s early, then later
    assert tight[1] == Cue(2150, 2983, "b")  # the next, 0.05 s late, stays into the silence


def test_every_cue_eased_keeps_to_20_characters_a_second_where_the_silence_allows() -> None:
    """Cues said at up to 24 characters a second, 0.35 s apart (joe's breath between beats):
    every one readable at 20, none overlapping, each start within 0.25 s of its words."""
    said = [Cue(i * 4000, i * 4000 + 3300, "y" * 76) for i in range(6)]  # 23 a second
    eased = publish.media.cues.eased(said, 24000)
    for before, cue in zip(said, eased, strict=True):
        assert len(cue.text) / ((cue.end - cue.start) / 1000) <= FASTEST, cue
        assert abs(cue.start - before.start) <= 250, (cue, before)
    assert all(a.end <= b.start for a, b in zip(eased, eased[1:], strict=False))


def _rule_breaks(cue: Cue) -> list[str]:
    """What a cue does against the rules; empty when it keeps them."""
    lines, seconds = cue.text.split("\n"), (cue.end - cue.start) / 1000
    found = [f"{len(lines)} lines"] if len(lines) > LINES else []
    found += [f"line of {len(line)}" for line in lines if len(line) > line_limit(line)]
    found += [f"{seconds:.2f} s"] if seconds > LONGEST / 1000 else []
    if len(cue.text.replace("\n", " ")) / seconds > FASTEST:
        found.append(f"{len(cue.text) / seconds:.1f} characters a second")
    return found


@pytest.mark.lessons
@pytest.mark.parametrize("name", ["default", *sorted(p.stem for p in lesson_files())])
def test_every_beat_of_every_lesson_gives_cues_to_the_rules(name: str) -> None:
    """Every beat of every scene, silent (paced for reading, as --voice none renders it): its
    cues keep to two lines within the limit, at most 7 s and 20 characters a second, and say
    every word of the caption in order."""
    from scenes import scenes_for
    from scenes.probe import run_dry

    lesson = (
        default_lesson() if name == "default" else load_lesson(ROOT / "lessons" / f"{name}.toml")
    )
    words = lesson.words
    broken = []
    for scene in scenes_for(lesson):
        probe = run_dry(scene, lesson)  # the scene tests' own dry run, shared
        cues: list[Cue] = []
        ids: list[str] = []
        for beat in probe.beats:
            whole = Cue(round(beat.start * 1000), round(beat.end * 1000), beat.caption.text)
            split = publish.media.cues.split_cue(
                whole, pauses=None, weigh=lambda t: len(spoken(t, words)), keep=unbroken(lesson)
            )
            assert " ".join(c.text.replace("\n", " ") for c in split) == " ".join(
                whole.text.split()
            )
            cues += split
            ids += [beat.id] * len(split)
        eased = publish.media.cues.eased(cues, round(probe.seconds * 1000))
        broken += [
            (i, c.text, problem)
            for i, c in zip(ids, eased, strict=True)
            for problem in _rule_breaks(c)
        ]
    assert not broken, broken
