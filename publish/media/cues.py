"""Caption cues to the broadcast rules (BBC subtitle guidelines, Netflix timed text): a beat's
caption split into cues of at most two lines, broken at phrase boundaries, each timed to the
words it carries."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from attention_core import Lesson
from publish.media.captions import Cue

__all__ = [
    "FASTEST",
    "LINES",
    "LONGEST",
    "SHORTEST",
    "eased",
    "line_limit",
    "split_cue",
    "unbroken",
]

LINE = 42
"""Characters a line, in scripts written with spaces (BBC and Netflix agree)."""
LINE_CJK = 16
"""Characters a line where the caption holds Chinese, Japanese or Korean: Netflix's limit for
Chinese (its Japanese one is 13); these characters are twice as wide as Latin ones."""
LINES = 2
SHORTEST, LONGEST = 833, 7000
"""The shortest and longest a cue should stay on screen, in ms: Netflix's shortest, 20 frames
at 24 fps (5/6 s), and the BBC's and Netflix's longest."""
FASTEST = 20.0
"""Characters a second a cue may ask a viewer to read."""
LEAD, LINGER, LATE = 150, 1500, 200
"""How much earlier (ms) a cue too fast to read, or too short, may appear than its words; how
much longer it may stay after them, into the silence before the next cue (the BBC lets a
caption linger there rather than outpace its reader); and how much later the next cue may then
start than its own words, when that silence is too short (the next cue, then short itself,
eases the same way: into the silence after it, where a sentence cut in two has its pause).
Each start stays within the 0.25 s a cue keeps to its words; each end stays in the silence."""
_PAUSE_EASE = 200
"""How much longer (ms) than its words a cue cut inside a beat may be counted on to show, when
choosing where to cut: what a pause between its clauses gives."""

_CJK = re.compile(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_OPERATORS = frozenset("÷×=+·→−≈<>")
"""A word that is only one of these binds the words either side: ``6 ÷ 2`` stays on a line."""
_OPENING, _CLOSING = "[(«“", "])»”"
_ENDS = {**dict.fromkeys(".?!…", 3.0), **dict.fromkeys(":;", 2.5), **dict.fromkeys(",—–", 2.0)}
"""How strong a phrase boundary is after a word ending in each mark: a sentence, a clause, a
pause."""
_SHORT_WORD = re.compile(r"[^\W\d_]{1,3}$")


def unbroken(lesson: Lesson) -> list[str]:
    """The lesson's texts a caption line never breaks inside: token names, answers, sources."""
    tokens = (*lesson.tokens, *([lesson.rival] if lesson.rival else []))
    return [
        *(t for token in tokens for t in (token.text, token.short)),
        *lesson.answers,
        lesson.citation.source,
    ]


def line_limit(text: str) -> int:
    """Characters a line for ``text``: :data:`LINE_CJK` if it holds CJK characters."""
    return LINE_CJK if _CJK.search(text) else LINE


@dataclass(frozen=True)
class _Gap:
    """The boundary after a unit: how strong a phrase break it is, and when the words before
    it end and those after it start (ms); ``heard``: found at a pause in the speech."""

    strength: float
    ends: int = 0
    starts: int = 0
    heard: bool = True


def split_cue(
    cue: Cue,
    *,
    pauses: Sequence[tuple[int, int]] | None,
    weigh: Callable[[str], float],
    keep: Sequence[str] = (),
) -> list[Cue]:
    """``cue``, a beat's caption spanning its speech, as cues to the rules.

    ``pauses``: (start, end) ms in the clip of every pause inside the beat's speech; None for
    a silent beat, whose cues share its time by their length. ``weigh``: how long a piece of
    a narrated beat's caption takes to say, in any unit (the length of its spoken form).
    ``keep``: texts a line never breaks inside (the lesson's token names); numbers, bracketed
    vectors and ``a ÷ b`` never break either.
    """
    if pauses is None:  # read, not heard: each cue gets the time its letters take to read
        weigh = len
    units = _units(cue.text, keep, line_limit(cue.text))
    if len(units) < 2:
        return [cue]
    gaps = _timed(
        cue, units, [_gap(a, b) for a, b in zip(units, units[1:], strict=False)], pauses, weigh
    )
    # a narrated beat's cues may be eased into the pauses between them (a pause inside a beat is
    # rarely longer than this); a silent beat's tile it
    return _packed(cue, units, gaps, 0 if pauses is None else _PAUSE_EASE)


