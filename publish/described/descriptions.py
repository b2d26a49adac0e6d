"""Description: what the screen shows and the narrator never says, beat by beat, and the rules
that exempt decoration. The one place those rules live."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from attention_core import Words
from attention_core.meaning import Meaning
from attention_core.words import kind_of
from publish.media.clip_beats import Step

__all__ = [
    "ADDRESS",
    "EXEMPT",
    "Reading",
    "descriptions",
    "readable",
    "reading",
    "step_descriptions",
    "step_reading",
]

T = TypeVar("T")

EXEMPT = {
    "heading": "the step's label and headline: the chapter title, which the transcript heads with",
    "label": "a table header, tag or unit from the words catalogue (TOKEN, SCORE, ÷ TOTAL), "
    "any number in it said in the step",
    "symbol": "a letter or symbol alone, no number and no word (Q, =, +, q · k): a piece of a "
    "sum or formula whose beat says it in words",
    "address": "a web address beside the reference it locates (arxiv.org/abs/1706.03762): the "
    "reference is described by name, and the transcript links it; read out, it is noise",
}
"""What may be shown without being said or described, by rule. Everything else the probe
reads on screen is said in its beat (or the next, which explains what the first brought in)
or carried by a description: ``meant`` when the scene object that shows it says what it is
(a :class:`~attention_core.meaning.Meaning`, said as a sentence naming each of its numbers),
else ``read out``, whole."""

_LATEX = [
    (r"\\rightarrow", "→"),
    (r"\\approx", "≈"),
    (r"\\left|\\right|\\textstyle|\\displaystyle|\\,", ""),
    (r"\\mathrm\{([^}]*)\}", r"\1"),
    (r"\\sqrt\{([^{}]*)\}", r"√\1"),
    (r"\^\{\\top\}", "ᵀ"),
    (r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"\1 ÷ \2"),
    (r"\\[lc]?dots", "…"),
    (r"\\cdot", "·"),
    (r"\\div", "÷"),
    (r"\\sum_i", "Σᵢ"),
    (r"\\Sigma", "Σ"),
    (r"_\{?k\}?", "ₖ"),
    (r"_\{?i\}?", "ᵢ"),
    (r"_\{?h\}?", "ₕ"),
    *((rf"_\{{?{digit}\}}?", chr(0x2080 + digit)) for digit in range(10)),
    (r"[{}]", ""),
]


ADDRESS = re.compile(r"(?:https?://)?(?:[\w-]+\.)+[^\W\d_]{2,}(?:/\S*)?")
"""A web address as a lesson writes one (``arxiv.org/abs/1706.03762``, ``pytorch.org/docs``):
a dotted name ending in letters, then any path; never a number (``3.2.1``)."""


def readable(text: str) -> str:
    """``text`` as a description says it: a formula's LaTeX as the notation it shows."""
    for pattern, into in _LATEX:
        text = re.sub(pattern, into, text)
    text = re.sub(r"\s+([,)])", r"\1", re.sub(r"([(])\s+", r"\1", text))
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class Reading:
    """One on-screen text of a beat and why a viewer who cannot see it still gets it:
    ``said``, a rule of :data:`EXEMPT`, ``meant`` or ``read out``."""

    text: str
    why: str


def reading(
    words: Words,
    slug: str,
    title: str,
    captions: Sequence[str],
    shown: Sequence[Sequence[str]],
    meant: Sequence[Sequence[Meaning]] = (),
) -> list[list[Reading]]:
    """Per beat of one step, each text first shown in it and why it is covered.

    ``captions``: each beat's caption; ``shown``: each beat's new on-screen texts (the probe's);
    ``meant``: each beat's new meanings (the probe's), which cover the texts they stand for.
    """
    labels = _labels(words)
    label = f"{slug}.heading.label"
    heading = (title.casefold(), words.get(label, title).casefold())
    out = []
    for i, texts in enumerate(shown):
        heard = _tokens(" ".join(captions[i : i + 2]))
        step_heard = _tokens(" ".join(captions))
        beat = []
        for plain in _formulas_whole([readable(text) for text in texts]):
            tokens = _tokens(plain)
            if plain.casefold() == heading[0] or (
                plain.isupper() and heading[1] in plain.casefold()
            ):
                why = "heading"
            elif any(label.fullmatch(plain) for label in labels) and (
                {t for t in tokens if _numbers_only({t})} <= step_heard
            ):
                why = "label"  # its numbers, if any, said in the step
            elif not tokens:
                why = "symbol"
            elif ADDRESS.fullmatch(plain.strip(" ·")):
                why = "address"
            elif _nearly_said(tokens, heard) or (_numbers_only(tokens) and tokens <= step_heard):
                why = "said"  # a table's number the step says somewhere counts as said
            elif _meaning_of(plain, meant, i) is not None:
                why = "meant"
            else:
                why = "read out"
            beat.append(Reading(plain, why))
        out.append(beat)
    return out


def _meaning_of(plain: str, meant: Sequence[Sequence[Meaning]], beat: int) -> Meaning | None:
    """The meaning that stands for on-screen text ``plain`` (as :func:`readable` gives it),
    new in its beat or the next; None if none does."""
    for meanings in meant[beat : beat + 2]:
        for meaning in meanings:
            if _stands_for(meaning, plain):
                return meaning
    return None


