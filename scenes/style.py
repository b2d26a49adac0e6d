"""The shared look: one colour per role and per token (:mod:`attention_core.palette`, which
the pages share), type sizes, pacing."""

from __future__ import annotations

from attention_core.palette import (
    BACKGROUND,
    KEY,
    MUTED,
    QUERY,
    RIVAL,
    TEXT,
    TOKEN_COLOURS,
    VALUE,
    token_colour,
)

__all__ = [
    "BACKGROUND",
    "FONT",
    "KEY",
    "MUTED",
    "QUERY",
    "RIVAL",
    "TEXT",
    "TOKEN_COLOURS",
    "VALUE",
    "token_colour",
]

FONT = "Inter"
MONO = "DejaVu Sans Mono"
# Type sizes by role, the one place they are set.
TITLE_SIZE = 60  # the video's title
HEADING_SIZE = 40  # a step's headline
BODY_SIZE = 32  # sentences: the question, a verdict
NUMBER_SIZE = 32  # numbers the viewer reads: table cells, vector cells, sums, shares
WORKING_SIZE = 38  # the numbers of the working in focus: the dot product done by hand
SMALL_SIZE = 26  # labels, headers, notes: the smallest type anywhere, readable at 720p
MATH_SIZE = 40  # real notation typeset by LaTeX: the formula, √dₖ, e^score, Σ

# Pacing: a beat stays on screen long enough to read its caption aloud.
SECONDS_PER_WORD = 0.3
SECONDS_PER_BEAT = 1.0
BREATH = 0.35  # after a narrated beat's words, before the next beat starts: a sentence's pause
FAST = 0.5
NORMAL = 1.0
SLOW = 1.5
