"""Description: every text the probe reads on screen is said in its beat, exempt by a listed
rule, or described; today's gaps are described."""

from __future__ import annotations

import re

import pytest

from attention_core import default_lesson
from publish.kit.describe import EXEMPT, Reading, readable, reading
from publish.presets import FULL_NAME
from scenes import SCENES
from scenes.probe import Probe, run_dry
from tests.conftest import Rendered

LESSON = default_lesson()


def _probe(scene: type) -> Probe:
    return run_dry(scene, LESSON)  # the scene tests' own dry run, shared


def _readings() -> dict[str, list[Reading]]:
    """Every beat of the default lesson (by id) and its on-screen texts, read."""
    out = {}
    for scene in SCENES:
        probe = _probe(scene)
        shown = probe.shown_by_beat()
        read = reading(LESSON.words, scene.slug, scene.headline(LESSON), probe.captions, shown)
        out |= {beat.id: texts for beat, texts in zip(probe.beats, read, strict=True)}
    return out


def test_the_exemptions_are_these_rules_and_these_texts() -> None:
    """The exemptions, listed: each rule and every text of the default lesson it exempts."""
    readings = _readings()
    exempt = {
        rule: sorted({r.text for b in readings.values() for r in b if r.why == rule})
        for rule in EXEMPT
    }
    print({rule: texts for rule, texts in exempt.items()})  # the list, in -s output
    assert set(EXEMPT) == {"heading", "label", "symbol"}
    assert {"STEP 1 · SCORE", "Score every token against the query"} <= set(exempt["heading"])
    assert {"TOKEN", "SCORE", "PULL", "÷ TOTAL"} <= set(exempt["label"])
    assert all(not re.search(r"\d|[^\W\d_]{2,}", text) for text in exempt["symbol"])
    said = " ".join(beat.caption.text for s in SCENES for beat in _probe(s).beats)
    for text in exempt["label"]:  # a label's numbers are said: "about 20" is heard
        assert all(n in said for n in re.findall(r"\d+(?:\.\d+)?", text)), text


def test_todays_gaps_are_described() -> None:
    readings = _readings()
    described = {r.text for b in readings.values() for r in b if r.why == "described"}
    caveat = [t for t in described if t.startswith("Toy setup")]
    assert caveat, "the toy-setup caveat"
    assert any("no positions or learned projections" in t for t in described)
    assert "Vaswani et al., §3.2.1" in described
    card = {r.text for r in readings["07_answer-06"] if r.why == "described"}
    assert {"84.4%", "11.4%", "4.2%"} <= card, "the closing card's numbers"


def test_nearly_said_text_is_not_described_again_and_the_formula_is_whole() -> None:
    readings = _readings()
    whys = {r.text: r.why for r in readings["02_big_picture-02"]}
    assert whys["query: what the current token is looking for"] == "said"  # "the queries: …"
    first = {r.text: r.why for r in readings["02_big_picture-01"]}
    assert first["Attention(Q, K, V) = softmax(Q Kᵀ ÷ √dₖ) V"] == "described"
    assert "Attention" not in first  # its name is part of it, not a label apart


@pytest.mark.parametrize(
    ("caption", "shown", "why"),
    [
        ("Each value slot stands for one answer.", "Value slots = answers", "said"),
        ("The keys are what each token offers.", "key: what each token offers", "said"),
        ("It takes about 20 of them.", "It takes about 21 of them", "described"),  # a number
        ("Score, then normalise.", "Toy setup: one head, no positions", "described"),
        ("The cat sat on the mat.", "the cat sat on the rug", "said"),  # one word in five
        ("The cat sat on the mat.", "the dog sat on the rug", "described"),  # two
    ],
)
def test_a_text_counts_as_said_when_all_its_numbers_and_nearly_all_its_words_are(
    caption: str, shown: str, why: str
) -> None:
    [[found]] = reading(LESSON.words, "mix", "Mix", [caption], [[shown]])
    assert found.why == why


def test_every_text_is_said_exempt_or_described() -> None:
    whys = {r.why for beat in _readings().values() for r in beat}
    assert whys == {"said", "described", *EXEMPT}


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
def test_descriptions_reach_the_track_and_the_transcript(rendered: Rendered) -> None:
    folder = rendered.folder
    track = (folder / f"{FULL_NAME}.descriptions.vtt").read_text("utf-8")
    text = (folder / "transcript.txt").read_text("utf-8")
    page = (folder / "index.html").read_text("utf-8")
    for gap in ("Toy setup", "Vaswani et al., §3.2.1", "84.4%"):
        assert gap in track, gap
        assert "[On screen: " in text
    assert "Vaswani et al., §3.2.1" in text.split("[On screen:", 1)[1]
    assert page.count('kind="descriptions"') == len(SCENES) + 1
