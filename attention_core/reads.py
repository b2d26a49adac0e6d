"""What a scene reads of its lesson: recorded while it runs, so that its clip's key covers that.

:func:`traced` gives a lesson that looks and behaves like the original (a real :class:`Lesson`,
real tokens, a real :class:`Words`) and notes the path of every field read through it:
``("tokens", 2, "text")``, ``("quiz", "filler_score")``, ``("words", "score.caption.dot")``,
``("tokens",)`` for how many tokens there are. A field's value can be reached only by reading the
field, so nothing computed from the lesson escapes the record: ``attend(lesson)`` reads the keys
and values it derives from, ``lesson.d_k`` reads the query, ``np.array(token.key)`` reads the key.
What copies a whole object (``vars``, pickling, iterating over the words) records all of it.

:func:`value_at` reads the same path of another lesson, so a cached clip's key can be recomputed
from a new lesson without running its scene again (dynamic dependencies, as build systems keep).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar, cast

from .model import Lesson
from .words import Words

__all__ = [
    "ALL",
    "Path",
    "Reads",
    "is_traced",
    "reads_of",
    "traced",
    "traced_path",
    "untraced",
    "value_at",
    "values_of",
]

Path = tuple[str | int, ...]
"""A field of the lesson: attribute names, tuple indices, words entry names."""
ALL = "*"
"""A path's last step meaning the whole object below it."""
_WHOLE = frozenset({"__dict__", "__getstate__", "__reduce__", "__reduce_ex__"})
"""Attributes through which a whole object can be copied without reading its fields one by one."""

T = TypeVar("T")


class Reads:
    """The paths read so far, in no order."""

    def __init__(self) -> None:
        self.paths: set[Path] = set()
        self._captures: list[set[Path]] = []

    def add(self, path: Path) -> None:
        self.paths.add(path)
        for captured in self._captures:
            captured.add(path)

    @contextmanager
    def capture(self) -> Iterator[set[Path]]:
        """The paths read while in the ``with`` block (read before or not), as they come."""
        captured: set[Path] = set()
        self._captures.append(captured)
        try:
            yield captured
        finally:
            self._captures.pop()  # captures nest: the innermost ends first

    def sorted(self) -> list[Path]:
        """The paths in a stable order (paths mix names and indices)."""
        return sorted(self.paths, key=json.dumps)


def traced(lesson: Lesson, reads: Reads) -> Lesson:
    """``lesson``, noting in ``reads`` every field read through it."""
    return _wrap(lesson, (), reads)


def untraced(lesson: Lesson) -> Lesson:
    """The plain lesson behind a traced one, which counts as reading all of it; any other
    lesson as it is. For a cache keyed by lesson (a dry run measuring the lesson's minutes)."""
    own = object.__getattribute__(lesson, "__dict__")
    reads: Reads | None = own.get("_reads")
    if reads is None:
        return lesson
    reads.add((*own["_path"], ALL))
    original: Lesson = own["_original"]
    return original


class _Traced:
    """Mixed into a copy of each of the lesson's dataclasses: reading a field records its path.

    An instance made otherwise (``dataclasses.replace`` of a traced object) has no recorder and
    behaves as the plain class: making it read every field of the traced original, so what it
    holds was recorded already.
    """

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        own = object.__getattribute__(self, "__dict__")
        reads: Reads | None = own.get("_reads")
        if reads is None:
            return value
        path: Path = own["_path"]
        if name in _WHOLE:
            reads.add((*path, ALL))
        elif name in type(self).__dataclass_fields__ and not _traces_itself(value):  # type: ignore[attr-defined]
            reads.add((*path, name))
        return value

    def __eq__(self, other: object) -> bool:
        """As the plain class compares, field by field (so read), with plain objects too."""
        plain = type(self).__mro__[2]
        if not isinstance(other, plain):
            return NotImplemented
        names = (field.name for field in dataclasses.fields(plain))
        return all(getattr(self, name) == getattr(other, name) for name in names)

    __hash__ = object.__hash__
    """By identity: a lesson used as a cache key (``run_dry``, ``lesson_minutes``) reads nothing."""


