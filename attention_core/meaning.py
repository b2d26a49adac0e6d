"""What a picture means, recorded beside the texts it shows: a description says it in a
sentence of the lesson's own words, naming every number with what it is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from attention_core.words import Words

__all__ = ["Meaning", "meaning"]


@dataclass(frozen=True)
class Meaning:
    """One thing on screen as a sentence would say it: a ``describe.line.*`` entry of the words
    catalogue, the values for its placeholders (numbers already formatted as shown, each beside
    its label), and ``covers``, the on-screen texts it stands for (the screen probe's)."""

    entry: str
    values: tuple[tuple[str, str], ...]
    covers: tuple[str, ...] = ()

    def sentence(self, words: Words) -> str:
        """The description of it, in ``words``' language."""
        return words.say(self.entry, **dict(self.values))

    def covering(self, texts: Sequence[str]) -> Meaning:
        """The same meaning, standing for ``texts`` (what is shown inside it)."""
        return replace(self, covers=tuple(dict.fromkeys(texts)))

    def to_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "values": dict(self.values), "covers": list(self.covers)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Meaning:
        values = tuple((str(k), str(v)) for k, v in dict(data["values"]).items())
        return cls(str(data["entry"]), values, tuple(str(t) for t in data.get("covers", ())))


def meaning(entry: str, **values: str) -> Meaning:
    """Entry ``entry`` with its placeholders' ``values``: what a scene object means."""
    return Meaning(entry, tuple(values.items()))
