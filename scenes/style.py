"""The shared look: one colour per role and per token, type sizes, pacing."""

from __future__ import annotations

__all__ = [
    "BACKGROUND",
    "FONT",
    "KEY",
    "MUTED",
    "QUERY",
    "RIVAL",
    "TEXT",
    "VALUE",
    "token_colour",
]

# Okabe–Ito and Paul Tol hues: distinguishable with the common colour-vision deficiencies,
# and every one at least 4.5:1 against the background (tests/test_style.py checks both).
BACKGROUND = "#14161c"
TEXT = "#f2f2f2"
MUTED = "#a8adb7"
QUERY = "#f0e442"  # yellow, as in 3Blue1Brown's attention chapter
KEY = "#56b4e9"  # sky blue
VALUE = "#3fc59a"  # bluish green
TOKEN_COLOURS = ("#e69f00", "#cc79a7", "#bbbbbb", "#88ccee", "#ddcc77", "#44aa99")
RIVAL = "#ee6677"

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
MARGIN = 0.35  # distance kept from the frame's edge, in scene units


def token_colour(index: int, *, rival: bool = False) -> str:
    """The colour a token keeps in every scene."""
    return RIVAL if rival else TOKEN_COLOURS[index % len(TOKEN_COLOURS)]
