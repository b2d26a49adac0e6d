"""Render on a running Dask scheduler's workers instead of this machine's processes.

:func:`cluster_pool` yields an executor the pipeline uses exactly as it uses the local pool:
``submit(worker.render_clip, job)`` and ``submit(worker.dry_run, job)`` give futures of a
:class:`worker.ClipResult` whose files are on this machine, or of a ``Probe``, or raise
:class:`worker.ClipFailed`. On a worker a job runs in a work folder and a speech store of the
worker's own; the clip, its captions and its speech come back as bytes and are written here
atomically, under the names the worker gave them (:mod:`publish.render.remote`). Everything
after that (remux, captions, poster, sound, the cache and the manifest) happens here as for a
local run, so the finished files are byte-identical.

Before anything is sent each worker is asked for its :func:`identity`; one that differs from
this checkout's is refused with one line naming what differs, with its value on both sides, and
how to set the worker up; one that runs more than one thread (manim's config is per process) is
refused too. The jobs go to the others only. With none left the run stops (exit
2). A worker that dies mid-clip has its clip rescheduled by Dask on another worker.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, InvalidStateError
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from publish.code_digest import source_digest
from publish.render import toolchain, worker
from publish.render.cache import SOURCE_PACKAGES
from publish.render.remote import Shipped, dry_run_there, render_there

__all__ = ["ClusterError", "ClusterExecutor", "cluster_pool", "differences", "identity"]

CONNECT_SECONDS = 5
"""How long to try reaching the scheduler, and to wait for its first worker."""
IDENTITY_SECONDS = 30
"""How long a worker may take to say what it runs (it hashes its tools) before it is refused."""
WATCH_SECONDS = 2.0
"""How often the usable workers are counted while jobs are out."""


class ClusterError(Exception):
    """The cluster cannot take this run; the message is one line naming the cause and the fix."""


def identity() -> dict[str, Any]:
    """What must match between the client and a worker for a clip's bytes to match: our code,
    and manim and the tools that draw and encode (:func:`toolchain.describe`)."""
    return {"project source": source_digest(SOURCE_PACKAGES), "tools": toolchain.describe()}


def differences(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """What differs between two :func:`identity` values, each named for a person with its value
    on both sides: ``font Inter-Regular.otf sha256 1a2b3c4d… here, 9f8e7d6c… there``,
    ``TeX file $TEXMFDIST/tex/latex/base/article.cls here only``, ``manim 0.22.0 here, 0.19.0
    there``."""
    here, there = dict(_named(ours)), dict(_named(theirs))
    found = []
    for name in [*here, *(name for name in there if name not in here)]:
        mine, other = here.get(name), there.get(name)
        if mine == other:
            continue
        if other is None:
            found.append(f"{name} here only")
        elif mine is None:
            found.append(f"{name} there only")
        else:
            found.append(f"{name} {mine.what}{mine.value} here, {other.value} there")
    return found


class _Shown(NamedTuple):
    """A value as a refusal shows it, and what it is, when that needs saying (``sha256 ``)."""

    value: str
    what: str = ""


_WORDS = {
    "tools": "",
    "pyav": "PyAV",
    "pyav_libraries": "PyAV library",
    "fonts": "font",
    "font_rules": "font rule",
    "tex": "TeX",
    "tex_format": "TeX format",
    "tex_files": "TeX file",
    "tex_problem": "TeX problem",
}
"""How the identity's keys read in a refusal (``tools.fonts`` holds fonts: ``font NAME``)."""


