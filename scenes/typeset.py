"""Typeset once: a text or formula made from the same arguments is a copy of the first one,
kept in this process and, on the shelf this process is given (a render's workers are given one
on disk: ``publish.render.shelf``), for the next process.

Typesetting (Pango's or LaTeX's SVG, parsed into paths) is most of a scene's construction, and a
count, a table cell or a heading is typeset again and again. A render after an edit constructs
every scene it redraws from its start in a new process; at 1080p a Text takes about 60 ms to
parse and 6 ms to load back. A copy, or a loaded one, draws exactly as a new one does: the same
points, colours and attributes (``tests/test_typeset.py``).
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, cast

from manim import Mobject, config

from scenes.manim_internals import SPEEDUPS

__all__ = ["KEPT", "Shelf", "forget", "made", "shaped_by", "shelve"]

M = TypeVar("M", bound=Mobject)

KEPT = 4096
"""How many typeset mobjects a process keeps to copy."""
_MADE: dict[tuple[Any, ...], Mobject] = {}


class Shelf(Protocol):
    """Where typeset mobjects are kept for the processes after this one, each under the
    arguments it was made from."""

    def load(self, key: tuple[Any, ...]) -> Mobject | None:
        """The mobject kept under ``key``, or None."""
        ...

    def keep(self, key: tuple[Any, ...], made: Mobject) -> None:
        """Keep ``made`` under ``key``, if it can (a full disk: it is made again next time)."""
        ...


_shelf: Shelf | None = None


def shelve(shelf: Shelf | None) -> Shelf | None:
    """Keep what this process typesets on ``shelf`` too (None: in memory only); returns the
    shelf it kept on until now."""
    global _shelf
    before, _shelf = _shelf, shelf
    return before


def forget() -> None:
    """Forget what this process typeset (what is on the shelf stays)."""
    _MADE.clear()


def made(kind: type[M], *args: Any, **kwargs: Any) -> M:
    """``kind(*args, **kwargs)``, as a copy of the one made with the same arguments and what
    else shapes it (:func:`shaped_by`)."""
    key = (kind, args, tuple(sorted(kwargs.items())), shaped_by())
    template = _MADE.get(key)
    if template is None:
        if len(_MADE) >= KEPT:  # a long --watch session: start afresh
            _MADE.clear()
        template = _shelf.load(key) if _shelf is not None else None
        if template is None:
            template = _typeset(kind, args, kwargs)
            if _shelf is not None:
                _shelf.keep(key, template)
        _MADE[key] = template
    return cast(M, template.copy())


def shaped_by() -> tuple[Any, ...]:
    """What a typeset mobject depends on besides its arguments: the TeX template, and on a
    manim the speed-ups were not written for, the picture's size (there a text is set on an SVG
    that size; with them, on :data:`scenes.manim_internals.TEXT_CANVAS` at every quality, so
    a dry run, a preview and a 1080p render share what they typeset)."""
    picture = () if SPEEDUPS else (config.pixel_width, config.pixel_height)
    return (*picture, config.tex_template.body)


def _typeset(kind: type[M], args: tuple[Any, ...], kwargs: dict[str, Any]) -> M:
    return kind(*args, **kwargs)
