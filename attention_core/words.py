"""The words the video shows and says: the English template, and a lesson's translation of it."""

from __future__ import annotations

import string
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["KINDS", "Words", "caption_name", "english", "kind_of", "placeholders", "said_name"]

KINDS = {"heading": 40, "word": 24, "line": 160, "caption": 280, "said": 280}
"""An entry's kind (the middle part of its name) and the most characters a translation may use."""


class Words(Mapping[str, str]):
    """A frozen catalogue, entry name to template, that fills templates in by name."""

    def __init__(self, entries: Mapping[str, str]) -> None:
        self._entries = dict(entries)

    def __getitem__(self, name: str) -> str:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __hash__(self) -> int:
        return hash(frozenset(self._entries.items()))

    def __repr__(self) -> str:
        return f"Words({len(self)} entries)"

    def say(self, name: str, **values: str) -> str:
        """The entry ``name`` with its ``{placeholders}`` filled in.

        Placeholders are checked when the lesson loads (plain names, the English entry's set),
        so this never evaluates anything but a lookup by name.
        """
        return self[name].format_map(values)

    def said(self, name: str, **values: str) -> str:
        """What the narrator says for caption entry ``name``: its ``said`` entry where the
        catalogue has one (a symbol read aloud in words), else the caption as shown."""
        spoken = said_name(name)
        return self.say(spoken if spoken in self else name, **values)

    def join(self, items: Sequence[str]) -> str:
        """Items as a narrator lists them: ``3, 1 and 0``."""
        if len(items) == 1:
            return items[0]
        return self.say("common.word.list", items=", ".join(items[:-1]), last=items[-1])


@cache
def english() -> Words:
    """The English template, shipped inside this package."""
    text = resources.files("attention_core").joinpath("words.toml").read_text("utf-8")
    return Words(dict(_flatten(tomllib.loads(text))))


def _flatten(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def kind_of(name: str) -> str:
    """An entry's kind: the middle part of ``scene.kind.name``."""
    return name.split(".")[1]


def said_name(name: str) -> str:
    """The entry that says caption ``name`` aloud: ``score.caption.dot`` → ``score.said.dot``."""
    scene, _, rest = name.partition(".caption.")
    return f"{scene}.said.{rest}" if rest else name


def caption_name(name: str) -> str:
    """The caption a said entry speaks: ``score.said.dot`` → ``score.caption.dot``; any other
    name as it is."""
    scene, _, rest = name.partition(".said.")
    return f"{scene}.caption.{rest}" if rest else name


def placeholders(template: str) -> list[str]:
    """The ``{names}`` a template asks for, in order; ValueError for a stray brace."""
    return [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]
