"""The colour of each role and token, and how a cell is shaded: shared by the scenes and the pages.

The scenes draw with these (``scenes/style.py`` re-exports them); the lecture kit's pages write
them into their style sheet as custom properties (``publish/kit/templates/palette.css``), so the
twin's cells are the video's. Plain data: nothing here imports manim.
"""

from __future__ import annotations

__all__ = [
    "BACKGROUND",
    "DARK",
    "FAINTEST",
    "FULLEST",
    "KEY",
    "MUTED",
    "QUERY",
    "RIVAL",
    "ROLES",
    "TEXT",
    "TOKEN_COLOURS",
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
DARK = "#08090c"  # a masked cell: darker than the page, so it reads as switched off

FAINTEST, FULLEST = 0.08, 0.42  # fill opacity of a zero entry and of the largest one

ROLES = {"query": QUERY, "key": KEY, "value": VALUE}
"""A vector's colour by the role it plays (a twin number's ``role``)."""


def token_colour(index: int, *, rival: bool = False) -> str:
    """The colour a token keeps in every scene."""
    return RIVAL if rival else TOKEN_COLOURS[index % len(TOKEN_COLOURS)]
