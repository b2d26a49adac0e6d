"""Which way a language is written, from its BCP 47 tag: a page in Arabic says ``dir="rtl"``."""

from __future__ import annotations

__all__ = ["RTL_LANGUAGES", "RTL_SCRIPTS", "direction"]

RTL_LANGUAGES = frozenset(
    {"ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "nqo", "ps", "sd", "syr", "ug"}
    | {"ur", "yi"}
)
"""Languages written right to left in their usual script (``ku``: Sorani's Arabic script)."""
RTL_SCRIPTS = frozenset({"arab", "hebr", "syrc", "thaa", "nkoo", "adlm", "rohg", "mand", "samr"})
"""ISO 15924 scripts written right to left: a script subtag (``az-Arab``) decides over the
language (``ku-Latn`` is left to right)."""


def direction(language: str) -> str:
    """``"rtl"`` or ``"ltr"`` for a BCP 47 tag such as ``ar``, ``fa-IR``, ``az-Arab``."""
    parts = language.replace("_", "-").lower().split("-")
    scripts = [part for part in parts[1:] if len(part) == 4 and part.isalpha()]
    if scripts:
        return "rtl" if scripts[0] in RTL_SCRIPTS else "ltr"
    return "rtl" if parts[0] in RTL_LANGUAGES else "ltr"
