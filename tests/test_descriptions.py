"""Description: every text the probe reads on screen is said in its beat, exempt by a listed
rule, or described; today's gaps are described, and a text covered by nothing is caught."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from manim import FadeIn

from attention_core import Lesson, Words, default_lesson, english, load_lesson
from attention_core.worked import worked
from publish.described.descriptions import (
    ADDRESS,
    EXEMPT,
    Reading,
    descriptions,
    readable,
    reading,
    step_descriptions,
)
from publish.media.clip_beats import steps_of
from publish.media.manifest import ClipEntry
from publish.narration.script import spoken
from publish.presets import FULL_NAME
from scenes import SCENES, LessonScene, helpers, scenes_for
from scenes.probe import NUMBER, Probe, run_dry
from tests.conftest import Rendered

LESSON = default_lesson()


def _probe(scene: type) -> Probe:
    return run_dry(scene, LESSON)  # the scene tests' own dry run, shared


def _read(scene: type[LessonScene], lesson: Lesson = LESSON) -> list[list[Reading]]:
    probe = run_dry(scene, lesson)
    shown, meant = probe.shown_by_beat(), probe.meant_by_beat()
    return reading(lesson.words, scene.slug, scene.headline(lesson), probe.captions, shown, meant)


def _readings() -> dict[str, list[Reading]]:
    """Every beat of the default lesson (by id) and its on-screen texts, read."""
    out = {}
    for scene in SCENES:
        read = _read(scene)
        out |= {beat.id: texts for beat, texts in zip(_probe(scene).beats, read, strict=True)}
    return out


def test_the_exemptions_are_these_rules_and_these_texts() -> None:
    """The exemptions, listed: each rule and every text of the default lesson it exempts."""
    readings = _readings()
    exempt = {
        rule: sorted({r.text for b in readings.values() for r in b if r.why == rule})
        for rule in EXEMPT
    }
    print({rule: texts for rule, texts in exempt.items()})  # the list, in -s output
    assert set(EXEMPT) == {"heading", "label", "symbol", "address"}
    assert {"STEP 1 · SCORE", "Score every token against the query"} <= set(exempt["heading"])
    assert {"TOKEN", "SCORE", "PULL", "÷ TOTAL"} <= set(exempt["label"])
    assert all(not re.search(r"\d|[^\W\d_]{2,}", text) for text in exempt["symbol"])
    assert exempt["address"] == [
        "· arxiv.org/abs/1706.03762",
        "· arxiv.org/abs/2611.04169",
        "· pytorch.org/docs",
    ]
    said = " ".join(beat.caption.text for s in SCENES for beat in _probe(s).beats)
    for text in exempt["label"]:  # a label's numbers are said: "about 20" is heard
        assert all(n in said for n in re.findall(r"\d+(?:\.\d+)?", text)), text


READ_OUT = {
    "01_title-01": ["Day 004 · Transformers"],
    "02_big_picture-01": [
        "Attention(Q, K, V) = softmax(Q Kᵀ ÷ √dₖ) V",
        'Vaswani et al., "Attention Is All You Need" (2017), Eq. 1',
    ],
    "02_big_picture-07": ["2. Normalise", "Positive weights that add up to one."],
    "02_big_picture-08": ["The values, blended by those weights.", "Σᵢ wᵢ · vᵢ"],
    "03_score-01": [
        "Toy setup: each statement squeezed into one token · dₖ = 4 · one head · no positions"
        " or learned projections",
    ],
    "03_score-07": ["Vaswani et al., §3.2.1"],
    "04_softmax-01": ["river's code is 4821", "lamp's code is 7390", "the weather was mild"],
    "04_softmax-05": ["+1 score = ×2.72"],
    "04_softmax-09": [
        "Every token gets a slice; the slices always add up to 100%",
        "84.4% of the attention budget goes to the river fact",
    ],
    "05_mix-01": ["river's code is 4821", "lamp's code is 7390", "the weather was mild"],
    "05_mix-06": ["Σ wᵢ vᵢ"],
}
"""Every text of the default lesson read out whole, by beat: what neither its beat's words, an
exemption nor a meaning cover (the toy-setup caveat, the citation under the formula…). Each is a
sentence or a name: every number on screen that stands alone is named by a meaning."""

MEANT = {
    "01_title-02": ["What is the secret code of the river?", "river", "lamp", "weather"],
    "03_score-01": ["river's code is 4821", "lamp's code is 7390", "the weather was mild"],
    "04_softmax-09": ["lamp", "weather"],
    "06_rival-01": ["7390"],
    "06_rival-02": ["11.4%"],
    "06_rival-04": ["4", "√4"],
    "06_rival-07": ["about 20", "about 400"],
    "07_answer-01": ["1", "about 400"],
    "07_answer-06": ["1. Score", "2. Normalise", "84.4%", "11.4%", "4.2%", "0.84", "0.11"],
    "07_answer-08": [
        "import torch scores = torch.tensor([3., 1., 0.]) torch.softmax(scores, dim=0)",
        "import torch scores = torch.tensor([3., 1., 0.]) torch.softmax(scores, dim=0)"
        " # tensor([0.8438, 0.1142, 0.0420])",
    ],
    "07_answer-09": [
        'Vaswani et al., "Attention Is All You Need" (2017)',
        "PyTorch: scaled_dot_product_attention",  # Liu (2026): shown and said at beat 05
    ],
}
"""The texts of the default lesson a meaning stands for, by beat: the sentence it says names
them (the options of the quiz, the bar's shares, the card's numbers beside their tokens)."""


def test_todays_gaps_are_described_and_nothing_else() -> None:
    readings = _readings()
    for why, expected in (("read out", READ_OUT), ("meant", MEANT)):
        found = {beat: [r.text for r in texts if r.why == why] for beat, texts in readings.items()}
        assert {beat: texts for beat, texts in found.items() if texts} == expected, why


def test_nearly_said_text_is_not_described_again_and_the_formula_is_whole() -> None:
    readings = _readings()
    whys = {r.text: r.why for r in readings["02_big_picture-02"]}
    assert whys["query: what the current token is looking for"] == "said"  # "the queries: …"
    first = {r.text: r.why for r in readings["02_big_picture-01"]}
    assert first["Attention(Q, K, V) = softmax(Q Kᵀ ÷ √dₖ) V"] == "read out"
    assert "Attention" not in first  # its name is part of it, not a label apart


@pytest.mark.parametrize(
    ("caption", "shown", "why"),
    [
        ("Each value slot stands for one answer.", "Value slots = answers", "said"),
        ("The keys are what each token offers.", "key: what each token offers", "said"),
        ("It takes about 20 of them.", "It takes about 21 of them", "read out"),  # a number
        ("Score, then normalise.", "Toy setup: one head, no positions", "read out"),
        ("The cat sat on the mat.", "the cat sat on the rug", "said"),  # one word in five
        ("The cat sat on the mat.", "the dog sat on the rug", "read out"),  # two
    ],
)
def test_a_text_counts_as_said_when_all_its_numbers_and_nearly_all_its_words_are(
    caption: str, shown: str, why: str
) -> None:
    [[found]] = reading(LESSON.words, "mix", "Mix", [caption], [[shown]])
    assert found.why == why


def uncovered(
    probe: Probe, readings: Sequence[Sequence[Reading]], said: Sequence[str], words: Words
) -> list[str]:
    """The texts ``probe`` saw on screen that reach a viewer who cannot see them by no way:
    read in no beat, or read but neither said, exempt, in the beat's description, nor named,
    every number of it, by a meaning whose sentence its beat's or the next one's description
    says (``said``: what the kit says of each beat, its description)."""
    shown, meant = probe.shown_by_beat(), probe.meant_by_beat()
    read = {text for texts in shown for text in texts}
    out = [s.read for moment in probe.moments for s in moment if s.read not in read]
    for i, (texts, beat) in enumerate(zip(shown, readings, strict=True)):
        kept = [r.text for r in beat if r.why not in ("read out", "meant")]
        heard = " ".join(said[i : i + 2])
        for text in texts:
            plain = readable(text).strip(" ·")
            # a formula's name and the formula are read as one text: it starts or ends it
            if any(k.startswith(plain) or k.endswith(plain) for k in kept):
                continue
            if plain.removesuffix(".") in said[i]:  # read out, its full stop the sentence's
                continue
            naming = [
                m.sentence(words)
                for m in [*meant[i], *(meant[i + 1] if i + 1 < len(meant) else ())]
                if text in m.covers and m.sentence(words) in heard
            ]
            numbers = NUMBER.findall(plain)
            if not any(all(n in sentence for n in numbers) for sentence in naming):
                out.append(text)
    return list(dict.fromkeys(out))


def _covered(scene: type[LessonScene]) -> tuple[Probe, list[list[Reading]]]:
    return _probe(scene), _read(scene)


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.slug)
def test_every_text_on_screen_is_said_exempt_or_described(scene: type[LessonScene]) -> None:
    probe, readings = _covered(scene)
    said = descriptions(LESSON.words, readings, probe.meant_by_beat())
    assert uncovered(probe, readings, said, LESSON.words) == []


def test_a_text_in_no_description_is_caught() -> None:
    """Step 3 with its first beat's description left out, as a kit that dropped it would
    carry: each text that description carried is on screen and covered by nothing."""
    probe, readings = _covered(SCENES[2])
    said = descriptions(LESSON.words, readings, probe.meant_by_beat())
    caught = uncovered(probe, readings, ["", *said[1:]], LESSON.words)
    assert [readable(text) for text in caught] == MEANT["03_score-01"] + READ_OUT["03_score-01"]


def test_a_number_a_meaning_does_not_name_is_caught() -> None:
    """The quiz's options with the last left out of their sentence, as a meaning that forgot
    it would say: that option's number is on screen and named by nothing."""
    probe, readings = _covered(SCENES[5])
    meant = probe.meant_by_beat()
    said = descriptions(LESSON.words, readings, meant)
    [quiz] = [i for i, beat in enumerate(meant) if any(m.entry.endswith("options") for m in beat)]
    cut = said[quiz].rsplit(";", 1)[0]
    caught = uncovered(probe, readings, [*said[:quiz], cut, *said[quiz + 1 :]], LESSON.words)
    assert caught == [worked(LESSON).quiz.options[-1]]