def _formulas_whole(texts: Sequence[str]) -> list[str]:
    """``texts`` with a formula's name, shown as a word in front of it (``Attention``, then
    ``(Q, K, V) = …``), joined to the formula: it is described whole, as it reads."""
    out: list[str] = []
    for text in texts:
        # a name is a word: a letter alone (the k of k = …) names no formula
        if out and text.startswith("(") and re.fullmatch(r"[^\W\d_]{2,}", out[-1]):
            out[-1] += text
        else:
            out.append(text)
    return out


NEARLY = 5
"""A text is said when every number in it and all but one word in :data:`NEARLY` (of two
letters or more, compared by stem) are said: "query: what the current token is looking for"
is said by "Q holds the queries: what the current token is looking for"."""


def _nearly_said(tokens: set[str], heard: set[str]) -> bool:
    missing = tokens - heard
    if any(_numbers_only({token}) for token in missing):
        return False  # a number not said is never said
    return len(missing) <= len(tokens) // NEARLY


def _labels(words: Words) -> list[re.Pattern[str]]:
    """Every ``word`` entry as a pattern, each placeholder one number or word."""
    found = []
    for name in words:
        if kind_of(name) == "word":
            parts = re.split(r"\{\w+\}", words[name])
            found.append(re.compile(r"\S+".join(re.escape(p) for p in parts), re.IGNORECASE))
    return found


def _tokens(text: str) -> set[str]:
    """The words of two letters or more and the numbers in ``text``, compared loosely."""
    found = set()
    for token in re.findall(r"\d*\.?\d+%?|[^\W\d_]{2,}", text.casefold()):
        if token[0].isdigit() or token[0] == ".":
            number = float(token.rstrip("%"))
            found.add(f"{number:g}{'%' if token.endswith('%') else ''}")
        else:
            found.add(_stem(token))
    return found


def _stem(word: str) -> str:
    """``word`` without an English plural's ending (queries, keys, matches: query, key, match),
    so that the singular on screen is heard in the plural said; other words as they are."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _numbers_only(tokens: set[str]) -> bool:
    return all(token[0].isdigit() or token[0] == "-" for token in tokens)


def step_reading(words: Words, step: Step) -> list[list[Reading]]:
    """:func:`reading` of a step's clip, from what its manifest entry recorded."""
    slug = step.stem.partition("_")[2]
    captions = [beat.caption for beat in step.beats]
    return reading(
        words,
        slug,
        step.clip.title,
        captions,
        _per_beat(step.clip.shown, step.beats),
        _per_beat(step.clip.meant, step.beats),
    )


def _per_beat(recorded: Sequence[Sequence[T]], beats: Sequence[object]) -> list[Sequence[T]]:
    """What the manifest recorded per beat, one entry for each of ``beats`` (none recorded, as
    in an older manifest: nothing)."""
    padded: list[Sequence[T]] = [*recorded, *([()] * (len(beats) - len(recorded)))]
    return padded[: len(beats)]


def step_descriptions(words: Words, step: Step) -> list[str]:
    """Per beat of a step's clip, its description in whole sentences of the lesson's language,
    empty where the beat needs none."""
    meant = _per_beat(step.clip.meant, step.beats)
    return descriptions(words, step_reading(words, step), meant)


def descriptions(
    words: Words, readings: Sequence[Sequence[Reading]], meant: Sequence[Sequence[Meaning]] = ()
) -> list[str]:
    """Per beat of :func:`reading`, its description, empty where none: first the sentence of
    each meaning that stands for a text the voice does not say (in the beat that brings the
    meaning in), then the other texts not said, read out whole in one sentence."""
    spoken: list[list[Meaning]] = [[] for _ in readings]
    for i, beat in enumerate(readings):
        for r in beat:
            if r.why != "meant":
                continue
            for j in (i, i + 1):  # the beat that brings its meaning in: this one, or the next
                found = [m for m in meant[j] if _stands_for(m, r.text)] if j < len(meant) else []
                if found:  # the nearest: a working's division, not the whole working
                    nearest = min(found, key=lambda m: len(m.covers))
                    if nearest not in spoken[j]:
                        spoken[j].append(nearest)
                    break
    out = []
    for beat, meanings in zip(readings, spoken, strict=True):
        texts = [r.text.strip(" ·") for r in beat if r.why == "read out"]
        # a code listing shown, then shown again with its output: described once, in full
        texts = [t for t in texts if not any(o != t and o.startswith(t) for o in texts)]
        # one sense shown twice (a listing typed, then run): said once
        sentences = list(dict.fromkeys(_ended(m.sentence(words)) for m in meanings))
        if texts:
            listed = "; ".join(t.removesuffix(".") for t in texts)
            sentences.append(_ended(words.say("describe.line.shown", texts=listed)))
        out.append(" ".join(sentences))
    return out


def _stands_for(meaning: Meaning, plain: str) -> bool:
    return any(readable(text).strip(" ·") == plain.strip(" ·") for text in meaning.covers)


def _ended(sentence: str) -> str:
    """``sentence`` with a full stop, unless it ends as a sentence already (. ? ! ; …, a
    closing quote or bracket after it: ``the “Athens” fact.``; Greek asks with ;)."""
    sentence = sentence.strip()
    return sentence if re.search(r"[.?!;…][”»\"')]*$", sentence) else f"{sentence}."