def eased(cues: Sequence[Cue], end: int) -> list[Cue]:
    """``cues`` (a clip's, in order, ending by ``end`` ms), each too fast to read or shorter
    than :data:`SHORTEST` given what it lacks: up to :data:`LINGER` after its words, until the
    next cue shows; up to :data:`LEAD` before them, after the last cue ends; and, if it still
    lacks some, up to :data:`LATE` of the next cue's start, which then eases in its turn."""
    pending = list(cues)
    out: list[Cue] = []
    for i, cue in enumerate(pending):
        more = _wanted(cue) - (cue.end - cue.start)
        if more <= 0:
            out.append(cue)
            continue
        following = pending[i + 1] if i + 1 < len(pending) else None
        after = following.start if following is not None else end
        stop = max(cue.end, min(after, cue.end + LINGER, cue.end + more))
        before = max(out[-1].end if out else 0, cue.start - LEAD)
        start = min(cue.start, max(before, cue.start - (more - (stop - cue.end))))
        short = _wanted(cue) - (stop - start)
        if short > 0 and following is not None and stop == following.start:
            later = min(short, LATE)
            pending[i + 1] = Cue(following.start + later, following.end, following.text)
            stop += later
        out.append(Cue(start, stop, cue.text))
    return out


def _wanted(cue: Cue) -> int:
    """How long ``cue`` must show (ms): :data:`SHORTEST`, or its letters at :data:`FASTEST`."""
    return max(SHORTEST, math.ceil(len(cue.text.replace("\n", " ")) / FASTEST * 1000))


def _units(text: str, keep: Sequence[str], limit: int) -> list[str]:
    """``text`` as the runs of words no line may break inside."""
    words = [(m.start(), m.end(), m[0]) for m in re.finditer(r"\S+", text)]
    names = [name for name in keep if " " in name.strip()]
    kept = [(m.start(), m.end()) for name in names for m in re.finditer(re.escape(name), text)]
    units: list[list[str]] = []
    depth = 0
    quoted = False
    for i, (start, _, word) in enumerate(words):
        inside = depth > 0 or quoted or any(a < start < b for a, b in kept)
        previous = words[i - 1][2] if i else ""
        bound = previous in _OPERATORS or word in _OPERATORS or word in ("—", "–")
        if units and (inside or bound):
            units[-1].append(word)
        else:
            units.append([word])
        opened = sum(word.count(c) for c in _OPENING) - sum(word.count(c) for c in _CLOSING)
        depth = max(0, depth + opened)
        quoted ^= word.count('"') % 2 == 1
    out: list[str] = []
    for unit in units:  # a vector wider than a line breaks after its commas, as it must
        if len(" ".join(unit)) > limit:
            out += unit
        else:
            out.append(" ".join(unit))
    return out


def _gap(before: str, after: str) -> _Gap:
    end = before.rstrip("\"'»”)]")[-1:]
    if end in _ENDS:
        return _Gap(_ENDS[end])
    return _Gap(1.0 if _SHORT_WORD.match(after) and after.islower() else 0.0)


def _timed(
    cue: Cue,
    units: Sequence[str],
    gaps: Sequence[_Gap],
    pauses: Sequence[tuple[int, int]] | None,
    weigh: Callable[[str], float],
) -> list[_Gap]:
    """``gaps`` with times: each at the pause it is heard at, the rest placed between those by
    the length of the words in between."""
    weights = [weigh(unit) + 1 for unit in units]
    total = sum(weights)
    at = [sum(weights[: i + 1]) / total for i in range(len(gaps))]  # share of the words before
    span = cue.end - cue.start
    estimate = [cue.start + share * span for share in at]
    heard = _matched(estimate, gaps, pauses or [])
    anchors = [(0.0, cue.start, cue.start)]
    anchors += [(at[i], *heard[i]) for i in sorted(heard)]
    anchors.append((1.0, cue.end, cue.end))
    timed = []
    for i, gap in enumerate(gaps):
        if i in heard:
            timed.append(_Gap(gap.strength, heard[i][0], heard[i][1], True))
            continue
        (a_share, _, a_time), (b_share, b_time, _) = next(
            (a, b) for a, b in zip(anchors, anchors[1:], strict=False) if a[0] <= at[i] <= b[0]
        )
        t = round(a_time + (b_time - a_time) * (at[i] - a_share) / max(b_share - a_share, 1e-9))
        timed.append(_Gap(gap.strength, t, t, pauses is None))
    return timed


