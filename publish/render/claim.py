"""One run per output folder: a run claims its folder, and trouble writing there is one clear line.

The claim is an exclusive ``flock`` on ``.lock`` in the run's work folder (``media/.work/high/``,
which every run into ``media/high/`` uses, dry runs included), holding the claiming run's pid and
start time so that a second run can name it. The kernel drops the lock when the process ends,
however it ends (even ``kill -9``), so a crashed run never leaves the folder claimed.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = ["LOCK", "FolderBusy", "OutputTrouble", "claim_early", "claimed", "trouble"]

LOCK = ".lock"


class OutputTrouble(Exception):
    """The output folder cannot be written; the message names it, the cause and the fix."""


class FolderBusy(OutputTrouble):
    """Another run is writing into the folder."""


_FIXES = {
    errno.ENOSPC: "free some space and run again: finished clips are kept",
    errno.EDQUOT: "free some space and run again: finished clips are kept",
    errno.EACCES: "choose a folder you may write to with --out",
    errno.EPERM: "choose a folder you may write to with --out",
    errno.EROFS: "choose a folder on a writable disk with --out",
    errno.ENOTDIR: "a file stands where a folder should be; choose another --out",
    errno.EEXIST: "a file stands where a folder should be; choose another --out",
    errno.EISDIR: "a folder stands where a file should be; remove it or choose another --out",
}


def trouble(folder: Path, error: OSError) -> OutputTrouble:
    """``error``, met writing into ``folder``, as one line naming the folder, cause and fix."""
    # A rename's target (filename2) is the file the user knows, not our temporary name.
    named = error.filename2 if isinstance(error.filename2, str) else error.filename
    where = named if isinstance(named, str) else folder
    cause = error.strerror or str(error)
    fix = _FIXES.get(error.errno or 0, "check the folder and run again")
    return OutputTrouble(f"cannot write {where}: {cause}; {fix}")


_EARLY: dict[Path, int] = {}
"""Claims taken by :func:`claim_early`, by work folder, for :func:`claimed` to carry on."""


def claim_early(folder: Path, work: Path) -> None:
    """Take ``work``'s claim now, before the slow start-up (imports, lesson checks, measuring
    the scenes), so that a second run is refused within a second, not after it; a no-op when the
    work folder does not exist yet (nothing is created before the lessons are checked).

    Raises :class:`FolderBusy` naming the run that holds it; any other trouble is left for
    :func:`claimed` to name.
    """
    if work in _EARLY or not work.is_dir():
        return
    try:
        descriptor = os.open(work / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return
    try:
        _lock(folder, descriptor)
    except BaseException:
        os.close(descriptor)
        raise
    with suppress(OSError):  # claimed() stamps again, and names what failed
        _stamp(descriptor)
    _EARLY[work] = descriptor


@contextmanager
def claimed(folder: Path, work: Path) -> Iterator[None]:
    """Hold output ``folder`` for this process, by its ``work`` folder (created here), or carry
    on the claim :func:`claim_early` took.

    Raises :class:`FolderBusy` naming the run that holds it, or :class:`OutputTrouble` when the
    work folder cannot be created or written.
    """
    descriptor = _EARLY.pop(work, None)
    if descriptor is None:
        try:
            work.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(work / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise trouble(folder, error) from None
    try:
        _lock(folder, descriptor)
        try:
            _stamp(descriptor)
        except OSError as error:
            raise trouble(folder, error) from None
        yield
    finally:
        os.close(descriptor)


def _lock(folder: Path, descriptor: int) -> None:
    """Lock ``descriptor`` (again, harmlessly, if this process holds it), or raise FolderBusy."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FolderBusy(
            f"{folder} is being written by {_holder(descriptor)}; wait for it to "
            "finish, or render into another folder with --out"
        ) from None


def _stamp(descriptor: int) -> None:
    """Name this process as the holder in the lock file, for a second run to read: as soon as
    the claim is taken, early or not, so it never names an earlier holder."""
    stamp = {"pid": os.getpid(), "started": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, json.dumps(stamp).encode(), 0)


def _holder(descriptor: int) -> str:
    """The run holding the lock, as its stamp names it."""
    try:
        stamp = json.loads(os.pread(descriptor, 4096, 0) or b"{}")
        return f"another render.py (pid {stamp['pid']}, started {stamp['started']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another render.py"