class _LastWord(LessonScene):
    """One beat, then a text shown after it: on screen until the clip ends."""

    slug = "score"

    def construct(self) -> None:
        with self.beat("One beat."):
            self.wait(0.5)
        self.play(FadeIn(helpers.text("Shown after the last beat")))


def test_a_text_shown_after_the_last_beat_is_described_in_the_last() -> None:
    probe = run_dry(_LastWord, LESSON)
    readings = reading(LESSON.words, "score", "Score", probe.captions, probe.shown_by_beat())
    said = descriptions(LESSON.words, readings)
    assert said == ["On screen: Shown after the last beat."]
    assert uncovered(probe, readings, said, LESSON.words) == []


@pytest.mark.parametrize(
    ("latex", "shown"),
    [
        (
            r"( Q , K , V ) = \mathrm{softmax}\left( \frac{ Q K^{\top} }{\sqrt{d_k}} \right) V",
            "(Q, K, V) = softmax(Q Kᵀ ÷ √dₖ) V",
        ),
        (r"\textstyle\sum_i w_i \cdot v_i", "Σᵢ wᵢ · vᵢ"),
        (r"e^6 \approx 403", "e^6 ≈ 403"),
        (
            r"\mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h) W^O",
            "Concat(head₁, …, headₕ) W^O",
        ),
    ],
)
def test_a_formula_is_described_in_the_notation_it_shows(latex: str, shown: str) -> None:
    assert readable(latex) == shown


