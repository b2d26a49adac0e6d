"""The shared look: every text colour readable against the background (WCAG AA, 4.5:1)."""

from __future__ import annotations

import pytest

from scenes import style


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of an sRGB colour such as ``#f0e442``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


TEXT_COLOURS = {
    "TEXT": style.TEXT,
    "MUTED": style.MUTED,
    "QUERY": style.QUERY,
    "KEY": style.KEY,
    "VALUE": style.VALUE,
    "RIVAL": style.RIVAL,
    **{f"TOKEN_COLOURS[{i}]": c for i, c in enumerate(style.TOKEN_COLOURS)},
}


@pytest.mark.parametrize(("name", "colour"), TEXT_COLOURS.items())
def test_text_colour_contrast(name: str, colour: str) -> None:
    assert contrast(colour, style.BACKGROUND) >= 4.5, name


def test_roles_have_distinct_colours() -> None:
    assert len({style.QUERY, style.KEY, style.VALUE, style.RIVAL}) == 4
    assert len(set(style.TOKEN_COLOURS)) == len(style.TOKEN_COLOURS)


def test_contrast_reference_values() -> None:
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