class _TracedWords(Words):
    """The words, noting each entry looked up (present or not)."""

    def __init__(self, words: Words, reads: Reads, path: Path) -> None:
        super().__init__(words)
        self._reads = reads
        self._path = path

    def __getitem__(self, name: str) -> str:
        self._reads.add((*self._path, name))
        return super().__getitem__(name)

    def __iter__(self) -> Iterator[str]:
        self._reads.add((*self._path, ALL))
        return super().__iter__()

    def __len__(self) -> int:
        self._reads.add((*self._path, ALL))
        return super().__len__()

    __hash__ = object.__hash__


def _traces_itself(value: Any) -> bool:
    """Whether reading ``value`` records its own parts, so that fetching it tells nothing."""
    return isinstance(value, _Traced | _TracedWords)


@cache
def _traced_class(cls: type[T]) -> type[T]:
    if issubclass(cls, _Traced):  # tracing a traced lesson: copying it read all of it
        cls = cls.__mro__[2]
    return type(f"Traced{cls.__name__}", (_Traced, cls), {"__module__": __name__})


def _wrap(value: T, path: Path, reads: Reads) -> T:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        copy = object.__new__(_traced_class(type(value)))
        for field in dataclasses.fields(value):
            inner = _wrap(getattr(value, field.name), (*path, field.name), reads)
            object.__setattr__(copy, field.name, inner)
        object.__setattr__(copy, "_reads", reads)
        object.__setattr__(copy, "_path", path)
        object.__setattr__(copy, "_original", value)
        return cast(T, copy)
    if isinstance(value, Words):
        return _TracedWords(value, reads, path)  # type: ignore[return-value]
    if isinstance(value, tuple) and any(dataclasses.is_dataclass(item) for item in value):
        return tuple(_wrap(item, (*path, i), reads) for i, item in enumerate(value))  # type: ignore[return-value]
    return value


_ABSENT = {"absent": True}


def value_at(lesson: Lesson, path: Path) -> Any:
    """What reading ``path`` gives on ``lesson``, as JSON-ready data.

    A list of objects gives its length (its items' fields are paths of their own), an object
    ``{}`` (its fields are read one by one), a word or index not there ``{"absent": true}``.
    """
    node: Any = lesson
    for step in path:
        if step == ALL:
            return _whole(node)
        if isinstance(node, Words):
            node = node.get(str(step), _ABSENT)
        elif isinstance(step, int):
            node = node[step] if isinstance(node, tuple) and step < len(node) else _ABSENT
        else:
            node = getattr(node, step) if dataclasses.is_dataclass(node) else _ABSENT
        if node is _ABSENT:
            return _ABSENT
    return _shallow(node)


def values_of(lesson: Lesson, paths: Iterable[Path]) -> list[tuple[Path, Any]]:
    """Each path with its value on ``lesson``, in a stable order."""
    return [(path, value_at(lesson, path)) for path in sorted(set(paths), key=json.dumps)]


def _shallow(node: Any) -> Any:
    if dataclasses.is_dataclass(node) or isinstance(node, Words):
        return {}
    if isinstance(node, tuple) and any(dataclasses.is_dataclass(item) for item in node):
        return {"count": len(node)}
    return list(node) if isinstance(node, tuple) else node


def _whole(node: Any) -> Any:
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return {field.name: _whole(getattr(node, field.name)) for field in dataclasses.fields(node)}
    if isinstance(node, Words):
        return dict(node)
    if isinstance(node, tuple):
        return [_whole(item) for item in node]
    return node


def is_traced(lesson: Lesson) -> bool:
    """Whether ``lesson`` records what is read through it (asking reads nothing)."""
    return reads_of(lesson) is not None


def reads_of(lesson: Lesson) -> Reads | None:
    """Where ``lesson`` records what is read through it; None for a plain lesson."""
    reads: Reads | None = object.__getattribute__(lesson, "__dict__").get("_reads")
    return reads


def traced_path(value: Any) -> Path | None:
    """Where ``value`` is in its traced lesson, if it is a traced part of one (the lesson, a
    token, its words: asking reads nothing); None for anything else."""
    if isinstance(value, _TracedWords):
        return value._path
    if isinstance(value, _Traced):
        path: Path = object.__getattribute__(value, "__dict__")["_path"]
        return path
    return None