def _named(value: Any, name: str = "", depth: int = 0) -> Iterator[tuple[str, _Shown]]:
    """Each thing an identity holds, under its name, with its value as a person compares it: a
    file by the start of its SHA-256, a digest by its first 8 digits, a list's items by name."""
    if isinstance(value, dict) and ("sha256" in value or "missing" in value):
        digest = value.get("sha256")
        yield name, _Shown(f"{digest[:8]}…", "sha256 ") if digest else _Shown("unreadable")
    elif isinstance(value, dict):
        for key, item in value.items():
            word = _WORDS.get(key, key) if depth < 2 else key  # names below are files' own
            yield from _named(item, " ".join(filter(None, (name, word))), depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield f"{name} {item}", _Shown("listed")
    else:
        text = str(value)
        yield name, _Shown(f"{text[:8]}…" if len(text) == 64 and text.isalnum() else text)


def _refusal(differs: list[str], shown: int = 3) -> str:
    """Why a worker is refused, in one line: the first differences, how many more, the fix."""
    more = f"; and {len(differs) - shown} more" if len(differs) > shown else ""
    commit = _commit()
    checkout = f"a checkout of commit {commit}" if commit else "a checkout of this version"
    return (
        f"{'; '.join(differs[:shown])}{more}; on its machine, run `bash scripts/setup.sh` in "
        f"{checkout} and start the worker from there"
    )


def _commit() -> str | None:
    """This checkout's commit, if it is a git checkout."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def _stderr(line: str) -> None:
    print(f"render.py: {line}", file=sys.stderr)


@contextmanager
def cluster_pool(
    address: str, events: Any = None, note: Callable[[str], None] = _stderr
) -> Iterator[ClusterExecutor]:
    """An executor on the workers of the Dask scheduler at ``address`` that match this checkout.

    ``events`` is the queue the local pool's workers report progress to (see
    :data:`worker.Event`); the cluster's workers report to it too. ``note`` is told of each
    refused worker. Raise :class:`ClusterError` when the scheduler cannot be reached or no
    worker is usable.
    """
    try:
        from distributed import Client
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        raise ClusterError(
            "--scheduler needs dask's distributed; install it with `bash scripts/setup.sh`"
        ) from None
    try:
        get_address_host_port(address)  # a Client made from a malformed one hangs on closing
    except ValueError as error:
        raise ClusterError(
            f"--scheduler {address}: not a scheduler address ({error}); pass one like "
            "tcp://host:8786"
        ) from None
    try:
        client: Any = Client(  # type: ignore[no-untyped-call]
            address, timeout=CONNECT_SECONDS, set_as_default=False
        )
    except Exception as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ClusterError(
            f"--scheduler {address}: cannot reach a Dask scheduler there ({reason}); "
            f"start one with `dask scheduler` and pass the address it prints"
        ) from None
    try:
        workers = _usable_workers(client, address, note)
        topic = f"attention-by-hand-{uuid.uuid4().hex}"
        if events is not None:
            client.subscribe_topic(topic, lambda event: events.put(tuple(event[1])))
        executor = ClusterExecutor(client, workers, topic)
        try:
            yield executor
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
    finally:
        client.close()


def _identities(client: Any, workers: list[str]) -> dict[str, Any]:
    """Each worker's :func:`identity`, an exception if it raised, or None if it did not answer
    within :data:`IDENTITY_SECONDS` (``client.run`` would wait for a hung worker for ever)."""
    asked = {
        addr: client.submit(identity, workers=[addr], allow_other_workers=False, pure=False)
        for addr in workers
    }
    deadline = time.monotonic() + IDENTITY_SECONDS
    while time.monotonic() < deadline and not all(f.done() for f in asked.values()):
        time.sleep(0.05)  # those that do not answer in time are refused below
    theirs: dict[str, Any] = {}
    for addr, future in asked.items():
        if future.status == "finished":
            theirs[addr] = future.result()
        elif future.status == "error":
            theirs[addr] = future.exception()
        else:
            future.cancel()
            theirs[addr] = None
    return theirs


def _usable_workers(client: Any, address: str, note: Callable[[str], None]) -> list[str]:
    """The addresses of the workers that may render for us; the others are refused in a note."""
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise ClusterError(
            f"--scheduler {address}: no worker joined in {CONNECT_SECONDS} s; start one with "
            f"`dask worker {address} --nthreads 1` from a checkout set up by scripts/setup.sh"
        ) from None
    ours = identity()
    threads = {addr: info["nthreads"] for addr, info in client.scheduler_info()["workers"].items()}
    theirs = _identities(client, sorted(threads))
    usable = []
    for addr in sorted(theirs):
        answer = theirs[addr]
        if answer is None:
            why = f"it did not say what it runs within {IDENTITY_SECONDS} s (busy or hung?)"
        elif isinstance(answer, BaseException):
            why = f"it cannot say what it runs ({type(answer).__name__}: {answer})"
        elif differs := differences(ours, answer):
            why = _refusal(differs)
        elif threads.get(addr, 1) != 1:
            why = f"it runs {threads[addr]} threads; start it with --nthreads 1 (and --nworkers N)"
        else:
            usable.append(addr)
            continue
        note(f"worker {addr} refused: {why}")
    if not usable:
        raise ClusterError(
            f"--scheduler {address}: no usable worker; start workers from a checkout of this "
            "version set up by scripts/setup.sh"
        )
    return usable


class ClusterExecutor(Executor):
    """Jobs for the cluster's usable workers, each settled into a local future when done."""

    def __init__(self, client: Any, workers: list[str], topic: str) -> None:
        self.client = client
        self.workers = workers
        self.topic = topic
        self.home = socket.gethostname()
        self.out: dict[Future[Any], Any] = {}
        """Each local future not yet settled, and its Dask future."""
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        threading.Thread(target=self._watch, name="cluster-watch", daemon=True).start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``worker.render_clip(job)`` or ``worker.dry_run(job)`` on a usable worker."""
        (job,) = args
        remote = {worker.render_clip: render_there, worker.dry_run: dry_run_there}[fn]
        local: Future[Any] = Future()
        task = self.client.submit(
            remote,
            job,
            self.topic,
            self.home,
            key=f"{fn.__name__}-{job.scene}-{uuid.uuid4().hex}",
            workers=self.workers,
            allow_other_workers=False,
            pure=False,
        )
        with self.lock:
            self.out[local] = task
        task.add_done_callback(lambda done: self._settle(done, job, local))
        return local

    def _settle(self, task: Any, job: Any, local: Future[Any]) -> None:
        try:
            value = task.result()
            if isinstance(value, Shipped):
                value = value.landed(job)
        except worker.ClipFailed as error:
            _set(local, error=error)
        except BaseException as error:
            message = f"on the cluster: {type(error).__name__}: {error}".rstrip(": ")
            _set(local, error=worker.ClipFailed(message))
        else:
            _set(local, value=value)
        with self.lock:
            self.out.pop(local, None)

    def _watch(self) -> None:
        """Fail what is out once every usable worker has left (Dask would wait for them)."""
        while not self.stopped.wait(WATCH_SECONDS):
            try:
                present = set(self.client.scheduler_info()["workers"])
            except Exception:
                continue  # not known this time (a busy scheduler): ask again, fail nothing
            if not present & set(self.workers):
                with self.lock:
                    stranded = list(self.out)
                for local in stranded:
                    _set(local, error=worker.ClipFailed("every usable cluster worker has left"))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop watching; with ``cancel_futures``, withdraw every job not yet done (a clip being
        rendered finishes on its worker and is dropped)."""
        self.stopped.set()
        with self.lock:
            out = dict(self.out)
        if cancel_futures and out:
            self.client.cancel(list(out.values()))
            for local in out:
                local.cancel()


def _set(local: Future[Any], value: Any = None, error: BaseException | None = None) -> None:
    """Settle ``local`` unless it already is (cancelled, or failed by the watch)."""
    try:
        if error is not None:
            local.set_exception(error)
        else:
            local.set_result(value)
    except InvalidStateError:
        pass