@pytest.mark.render
def test_descriptions_reach_the_track_and_the_transcript_as_prose(rendered: Rendered) -> None:
    """Each beat's description is a cue of the track and, in the transcript, follows the beat's
    words as sentences of the paragraph: no bracketed fragments."""
    folder = rendered.folder
    track = (folder / f"{FULL_NAME}.descriptions.vtt").read_text("utf-8")
    text = " ".join((folder / "transcript.txt").read_text("utf-8").split())
    page = (folder / "index.html").read_text("utf-8")
    clips = [ClipEntry.from_json(clip) for clip in rendered.manifest["clips"]]
    said = 0
    for step in steps_of(folder, clips, write=False):
        for beat, description in zip(
            step.beats, step_descriptions(LESSON.words, step), strict=True
        ):
            if description:
                said += 1
                assert description in track
                assert f"{' '.join(beat.caption.split())} {description}" in text, description
    assert said == len(READ_OUT.keys() | MEANT.keys())
    assert "[" + LESSON.words["page.word.on_screen"] not in text
    assert "The quiz's options: A, 1; B, 3; C, about 20; D, about 400." in text
    assert page.count('kind="descriptions"') == len(SCENES) + 1


BUILT_IN = ("day005_masked", "day006_heads", "greek")
"""The shipped lessons beyond the default: Day 005, Day 006 and Day 004 in Greek (Day 005 in
Greek is Day 005's steps again, in the same words as Day 004's Greek: left out, for time)."""