def _matched(
    estimate: Sequence[float], gaps: Sequence[_Gap], pauses: Sequence[tuple[int, int]]
) -> dict[int, tuple[int, int]]:
    """Which pause each boundary is heard at: the in-order matching of boundaries to pauses
    that best pairs strong boundaries with pauses near where the words put them (a word's
    share of the speech is a fair guess of its time, to within a second or so)."""

    def score(i: int, j: int) -> float:
        middle = (pauses[j][0] + pauses[j][1]) / 2
        return 0.4 + 0.35 * gaps[i].strength - abs(estimate[i] - middle) / 1000

    n, m = len(gaps), len(pauses)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], score(i, j) + best[i + 1][j + 1])
    matched: dict[int, tuple[int, int]] = {}
    i = j = 0
    while i < n and j < m:
        if score(i, j) > 0 and best[i][j] == score(i, j) + best[i + 1][j + 1]:
            matched[i] = pauses[j]
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return matched


def _packed(cue: Cue, units: Sequence[str], gaps: Sequence[_Gap], ease: int) -> list[Cue]:
    """The cues that cover ``units`` best: few, each within the rules, broken at strong
    boundaries heard in the speech."""
    n = len(units)
    limit = line_limit(cue.text)
    best: list[tuple[float, int]] = [(0.0, 0)] + [(float("inf"), 0)] * n
    for j in range(1, n + 1):
        for i in range(j - 1, -1, -1):
            text = " ".join(units[i:j])
            if len(text) > LINES * limit + 1 and j - i > 1:
                break
            wrapped = _wrapped(units[i:j], limit)
            start = cue.start if i == 0 else gaps[i - 1].starts
            end = cue.end if j == n else gaps[j - 1].ends
            cost = best[i][0] + _cost(text, end - start + ease, wrapped, i > 0 or j < n)
            if j < n:
                cost += (3.0 - gaps[j - 1].strength) * 0.7 + (0 if gaps[j - 1].heard else 6)
            if cost < best[j][0]:
                best[j] = (cost, i)
    cuts, j = [], n
    while j > 0:
        cuts.append((best[j][1], j))
        j = best[j][1]
    out = []
    for i, j in reversed(cuts):
        start = cue.start if i == 0 else gaps[i - 1].starts
        end = cue.end if j == n else gaps[j - 1].ends
        lines = _wrapped(units[i:j], limit)
        out.append(Cue(start, end, "\n".join(lines[0]) if lines else " ".join(units[i:j])))
    return out


def _cost(text: str, ms: int, wrapped: tuple[list[str], float] | None, split: bool) -> float:
    """What a cue costs: one for being there, more for each rule it bends; ``ms``: how long it
    can be shown, easing included."""
    cost = 1.0 + (50.0 if wrapped is None else wrapped[1] / 4)
    if ms > LONGEST:
        cost += 8 + 2 * (ms - LONGEST) / 1000
    if split and ms < SHORTEST:
        cost += 6
    if ms <= 0 or len(text) / (ms / 1000) > FASTEST:
        cost += 6
    return cost


def _wrapped(units: Sequence[str], limit: int) -> tuple[list[str], float] | None:
    """``units`` on at most two lines within ``limit``, broken at the strongest, most even
    boundary (the lower line the longer, as the BBC asks), with its badness; None if they do
    not fit."""
    text = " ".join(units)
    if len(text) <= limit:
        return [text], 0.0
    found: tuple[list[str], float] | None = None
    for k in range(1, len(units)):
        top, bottom = " ".join(units[:k]), " ".join(units[k:])
        if len(top) > limit or len(bottom) > limit:
            continue
        # A mark ends a phrase; a short word only may start one: half as good a place.
        strength = _gap(units[k - 1], units[k]).strength
        badness = 3.0 - (strength if strength >= 2 else strength / 2)
        badness += abs(len(top) - len(bottom)) / 20 + (0.3 if len(top) > len(bottom) else 0.0)
        if found is None or badness < found[1]:
            found = ([top, bottom], badness)
    return found
