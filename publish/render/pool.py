"""Worker processes for renders and dry runs: start them, hand them scenes, stop them at once."""

from __future__ import annotations

import atexit
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import forkserver
from typing import TYPE_CHECKING, Any, TypeVar

from publish.render import worker
from publish.render.stdlib_internals import pool_processes, stop_forkserver

if TYPE_CHECKING:
    from scenes import LessonScene

__all__ = [
    "event_queue",
    "longest_first",
    "outcome",
    "run_jobs",
    "start",
    "submit",
    "wait_for_results",
    "warm",
    "worker_pool",
]

J = TypeVar("J")
T = TypeVar("T")

_CONTEXT = multiprocessing.get_context("forkserver")
PRELOADED = ["manim", "tqdm"]
"""What the process the workers are forked from imports once: a worker starts without the
1.2 s that importing manim takes. Not the project's own code, which may be mid-edit: a scene
that fails to import fails its clips with the error, as it would in a worker of its own."""


def warm() -> None:
    """Start the process workers are forked from, if not yet: it imports :data:`PRELOADED`
    while this process reads the lesson and plans, so the first worker is ready as soon as it
    is asked for. A run that renders nothing has spent a core's second on it."""
    global _warm
    if not _warm:
        _warm = True
        _CONTEXT.set_forkserver_preload(PRELOADED)
        # At exit, end it and wait for it, as for any child: it has waited for the workers, so
        # their CPU time is counted in this process's children's, where bench/ reads a run's
        # cost. Left alone, it would end by itself as our pipe to it closes, uncounted.
        atexit.register(stop_forkserver)
    forkserver.ensure_running()


_warm = False


@contextmanager
def worker_pool(events: Any, workers: int) -> Iterator[ProcessPoolExecutor]:
    """Worker processes, stopped at once if anything (Ctrl-C included) interrupts the block.

    ``events`` is a queue the workers report progress to (see :data:`worker.Event`), or None.
    """
    warm()
    executor = ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=_CONTEXT,
        initializer=worker.init,
        initargs=(events,),
    )
    try:
        yield executor
    except BaseException:
        _stop(executor)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def event_queue() -> Any:
    """A queue the workers of :func:`worker_pool` can report to."""
    return _CONTEXT.SimpleQueue()


def _stop(executor: ProcessPoolExecutor) -> None:
    """Stop the workers now: a running manim cannot be cancelled any other way."""
    for process in pool_processes(executor):
        process.terminate()
    for process in pool_processes(executor):
        process.join(timeout=5)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Workers started inside inherit SIGINT ignored: Ctrl-C reaches the parent alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def longest_first(
    scenes: Sequence[type[LessonScene]], lengths: Mapping[type[LessonScene], float]
) -> list[type[LessonScene]]:
    """``scenes`` longest first (in lesson order where ``lengths`` has none), the title last:
    it is the shortest, and waits for the others' lengths anyway."""
    return sorted(scenes, key=lambda s: (s.shows_length, -lengths.get(s, 0.0), s.step))


def submit(
    executor: Executor,
    function: Callable[[J], T],
    jobs: Mapping[type[LessonScene], J],
) -> dict[Future[T], type[LessonScene]]:
    """Queue ``jobs`` in their order; the workers take them first come, first served."""
    with _sigint_ignored():  # workers are started by submit()
        return {executor.submit(function, job): scene for scene, job in jobs.items()}


def start(executor: Executor, function: Callable[[J], T], job: J) -> Future[T]:
    """Queue one job; the workers take jobs first come, first served."""
    with _sigint_ignored():  # workers are started by submit()
        return executor.submit(function, job)


def outcome(future: Future[T]) -> T | worker.ClipFailed:
    """A finished job's value, or why it failed (its worker process dying included)."""
    try:
        return future.result()
    except worker.ClipFailed as error:
        return error
    except BrokenProcessPool:
        return worker.ClipFailed("its worker process died (out of memory?)")


def wait_for_results(
    futures: Mapping[Future[T], type[LessonScene]],
    failed: Callable[[type[LessonScene], worker.ClipFailed], None],
    tick: Callable[[], None] = lambda: None,
    finished: Callable[[type[LessonScene], T], None] = lambda scene, value: None,
) -> dict[type[LessonScene], T]:
    """Wait for ``futures``; hand each result (or failure) over as it arrives."""
    results: dict[type[LessonScene], T] = {}
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        tick()
        for future in sorted(done, key=lambda f: futures[f].step):
            scene, value = futures[future], outcome(future)
            if isinstance(value, worker.ClipFailed):
                failed(scene, value)
            else:
                results[scene] = value
                finished(scene, value)
    return results


def run_jobs(
    executor: Executor,
    function: Callable[[J], T],
    jobs: Mapping[type[LessonScene], J],
    failed: Callable[[type[LessonScene], worker.ClipFailed], None],
    tick: Callable[[], None] = lambda: None,
    finished: Callable[[type[LessonScene], T], None] = lambda scene, value: None,
) -> dict[type[LessonScene], T]:
    """:func:`submit` ``jobs``, then :func:`wait_for_results` on them."""
    return wait_for_results(submit(executor, function, jobs), failed, tick, finished)