def _lesson(name: str) -> Lesson:
    return load_lesson(Path(__file__).parent.parent / "lessons" / f"{name}.toml")


SYMBOL_BY_SYMBOL = re.compile(
    rf"§|_|\w=\w|\w\.\w+\(|\bimport\b|\b{ADDRESS.pattern.removeprefix('(?:https?://)?')}"
)
"""What a voice would read symbol by symbol: a section sign, a code name or call, a web
address. A description says what such things mean instead (the code's numbers, the
reference's name)."""


@pytest.mark.lessons
@pytest.mark.parametrize("name", ["default", *BUILT_IN])
def test_each_text_is_described_whole_and_every_number_named(name: str) -> None:
    """Over every step of the built-in lessons: no description reads a line of a wrapped text
    (a sentence cut at its line end); a text read out has words, never a number alone; and
    each text and number on screen is said, exempt, read out, or named by a meaning whose
    sentence the description says (every number of it in that sentence)."""
    lesson = LESSON if name == "default" else _lesson(name)
    for scene in scenes_for(lesson):
        probe = run_dry(scene, lesson)
        readings = _read(scene, lesson)
        said = descriptions(lesson.words, readings, probe.meant_by_beat())
        cut = {s.text for m in probe.moments for s in m if s.whole and s.text != s.whole}
        for beat, description in zip(readings, said, strict=True):
            for r in beat:
                assert r.text not in {readable(line) for line in cut}, (scene.slug, r.text)
                if r.why == "read out":  # read out as it is: a sentence or a name
                    assert re.search(r"[^\W\d_]{2,}", r.text), (scene.slug, r.text)
            assert not description or description.endswith((".", "?", ";", "!")), description
            assert not SYMBOL_BY_SYMBOL.search(spoken(description, lesson.words)), description
        assert uncovered(probe, readings, said, lesson.words) == [], scene.slug


@pytest.mark.lessons
def test_the_descriptions_change_language_with_the_lesson() -> None:
    """Day 004 in Greek: every meaning is said in the Greek template's sentence, and none of
    the English templates' words is heard (the dry runs are the test above's, shared)."""
    lesson, template = _lesson("greek"), english()

    def words_of(sentence: str) -> set[str]:
        return set(re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", " ", sentence)))

    # a word the translation keeps (PyTorch, softmax) is a name, not the English template's
    fixed = {
        word
        for name in template
        if name.startswith("describe.")
        for word in words_of(template[name]) - words_of(lesson.words[name])
    }
    heard = 0
    for scene in scenes_for(lesson):
        probe = run_dry(scene, lesson)
        meant = probe.meant_by_beat()
        said = descriptions(lesson.words, _read(scene, lesson), meant)
        for meanings, description in zip(meant, said, strict=True):
            assert not fixed & set(re.findall(r"[^\W\d_]{3,}", description)), description
            heard += sum(m.sentence(lesson.words) in description for m in meanings)
    assert heard >= 8  # the question, the keys, the bar, the output, the working, the quiz…
