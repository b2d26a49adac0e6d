"""The standard library's private API: every use the project makes of it, behind one door.

Each reaches past ``multiprocessing``'s and ``concurrent.futures``' public API, where it has
no way to do what a run needs:

- :func:`stop_forkserver`: end the fork server the workers fork from, and wait for it
  (``multiprocessing.forkserver._forkserver._stop``): it has waited for the workers, so their
  CPU time is counted in this process's children's (``getrusage``), where ``bench/`` reads a
  run's cost.
- :func:`pool_processes`: the worker processes of a ``ProcessPoolExecutor``
  (``executor._processes``), to stop them at once: a running manim cannot be cancelled.

They were written for Python :data:`WRITTEN_FOR`. On any other version, importing this module
warns once (:class:`PythonVersionWarning`, saying what to do) and both step aside: the fork
server is left to end by itself as this process's pipe to it closes (the workers' CPU time then
goes uncounted), and a pool's workers are found among this process's children
(``multiprocessing.active_children``: every process it started that is still running).
"""

from __future__ import annotations

import multiprocessing
import sys
import warnings
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import forkserver
from multiprocessing.process import BaseProcess

__all__ = [
    "SAME",
    "WRITTEN_FOR",
    "PythonVersionWarning",
    "pool_processes",
    "stop_forkserver",
    "version_advice",
]

WRITTEN_FOR = (3, 11)
"""The Python version every use below was written and tested against (pyproject.toml's
``requires-python`` pins it)."""


class PythonVersionWarning(UserWarning):
    """The running Python is not the one this module was written for."""


def version_advice(running: tuple[int, int]) -> str | None:
    """What to do when ``running`` is not :data:`WRITTEN_FOR`, in one line; None when it is."""
    if running == WRITTEN_FOR:
        return None
    ours, theirs = ".".join(map(str, WRITTEN_FOR)), ".".join(map(str, running))
    return (
        f"Python {theirs} is running, but publish/render/stdlib_internals.py was written for "
        f"Python {ours}: run `bash scripts/setup.sh` to make .venv/ with Python {ours}, or, to "
        f"move to {theirs}, check each use in that module against its multiprocessing and "
        "concurrent.futures and update WRITTEN_FOR and requires-python in pyproject.toml; until "
        "then the fork server ends unwaited for (the workers' CPU time goes uncounted)"
    )


_ADVICE = version_advice((sys.version_info[0], sys.version_info[1]))
if _ADVICE is not None:
    warnings.warn(_ADVICE, PythonVersionWarning, stacklevel=2)
SAME = _ADVICE is None
"""Whether the internals are used: only on the Python they were written for."""


def stop_forkserver() -> None:
    """End the fork server, if running, and wait for it (a fork server started after this
    is a new one)."""
    if SAME:
        forkserver._forkserver._stop()  # type: ignore[attr-defined]


def pool_processes(executor: ProcessPoolExecutor) -> list[BaseProcess]:
    """``executor``'s worker processes, as it holds them now."""
    if SAME:
        return list(executor._processes.values())
    return multiprocessing.active_children()
